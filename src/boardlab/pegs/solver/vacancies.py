"""Solver layer: every single-vacancy start of a board: can one peg remain, and where.

:func:`classify` settles each start by the position classes, pagoda functions found
by integer programming (:mod:`boardlab.pegs.solver.pagoda_lp`), the searches of
:func:`boardlab.pegs.solver.search.solve` (a solution also settles its symmetric
images and its reversal) and, for what they leave open, the complete level count.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Limit
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell, Jump
from boardlab.pegs.classes import class_name, position_class
from boardlab.pegs.solver.levels import Progress, analyse
from boardlab.pegs.solver.pagoda_lp import PagodaTree, prove_by_pagoda
from boardlab.pegs.solver.search import Solution, solve
from boardlab.pegs.solver.tables import Goal, make_problem

__all__ = ["Classification", "StartVerdict", "classify"]


@dataclass(frozen=True)
class StartVerdict:
    """One single-vacancy start of ``board``: holes where one peg is known to finish, and
    the evidence.

    ``ends`` are finishes proven by a solution; ``open`` are finishes the position class
    allows that were not decided (not searched, or the search ran out of time);
    ``decided`` says how each finish the class allows was decided (``"solution"``,
    ``"pagoda function"``, ``"exhausted search"``, ``"count"`` or ``"open"``); ``back``
    whether one peg can end in the starting hole itself, and ``back_how`` how that
    was decided (``"position class"`` when the class rules it out).
    """

    board: Board = field(repr=False, compare=False)
    vacancy: Cell
    solvable: bool | None
    ends: tuple[Cell, ...]
    reason: str
    open: tuple[Cell, ...] = ()
    back: bool | None = None
    back_how: str = ""
    decided: tuple[tuple[Cell, str], ...] = ()

    def as_dict(self) -> dict[str, object]:
        """The verdict as JSON-ready values, holes in the board's notation."""
        name = self.board.hole_name
        return {
            "vacancy": name(self.vacancy),
            "solvable": self.solvable,
            "ends": [name(cell) for cell in self.ends],
            "open": [name(cell) for cell in self.open],
            "reason": self.reason,
            "decided": {name(cell): way for cell, way in self.decided},
            "back": self.back,
            "back_how": self.back_how or "open",
        }


@dataclass(frozen=True)
class Classification:
    """The answer of :func:`classify`: every single-vacancy start of ``board``, in hole
    order, and the seconds it took; the evidence: each solution found (its vacancy and
    jumps) and each pagoda proof (vacancy, finishing hole, proof); ``stopped`` when the
    whole call's time ran out first."""

    board: Board
    starts: tuple[StartVerdict, ...]
    seconds: float
    solutions: tuple[tuple[Cell, tuple[Jump, ...]], ...] = ()
    proofs: tuple[tuple[Cell, Cell, PagodaTree], ...] = ()
    stopped: bool = False

    @property
    def undecided(self) -> tuple[Cell, ...]:
        """The starts left open."""
        return tuple(v.vacancy for v in self.starts if v.solvable is None)

    def as_dict(self) -> dict[str, object]:
        """The board, every start's verdict, the seconds and the evidence as JSON-ready
        values."""
        name = self.board.hole_name
        return {
            "board": self.board.name,
            "starts": [verdict.as_dict() for verdict in self.starts],
            "seconds": round(self.seconds, 3),
            "stopped": self.stopped,
            "undecided": [name(cell) for cell in self.undecided],
            "solutions": [
                {"vacancy": name(cell), "moves": [self.board.move_text(m) for m in moves]}
                for cell, moves in self.solutions
            ],
            "pagoda_proofs": [
                {
                    "vacancy": name(start),
                    "end": name(end),
                    "first_jumps": tree.first_jumps,
                    "functions": [list(w) for w in tree.leaves.values()],
                }
                for start, end, tree in self.proofs
            ],
        }


#: Seconds one search may run at most (each start's search for one peg anywhere runs
#: first with an eighth of it).
SEARCH_SECONDS = 60.0

_SOLUTION, _PAGODA, _SEARCH, _COUNT = "solution", "pagoda function", "exhausted search", "count"


