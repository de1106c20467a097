"""Solver layer: the table of every single-vacancy start: solutions, games, shortest game.

One row per starting hole up to the board's symmetry (a start stands for every hole of
its orbit, whose rows are the same up to the symmetry): the solutions to one peg
anywhere, to the centre (the one hole every symmetry fixes, where the board has one),
back in the starting hole, the shortest game and every complete game. One level pass
a row (the goal "one peg anywhere", which gives the solutions by finishing hole and
the games at once); the caller chooses the pass (in one process, or in shards).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell
from boardlab.pegs.solver.levels import Analysis
from boardlab.pegs.solver.tables import Goal, Problem, make_problem

__all__ = ["StartRow", "StartTable", "centre_hole", "start_holes", "start_table"]


def centre_hole(board: Board) -> int | None:
    """The hole (bit index) every symmetry of the board fixes, when there is exactly one
    and the board has a symmetry besides the identity; else None."""
    symmetries = board.symmetries()
    fixed = [i for i in range(board.size) if all(perm[i] == i for perm in symmetries)]
    return fixed[0] if len(symmetries) > 1 and len(fixed) == 1 else None


def start_holes(board: Board, symmetry: bool = True) -> list[tuple[int, tuple[int, ...]]]:
    """The starting holes of the table, in hole order: each with the holes of its orbit
    under the board's symmetry (itself alone without ``symmetry``)."""
    if not symmetry:
        return [(i, (i,)) for i in range(board.size)]
    symmetries = board.symmetries()
    rows: dict[int, set[int]] = {}
    for i in range(board.size):
        orbit = {perm[i] for perm in symmetries}
        rows.setdefault(min(orbit), orbit)
    return [(first, tuple(sorted(orbit))) for first, orbit in sorted(rows.items())]


@dataclass(frozen=True)
class StartRow:
    """One start's row: ``hole`` empty at the start (standing for ``orbit``), the
    solutions to one peg anywhere, in the centre (None: the board has none), back in
    the start, every complete game, the shortest game's jumps and pegs left, and the
    solutions by finishing hole (bit index)."""

    board: Board = field(repr=False, compare=False)
    hole: int
    orbit: tuple[int, ...]
    solutions: int
    centre: int | None
    back: int
    games: int
    shortest: int
    shortest_pegs: int
    finishes: dict[int, int]
    seconds: float

    @classmethod
    def of(cls, hole: int, orbit: tuple[int, ...], found: Analysis, centre: int | None) -> StartRow:
        """The row of an analysis with one peg anywhere as the goal (games counted)."""
        games = found.games
        if games is None or found.problem.goal.bits is not None:
            raise ValueError("a start's row needs the games and the goal ANY")
        return cls(
            found.problem.board,
            hole,
            orbit,
            found.solutions,
            None if centre is None else found.finishes.get(centre, 0),
            found.finishes.get(hole, 0),
            games.total,
            games.shortest_jumps,
            games.shortest_pegs,
            dict(found.finishes),
            found.seconds,
        )

    @classmethod
    def from_dict(cls, board: Board, found: dict[str, object]) -> StartRow:
        """The row :meth:`as_dict` wrote (for ``board``).

        :raises ValueError: for a value that is not such a row's (``KeyError`` and
            ``TypeError`` for a missing or mistyped field).
        """

        def hole(name: object) -> int:
            return board.index(board.parse_hole(str(name)))

        centre = found["centre"]
        finishes = found["solutions_by_hole"]
        holes = found["holes"]
        if not isinstance(finishes, dict) or not isinstance(holes, list):
            raise TypeError("a start's row needs its holes and its solutions by hole")
        return cls(
            board,
            hole(found["start"]),
            tuple(hole(h) for h in holes),
            int(str(found["solutions"])),
            None if centre is None else int(str(centre)),
            int(str(found["back"])),
            int(str(found["games"])),
            int(str(found["shortest_game"])),
            int(str(found["shortest_game_pegs"])),
            {hole(h): int(str(n)) for h, n in finishes.items()},
            float(str(found["seconds"])),
        )

    def as_dict(self) -> dict[str, object]:
        """The row as JSON-ready values (counts as decimal strings, holes by name)."""
        name = self.board.hole_name
        cells = self.board.cells
        return {
            "start": name(cells[self.hole]),
            "holes": [name(cells[i]) for i in self.orbit],
            "solutions": str(self.solutions),
            "centre": None if self.centre is None else str(self.centre),
            "back": str(self.back),
            "shortest_game": self.shortest,
            "shortest_game_pegs": self.shortest_pegs,
            "games": str(self.games),
            "solutions_by_hole": {name(cells[h]): str(n) for h, n in self.finishes.items()},
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class StartTable:
    """Every start's row of ``board`` (up to symmetry when ``symmetry``), the centre
    hole (None: none) and the seconds it took."""

    board: Board
    symmetry: bool
    centre: Cell | None
    rows: tuple[StartRow, ...]
    seconds: float

    def as_dict(self) -> dict[str, object]:
        """The table as JSON-ready values."""
        return {
            "board": self.board.name,
            "symmetry": self.symmetry,
            "centre": None if self.centre is None else self.board.hole_name(self.centre),
            "rows": [row.as_dict() for row in self.rows],
            "seconds": round(self.seconds, 3),
        }


def start_table(
    board: Board,
    count: Callable[[Problem], Analysis],
    *,
    symmetry: bool = True,
    holes: Iterable[int] | None = None,
    done: Callable[[StartRow], None] | None = None,
    saved: Callable[[int, tuple[int, ...]], StartRow | None] | None = None,
) -> StartTable:
    """The table of ``board``: ``count`` (a level pass with the games) run for each
    start's problem, goal one peg anywhere; ``holes`` limits it to the starts holding
    one of these holes (None: every start); ``done`` is told each finished row;
    ``saved`` (given a start's hole and orbit) hands back a row finished by an earlier
    run, which is then not counted again (and not told to ``done``).

    :raises LimitExceededError: as ``count`` does (the finished rows were told to ``done``).
    """
    began = time.perf_counter()
    centre = centre_hole(board)
    wanted = None if holes is None else set(holes)
    rows = []
    for hole, orbit in start_holes(board, symmetry):
        if wanted is not None and not wanted.intersection(orbit):
            continue
        earlier = None if saved is None else saved(hole, orbit)
        if earlier is not None:
            rows.append(earlier)
            continue
        problem = make_problem(
            board, board.grid.full & ~(1 << hole), Goal(None, "ANY"), symmetry=symmetry
        )
        row = StartRow.of(hole, orbit, count(problem), centre)
        rows.append(row)
        if done is not None:
            done(row)
    cell = None if centre is None else board.cells[centre]
    return StartTable(board, symmetry, cell, tuple(rows), time.perf_counter() - began)
