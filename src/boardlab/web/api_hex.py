"""Interface layer: the Hex API under ``/api/hex/`` (state, move, engine, analyze, solve,
review, sgf, load).

A game is its ``size`` (1..26), whether the swap rule is on (``swap``) and the
``moves`` played so far (cell names such as ``b2``, black first, and ``swap-pieces``);
the server replays them with :mod:`boardlab.hex.rules` on every request. Every cell,
in requests and answers alike, has HexGui's name (:func:`boardlab.hex.rules.move_name`,
the name of the command line, GTP and SGF): ``b2`` is column b, row 2 of HexGui's
board, where player 1 (black, red on the page) joins the top and bottom edges and
player 2 (white, blue) the left and right ones. The answers are the results' own
``as_dict()``. The engine is :class:`boardlab.hex.player.SolvingEngine` under a time
or playout limit (as player 2 under the swap rule it first decides the swap with
:func:`boardlab.hex.player.decide_swap`); ``solve`` asks the exact solver
:func:`boardlab.hex.prover.solver.solve`, which the page offers only where it can finish
(``solvable``). ``sgf`` and ``load`` write and read the game as HexGui SGF
(:mod:`boardlab.hex.formats`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.routing import Route

from boardlab.core.limits import Limit
from boardlab.hex.board import LETTERS
from boardlab.hex.review import SOLVE_EMPTY as REVIEW_SOLVE_EMPTY
from boardlab.hex.rules import (
    MAX_SIZE,
    SWAP_MOVE,
    Position,
    game_over,
    move_name,
    parse_move_name,
    vertex,
)
from boardlab.web._http import ApiError, Obj, endpoint, read_request, run_job
from boardlab.web.answers import (
    HexAnalysis,
    HexEngineMove,
    HexReviewed,
    HexSgf,
    HexSolved,
    HexState,
)
from boardlab.web.schemas import (
    HEX_MAX_PLAYOUTS,
    HEX_MAX_SGF,
    HEX_MAX_TIME,
    HEX_REVIEW_LEAST,
    HexGame,
    HexLoad,
    HexMove,
    HexReview,
    HexSearch,
    HexSolve,
)
from boardlab.web.svgtag import tag_cells

if TYPE_CHECKING:
    from boardlab.hex.player import Choice

__all__ = ["MAX_SIZE", "read_game", "routes", "state_of"]

MAX_TIME = HEX_MAX_TIME
MAX_PLAYOUTS = HEX_MAX_PLAYOUTS
#: The exact solver is offered for positions with at most this many empty cells (an empty
#: 5 x 5 board takes well under a second; an empty 6 x 6 one does not finish in 30 s), the
#: review's and the analysis's limit too; the page reads it from the document.
SOLVE_EMPTY = REVIEW_SOLVE_EMPTY
MAX_SGF = HEX_MAX_SGF


def read_game(game: HexGame) -> Position:
    """The position after replaying ``moves`` on an empty ``size`` board.

    :raises BoardlabError: for a bad cell name or an illegal move (naming its number).
    """
    from boardlab.core.errors import IllegalMoveError

    size = game.size
    position = Position(size, swap=game.swap)
    for number, name in enumerate(game.moves, start=1):
        played = parse_move_name(name, size)
        try:
            position.play(played)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} ({name}): {exc}") from None
    return position


def _numbers(position: Position) -> dict[str, int]:
    """Each stone's move number (a swapped stone takes the swap's number)."""
    numbers: dict[str, int] = {}
    for number, played in enumerate(position.history, start=1):
        if played == SWAP_MOVE:
            numbers.clear()
            white = position.stones(2)
            if white:
                numbers[white[0].vertex()] = number
        else:
            numbers[move_name(played)] = number
    return numbers


def state_of(position: Position) -> Obj:
    """The JSON form of a game: moves, side to move, winner and winning chain, each
    stone's move number, the last stone, whether a swap or the exact solver is on offer,
    every cell's name in HexGui's reading order (``cells``: ``a1 b1 ... a2 b2 ...``, row
    by row as the page draws them), the SVG."""
    from boardlab.render.hex import CELL_FILL, svg_picture

    size = position.size
    names = [vertex(i, size) for i in range(size * size)]
    drawn = [f"{LETTERS[col]}{row + 1}" for row in range(size) for col in range(size)]
    numbers = _numbers(position)
    empty = sum(1 for value in position.board if value == 0)
    return {
        "size": size,
        "swap": position.swap,
        "can_swap": position.can_swap(),
        "moves": [move_name(played) for played in position.history],
        "numbers": numbers,
        "last": max(numbers, key=numbers.__getitem__) if numbers else None,
        "solvable": position.winner is None and empty <= SOLVE_EMPTY,
        "to_move": position.to_move,
        "winner": position.winner,
        "chain": [names[i] for i in position.winning_chain()],
        "legal": [names[i] for i in position.legal_indices()],
        "cells": drawn,
        "stones": {
            str(player): [cell.vertex() for cell in position.stones(player)] for player in (1, 2)
        },
        "svg": tag_cells(svg_picture(position), "polygon", CELL_FILL, drawn),
    }


def state(request: Request) -> Obj:
    """``POST /api/hex/state``: the game a request describes."""
    return state_of(read_game(read_request(request, HexGame)))


def move(request: Request) -> Obj:
    """``POST /api/hex/move``: play ``move`` for the side to move; 422 with the reason if
    it is illegal (an occupied cell, a cell off the board, a game already won)."""
    asked = read_request(request, HexMove)
    position = read_game(asked)
    position.play(parse_move_name(asked.move, position.size))
    return state_of(position)


def _searched(asked: HexSearch) -> tuple[Position, Limit, int]:
    position = read_game(asked)
    limit = Limit(nodes=asked.playouts) if asked.playouts is not None else Limit(time=asked.time)
    seed = asked.seed
    if position.winner is not None:
        raise ApiError(422, game_over(position.winner))
    return position, limit, seed + len(position.history)


def _choose(position: Position, limit: Limit, seed: int) -> Choice:
    """The engine's move (:func:`boardlab.hex.player.choose_move`) with its evidence."""
    from boardlab.hex.player import SolvingEngine, choose_move

    return choose_move(SolvingEngine(seed=seed), position, limit)