def classify(
    board: Board,
    limit: Limit | None = None,
    *,
    every_end: bool = False,
    progress: Progress | None = None,
    memory: int | None = None,
    total: float | None = None,
    pagodas: bool = True,
) -> Classification:
    """For every hole as the single vacancy: can one peg remain, and where?

    The position classes rule out most start/finish pairs at once. Each pair they allow
    and not settled by a first quick search for one peg anywhere (an eighth of the
    search time) is then tried for a pagoda proof
    (:func:`~boardlab.pegs.solver.pagoda_lp.prove_by_pagoda`, unless ``pagodas`` is
    False). A start still open is searched again with the goal "one peg anywhere"
    unless an earlier solution already settles it: a solution from vacancy
    ``s`` to a peg at ``e`` also solves every symmetric image of the pair and, read
    backwards, the pair ``(e, s)`` (the complement of each position, jumps in reverse
    order). With ``every_end`` each finish still open is decided by its own search, and
    what that leaves open by the complete level pass (the number of solutions), within
    ``memory`` bytes (None: most of the free memory).

    ``limit`` bounds each search and each count (default :data:`SEARCH_SECONDS`);
    ``total`` (seconds) bounds the whole call: once it has run out nothing more is
    tried, the answer says what was decided and ``stopped`` is True. A start left open
    has ``solvable`` None.

    :raises BoardlabError: when the board is too large for the solver.
    """
    began = time.perf_counter()
    limit = limit or Limit(time=SEARCH_SECONDS)
    clock = Limit(time=total).start()
    size = board.size
    full = board.grid.full
    symmetries = board.symmetries()
    known: dict[tuple[int, int], bool] = {}
    how: dict[tuple[int, int], str] = {}
    proofs: dict[tuple[int, int], PagodaTree] = {}
    solutions: list[tuple[Cell, tuple[Jump, ...]]] = []
    stopped = False

    def key(s: int, e: int) -> tuple[int, int]:
        return min(min((perm[s], perm[e]), (perm[e], perm[s])) for perm in symmetries)

    def allowed_ends(s: int) -> list[int]:
        start_class = position_class(board, full & ~(1 << s))
        return [e for e in range(size) if position_class(board, 1 << e) == start_class]

    pairs = sorted({key(s, e) for s in range(size) for e in allowed_ends(s)})

    def show(label: str) -> None:
        if progress is not None:
            progress(len(known), len(pairs), f"{len(known)} of {len(pairs)} pairs decided; {label}")

    def out_of_time() -> bool:
        nonlocal stopped
        stopped = stopped or clock.exhausted()
        return stopped

    def bounded(per: Limit) -> Limit:
        times = [t for t in (per.time, clock.remaining) if t is not None]
        return Limit(time=max(min(times), 1e-3) if times else None, nodes=per.nodes)

    def search(s: int, goal: Goal, bound: Limit) -> Solution | None:
        label = f"searching from {board.hole_name(board.cells[s])} for {goal.text}"
        show(label)
        try:
            found = solve(
                make_problem(board, full & ~(1 << s), goal),
                bound,
                lambda nodes, _total, _text: show(f"{label}: {nodes:,} nodes"),
            )
        except LimitExceededError:
            return None
        if found.solved:
            e = board.index(found.moves[-1].dst)
            known[key(s, e)], how[key(s, e)] = True, _SOLUTION
            solutions.append((board.cells[s], found.moves))
        return found

    def pagoda_round() -> None:
        for s, e in pairs:
            if (s, e) in known or not pagodas or out_of_time():
                continue
            name = board.hole_name
            show(f"pagoda functions for {name(board.cells[s])} -> {name(board.cells[e])}")
            tree = prove_by_pagoda(board, full & ~(1 << s), 1 << e)
            if tree is not None:
                known[(s, e)], how[(s, e)], proofs[(s, e)] = False, _PAGODA, tree

    rounds = [Limit(time=limit.time / 8, nodes=limit.nodes) if limit.time else limit, limit]
    starts = sorted({min(perm[s] for perm in symmetries) for s in range(size)})
    for round_limit in rounds:
        if round_limit is rounds[-1]:
            pagoda_round()  # the pairs the quick searches left open
        for s in starts:  # one start of each orbit: the others are its images
            allowed = allowed_ends(s)
            statuses = [known.get(key(s, e)) for e in allowed]
            if True in statuses or None not in statuses or out_of_time():
                continue
            found = search(s, Goal(None, "ANY"), bounded(round_limit))
            if found is not None and not found.solved:
                for e in allowed:
                    if key(s, e) not in known:
                        known[key(s, e)], how[key(s, e)] = False, _SEARCH
    if every_end:
        pagoda_round()
        for s, e in pairs:  # one pair of each class (symmetric images, reversal)
            if (s, e) not in known and not out_of_time():
                one = search(s, Goal(1 << e, board.hole_name(board.cells[e])), bounded(limit))
                if one is not None and not one.solved:
                    known[(s, e)], how[(s, e)] = False, _SEARCH
        for s, e in pairs:  # what the searches left open, the complete count decides
            if (s, e) not in known and not out_of_time():
                show(
                    f"counting {board.hole_name(board.cells[s])} -> "
                    f"{board.hole_name(board.cells[e])}"
                )
                decided = _count_decides(board, s, e, bounded(limit), memory, progress)
                if decided is not None:
                    known[(s, e)], how[(s, e)] = decided, _COUNT
    stopped = out_of_time() and any(pair not in known for pair in pairs)
    verdicts = []
    for s in range(size):
        pairs_of = {e: (known.get(key(s, e)), how.get(key(s, e), "")) for e in range(size)}
        verdicts.append(_verdict(board, s, allowed_ends(s), pairs_of))
    return Classification(
        board,
        tuple(verdicts),
        time.perf_counter() - began,
        tuple(solutions),
        tuple((board.cells[s], board.cells[e], tree) for (s, e), tree in proofs.items()),
        stopped,
    )


