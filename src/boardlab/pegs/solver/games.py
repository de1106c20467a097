"""Solver layer: every complete game counted, and a shortest one, from the forward pass.

A game is a line of play from the start until no jump is left. The forward pass of
the level count carries ``T(C)``, the lines from the start into every board of each
reachable class ``C`` (see :mod:`boardlab.pegs.solver.kernel_games`); the games are the sum
of ``T`` over the classes with no jump left, level by level, so no game is ever
followed one by one. The first level (from the start) holding such a class gives the
shortest game; one such line is found by walking back from one of its boards, undoing
jumps into parents that are reachable (their canonical form is in the level above),
up to the start. The same tally serves the pass in one process and in shards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Jump
from boardlab.pegs.solver.finish import start_counts
from boardlab.pegs.solver.tables import Problem

__all__ = [
    "WORK_BYTES_PER_CHILD",
    "ForwardCounts",
    "GameTally",
    "Games",
    "level_ends",
    "shortest_line",
]

U64 = npt.NDArray[np.uint64]
#: Bytes a child takes in the forward pass's work arrays (child, spread, parent index).
WORK_BYTES_PER_CHILD = 8 + 8 + 8 + 8


@dataclass(frozen=True)
class Games:
    """All complete games from the start (``total``; every board and every order of
    jumps counted), by the pegs left at the end (``by_pegs``: pegs -> dead-end classes
    and games ending there; the JSON form lists the levels with dead ends only), and
    one shortest game (``shortest``, its jumps)."""

    board: Board = field(repr=False, compare=False)
    total: int
    by_pegs: dict[int, tuple[int, int]]
    shortest: tuple[Jump, ...]

    @property
    def shortest_jumps(self) -> int:
        """The fewest jumps of a game."""
        return len(self.shortest)

    def as_dict(self) -> dict[str, object]:
        """The JSON-ready form (big counts as decimal strings, moves in the board's
        notation)."""
        move_text = self.board.move_text
        return {
            "games": str(self.total),
            "games_by_pegs": {
                str(pegs): {"dead_end_classes": classes, "games": str(games)}
                for pegs, (classes, games) in sorted(self.by_pegs.items(), reverse=True)
                if classes
            },
            "shortest_game": {
                "jumps": self.shortest_jumps,
                "pegs": self.shortest_pegs,
                "moves": [move_text(move) for move in self.shortest],
            },
        }

    @property
    def shortest_pegs(self) -> int:
        """The pegs left by the shortest game (the most pegs any dead end keeps)."""
        return max((pegs for pegs, (classes, _) in self.by_pegs.items() if classes), default=0)


@dataclass
class GameTally:
    """The dead ends found so far, level by level: their classes, their games, and the
    first one met (the level nearest the start, one canonical board of it)."""

    by_pegs: dict[int, tuple[int, int]] = field(default_factory=dict)
    first: tuple[int, int] | None = None

    def add(self, pegs: int, classes: int, games: int, example: int | None) -> None:
        """Record a level's (or a shard's) dead ends."""
        old_classes, old_games = self.by_pegs.get(pegs, (0, 0))
        self.by_pegs[pegs] = (old_classes + classes, old_games + games)
        if example is not None and (self.first is None or pegs > self.first[0]):
            self.first = (pegs, example)

    def result(self, board: Board, line: tuple[Jump, ...]) -> Games:
        """The games on ``board``, with ``line`` the shortest game found from :attr:`first`."""
        total = sum(games for _, games in self.by_pegs.values())
        return Games(board, total, dict(sorted(self.by_pegs.items(), reverse=True)), line)


def level_ends(
    masks: tuple[U64, U64, U64],
    level: U64,
    lo: U64,
    hi: U64,
    offsets: npt.NDArray[np.int64] | None = None,
) -> tuple[int, int, int | None]:
    """``(classes, games, example)``: the classes of ``level`` with no jump left (jumps
    as ``masks``; or, given the level's jump ``offsets``, those with no child), the games
    ending in them (the sum of their weights ``T``) and one of them (None: none)."""
    from boardlab.pegs.solver.kernel_games import dead_ends, sum_where

    dead = dead_ends(level, *masks) if offsets is None else offsets[1:] == offsets[:-1]
    if not dead.any():
        return 0, 0, None
    low, high, top = sum_where(lo, hi, dead)
    games = int(top) << 128 | int(high) << 64 | int(low)
    return int(dead.sum()), games, int(level[int(np.argmax(dead))])


def shortest_line(
    problem: Problem, pegs: int, board: int, reachable: Callable[[int, int], bool]
) -> tuple[Jump, ...]:
    """A line of play from the start to ``board`` (``pegs`` pegs, reachable): jumps
    undone one by one, each into a parent whose canonical form ``reachable(pegs, form)``
    confirms, until the start.

    :raises AssertionError: when no reachable parent is found (a broken pass).
    """
    from boardlab.pegs.solver import kernel

    jumps = problem.board.grid.jumps
    line: list[Jump] = []
    here = board
    for above in range(pegs + 1, problem.start_pegs + 1):
        for j, (a, b, c) in enumerate(jumps):
            if here >> c & 1 and not here >> a & 1 and not here >> b & 1:
                parent = here ^ (1 << a) ^ (1 << b) ^ (1 << c)
                if reachable(above, int(kernel.canon(np.uint64(parent), problem.table))):
                    line.append(problem.jump(j))
                    here = parent
                    break
        else:
            raise AssertionError("no reachable parent: the level pass is broken")
    if here != problem.start:
        raise AssertionError("the walk back did not end at the start")
    return tuple(reversed(line))


class ForwardCounts:
    """The weights ``T`` of one level at a time, from the start down (one process),
    with the dead ends tallied on the way and the goal level's weights kept."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.keys, self.lo, self.hi = start_counts(problem)
        self.pegs = problem.start_pegs
        self.tally = GameTally()
        self.at_goal: tuple[U64, U64, U64] | None = None
        #: The shortest game, once traced (by the pass that holds the levels).
        self.line: tuple[Jump, ...] | None = None
        if self.pegs == problem.goal.pegs:
            self.at_goal = (self.keys, self.lo, self.hi)
        #: The children, their bucket spread and their parents' weights, kept from level
        #: to level (grown a quarter past a level that does not fit; see :meth:`release`).
        self._work: tuple[U64, U64, U64, U64] | None = None

    def _capacity(self, children: int) -> int:
        """How many children the work arrays hold while ``children`` are expanded: those
        kept when they fit, else a quarter more than needed."""
        kept = 0 if self._work is None else self._work[0].size
        return kept if kept >= children else children + children // 4

    def work_bytes(self, children: int) -> int:
        """Bytes of the work arrays while ``children`` children are expanded (for the
        memory budget: kept arrays may be larger than the level needs)."""
        return self._capacity(children) * WORK_BYTES_PER_CHILD

    def _buffers(self, children: int) -> tuple[U64, U64, U64, U64]:
        """Work arrays for at least ``children`` children (see ``_work``)."""
        size = self._capacity(children)
        if self._work is None or self._work[0].size != size:
            self._work = None  # the old ones go before the new ones come
            self._work = (np.empty(size, np.uint64), np.empty(size, np.uint64),
                          np.empty(size, np.uint64), np.empty(size, np.uint64))  # fmt: skip
        return self._work

    def release(self) -> None:
        """Free the work arrays kept between levels (the pass is over)."""
        self._work = None

    def expand(self) -> U64:
        """The level one peg below the current one (sorted canonical forms), which
        becomes the current one with its weights; the current level's dead ends are
        tallied first.

        :raises ArithmeticError: when a weight would pass 2^128.
        """
        import numba

        from boardlab.pegs.solver import kernel
        from boardlab.pegs.solver.kernel_games import sort_unique_counted_in

        problem = self.problem
        mf, mo, mt = problem.masks
        offsets = kernel.jump_offsets(self.keys, mf | mo | mt, mf | mo)
        self.close(offsets)  # a position without a child is a dead end
        count = int(offsets[-1])
        buffer, spread, wlo, whi = self._buffers(count)
        children = buffer[:count]
        kernel.expand_into(self.keys, offsets, mf, mo, mt, problem.table, children)
        level, self.lo, self.hi, overflow = sort_unique_counted_in(
            children, offsets, self.lo, self.hi, problem.board.size, spread, wlo, whi,
            numba.get_num_threads(),
        )  # fmt: skip
        if overflow:
            raise ArithmeticError("a count of lines of play passed 2^128")
        self.keys = level
        self.pegs -= 1
        if self.pegs == problem.goal.pegs:
            self.at_goal = (self.keys, self.lo, self.hi)
        return level

    def close(self, offsets: npt.NDArray[np.int64] | None = None) -> None:
        """Tally the current level's dead ends (the last level: call once at the end),
        from its jump ``offsets`` when they are at hand."""
        ends = level_ends(self.problem.masks, self.keys, self.lo, self.hi, offsets)
        self.tally.add(self.pegs, *ends)