def engine(request: Request) -> Obj:
    """``POST /api/hex/engine``: the engine's move for the side to move (``time`` seconds
    or ``playouts``; ``seed``), played, with its evidence; under the swap rule, player 2's
    first answer may be the swap."""
    position, limit, seed = _searched(read_request(request, HexSearch))
    chosen = run_job(request, lambda: _choose(position, limit, seed))
    position.play(chosen.move)
    answer = state_of(position)
    answer["engine"] = chosen.as_dict()
    return answer


def analyse(request: Request) -> Obj:
    """``POST /api/hex/analyze``: the engine's view of the position without playing: its
    move, the side to move's win rate and the most visited moves with theirs, overruled
    by the exact solver where it proves the position (:func:`boardlab.hex.review.analyse`:
    winning moves at 100 %, losing ones at 0 %)."""
    from boardlab.hex.review import analyse as analyse_position

    position, limit, seed = _searched(read_request(request, HexSearch))
    found = run_job(request, lambda: analyse_position(position, limit, seed))
    return {"to_move": position.to_move, **found}


def solve(request: Request) -> Obj:
    """``POST /api/hex/solve``: who wins with perfect play and the winning moves of the side
    to move (exact; practical up to about 5 x 5, ``time`` bounds it)."""
    from boardlab.hex.prover.solver import solve as solve_position

    asked = read_request(request, HexSolve)
    position = read_game(asked)
    seconds = asked.time
    result = run_job(request, lambda: solve_position(position, Limit(time=seconds)))
    return result.as_dict()


#: Playouts a review may spend on the whole game (each position gets an equal share, at
#: most the ``playouts`` asked for and at least :data:`REVIEW_LEAST`).
REVIEW_PLAYOUTS = 400_000
REVIEW_LEAST = HEX_REVIEW_LEAST


def review(request: Request) -> Obj:
    """``POST /api/hex/review``: player 1's chance after every move of the game (exact
    where the solver finishes, else the engine's search of ``playouts`` each) and the
    moves that turned it (:func:`boardlab.hex.review.review`)."""
    from boardlab.hex.review import review as review_game

    game = read_request(request, HexReview)
    position = read_game(game)
    seed = game.seed
    share = max(REVIEW_LEAST, min(game.playouts, REVIEW_PLAYOUTS // (len(position.history) + 1)))
    moves = list(position.history)
    points = run_job(request, lambda: review_game(position.size, moves, position.swap, share, seed))
    return {"playouts": share, "points": [point.as_dict() for point in points]}


def sgf(request: Request) -> Obj:
    """``POST /api/hex/sgf``: the game as HexGui SGF text."""
    from boardlab.hex.formats import format_sgf

    position = read_game(read_request(request, HexGame))
    return {"sgf": format_sgf(Position(position.size, position.swap), position.indices)}


def load(request: Request) -> Obj:
    """``POST /api/hex/load``: the game of a HexGui SGF text (``sgf``), which must start
    from the empty board; 422 naming the line and column of what is wrong."""
    from boardlab.hex.formats import parse_sgf

    asked = read_request(request, HexLoad)
    position = parse_sgf(asked.sgf, source="sgf", swap=asked.swap, as_played=True)
    if not position.start_empty:
        raise ApiError(422, "the page plays games from the empty board: this SGF sets up stones")
    return state_of(position)


routes = [
    Route("/hex/state", endpoint(state, HexState), methods=["POST"]),
    Route("/hex/move", endpoint(move, HexState), methods=["POST"]),
    Route("/hex/engine", endpoint(engine, HexEngineMove), methods=["POST"]),
    Route("/hex/analyze", endpoint(analyse, HexAnalysis), methods=["POST"]),
    Route("/hex/solve", endpoint(solve, HexSolved), methods=["POST"]),
    Route("/hex/review", endpoint(review, HexReviewed), methods=["POST"]),
    Route("/hex/sgf", endpoint(sgf, HexSgf), methods=["POST"]),
    Route("/hex/load", endpoint(load, HexState), methods=["POST"]),
]
