"""Interface layer: the peg-solitaire API's checks under ``/api/pegs/`` (judge, classes).

``judge`` checks a move list (``moves``, one ``FROM-TO`` a line, holes named as on the
board: row letter and column number, or the Hi-Q numbers of the English board) with
:func:`boardlab.pegs.judge.judge_text` and hands back the moves it could replay, for
the page to animate. ``classes`` explains with the position classes of
:mod:`boardlab.pegs.classes` which single pegs a start can end in, and which starts can
end in one peg at all: the reasons a start is impossible, in plain words.
"""

from __future__ import annotations

import io

from starlette.requests import Request
from starlette.routing import Route

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Jump
from boardlab.pegs.classes import class_name, position_class
from boardlab.pegs.rules import Position
from boardlab.web._http import Obj, endpoint, read_request
from boardlab.web.answers_games import PegsClasses, PegsJudged
from boardlab.web.api_pegs import read_position
from boardlab.web.schemas import PEGS_MAX_MOVE_LIST, PegsJudge, PegsPosition

__all__ = ["explain_classes", "routes"]

#: The most moves of a judged list handed back for the page to replay.
MAX_REPLAY = 2_000
#: The longest move list judged (characters).
MAX_MOVE_LIST = PEGS_MAX_MOVE_LIST
INVARIANT = (
    "Colour the holes with three colours along every line of the board, so that any "
    "three holes in a row have three different colours. A jump empties two holes and "
    "fills the third, so it turns the number of pegs on every colour from even to odd or "
    "back, all at once. Whether two colours' counts are both even or both odd never "
    "changes: those facts are the position's class ({name}), and no jump can leave its class."
)


def _names(board: Board, bits: list[int]) -> list[str]:
    return [str(board.cells[i]) for i in bits]


def explain_classes(position: Position) -> Obj:
    """Which single pegs ``position`` may end in by its class, which single-vacancy
    starts of its board may end in one peg, and why, in words."""
    board = position.board
    full = board.grid.full
    start = position_class(board, position.bits)
    single = [position_class(board, 1 << i) for i in range(board.size)]
    ends = [i for i in range(board.size) if single[i] == start]
    starts = [
        i for i in range(board.size) if position_class(board, full & ~(1 << i)) in set(single)
    ]
    name = class_name(start)
    words = [INVARIANT.format(name=name)]
    if position.walks:
        words.append("With walks (the PEGGED rules) a peg may also step, which changes the class.")
    elif ends:
        shown = ", ".join(_names(board, ends))
        words.append(
            f"One peg left must be in the same class, so the last peg can only be in {shown}."
        )
    else:
        words.append(
            f"No single peg on this board is in class {name}: no sequence of jumps from "
            "this position can leave one peg."
        )
    return {
        "class": name,
        "applies": not position.walks,
        "ends": _names(board, ends),
        "starts": _names(board, starts),
        "possible": position.walks or bool(ends),
        "explanation": " ".join(words),
    }


def classes(request: Request) -> Obj:
    """``POST /api/pegs/classes``: :func:`explain_classes` of the position a request
    describes."""
    return explain_classes(read_position(read_request(request, PegsPosition)))


def _replay(position: Position, text: str, upto: int | None) -> list[Obj]:
    """The moves of ``text`` before line ``upto`` (all when None), at most
    :data:`MAX_REPLAY` (read lazily: a long list is not parsed twice)."""
    moves: list[Obj] = []
    for number, line in enumerate(io.StringIO(text), start=1):
        if (upto is not None and number >= upto) or len(moves) == MAX_REPLAY:
            break
        if not line.strip():
            continue
        try:
            move = position.board.parse_move(line)
        except BoardlabError:
            break
        kind = "jump" if isinstance(move, Jump) else "walk"
        moves.append({"from": str(move.src), "to": str(move.dst), "kind": kind})
    return moves


def judge(request: Request) -> Obj:
    """``POST /api/pegs/judge``: the judge's verdict on a move list (``moves``, text),
    and the moves up to the first bad line (``replay``) for the page to show."""
    from boardlab.pegs.judge import judge_text

    asked = read_request(request, PegsJudge)
    position = read_position(asked)
    text = asked.moves
    verdict = judge_text(position, text)
    replay = _replay(position, text, None if verdict.valid else verdict.line)
    return {**verdict.as_dict(), "replay": replay}


routes = [
    Route("/pegs/judge", endpoint(judge, PegsJudged), methods=["POST"]),
    Route("/pegs/classes", endpoint(classes, PegsClasses), methods=["POST"]),
]
