"""Learning layer: the Hex engine's own games as training data (self-play, its store, its samples).

It stands on :mod:`boardlab.hex.player` (the engine with the prover's endgame, and the
prover's exact values), the engine's public names, :mod:`boardlab.hex.board`,
:mod:`boardlab.hex.rules` and ``core``; it needs no PyTorch. Neither the engine nor the
prover imports it.
"""
