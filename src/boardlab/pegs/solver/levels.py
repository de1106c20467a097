"""Solver layer: level-by-level analysis: reachable positions, winning paths, counts, moves.

Level ``k`` holds the canonical forms of every position with ``k`` pegs reachable from
the start, as a sorted ``uint64`` array, built from level ``k + 1`` by the kernels
``expand`` and ``sort_unique``. A backward pass from the goal counts, for each
position, the jump sequences that lead from it to the goal (128-bit integers in the
kernel); the positions with a non-zero count lie on a winning path, and the count of
the start is the number of solutions. The backward pass starts from the few winning
positions, not from every reachable one: it undoes every jump from each winning
position one peg below and looks the parent up among the reachable positions, carrying
``W = paths x orbit size`` per class, which needs no multiplicity correction (see
``count_parents``); the start's class has orbit 1, so ``W`` of the start is the
number of solutions. Fewest moves (a move is one peg's chain of jumps) is a dynamic
programme over the winning positions in order of peg count: ``moves(p) = 1 + min
moves(q)`` over every chain ``p -> q``, each ``q`` looked up in its own (small) level;
it visits every winning position, so the minimum is proven.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import ResourceLimitError
from boardlab.core.limits import Budget, Limit
from boardlab.core.memory import format_size
from boardlab.pegs.cells import Jump
from boardlab.pegs.solver.finish import by_hole, forward_counts
from boardlab.pegs.solver.games import (
    WORK_BYTES_PER_CHILD,
    ForwardCounts,
    Games,
    shortest_line,
)
from boardlab.pegs.solver.tables import Problem

__all__ = [
    "BYTES_PER_CHILD",
    "Analysis",
    "LevelCount",
    "MinMoves",
    "Progress",
    "analyse",
    "min_moves",
    "moves_per_position",
]

U64 = npt.NDArray[np.uint64]
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True, slots=True)
class LevelCount:
    """One level: positions with ``pegs`` pegs, as classes and as boards, and winning ones."""

    pegs: int
    classes: int
    boards: int
    win_classes: int
    win_boards: int


@dataclass(frozen=True)
class Analysis:
    """Everything the level pass found, with its evidence: ``seconds``; ``nodes``, the
    reachable positions it enumerated (each symmetry class once, :attr:`classes`);
    ``proven``, always (the pass is complete or raises); ``bound`` None (the counts are
    exact, not a score with a bound)."""

    problem: Problem
    levels: tuple[LevelCount, ...]
    solutions: int
    seconds: float
    winning: dict[int, U64]
    #: With one peg anywhere as the goal: solutions by the hole (bit index) of the last peg.
    finishes: dict[int, int] = field(default_factory=dict)
    #: Every complete game from the start and a shortest one (None: not counted).
    games: Games | None = None

    @property
    def classes(self) -> int:
        """Reachable positions, each symmetry class once."""
        return sum(level.classes for level in self.levels)

    @property
    def nodes(self) -> int:
        """The positions the pass enumerated: :attr:`classes`."""
        return self.classes

    @property
    def proven(self) -> bool:
        """Always True: the counts come from a complete pass."""
        return True

    @property
    def bound(self) -> None:
        """None: the counts are exact (the evidence every game's result has)."""
        return None

    @property
    def boards(self) -> int:
        """Reachable positions, every board counted."""
        return sum(level.boards for level in self.levels)

    @property
    def win_classes(self) -> int:
        """Classes on some winning path."""
        return sum(level.win_classes for level in self.levels)

    @property
    def win_boards(self) -> int:
        """Boards on some winning path."""
        return sum(level.win_boards for level in self.levels)

    def as_dict(self) -> dict[str, object]:
        """The board, the goal, the counts and their evidence as JSON-ready values (the
        128-bit solution count as a decimal string)."""
        return {
            "board": self.problem.board.name,
            "goal": self.problem.goal.text,
            "symmetries": len(self.problem.group),
            "levels": [
                {
                    "pegs": level.pegs,
                    "classes": level.classes,
                    "boards": level.boards,
                    "winning_classes": level.win_classes,
                    "winning_boards": level.win_boards,
                }
                for level in self.levels
            ],
            "classes": self.classes,
            "boards": self.boards,
            "winning_classes": self.win_classes,
            "winning_boards": self.win_boards,
            "solutions": str(self.solutions),
            **self._by_hole(),
            **({} if self.games is None else self.games.as_dict()),
            "nodes": self.nodes,
            "proven": self.proven,
            "bound": self.bound,
            "seconds": round(self.seconds, 3),
        }

    def _by_hole(self) -> dict[str, dict[str, str]]:
        if self.problem.goal.bits is not None:
            return {}
        board = self.problem.board
        return {
            "solutions_by_hole": {
                board.hole_name(board.cells[hole]): str(n) for hole, n in self.finishes.items()
            }
        }


@dataclass(frozen=True)
class MinMoves:
    """A minimum-move solution of ``problem`` (None when there is none), proven by the
    complete pass.

    The evidence: ``seconds``; ``nodes``, the winning positions measured
    (``positions``); ``proven``, always; ``bound``, the proven minimum (None when there
    is no solution).
    """

    problem: Problem
    moves: int | None
    jumps: tuple[Jump, ...]
    chains: tuple[tuple[Jump, ...], ...]
    seconds: float
    positions: int

    @property
    def nodes(self) -> int:
        """The winning positions measured: ``positions``."""
        return self.positions

    @property
    def proven(self) -> bool:
        """Always True: every winning position was measured."""
        return True

    @property
    def bound(self) -> int | None:
        """The proven lower bound on the moves: the minimum itself (None without one)."""
        return self.moves

    def chain_names(self) -> list[str]:
        """Each move (a chain of jumps by one peg) as its holes in the board's notation."""
        name = self.problem.board.hole_name
        return ["-".join([name(c[0].src), *(name(j.dst) for j in c)]) for c in self.chains]

    def as_dict(self) -> dict[str, object]:
        """The board, the goal, the proven minimum and its evidence as JSON-ready values."""
        return {
            "board": self.problem.board.name,
            "goal": self.problem.goal.text,
            "solved": self.moves is not None,
            "min_moves": self.moves,
            "chains": self.chain_names(),
            "jumps": len(self.jumps),
            "winning_positions": self.positions,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proven": self.proven,
            "bound": self.bound,
        }


def _nothing(done: int, total: int, label: str) -> None:
    return None


#: Bytes a child costs while a level is expanded: the children, the deduplication
#: buffer and the distinct ones kept.
BYTES_PER_CHILD = 24


def moves_per_position(sample: U64, problem: Problem) -> float:
    """The mean number of jumps of a sample of positions (for the memory estimates)."""
    if sample.size == 0:
        return 0.0
    mf, mo, mt = problem.masks
    full = mf | mo
    holes = full | mt
    picked = sample[:: max(1, sample.size // 2048)]
    return float(((picked[:, None] & holes[None, :]) == full[None, :]).sum() / picked.size)


def _check_memory(
    problem: Problem,
    levels: dict[int, U64],
    pegs: int,
    memory: int | None,
    forward: ForwardCounts | None = None,
) -> None:
    """Stop before expanding level ``pegs + 1`` when it would not fit in ``memory``
    (with ``forward``, counting its work arrays kept from larger levels)."""
    if memory is None:
        return
    parents = levels[pegs + 1]
    held = sum(level.nbytes for level in levels.values())
    children = int(parents.size * moves_per_position(parents, problem))
    need = held + children * BYTES_PER_CHILD
    if forward is not None:  # what its kept arrays hold beyond the children's share
        need += max(0, forward.work_bytes(children) - children * WORK_BYTES_PER_CHILD)
    if need > memory:
        done = min(levels)
        raise ResourceLimitError(
            f"positions with {pegs} pegs need about {format_size(need)} of memory, over the "
            f"memory budget of {format_size(memory)} (levels down to {done} pegs were "
            "finished)",
            resource="memory",
        )


def enumerate_levels(
    problem: Problem,
    budget: Budget,
    progress: Progress = _nothing,
    memory: int | None = None,
    forward: ForwardCounts | None = None,
) -> dict[int, U64]:
    """Every reachable position by peg count, from the start down to the goal's count.

    With ``forward`` the lines of play from the start are counted on the way (see
    :mod:`boardlab.pegs.solver.games`): every level down to one peg is enumerated for
    the dead ends (those below the goal's count are dropped again) and a shortest
    game is traced back as soon as its level is known.

    :raises LimitExceededError: when the time budget runs out;
    :raises ResourceLimitError: (a ``LimitExceededError``) before a level that would take
        the memory over ``memory`` bytes (None: not checked).
    """
    from boardlab.pegs.solver import kernel

    mf, mo, mt = problem.masks
    table = problem.table
    top = problem.start_pegs
    bottom = problem.goal.pegs
    first = kernel.canon(np.uint64(problem.start), table)
    levels: dict[int, U64] = {top: np.array([first], dtype=np.uint64)}
    floor = bottom if forward is None else 1
    total = top - bottom
    line: tuple[Jump, ...] | None = None
    for pegs in range(top - 1, floor - 1, -1):
        if pegs < bottom and levels[pegs + 1].size == 0:
            break  # no position below the goal's count has fewer pegs either
        budget.check(f"enumerating positions with {pegs} pegs")
        _check_memory(problem, levels, pegs, memory, forward)
        if forward is None:
            children = kernel.expand(levels[pegs + 1], mf, mo, mt, table)
            levels[pegs] = kernel.sort_unique(children, problem.board.size)
            del children
        else:  # the same level, with the lines of play into each position
            levels[pegs] = forward.expand()
            line = _trace(problem, forward, levels, line)
        if pegs >= bottom:
            progress(top - pegs, 2 * total, f"positions with {pegs} pegs")
    if forward is not None:
        forward.release()
        forward.close()
        line = _trace(problem, forward, levels, line)
        forward.line = line
    for pegs in [p for p in levels if p < bottom]:
        del levels[pegs]
    return levels


def _trace(
    problem: Problem,
    forward: ForwardCounts,
    levels: dict[int, U64],
    line: tuple[Jump, ...] | None,
) -> tuple[Jump, ...] | None:
    """The shortest game once its level is known (``line`` once traced); then the levels
    below the goal's count that no longer serve are dropped."""
    if line is None and forward.tally.first is not None:
        pegs, board = forward.tally.first

        def reachable(above: int, form: int) -> bool:
            level = levels[above]
            at = int(np.searchsorted(level, np.uint64(form)))
            return at < level.size and int(level[at]) == form

        line = shortest_line(problem, pegs, board, reachable)
    if line is not None:
        for pegs in [p for p in levels if p < problem.goal.pegs and p > forward.pegs]:
            del levels[pegs]
    return line


def analyse(
    problem: Problem,
    limit: Limit | None = None,
    progress: Progress = _nothing,
    memory: int | None = None,
    *,
    games: bool = True,
) -> Analysis:
    """Count reachable positions, winning positions and solutions of ``problem`` (and,
    with ``games``, every complete game and a shortest one).

    :raises LimitExceededError: when the time limit runs out first;
    :raises ResourceLimitError: (a ``LimitExceededError``) when a level would take more
        than ``memory`` bytes (None: not checked).
    """
    from boardlab.pegs.solver import kernel

    budget = (limit or Limit()).start()
    began = time.perf_counter()
    forward = ForwardCounts(problem) if games else None
    levels = enumerate_levels(problem, budget, progress, memory, forward)
    mf, mo, mt = problem.masks
    table = problem.table
    bottom = problem.goal.pegs
    top = problem.start_pegs
    counts: list[LevelCount] = []
    winning: dict[int, U64] = {}
    solutions = 0
    lo = hi = np.zeros(0, dtype=np.uint64)
    for pegs in range(bottom, top + 1):
        level = levels.pop(pegs)
        sizes = kernel.orbit_sizes(level, table)
        if pegs == bottom:
            lo = np.zeros(level.size, dtype=np.uint64)
            hi = np.zeros(level.size, dtype=np.uint64)
            if problem.goal.bits is None:
                lo[:] = sizes
            else:
                target = kernel.canon(np.uint64(problem.goal.bits), table)
                at = int(np.searchsorted(level, target))
                if at < level.size and level[at] == target:
                    lo[at] = sizes[at]
        else:
            budget.check(f"counting paths from positions with {pegs} pegs")
            lo, hi = kernel.count_parents(
                winning[pegs - 1], lo, hi, level, mf, mo, mt, table, problem.board.size
            )
            progress(top - bottom + pegs - bottom, 2 * (top - bottom), f"paths from {pegs} pegs")
        win = (lo | hi) != 0
        winning[pegs] = level[win]
        counts.append(
            LevelCount(
                pegs, int(level.size), int(sizes.sum()), int(win.sum()), int(sizes[win].sum())
            )
        )
        if pegs == top:  # one class, the start, fixed by the whole group
            solutions = (int(hi[0]) << 64 | int(lo[0])) // int(sizes[0])
        del level, sizes
        lo, hi = lo[win], hi[win]  # weights of the winning positions only
    counts.reverse()
    finishes: dict[int, int] = {}
    if problem.goal.bits is None and forward is not None and forward.at_goal is not None:
        finishes = by_hole(problem, *forward.at_goal)  # every one-peg line is a solution
    elif problem.goal.bits is None:
        budget.check("counting paths from the start")
        finishes = by_hole(problem, *forward_counts(problem, winning))
    seconds = time.perf_counter() - began
    found = None if forward is None else forward.tally.result(problem.board, forward.line or ())
    return Analysis(problem, tuple(counts), solutions, seconds, winning, finishes, found)


def min_moves(
    problem: Problem,
    limit: Limit | None = None,
    progress: Progress = _nothing,
    analysis: Analysis | None = None,
    memory: int | None = None,
) -> MinMoves:
    """A solution with the fewest moves (one move = one peg's chain of jumps).

    :raises LimitExceededError: when the time limit runs out first.
    """
    from boardlab.pegs.solver import kernel
    from boardlab.pegs.solver.reference import canon_py

    began = time.perf_counter()
    budget = (limit or Limit()).start()
    if analysis is None:
        analysis = analyse(problem, limit, progress, memory, games=False)
    found = analysis
    bottom, top = problem.goal.pegs, problem.start_pegs
    empty = np.zeros(0, dtype=np.uint64)
    wins, starts, index = kernel.level_index(
        [found.winning.get(p, empty) for p in range(top + 1)], problem.board.size
    )
    dist = np.full(wins.size, -1, dtype=np.int16)
    dist[starts[bottom] : starts[bottom + 1]] = 0
    mf, mo, mt = problem.masks
    by_from, to_cell = problem.chains
    table = problem.table
    for pegs in range(bottom + 1, top + 1):
        budget.check(f"measuring moves from positions with {pegs} pegs")
        best = kernel.chain_min(
            found.winning[pegs], pegs, mf, mo, mt, by_from, to_cell, table,
            wins, starts, index, dist, problem.board.size,
        )  # fmt: skip
        dist[starts[pegs] : starts[pegs + 1]] = best

    def moves_left(bits: int) -> int:
        key = canon_py(bits, table)
        pegs = bits.bit_count()
        level = found.winning.get(pegs, empty)
        at = int(np.searchsorted(level, np.uint64(key)))
        if at < level.size and int(level[at]) == key:
            return int(dist[starts[pegs] + at])
        return -1

    total = moves_left(problem.start)
    seconds = time.perf_counter() - began
    if total < 0:
        return MinMoves(problem, None, (), (), seconds, int(wins.size))
    chains: list[tuple[Jump, ...]] = []
    bits = problem.start
    for remaining in range(total, 0, -1):
        chain, bits = _next_chain(problem, bits, remaining - 1, moves_left)
        chains.append(chain)
    flat = tuple(jump for chain in chains for jump in chain)
    return MinMoves(problem, total, flat, tuple(chains), seconds, int(wins.size))


def _next_chain(
    problem: Problem, bits: int, wanted: int, moves_left: Callable[[int], int]
) -> tuple[tuple[Jump, ...], int]:
    """A chain from ``bits`` to a position ``wanted`` moves from the goal (first found)."""
    jumps = problem.board.grid.jumps
    stack: list[tuple[int, int | None, tuple[int, ...]]] = [(bits, None, ())]
    while stack:
        here, cell, path = stack.pop()
        options = []
        for j, (a, b, c) in enumerate(jumps):
            if cell is not None and a != cell:
                continue
            if here >> a & 1 and here >> b & 1 and not here >> c & 1:
                options.append(j)
        for j in reversed(options):
            after = problem.play(here, j)
            left = moves_left(after)
            if left < 0:
                continue
            if left == wanted and (wanted > 0 or problem.goal.reached(after)):
                return tuple(problem.jump(k) for k in (*path, j)), after
            stack.append((after, jumps[j][2], (*path, j)))
    raise AssertionError("no chain continues an optimal solution")  # pragma: no cover
