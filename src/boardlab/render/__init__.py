"""Render layer: pure functions from a game state to a picture (SVG string or ASCII text).

One module per game (``render/<game>.py``) on top of the shared SVG helpers in
:mod:`boardlab.render.svg`; nothing here prints, reads files or knows rules beyond
what the state it is given already says.
"""
