"""Solver layer: pagoda functions, weights that no jump can increase, as search cuts.

A pagoda function gives each hole a weight ``w`` with ``w(from) + w(over) >= w(to)``
for every jump. The weighted sum of the pegs never grows during a game, so a position
whose sum is below the goal's can be abandoned at once. :func:`boardlab.pegs.solver.solve`
takes such functions (``pagodas=``); none is generated automatically yet.

>>> from boardlab.pegs.boards import named_board
>>> from boardlab.pegs.solver.tables import make_problem
>>> problem = make_problem(named_board("triangle-4"))
>>> is_pagoda(problem, [1] * 10), is_pagoda(problem, [0] * 9 + [5])
(True, False)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.pegs.solver.tables import Problem

__all__ = ["is_pagoda", "pagoda_tables"]

I64 = npt.NDArray[np.int64]


def is_pagoda(problem: Problem, weights: Sequence[int]) -> bool:
    """True when no jump of the board increases the weighted sum."""
    return all(weights[a] + weights[b] >= weights[c] for a, b, c in problem.board.grid.jumps)


def _least(problem: Problem, weights: Sequence[int]) -> int:
    """The least weighted sum a position on the way to the goal can have: over the goal
    itself, or, for one peg, over every position one jump before it (a search cuts only
    positions with more pegs than the goal, and each of them passes one of those)."""
    bits = problem.goal.bits
    if bits is not None and bits.bit_count() != 1:
        return sum(weights[i] for i in range(len(weights)) if bits >> i & 1)
    ends = [bits.bit_length() - 1] if bits is not None else range(len(weights))
    sums = [weights[a] + weights[b] for a, b, c in problem.board.grid.jumps if c in ends]
    return min(sums) if sums else max(weights) + 1


def pagoda_tables(problem: Problem, functions: Sequence[Sequence[int]] = ()) -> tuple[I64, I64]:
    """Byte tables of the pagoda functions and each one's least value over the goals.

    :raises BoardlabError: when a function has the wrong length or is not a pagoda.
    """
    size = problem.board.size
    for weights in functions:
        if len(weights) != size:
            raise BoardlabError(f"a pagoda function needs {size} weights, got {len(weights)}")
        if not is_pagoda(problem, weights):
            raise BoardlabError("not a pagoda function: some jump increases the weighted sum")
    nbytes = max(1, (size + 7) // 8)
    table = np.zeros((len(functions), nbytes, 256), dtype=np.int64)
    goal = np.zeros(len(functions), dtype=np.int64)
    for k, weights in enumerate(functions):
        for b in range(nbytes):
            for v in range(256):
                table[k, b, v] = sum(
                    weights[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < size
                )
        goal[k] = _least(problem, weights)
    return table, goal
