"""Interface layer: the local web page of every game (a Starlette app; see :mod:`.app`).

The page holds no game rules: it asks the JSON API under ``/api/<game>/...`` for legal
moves, positions, solutions and verdicts, and shows the SVG pictures of
:mod:`boardlab.render`.
"""
