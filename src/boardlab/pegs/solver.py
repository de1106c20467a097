"""Solver layer: peg solitaire solved, counted and proved on any board of up to 64 holes.

- :func:`solve`: one solution by depth-first search with a table of dead positions
  (canonical forms under the problem's symmetry) and pagoda cuts, or a proof that
  none exists (the position-class invariant, or the exhausted search).
- :func:`analyse` (level by level): reachable positions with and without symmetry,
  positions on a winning path, the exact number of solutions.
- :func:`min_moves`: a solution with the fewest moves (one peg's chain of jumps is one
  move), proven minimal by a complete pass over the winning positions.
- :func:`classify`: every single-vacancy start: where one peg can finish, or why not.

>>> from boardlab.pegs.boards import named_board
>>> result = solve(make_problem(named_board("triangle-5"), goal=parse_goal(
...     named_board("triangle-5"), "ANY")))
>>> result.solved, len(result.moves), result.proven
(True, 13, True)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Budget, Limit
from boardlab.pegs._solver_beam import beam_search
from boardlab.pegs._solver_levels import (
    Analysis,
    LevelCount,
    MinMoves,
    Progress,
    analyse,
    min_moves,
)
from boardlab.pegs._solver_tables import Goal, Problem, make_problem
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell, Jump
from boardlab.pegs.classes import class_name, position_class
from boardlab.pegs.formats import parse_goal
from boardlab.pegs.pagoda import pagoda_tables

__all__ = [
    "Analysis",
    "Classification",
    "Goal",
    "LevelCount",
    "MinMoves",
    "Problem",
    "Solution",
    "StartVerdict",
    "analyse",
    "class_proof",
    "classify",
    "make_problem",
    "min_moves",
    "parse_goal",
    "solve",
]

#: What a search worker reports: 1 solution found, 2 search exhausted (0: still going).
_FOUND, _EXHAUSTED = 1, 2

_BEAMS = ((2_000_000, 20_000), (32_000_000, 200_000))
_FIRST_SLICE = 8_000
_SLICE = 1_000_000
_TABLE_BITS = 22
#: A slice runs in pieces of about this many seconds, with a look at the clock between.
_PIECE_SECONDS = 0.05
_FIRST_PIECE = 4_096
_MAX_PIECE = 1 << 20


@dataclass(frozen=True)
class Solution:
    """The answer of :func:`solve` with its evidence (and the problem it answers):
    ``nodes``, the positions its depth-first searches visited; ``proven``, whether it is
    proven (a solution, or a proof that there is none); ``bound`` None (a yes or no)."""

    problem: Problem
    solved: bool
    moves: tuple[Jump, ...]
    proven: bool
    reason: str
    nodes: int
    seconds: float

    @property
    def bound(self) -> None:
        """None: a yes or no has no bound (the evidence every game's result has)."""
        return None

    def as_dict(self) -> dict[str, object]:
        """The board, the goal, the answer and its evidence as JSON-ready values, moves in
        the board's notation."""
        board = self.problem.board
        return {
            "board": board.name,
            "goal": self.problem.goal.text,
            "solved": self.solved,
            "moves": [board.move_text(move) for move in self.moves],
            "reason": self.reason,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "proven": self.proven,
            "bound": self.bound,
        }


def class_proof(problem: Problem) -> str | None:
    """Why the position-class invariant forbids the goal, or None when it allows it."""
    board = problem.board
    start = position_class(board, problem.start)
    if problem.goal.bits is not None:
        goal = position_class(board, problem.goal.bits)
        if goal != start:
            return (
                f"position class {class_name(start)} of the start differs from "
                f"{class_name(goal)} of the goal"
            )
        return None
    if any(position_class(board, 1 << i) == start for i in range(board.size)):
        return None
    return f"no single peg is in the start's position class {class_name(start)}"


def solve(
    problem: Problem,
    limit: Limit | None = None,
    progress: Progress | None = None,
    pagodas: Sequence[Sequence[int]] = (),
) -> Solution:
    """One solution of ``problem``, or the proof that there is none.

    Two depth-first searches run side by side on two threads, in lockstep slices of
    nodes (doubling from 16,000): one tries jumps in the board's table order, the other
    (square boards) inward-moving jumps first. After each slice the first search that
    finished, in that order, gives the answer, so the result is deterministic.
    When the searches pass 2 and 32 million nodes, a beam search (width 20,000, then
    200,000; see :mod:`boardlab.pegs._solver_beam`) is tried once each: it finds
    solutions the depth-first search misses (Wiegleb's game) but proves nothing.

    A slice runs in pieces of about 50 ms (the same nodes as in one go), and the beam
    search in chunks of parents, with a look at the clock between any two, so a time
    limit or an outside stop ends the search within about one piece; a solution found
    by then is still the answer. The node limit counts the depth-first nodes (the
    beams, bounded by their width, answer to the clock only).

    ``pagodas`` are pagoda functions (one weight per hole); a position whose weighted
    sum falls below the goal's is cut.

    :raises LimitExceededError: when the time or node limit runs out before an answer.
    :raises BoardlabError: when a given function is not a pagoda function of the board.
    """
    tables = pagoda_tables(problem, pagodas)
    began = time.perf_counter()
    proof = class_proof(problem)
    if proof is not None:
        return Solution(problem, False, (), True, proof, 0, time.perf_counter() - began)
    if problem.goal.reached(problem.start):
        return Solution(
            problem, True, (), True, "the start is the goal", 0, time.perf_counter() - began
        )
    if problem.start_pegs == problem.goal.pegs:
        reason = "the start has the goal's peg count but is not it"
        return Solution(problem, False, (), True, reason, 0, 0.0)
    limit = limit or Limit()
    budget = limit.start()
    clock = Budget(Limit(time=limit.time), budget.started, budget.stop)
    searches = [_Search(problem, order, tables) for order in _orders(problem)]
    nodes = 0
    beams = list(_BEAMS)
    step = _FIRST_SLICE
    pieces = _Pieces()
    with ThreadPoolExecutor(max_workers=len(searches)) as pool:
        while True:
            step = min(2 * step, _SLICE)
            if limit.nodes is not None:
                step = max(1, min(step, (limit.nodes - nodes) // len(searches)))
            statuses = pieces.run(pool, searches, step, clock)
            nodes = sum(search.nodes for search in searches)
            for search, status in zip(searches, statuses, strict=True):
                seconds = time.perf_counter() - began
                if status == _FOUND:
                    path = search.moves()
                    return Solution(problem, True, path, True, "solution found", nodes, seconds)
                if status == _EXHAUSTED:
                    reason = (
                        f"no line of play works: all {search.nodes} positions searched "
                        f"({search.dead} dead ends)"
                    )
                    return Solution(problem, False, (), True, reason, nodes, seconds)
            while beams and nodes >= beams[0][0]:
                width = beams.pop(0)[1]
                found = beam_search(problem, width, clock)
                if found is not None:
                    seconds = time.perf_counter() - began
                    reason = f"solution found by a beam search of width {width}"
                    return Solution(problem, True, found, True, reason, nodes, seconds)
            if progress is not None:
                progress(nodes, 0, f"{nodes} nodes")
            if budget.exhausted(nodes):
                raise LimitExceededError(
                    f"search limit reached after {nodes} nodes and {budget.elapsed:.1f} s; "
                    "no answer"
                )


class _Pieces:
    """Runs the searches' slices in pieces timed to about :data:`_PIECE_SECONDS`."""

    def __init__(self) -> None:
        self.size = _FIRST_PIECE

    def run(
        self, pool: Executor, searches: Sequence[_Search], step: int, clock: Budget
    ) -> list[int]:
        """Run every search ``step`` more nodes, side by side, and return their statuses.

        A search stops only between two positions, at the first after ``step`` nodes,
        so a slice in pieces visits exactly the nodes of one call of ``step``. Between
        two pieces the slice ends early (statuses 0 where nothing was found) once
        ``clock`` has run out; a search that finished stays finished.
        """
        statuses = [0] * len(searches)
        left = [step] * len(searches)
        while True:
            active = [i for i, status in enumerate(statuses) if status == 0 and left[i] > 0]
            if not active:
                return statuses
            size = self.size
            began = time.perf_counter()
            runs = [searches[i] for i in active]
            done = list(pool.map(_Search.run, runs, [min(size, left[i]) for i in active]))
            spent = time.perf_counter() - began
            for i, (status, count) in zip(active, done, strict=True):
                statuses[i] = status
                left[i] -= count
            scale = _PIECE_SECONDS / max(spent, 1e-4)
            self.size = int(min(_MAX_PIECE, max(1_024, size * min(4.0, scale))))
            if clock.exhausted():
                return statuses


def _orders(problem: Problem) -> list[npt.NDArray[np.int64]]:
    """The jump orders searched side by side: table order, and inward-first on squares."""
    table_order = np.arange(len(problem.board.grid.jumps), dtype=np.int64)
    if problem.board.triangular:
        return [table_order]
    return [table_order, problem.order]


class _Search:
    """One resumable depth-first search (its stack and table of dead positions)."""

    def __init__(
        self,
        problem: Problem,
        order: npt.NDArray[np.int64],
        tables: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
    ) -> None:
        self.problem = problem
        self.order = order
        self.mf, self.mo, self.mt = (mask[order] for mask in problem.masks)
        depth = problem.start_pegs - problem.goal.pegs + 2
        self.stack_pos = np.zeros(depth, dtype=np.uint64)
        self.stack_j = np.zeros(depth, dtype=np.int64)
        self.stack_pos[0] = problem.start
        self.state = np.zeros(1, dtype=np.int64)
        table_bits = min(_TABLE_BITS + max(0, problem.board.size - 33) // 4, 25)
        self.tt = np.zeros(1 << table_bits, dtype=np.uint64)
        self.used = np.zeros(1, dtype=np.int64)
        self.ptable, self.pgoal = tables
        self.goal = np.uint64(problem.goal.bits or 0)
        self.nodes = 0

    @property
    def dead(self) -> int:
        """Dead positions stored."""
        return int(self.used[0])

    def run(self, step: int) -> tuple[int, int]:
        """Search about ``step`` more nodes (to the first position after them);
        returns the status (0 not done, 1 solved, 2 exhausted) and the nodes searched."""
        from boardlab.pegs import _kernel

        problem = self.problem
        status, done = _kernel.dfs_run(
            self.state, self.stack_pos, self.stack_j, self.mf, self.mo, self.mt,
            problem.table, self.tt, self.used, self.goal, problem.goal.bits is None,
            problem.goal.pegs, self.ptable, self.pgoal, step,
        )  # fmt: skip
        self.nodes += done
        return status, done

    def moves(self) -> tuple[Jump, ...]:
        """The path of a solved search."""
        return tuple(
            self.problem.jump(int(self.order[j - 1])) for j in self.stack_j[: self.state[0]]
        )


@dataclass(frozen=True)
class StartVerdict:
    """One single-vacancy start of ``board``: holes where one peg is known to finish, and
    the evidence.

    ``ends`` are finishes proven by a solution; ``open`` are finishes the position class
    allows that were not decided (not searched, or the search ran out of time).
    """

    board: Board = field(repr=False, compare=False)
    vacancy: Cell
    solvable: bool | None
    ends: tuple[Cell, ...]
    reason: str
    open: tuple[Cell, ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The verdict as JSON-ready values, holes in the board's notation."""
        name = self.board.hole_name
        return {
            "vacancy": name(self.vacancy),
            "solvable": self.solvable,
            "ends": [name(cell) for cell in self.ends],
            "open": [name(cell) for cell in self.open],
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Classification:
    """The answer of :func:`classify`: every single-vacancy start of ``board``, in hole
    order, and the seconds it took."""

    board: Board
    starts: tuple[StartVerdict, ...]
    seconds: float

    def as_dict(self) -> dict[str, object]:
        """The board, every start's verdict and the seconds as JSON-ready values."""
        return {
            "board": self.board.name,
            "starts": [verdict.as_dict() for verdict in self.starts],
            "seconds": round(self.seconds, 3),
        }


def classify(
    board: Board,
    limit: Limit | None = None,
    *,
    every_end: bool = False,
    progress: Progress | None = None,
    memory: int | None = None,
) -> Classification:
    """For every hole as the single vacancy: can one peg remain, and where?

    The position classes rule out most start/finish pairs at once. A start the classes
    allow is searched with the goal "one peg anywhere" unless an earlier solution
    already settles it: a solution from vacancy ``s`` to a peg at ``e`` also solves
    every symmetric image of the pair and, read backwards, the pair ``(e, s)`` (the
    complement of each position, jumps in reverse order). With ``every_end`` each
    finish the classes allow is decided by its own search, and a pair that search leaves
    open by the complete level pass (the number of solutions), within ``memory`` bytes
    (None: most of the free memory). ``limit`` bounds each search and each count; a
    start whose searches all run out is reported as undecided (``solvable`` None).

    :raises BoardlabError: when the board is too large for the solver.
    """
    began = time.perf_counter()
    limit = limit or Limit(time=60.0)
    size = board.size
    full = board.grid.full
    symmetries = board.symmetries()
    known: dict[tuple[int, int], bool | None] = {}
    searches = 0

    def key(s: int, e: int) -> tuple[int, int]:
        return min(min((perm[s], perm[e]), (perm[e], perm[s])) for perm in symmetries)

    def search(start: int, goal: Goal, bound: Limit) -> Solution | None:
        nonlocal searches
        searches += 1
        if progress is not None:
            progress(searches, 0, f"{searches} searches")
        try:
            return solve(make_problem(board, start, goal), bound)
        except LimitExceededError:
            return None

    def allowed_ends(s: int) -> list[int]:
        start_class = position_class(board, full & ~(1 << s))
        return [e for e in range(size) if position_class(board, 1 << e) == start_class]

    rounds = [Limit(time=limit.time / 8) if limit.time else limit, limit]
    for round_limit in rounds:
        for s in range(size):
            allowed = allowed_ends(s)
            statuses = [known.get(key(s, e)) for e in allowed]
            if True in statuses or None not in statuses:
                continue
            found = search(full & ~(1 << s), Goal(None, "ANY"), round_limit)
            if found is not None and found.solved:
                known[key(s, board.index(found.moves[-1].dst))] = True
            elif found is not None:
                for e in allowed:
                    known[key(s, e)] = False
    if every_end:
        for s in range(size):
            for e in allowed_ends(s):
                if known.get(key(s, e)) is None:
                    goal = Goal(1 << e, board.hole_name(board.cells[e]))
                    one = search(full & ~(1 << s), goal, limit)
                    known[key(s, e)] = None if one is None else one.solved
        for s in range(size):  # what the searches left open, the complete count decides
            for e in allowed_ends(s):
                if known.get(key(s, e)) is None:
                    known[key(s, e)] = _count_decides(board, s, e, limit, memory)
    verdicts = []
    for s in range(size):
        pairs = {e: known.get(key(s, e)) for e in range(size)}
        verdicts.append(_verdict(board, s, allowed_ends(s), pairs))
    return Classification(board, tuple(verdicts), time.perf_counter() - began)


def _count_decides(board: Board, s: int, e: int, limit: Limit, memory: int | None) -> bool | None:
    """Whether one peg can finish at ``e`` from the vacancy ``s``, by counting solutions
    (None when the count does not fit in time or memory)."""
    from boardlab.core.memory import default_budget

    problem = make_problem(
        board, board.grid.full & ~(1 << s), Goal(1 << e, board.hole_name(board.cells[e]))
    )
    try:
        found = analyse(problem, limit, memory=default_budget() if memory is None else memory)
    except LimitExceededError:
        return None
    return found.solutions > 0


def _verdict(
    board: Board, s: int, allowed: list[int], status: dict[int, bool | None]
) -> StartVerdict:
    cell = board.cells[s]
    if not allowed:
        start_class = position_class(board, board.grid.full & ~(1 << s))
        reason = f"impossible: position class {class_name(start_class)} holds no single peg"
        return StartVerdict(board, cell, False, (), reason)
    ends = tuple(board.cells[e] for e in allowed if status[e] is True)
    undecided = tuple(board.cells[e] for e in allowed if status[e] is None)
    names = ", ".join(board.hole_name(board.cells[e]) for e in allowed)
    if ends:
        return StartVerdict(board, cell, True, ends, "solved", undecided)
    if undecided:
        reason = f"undecided: the search ran out of time (the class allows {names})"
        return StartVerdict(board, cell, None, (), reason, undecided)
    reason = f"impossible: exhausted search (the class allows only {names})"
    return StartVerdict(board, cell, False, (), reason)
