"""Interface layer: the Hex API under ``/api/hex/`` (state, move, engine, solve).

A game is its ``size`` (1..26) and the ``moves`` played so far (cell
names such as ``b2``, black first); the server replays them with
:mod:`boardlab.hex.rules` on every request. Player 1 (black, red on the picture) joins
the left and right edges, player 2 (white, blue) the top and bottom ones. The engine
is :class:`boardlab.hex.search.MctsEngine` under a time or playout limit; ``solve``
asks the exact solver :func:`boardlab.hex.solver.solve`.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from boardlab.core.limits import Limit
from boardlab.hex.rules import MAX_SIZE, Cell, Position
from boardlab.web._http import (
    ApiError,
    Obj,
    endpoint,
    field_float,
    field_int,
    field_str,
    field_str_list,
    read_object,
    run_job,
)
from boardlab.web.svgtag import tag_cells

__all__ = ["MAX_SIZE", "read_game", "routes", "state_of"]

HEX_FILL = "#f4e7c5"  # the fill of every hexagon in render.hex.svg_picture
MAX_TIME = 30.0
MAX_PLAYOUTS = 1_000_000


def read_game(data: Obj) -> Position:
    """The position after replaying ``moves`` on an empty ``size`` board.

    :raises ApiError: for a field of the wrong kind.
    :raises BoardlabError: for a bad cell name or an illegal move (naming its number).
    """
    from boardlab.core.errors import IllegalMoveError

    size = field_int(data, "size", 7, low=1, high=MAX_SIZE)
    moves = field_str_list(data, "moves", [], max_items=size * size)
    position = Position(size)
    for number, name in enumerate(moves, start=1):
        cell = Cell.parse(name, size)
        try:
            position.play(cell)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} ({name}): {exc}") from None
    return position


def state_of(position: Position) -> Obj:
    """The JSON form of a game: moves, side to move, winner and winning chain, the SVG."""
    from boardlab.render.hex import svg_picture

    size = position.size
    names = [str(Cell.of_index(i, size)) for i in range(size * size)]
    return {
        "size": size,
        "moves": [names[i] for i in position.indices],
        "to_move": position.to_move,
        "winner": position.winner,
        "chain": [names[i] for i in position.winning_chain()],
        "legal": [names[i] for i in position.legal_indices()],
        "cells": names,
        "stones": {str(player): [str(c) for c in position.stones(player)] for player in (1, 2)},
        "svg": tag_cells(svg_picture(position), "polygon", HEX_FILL, names),
    }


async def state(request: Request) -> Obj:
    """``POST /api/hex/state``: the game a request describes."""
    return state_of(read_game(await read_object(request)))


async def move(request: Request) -> Obj:
    """``POST /api/hex/move``: play ``move`` for the side to move; 422 with the reason if
    it is illegal (an occupied cell, a cell off the board, a game already won)."""
    data = await read_object(request)
    position = read_game(data)
    position.play(Cell.parse(field_str(data, "move", max_len=8), position.size))
    return state_of(position)


def _limit(data: Obj) -> Limit:
    if data.get("playouts") is not None:
        return Limit(nodes=field_int(data, "playouts", low=1, high=MAX_PLAYOUTS))
    return Limit(time=field_float(data, "time", 1.0, low=0.01, high=MAX_TIME))


async def engine(request: Request) -> Obj:
    """``POST /api/hex/engine``: the engine's move for the side to move (``time`` seconds
    or ``playouts``; ``seed``), played, with its evidence."""
    from boardlab.hex.search import MctsEngine

    data = await read_object(request)
    position = read_game(data)
    limit = _limit(data)
    seed = field_int(data, "seed", 0, low=0, high=2**31 - 1)
    if position.winner is not None:
        raise ApiError(422, f"the game is over: player {position.winner} has won")
    engine = MctsEngine(seed=seed + len(position.history))
    result = await run_job(request, lambda: engine.search(position, limit))
    position.play_index(result.move)
    answer = state_of(position)
    answer["engine"] = result.as_dict(position.size)
    return answer


async def solve(request: Request) -> Obj:
    """``POST /api/hex/solve``: who wins with perfect play and the winning moves of the side
    to move (exact; practical up to about 5 x 5, ``time`` bounds it)."""
    from boardlab.hex.solver import solve as solve_position

    data = await read_object(request)
    position = read_game(data)
    seconds = field_float(data, "time", 5.0, low=0.1, high=MAX_TIME)
    result = await run_job(request, lambda: solve_position(position, Limit(time=seconds)))
    return result.as_dict(position.size)


routes = [
    Route("/hex/state", endpoint(state), methods=["POST"]),
    Route("/hex/move", endpoint(move), methods=["POST"]),
    Route("/hex/engine", endpoint(engine), methods=["POST"]),
    Route("/hex/solve", endpoint(solve), methods=["POST"]),
]
