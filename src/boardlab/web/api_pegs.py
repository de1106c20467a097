"""Interface layer: the peg-solitaire API under ``/api/pegs/`` (boards, moves, hint, solve;
the judge and the position classes are in :mod:`boardlab.web.api_pegs_check`).

The server keeps no game: every request names the board (``board``: a named board, or
``board_file``: the text of a PEGGED board file), the pegs (``pegs``: hole names; by
default the board's start, or ``start``: ``full`` or the single vacant hole) and
whether walks are allowed (``walks``, the PEGGED rules). Holes are named as the board
is labelled (row letter, column number, ``D4``) on every board. Answers carry the position
(pegs, legal moves, the SVG picture of :func:`boardlab.render.pegs.svg_picture`).

``hint`` and ``solve`` use the solver of :mod:`boardlab.pegs.solver` (jumps only, to
the goal: the home hole or one peg anywhere) and, with walks, the PEGGED optimiser
:class:`boardlab.pegs.pegged.PeggedSolver` (one peg anywhere); they answer the solver's
result as its ``as_dict()`` gives it, the CLI's ``--json``, and add nothing (the page
reads the moves from their text).
"""

from __future__ import annotations

import dataclasses

from starlette.requests import Request
from starlette.routing import Route

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.cells import Jump, Move
from boardlab.pegs.rules import Position
from boardlab.web._http import ApiError, Obj, endpoint, read_request, run_job
from boardlab.web.answers_games import PegsBoards, PegsMoved, PegsSearched, PegsState
from boardlab.web.schemas import (
    PEGS_MAX_BOARD_FILE,
    PEGS_MAX_TIME,
    PegsMove,
    PegsPosition,
    PegsSearch,
)
from boardlab.web.svgtag import tag_cells

__all__ = ["BOARD_CHOICES", "read_position", "routes", "state_of"]

#: Boards offered by the page (any ``triangle-N``, N = 4..25, is accepted too).
BOARD_CHOICES = (
    "english",
    "french",
    "wiegleb",
    "asymmetric",
    "diamond",
    "triangle-4",
    "triangle-5",
    "triangle-6",
)
HOLE_FILL = "#d8c29b"  # the fill of every hole in render.pegs.svg_picture
MAX_BOARD_FILE = PEGS_MAX_BOARD_FILE
MAX_TIME = PEGS_MAX_TIME


def read_position(asked: PegsPosition) -> Position:
    """The position a request describes (board, pegs, walks).

    :raises ApiError: for more pegs than the board has holes.
    :raises BoardlabError: for an unknown board, a malformed board file, a hole that
        does not exist.
    """
    from boardlab.pegs.formats import parse_board_file, parse_start

    board: Board
    if asked.board_file is not None:
        position = parse_board_file(asked.board_file, source="board_file", name="pasted board")
        board, bits = position.board, position.bits
    else:
        board = named_board(asked.board)
        # one notation on the page: the board's row letters and column numbers (the
        # English board's Hi-Q hole numbers are not used, in moves, goals or verdicts)
        board = dataclasses.replace(board, numbered=False)
        bits = board.start
    start = asked.start.strip()
    if start:
        bits = parse_start(board, start, source="start")
    if asked.pegs is not None:
        if len(asked.pegs) > board.size:
            raise ApiError(
                400, f"There are more pegs than the board has holes ({board.size}).", field="pegs"
            )
        bits = board.bits(board.parse_hole(name) for name in asked.pegs)
    return Position(board, bits, walks=asked.walks)


def _move_of(position: Position, move: Move) -> Obj:
    return {
        "from": str(move.src),
        "to": str(move.dst),
        "kind": "jump" if isinstance(move, Jump) else "walk",
        "text": position.board.move_text(move),
    }


