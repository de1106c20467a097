"""Solver layer: the numba kernel that fills the value table of every pit vector.

A pit vector is coded in base ``cap + 1``, pit 1 the lowest digit. Every move banks at
least one bead, so the bead count of the pits falls with each move: filling the codes
in order of increasing digit sum finds every child already solved. The value of a code
is the best, over the non-empty pits, of (mover's gain - opponent's gain - child's
value): the bank difference the side to move adds from here on under perfect play.
The pure-Python twin is :func:`boardlab.ioiwari.solver.reference_table`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = ["build_values"]


def build_values(pits: int, cap: int) -> npt.NDArray[np.int8]:
    """The value of every code ``0 .. (cap+1)**pits - 1`` for the side to move."""
    return _build(np.int64(pits), np.int64(cap))


@jit
def _build(pits: np.int64, cap: np.int64) -> npt.NDArray[np.int8]:  # pragma: no cover - numba
    base = cap + 1
    size = base**pits
    sums = np.zeros(size, np.int64)
    for code in range(1, size):
        sums[code] = sums[code // base] + code % base
    top = pits * cap
    starts = np.zeros(top + 2, np.int64)
    for code in range(size):
        starts[sums[code] + 1] += 1
    for total in range(1, top + 2):
        starts[total] += starts[total - 1]
    order = np.empty(size, np.int64)
    for code in range(size):
        order[starts[sums[code]]] = code
        starts[sums[code]] += 1
    powers = np.empty(pits, np.int64)
    powers[0] = 1
    for i in range(1, pits):
        powers[i] = powers[i - 1] * base
    values = np.zeros(size, np.int8)
    board = np.empty(pits, np.int64)
    work = np.empty(pits, np.int64)
    for k in range(1, size):
        code = order[k]
        rest = code
        for i in range(pits):
            board[i] = rest % base
            rest //= base
        best = -127
        for i in range(pits):
            hand = board[i]
            if hand == 0:
                continue
            for j in range(pits):
                work[j] = board[j]
            child = code - hand * powers[i]
            work[i] = 0
            mine = 0
            theirs = 0
            at = i
            while hand > 1:
                at += 1
                if at == pits:
                    at = 0
                if work[at] == cap:
                    work[at] -= 1
                    child -= powers[at]
                    mine += 1
                else:
                    work[at] += 1
                    child += powers[at]
                    hand -= 1
            at += 1
            if at == pits:
                at = 0
            if work[at] >= 1 and work[at] < cap:
                mine += work[at] + 1
                child -= work[at] * powers[at]
            else:
                theirs += 1
            value = mine - theirs - values[child]
            if value > best:
                best = value
        values[code] = best
    return values
