"""Solver layer: one solution by depth-first search, or the proof that none exists.

:func:`solve`: two resumable depth-first searches (numba,
:func:`boardlab.pegs.solver.kernel.dfs_run`) with a table of dead positions (canonical
forms under the problem's symmetry) and pagoda cuts, side by side in lockstep slices,
with a beam search tried at two sizes; :func:`class_proof`: the position-class
invariant that forbids a goal at once.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Budget, Limit
from boardlab.core.words import counted
from boardlab.pegs.cells import Jump
from boardlab.pegs.classes import class_name, position_class
from boardlab.pegs.solver.beam import beam_search
from boardlab.pegs.solver.levels import Progress
from boardlab.pegs.solver.pagoda import pagoda_tables
from boardlab.pegs.solver.tables import Problem

__all__ = ["Solution", "class_proof", "solve"]

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
    proven (a solution, or a proof that there is none; neither when the limit ran out
    first); ``bound`` None (a yes or no); ``reason``, why, in words; ``method``, the
    solver."""

    #: The solver that gives this answer, named in ``as_dict``.
    method: ClassVar[str] = "depth-first search (boardlab.pegs.solver)"

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
            "method": self.method,
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
                f"{class_name(goal)} of the goal, and jumps never change a position's class"
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
    *,
    undecided: bool = False,
) -> Solution:
    """One solution of ``problem``, or the proof that there is none (with ``undecided``,
    or neither: an unproven Solution saying which limit ran out).

    Two depth-first searches run side by side on two threads, in lockstep slices of
    nodes (doubling from 16,000): one tries jumps in the board's table order, the other
    (square boards) inward-moving jumps first. After each slice the first search that
    finished, in that order, gives the answer, so the result is deterministic.
    When the searches pass 2 and 32 million nodes, a beam search (width 20,000, then
    200,000; see :mod:`boardlab.pegs.solver.beam`) is tried once each: it finds
    solutions the depth-first search misses (Wiegleb's game) but proves nothing.

    A slice runs in pieces of about 50 ms (the same nodes as in one go), and the beam
    search in chunks of parents, with a look at the clock between any two, so a time
    limit or an outside stop ends the search within about one piece; a solution found
    by then is still the answer. The node limit counts the depth-first nodes (the
    beams, bounded by their width, answer to the clock only).

    ``pagodas`` are pagoda functions (one weight per hole); a position whose weighted
    sum falls below the goal's is cut.

    :raises LimitExceededError: when the time or node limit runs out before an answer
        (without ``undecided``; with it, the Solution says so: ``solved`` and ``proven``
        False, the nodes and seconds spent).
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
                        "no line of play works: every one of the "
                        f"{counted(search.nodes, 'position')} was searched "
                        f"({counted(search.dead, 'dead end')})"
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
                seconds = budget.elapsed
                reason = f"search limit reached after {nodes} nodes and {seconds:.1f} s; no answer"
                if undecided:
                    return Solution(problem, False, (), False, reason, nodes, seconds)
                raise LimitExceededError(reason)


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
        from boardlab.pegs.solver import kernel

        problem = self.problem
        status, done = kernel.dfs_run(
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
