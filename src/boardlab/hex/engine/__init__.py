"""Engine layer: the Hex engine's room (MCTS, kernels, patterns, must-play, connections, opening).

It stands on :mod:`boardlab.hex.board`, :mod:`boardlab.hex.rules` and ``core`` and never
imports :mod:`boardlab.hex.prover`; :mod:`boardlab.hex.player` joins the two.
"""