def _count_decides(
    board: Board, s: int, e: int, limit: Limit, memory: int | None, progress: Progress | None
) -> bool | None:
    """Whether one peg can finish at ``e`` from the vacancy ``s``, by counting solutions
    (None when the count does not fit in time or memory)."""
    from boardlab.core.memory import default_budget

    problem = make_problem(
        board, board.grid.full & ~(1 << s), Goal(1 << e, board.hole_name(board.cells[e]))
    )
    try:
        budget = default_budget() if memory is None else memory
        if progress is None:
            found = analyse(problem, limit, memory=budget, games=False)
        else:
            found = analyse(problem, limit, progress, memory=budget, games=False)
    except LimitExceededError:
        return None
    return found.solutions > 0


def _verdict(
    board: Board, s: int, allowed: list[int], status: dict[int, tuple[bool | None, str]]
) -> StartVerdict:
    cell = board.cells[s]
    name = board.hole_name
    back = status[s][0] if s in allowed else False
    back_how = status[s][1] if s in allowed else "position class"
    if not allowed:
        start_class = position_class(board, board.grid.full & ~(1 << s))
        reason = f"impossible: position class {class_name(start_class)} holds no single peg"
        return StartVerdict(board, cell, False, (), reason, (), back, back_how)
    ends = tuple(board.cells[e] for e in allowed if status[e][0] is True)
    undecided = tuple(board.cells[e] for e in allowed if status[e][0] is None)
    decided = tuple((board.cells[e], status[e][1] or "open") for e in allowed)
    names = ", ".join(name(board.cells[e]) for e in allowed)
    if ends:
        return StartVerdict(board, cell, True, ends, "solved", undecided, back, back_how, decided)
    if undecided:
        reason = f"undecided: the class allows {names}; not decided in time: " + ", ".join(
            name(c) for c in undecided
        )
        return StartVerdict(board, cell, None, (), reason, undecided, back, back_how, decided)
    methods = sorted({status[e][1] for e in allowed})
    if len(methods) == 1:
        proofs = {_PAGODA: "a pagoda function", _SEARCH: "an exhausted search", _COUNT: "a count"}
        reason = f"impossible: the class allows only {names}, each ruled out by " + proofs.get(
            methods[0], methods[0]
        )
    else:
        reason = f"impossible: the class allows only {names}; ruled out: " + ", ".join(
            f"{name(board.cells[e])} by {status[e][1]}" for e in allowed
        )
    return StartVerdict(board, cell, False, (), reason, (), back, back_how, decided)
