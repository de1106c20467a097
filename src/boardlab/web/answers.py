"""Interface layer: the base of every declared answer (``/api/openapi.json``) and the Hex
endpoints' answers (the other games' are in :mod:`boardlab.web.answers_games`).

Each struct is the JSON a Hex endpoint answers, field for field: the server checks a
handler's answer against its struct before it sends it (:func:`boardlab.web._http.endpoint`;
a field too many or missing is the server's error), and ``tests/web/test_openapi.py``
reads real answers back into them. Every cell has HexGui's name, in requests
and answers alike, as on the command line, in GTP and in SGF (``b2``: column b, row 2 of
HexGui's board, where player 1, black, red on the page, joins the top and bottom edges);
player 2 is white, blue on the page.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from boardlab.hex.review import SOLVE_EMPTY

__all__ = [
    "Answer",
    "HexAnalysis",
    "HexEngineMove",
    "HexReviewed",
    "HexSgf",
    "HexSolved",
    "HexState",
]


class Answer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The base of every declared answer."""


class HexState(Answer, kw_only=True, forbid_unknown_fields=True):
    """A Hex game as the page draws it: ``cells`` lists every cell row by row as drawn
    (``a1 b1 ... a2 b2 ...``), the order of the SVG's cells too."""

    size: int
    swap: bool
    can_swap: bool
    moves: list[str]
    numbers: dict[str, int]
    last: str | None
    solvable: Annotated[
        bool,
        Meta(
            description="whether the exact solver is offered: no winner yet and at most "
            f"{SOLVE_EMPTY} empty cells (x-most-empty)",
            extra_json_schema={"x-most-empty": SOLVE_EMPTY},
        ),
    ]
    to_move: int
    winner: int | None
    chain: list[str]
    legal: list[str]
    cells: list[str]
    stones: dict[str, list[str]]
    svg: str


class HexEngineMove(HexState, kw_only=True, forbid_unknown_fields=True):
    """The game after the engine's move, and the move's evidence."""

    engine: dict[str, Any]


class HexRated(Answer, kw_only=True, forbid_unknown_fields=True):
    """One move of an analysis: its visits and the side to move's win rate (1 or 0 with
    ``proven`` where the exact solver decided it)."""

    move: str
    visits: int
    win_rate: float
    proven: bool = False


class HexSolverVerdict(Answer, kw_only=True, forbid_unknown_fields=True):
    """What the exact solver proved in an analysed position."""

    winner: int
    winning_moves: list[str]
    losing_moves: list[str]
    complete: bool


class HexAnalysis(Answer, kw_only=True, forbid_unknown_fields=True):
    """The engine's view of a position, overruled where the solver proves it."""

    to_move: int
    move: str
    win_rate: float
    verdict: int
    proven: bool
    bound: float | None
    playouts: int
    nodes: int
    seconds: float
    reason: str
    top: list[HexRated]
    solver: HexSolverVerdict | None


class HexSolved(Answer, kw_only=True, forbid_unknown_fields=True):
    """The exact solver's result (``hex solve --json``'s fields)."""

    winner: int | None
    to_move: int
    winning_moves: list[str]
    losing_moves: list[str]
    pruned_moves: list[str]
    complete: bool
    stopped: str | None
    proven: bool
    bound: float | None
    nodes: int
    seconds: float


class HexReviewPoint(Answer, kw_only=True, forbid_unknown_fields=True):
    """The game after ``ply`` moves: red's chance and the proven winner, if any."""

    ply: int
    move: str | None
    chance: float
    winner: int | None
    proven: bool
    turned: bool


class HexReviewed(Answer, kw_only=True, forbid_unknown_fields=True):
    """Every position of a game, judged."""

    playouts: int
    points: list[HexReviewPoint]


class HexSgf(Answer, kw_only=True, forbid_unknown_fields=True):
    """The game as HexGui SGF."""

    sgf: str
