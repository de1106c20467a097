"""Interface layer: the declared request of every API endpoint, and the API's limits.

Each endpoint reads one :class:`msgspec.Struct` (:func:`boardlab.web._http.read_request`):
the types, ranges, lengths and counts are declared here once, msgspec checks them while it
decodes the body, :mod:`boardlab.web.openapi` publishes them as ``/api/openapi.json``, and
the page reads its boxes' limits from that document, so page and server cannot disagree.
Each field's ``title`` is the name the page gives the box (a player reads it in an error,
never the field's key; see :func:`boardlab.web._http.in_words`).

Fields the request may leave out have defaults; a field a request does not declare is
refused (400, naming it), so a misspelt field never passes silently as its default.
"""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from boardlab.hex.rules import MAX_SIZE
from boardlab.ioiwari.rules import IOI
from boardlab.mars.values import MAX_SIDE, MAX_VEHICLES
from boardlab.web._jobs import MAX_JOB_SECONDS

__all__ = [
    "ENDPOINTS",
    "HexGame",
    "HexLoad",
    "HexMove",
    "HexReview",
    "HexSearch",
    "HexSolve",
    "HiqRun",
    "IoiwariGame",
    "IoiwariMove",
    "IoiwariStart",
    "MarsJudge",
    "MarsMap",
    "PegsJudge",
    "PegsMove",
    "PegsPosition",
    "PegsSearch",
    "ShongololoJudge",
    "ShongololoSolve",
]

#: The server's cap on every search (seconds); a request's time is at most this.
MAX_SEARCH_SECONDS = MAX_JOB_SECONDS
MAX_SEED = 2**31 - 1

# -- Hex ---------------------------------------------------------------------------------------
HEX_MAX_TIME = MAX_SEARCH_SECONDS
HEX_MAX_PLAYOUTS = 1_000_000
HEX_MAX_SGF = 20_000
HEX_REVIEW_LEAST = 50
HEX_REVIEW_MOST = 20_000
#: The longest Hex game: every cell of the largest board and a swap.
HEX_MAX_MOVES = MAX_SIZE * MAX_SIZE + 1
# -- others ------------------------------------------------------------------------------------
HIQ_MAX_INPUT = 100_000
MARS_MAX_MAP = 200_000  # 128 rows of 128 cells take about 33,000 characters
MARS_MAX_MOVES = 3_000_000
PEGS_MAX_BOARD_FILE = 5_000
PEGS_MAX_TIME = 60.0
PEGS_MAX_MOVE_LIST = 1_000_000
#: The most holes of a board (a board file of 49 columns and 49 rows).
PEGS_MAX_HOLES = 49 * 49
TOXIC_MAX_INPUT = 200
TOXIC_MAX_ANSWER = 2_000_000
TOXIC_MAX_TIME = MAX_SEARCH_SECONDS
#: The most blocks of a fruit (32 x 32 x 32).
TOXIC_MAX_BLOCKS = 32**3

Seed = Annotated[int, Meta(ge=0, le=MAX_SEED, title="The seed")]
Name = Annotated[str, Meta(max_length=64)]


