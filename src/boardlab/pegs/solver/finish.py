"""Solver layer: the solutions to one peg anywhere, split by the hole the last peg ends in.

The backward pass counts jump sequences *to* the goal; which hole a solution ends in
needs the sequences *from* the start. A forward pass over the winning positions gives
each class ``P`` its count ``F(P)``: the jump sequences from the start to any board of
the class. Every board of ``P`` has as many of them (the group fixes the start), and
every board of ``P`` has as many jumps into a class ``C``, so

    F(C) = sum over P of F(P) x (jumps from P's canonical board into C),

which :func:`boardlab.pegs.solver.kernel_shards.children_of` (every jump, its child's
canonical form, the parent's weight) and :func:`~boardlab.pegs.solver.kernel_shards.add_weights`
compute level by level, 128-bit, starting from ``F(start) = 1``. On the goal level a
class of one-peg boards ends ``F(C)`` solutions, the same number in each of its holes:
``F(C) / |C|`` each, and the holes' counts add up to the number of solutions.
Positions off every winning path start no solution, so only winning ones are pushed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.grid import permute_bits
from boardlab.pegs.solver.tables import Problem

__all__ = ["by_hole", "forward_counts", "start_counts"]

U64 = npt.NDArray[np.uint64]


def start_counts(problem: Problem) -> tuple[U64, U64, U64]:
    """The top of the forward pass: the start's class with ``F = 1``."""
    from boardlab.pegs.solver import kernel

    first = kernel.canon(np.uint64(problem.start), problem.table)
    return np.array([first], np.uint64), np.ones(1, np.uint64), np.zeros(1, np.uint64)


def forward_counts(problem: Problem, winning: dict[int, U64]) -> tuple[U64, U64, U64]:
    """``(keys, lo, hi)``: the winning classes of the goal level and ``F`` of each (the
    winning positions of every level, sorted, in ``winning``)."""
    from boardlab.pegs.solver.kernel_shards import add_weights, children_of

    keys, lo, hi = start_counts(problem)
    for pegs in range(problem.start_pegs, problem.goal.pegs, -1):
        pushed = children_of(keys, lo, hi, *problem.masks, problem.table)
        keys = winning[pegs - 1]
        lo, hi = add_weights(keys, *pushed)
    return keys, lo, hi


def by_hole(problem: Problem, keys: U64, lo: U64, hi: U64) -> dict[int, int]:
    """Solutions by the hole (bit index) of the last peg: each one-peg class's ``F``
    split evenly over its boards, in hole order.

    :raises ArithmeticError: when a class's count does not split evenly (a broken pass).
    """
    counts: dict[int, int] = {}
    for key, low, high in zip(keys.tolist(), lo.tolist(), hi.tolist(), strict=True):
        total = int(high) << 64 | int(low)
        boards = {permute_bits(int(key), perm) for perm in problem.group}
        share, rest = divmod(total, len(boards))
        if rest:
            raise ArithmeticError(f"{total} solutions do not split over {len(boards)} holes")
        for board in boards:
            if share:
                hole = board.bit_length() - 1
                counts[hole] = counts.get(hole, 0) + share
    return dict(sorted(counts.items()))
