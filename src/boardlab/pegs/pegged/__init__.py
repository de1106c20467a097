"""Solver layer: PEGGED (POTM 1997), reduce a board to one peg with the fewest moves.

The subpackage holds the contest's optimiser and its parts: ``solver`` (the anytime
optimiser and board checks), ``search`` (move tables and replay), ``bounds`` (proven
lower bounds on walks), ``exact`` (exhaustive search of small boards), ``greedy`` (a
baseline that always finishes), ``generate`` (seeded boards) and ``_kernel`` (numba).
"""

from boardlab.pegs.pegged.solver import (
    EXACT_HOLES,
    BeamWeights,
    PeggedNoAnswer,
    PeggedResult,
    PeggedSolver,
    Progress,
    UnreducibleBoardError,
    check_board,
    load_board,
    solve,
    warm_up,
)

__all__ = [
    "EXACT_HOLES",
    "BeamWeights",
    "PeggedNoAnswer",
    "PeggedResult",
    "PeggedSolver",
    "Progress",
    "UnreducibleBoardError",
    "check_board",
    "load_board",
    "solve",
    "warm_up",
]