class Request(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The base of every request (keyword fields; an unknown one is refused)."""


# -- Hex ---------------------------------------------------------------------------------------


class HexGame(Request, kw_only=True):
    """A Hex game: the board size, the swap rule and the moves played (``b2``,
    ``swap-pieces``), red (player 1) first."""

    size: Annotated[int, Meta(ge=1, le=MAX_SIZE, title="The board size")] = 7
    swap: Annotated[bool, Meta(title="The swap rule")] = False
    moves: Annotated[
        list[Annotated[str, Meta(max_length=16, title="A move")]],
        Meta(max_length=HEX_MAX_MOVES, title="The moves"),
    ] = msgspec.field(default_factory=list)


class HexMove(HexGame, kw_only=True):
    """A Hex game and the move to play in it."""

    move: Annotated[str, Meta(max_length=16, title="The move")]


class HexSearch(HexGame, kw_only=True):
    """A Hex game and the engine's limit: ``playouts`` when given, else ``time``."""

    time: Annotated[float, Meta(ge=0.01, le=HEX_MAX_TIME, title="The engine's time")] = 1.0
    playouts: (
        Annotated[int, Meta(ge=1, le=HEX_MAX_PLAYOUTS, title="The engine's playouts")] | None
    ) = None
    seed: Seed = 0


class HexSolve(HexGame, kw_only=True):
    """A Hex game and the exact solver's time."""

    time: Annotated[float, Meta(ge=0.1, le=HEX_MAX_TIME, title="The solver's time")] = 5.0


class HexReview(HexGame, kw_only=True):
    """A Hex game and the playouts the review may spend on each position."""

    playouts: Annotated[
        int, Meta(ge=HEX_REVIEW_LEAST, le=HEX_REVIEW_MOST, title="The review's playouts")
    ] = 1000
    seed: Seed = 0


class HexLoad(Request, kw_only=True):
    """A HexGui SGF game to load."""

    sgf: Annotated[str, Meta(max_length=HEX_MAX_SGF, title="The SGF")]
    swap: Annotated[bool, Meta(title="The swap rule")] = False


# -- Hi-Q --------------------------------------------------------------------------------------


class HiqRun(Request, kw_only=True):
    """The Hi-Q contest input."""

    input: Annotated[str, Meta(max_length=HIQ_MAX_INPUT, title="The input")]


# -- Ioiwari -----------------------------------------------------------------------------------


class IoiwariStart(Request, kw_only=True):
    """The seed that picks one of the statement's starts."""

    seed: Seed = 0


class IoiwariGame(Request, kw_only=True):
    """An Ioiwari game: the start (seven pits; a start of the statement picked by ``seed``
    when left out) and the pits sown so far."""

    start: (
        Annotated[
            list[Annotated[int, Meta(ge=0, le=IOI.cap, title="A pit of the start")]],
            Meta(min_length=IOI.pits, max_length=IOI.pits, title="The start"),
        ]
        | None
    ) = None
    moves: Annotated[
        list[Annotated[int, Meta(ge=1, le=IOI.pits, title="A move")]],
        Meta(max_length=IOI.total, title="The moves"),
    ] = msgspec.field(default_factory=list)
    seed: Seed = 0


class IoiwariMove(IoiwariGame, kw_only=True):
    """An Ioiwari game and the pit to sow."""

    move: Annotated[int, Meta(ge=1, le=IOI.pits, title="The pit")]


# -- Mars --------------------------------------------------------------------------------------


class MarsMap(Request, kw_only=True):
    """A Mars explorer map, as the statement's input."""

    map: Annotated[
        str,
        Meta(
            max_length=MARS_MAX_MAP,
            title="The map",
            description="the vehicles (x-vehicles), then P and Q (x-sides), then Q rows of P cells",
            extra_json_schema={"x-vehicles": [1, MAX_VEHICLES], "x-sides": [1, MAX_SIDE]},
        ),
    ]


class MarsJudge(MarsMap, kw_only=True):
    """A map and the answer (move lines) to judge on it."""

    moves: Annotated[str, Meta(max_length=MARS_MAX_MOVES, title="The answer")]


# -- peg solitaire -----------------------------------------------------------------------------


class PegsPosition(Request, kw_only=True):
    """A peg solitaire position: a named board or a board file, a start hole, the pegs
    (the board's start when left out) and whether walks are allowed."""

    board: Annotated[str, Meta(max_length=40, title="The board")] = "english"
    board_file: (
        Annotated[str, Meta(max_length=PEGS_MAX_BOARD_FILE, title="The board file")] | None
    ) = None
    start: Annotated[str, Meta(max_length=40, title="The start hole")] = ""
    pegs: (
        Annotated[
            list[Annotated[str, Meta(max_length=16, title="A peg")]],
            Meta(max_length=PEGS_MAX_HOLES, title="The pegs"),
        ]
        | None
    ) = None
    walks: Annotated[bool, Meta(title="Walks")] = False


class PegsMove(PegsPosition, kw_only=True):
    """A position and the move to play (``D2-D4``)."""

    move: Annotated[str, Meta(max_length=20, title="The move")]


class PegsSearch(PegsPosition, kw_only=True):
    """A position, the goal and the solver's limits (its time defaults by endpoint)."""

    goal: Annotated[str, Meta(max_length=40, title="The goal")] = ""
    time: Annotated[float, Meta(ge=0.1, le=PEGS_MAX_TIME, title="The time")] | None = None
    seed: Seed = 0


class PegsJudge(PegsPosition, kw_only=True):
    """A position and the move list to judge from it."""

    moves: Annotated[str, Meta(max_length=PEGS_MAX_MOVE_LIST, title="The move list")]


# -- Toxic iShongololo -------------------------------------------------------------------------


class ShongololoSolve(Request, kw_only=True):
    """A fruit (the statement's input line) and the solver's time."""

    input: Annotated[str, Meta(max_length=TOXIC_MAX_INPUT, title="The fruit")]
    time: Annotated[float, Meta(ge=0.1, le=TOXIC_MAX_TIME, title="The time")] = 2.0
    seed: Seed = 0


class ShongololoJudge(Request, kw_only=True):
    """A fruit, the answer to judge and the best count known (left out, null or 0: none,
    and no score)."""

    input: Annotated[str, Meta(max_length=TOXIC_MAX_INPUT, title="The fruit")]
    answer: Annotated[str, Meta(max_length=TOXIC_MAX_ANSWER, title="The answer")]
    best: Annotated[int, Meta(ge=0, le=TOXIC_MAX_BLOCKS, title="The best known count")] | None = (
        None
    )


#: Every POST endpoint (below ``/api``) and its request.
ENDPOINTS: dict[str, type[Request]] = {
    "/hex/state": HexGame,
    "/hex/move": HexMove,
    "/hex/engine": HexSearch,
    "/hex/analyze": HexSearch,
    "/hex/solve": HexSolve,
    "/hex/review": HexReview,
    "/hex/sgf": HexGame,
    "/hex/load": HexLoad,
    "/hiq/run": HiqRun,
    "/ioiwari/start": IoiwariStart,
    "/ioiwari/review": IoiwariGame,
    "/ioiwari/state": IoiwariGame,
    "/ioiwari/move": IoiwariMove,
    "/ioiwari/engine": IoiwariGame,
    "/ioiwari/analyze": IoiwariGame,
    "/mars/solve": MarsMap,
    "/mars/judge": MarsJudge,
    "/pegs/state": PegsPosition,
    "/pegs/move": PegsMove,
    "/pegs/hint": PegsSearch,
    "/pegs/solve": PegsSearch,
    "/pegs/judge": PegsJudge,
    "/pegs/classes": PegsPosition,
    "/shongololo/solve": ShongololoSolve,
    "/shongololo/judge": ShongololoJudge,
}
