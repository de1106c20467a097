"""Rules layer: Mars explorer (IOI 1997): optimal routes for every vehicle, judged.

Layers: :mod:`~boardlab.mars.values` (the map, a step, terrain codes: below everything),
:mod:`~boardlab.mars.formats` (MARS.DAT and the move list),
:mod:`~boardlab.mars.rules` (moves, reachability, the score), :mod:`~boardlab.mars.solver`
(chain cover and min-cost flow, with a certificate) and :mod:`~boardlab.mars.judge`
(replays any move list; never imports the solver). Nothing heavy is imported here.
"""
