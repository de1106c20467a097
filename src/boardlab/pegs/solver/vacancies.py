"""Solver layer: every single-vacancy start of a board: can one peg remain, and where.

:func:`classify` settles each start by the position classes, the searches of
:func:`boardlab.pegs.solver.search.solve` (a solution also settles its symmetric
images and its reversal) and, for what they leave open, the complete level count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Limit
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell
from boardlab.pegs.classes import class_name, position_class
from boardlab.pegs.solver.levels import Progress, analyse
from boardlab.pegs.solver.search import Solution, solve
from boardlab.pegs.solver.tables import Goal, make_problem

__all__ = ["Classification", "StartVerdict", "classify"]


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
        budget = default_budget() if memory is None else memory
        found = analyse(problem, limit, memory=budget, games=False)
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
