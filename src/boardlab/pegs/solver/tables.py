"""Solver layer: a solitaire problem (board, start, goal) and its tables for the kernels.

A :class:`Problem` is a board, the starting pegs and a :class:`Goal`: either one exact
final position (``bits``) or "one peg anywhere" (``bits is None``). Its symmetry
group is the part of the board's group that maps the start onto itself and the goal
set onto itself, so canonical forms under it are sound for counting.

>>> from boardlab.pegs.boards import named_board
>>> problem = make_problem(named_board("english"))
>>> problem.start_pegs, problem.goal.pegs, len(problem.group), problem.goal.text
(32, 1, 8, '17')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.core.grid import Permutation, permute_bits
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell, Jump
from boardlab.pegs.goals import Goal, goal_of_word

__all__ = ["MAX_HOLES", "Goal", "Problem", "chunk_bits", "make_problem"]

MAX_HOLES = 64
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Problem:
    """A board, its starting pegs and the goal, with the kernels' tables (cached)."""

    board: Board
    start: int
    goal: Goal
    group: tuple[Permutation, ...] = field(compare=False)

    @property
    def start_pegs(self) -> int:
        """Number of pegs at the start."""
        return self.start.bit_count()

    @cached_property
    def masks(self) -> tuple[U64, U64, U64]:
        """``(from, over, to)`` bit masks of every jump, in the board's jump order."""
        jumps = self.board.grid.jumps
        mf = np.array([1 << a for a, _, _ in jumps], dtype=np.uint64)
        mo = np.array([1 << b for _, b, _ in jumps], dtype=np.uint64)
        mt = np.array([1 << c for _, _, c in jumps], dtype=np.uint64)
        return mf, mo, mt

    @cached_property
    def order(self) -> I64:
        """The search's jump order: on square boards, jumps that land nearer the middle of
        the drawing box than they start come first (then table order); on triangles, the
        table order."""
        jumps = self.board.grid.jumps
        if self.board.triangular:
            return np.arange(len(jumps), dtype=np.int64)
        mid_r, mid_c = (self.board.rows - 1) / 2, (self.board.cols - 1) / 2
        cells = self.board.grid.cells

        def key(j: int) -> tuple[float, int]:
            (ra, ca), (rc, cc) = cells[jumps[j][0]], cells[jumps[j][2]]
            gain = abs(rc - mid_r) + abs(cc - mid_c) - abs(ra - mid_r) - abs(ca - mid_c)
            return gain, j

        return np.array(sorted(range(len(jumps)), key=key), dtype=np.int64)

    @cached_property
    def chains(self) -> tuple[I64, I64]:
        """``by_from[c]``: jump indices leaving cell ``c`` (-1 padded); ``to_cell[j]``."""
        jumps = self.board.grid.jumps
        degree = max(sum(1 for a, _, _ in jumps if a == c) for c in range(self.board.size))
        by_from = np.full((self.board.size, max(degree, 1)), -1, dtype=np.int64)
        fill = [0] * self.board.size
        for j, (a, _, _) in enumerate(jumps):
            by_from[a, fill[a]] = j
            fill[a] += 1
        to_cell = np.array([c for _, _, c in jumps], dtype=np.int64)
        return by_from, to_cell

    @cached_property
    def table(self) -> U64:
        """Chunk tables of the group: ``table[s, b, v]`` = image under symmetry ``s`` of the
        chunk value ``v`` placed at chunk ``b`` (chunks of :func:`chunk_bits` bits)."""
        size = self.board.size
        width = chunk_bits(size)
        nchunks = -(-size // width)
        table = np.zeros((len(self.group), nchunks, 1 << width), dtype=np.uint64)
        for s, perm in enumerate(self.group):
            for b in range(nchunks):
                for k in range(width):
                    cell = b * width + k
                    image = np.uint64(1 << perm[cell]) if cell < size else np.uint64(0)
                    table[s, b, 1 << k : 2 << k] = table[s, b, : 1 << k] | image
        return table

    def jump(self, index: int) -> Jump:
        """The jump with this index in the board's jump table."""
        a, _, c = self.board.grid.jumps[index]
        cells = self.board.cells
        return Jump(cells[a], cells[c])

    def play(self, bits: int, index: int) -> int:
        """The pegs after jump ``index``."""
        a, b, c = self.board.grid.jumps[index]
        return bits ^ (1 << a) ^ (1 << b) ^ (1 << c)

    def cell(self, index: int) -> Cell:
        """The hole with bit ``index``."""
        return self.board.cells[index]


def chunk_bits(size: int) -> int:
    """Bits per lookup chunk of the symmetry tables: as few chunks of at most 11 bits as
    cover ``size`` holes, evenly split (33 holes: 3 chunks of 11; 15 holes: 2 of 8).

    >>> chunk_bits(33), chunk_bits(15), chunk_bits(64), chunk_bits(1)
    (11, 8, 11, 1)
    """
    nchunks = max(1, -(-size // 11))
    return max(1, -(-size // nchunks))


def make_problem(
    board: Board, start: int | None = None, goal: Goal | None = None, *, symmetry: bool = True
) -> Problem:
    """A problem on ``board`` (default start: the board's; default goal: its centre).

    :raises BoardlabError: when the board is too large for the kernels, the start is
        empty, or the goal has more pegs than the start or pegs outside it.
    """
    if board.size > MAX_HOLES:
        raise BoardlabError(
            f"the solver handles boards of at most {MAX_HOLES} holes; {board.name} has {board.size}"
        )
    start_bits = board.start if start is None else start
    if start_bits == 0:
        raise BoardlabError("the start has no pegs")
    target = goal_of_word(board, "centre") if goal is None else goal
    if target.pegs > start_bits.bit_count():
        raise BoardlabError(
            f"the goal has {target.pegs} pegs but the start only {start_bits.bit_count()}"
        )
    group: list[Permutation] = []
    for perm in board.symmetries() if symmetry else board.symmetries()[:1]:
        if permute_bits(start_bits, perm) != start_bits:
            continue
        if target.bits is not None and permute_bits(target.bits, perm) != target.bits:
            continue
        group.append(perm)
    return Problem(board, start_bits, target, tuple(group))
