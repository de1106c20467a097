"""Mars explorer (IOI 1997, seed 004): optimal routes for every vehicle, and their judge.

Layers: :mod:`~boardlab.mars.formats` (MARS.DAT and the move list),
:mod:`~boardlab.mars.rules` (moves, reachability, the score), :mod:`~boardlab.mars.solver`
(chain cover and min-cost flow, with a certificate) and :mod:`~boardlab.mars.judge`
(replays any move list; never imports the solver). Nothing heavy is imported here.
"""