def state_of(position: Position) -> Obj:
    """The JSON form of a position: holes, pegs, legal moves, whether it is over, the SVG."""
    from boardlab.render.pegs import board_file_text, svg_picture

    board = position.board
    names = [str(cell) for cell in board.cells]
    picture = tag_cells(svg_picture(position), "circle", HOLE_FILL, names)
    return {
        "board": board.name,
        "triangular": board.triangular,
        "holes": names,
        "labels": [board.hole_name(cell) for cell in board.cells],
        "home": None if board.home is None else str(board.home),
        "pegs": [str(cell) for cell in position.pegs],
        "peg_count": position.peg_count,
        "walks": position.walks,
        "legal": [_move_of(position, move) for move in position.legal_moves()],
        "over": position.is_over(),
        "board_file": None if board.triangular else board_file_text(position),
        "svg": picture,
    }


def boards(request: Request) -> Obj:
    """``GET /api/pegs/boards``: the named boards with their hole counts."""
    return {
        "boards": [
            {"name": name, "holes": named_board(name).size, "home": str(named_board(name).home)}
            for name in BOARD_CHOICES
        ],
        "triangles": "triangle-N for N = 4..25",
    }


def state(request: Request) -> Obj:
    """``POST /api/pegs/state``: the position a request describes."""
    return state_of(read_position(read_request(request, PegsPosition)))


def move(request: Request) -> Obj:
    """``POST /api/pegs/move``: play ``move`` (``FROM-TO``); 422 with the reason if illegal."""
    asked = read_request(request, PegsMove)
    position = read_position(asked)
    played = position.board.parse_move(asked.move)
    position.play(played)
    result = state_of(position)
    result["played"] = _move_of(position, played)
    return result


def _goal_text(goal: str, board: Board) -> str:
    default = "centre" if board.home is not None else "any"
    return goal.strip() or default


def _jump_search(position: Position, goal_text: str, seconds: float) -> Obj:
    from boardlab.pegs.formats import parse_goal
    from boardlab.pegs.solver import make_problem, solve

    board = position.board
    problem = make_problem(board, position.bits, parse_goal(board, goal_text))
    return solve(problem, Limit(time=seconds), undecided=True).as_dict()


def _walk_search(position: Position, seconds: float, seed: int) -> Obj:
    from boardlab.pegs.pegged import PeggedSolver

    if position.board.triangular:
        raise BoardlabError(
            "the PEGGED optimiser works on square boards only; turn walks off on a triangle"
        )
    return PeggedSolver(Limit(time=seconds), seed=seed).answer(position).as_dict()


def _search(request: Request, default_time: float) -> Obj:
    """The solver's result for the position a request describes, as its ``as_dict``:
    :class:`boardlab.pegs.solver.Solution` (``pegs solve --json``) or, with walks,
    :class:`boardlab.pegs.pegged.PeggedResult` or ``PeggedNoAnswer`` (``pegged solve
    --json``)."""
    asked = read_request(request, PegsSearch)
    position = read_position(asked)
    seconds = default_time if asked.time is None else asked.time
    seed = asked.seed
    goal_text = _goal_text(asked.goal, position.board)
    if position.walks:
        return run_job(request, lambda: _walk_search(position, seconds, seed))
    return run_job(request, lambda: _jump_search(position, goal_text, seconds))


def hint(request: Request) -> Obj:
    """``POST /api/pegs/hint``: the solver's result, as for ``solve`` but with 5 s by
    default; the page shows its first move (``solved`` with no moves: the goal is
    reached), or the proof that there is none (``proven``, not ``solved``, the
    ``reason``), or that the time ran out (neither)."""
    return _search(request, 5.0)


def solve(request: Request) -> Obj:
    """``POST /api/pegs/solve``: a whole solution from the position (the page animates it)."""
    return _search(request, 10.0)


routes = [
    Route("/pegs/boards", endpoint(boards, PegsBoards), methods=["GET"]),
    Route("/pegs/state", endpoint(state, PegsState), methods=["POST"]),
    Route("/pegs/move", endpoint(move, PegsMoved), methods=["POST"]),
    Route("/pegs/hint", endpoint(hint, PegsSearched), methods=["POST"]),
    Route("/pegs/solve", endpoint(solve, PegsSearched), methods=["POST"]),
]
