"""Interface layer: the Ioiwari API under ``/api/ioiwari/`` (state, move, engine, analyze).

A game is its ``start`` (seven pit counts, 0..5 beads each, not all empty; the
statement's starts hold 2..4 beads and 20 in all) and the ``moves`` played so far
(pit labels 1..7, player 1 first); the server replays them with
:mod:`boardlab.ioiwari.rules`. The perfect player and the move values come from the
memoised exact solver :class:`boardlab.ioiwari.solver.MemoSolver` (plain Python,
shared by every request).
"""

from __future__ import annotations

import random
import threading

from starlette.requests import Request
from starlette.routing import Route

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.ioiwari.rules import IOI, Move, State
from boardlab.ioiwari.solver import MemoSolver, PerfectPlayer
from boardlab.ioiwari.solver import analyse as analyse_position
from boardlab.web._http import ApiError, Obj, endpoint, read_request, run_job
from boardlab.web.answers_games import (
    IoiwariAnalysis,
    IoiwariEngineMove,
    IoiwariReviewed,
    IoiwariState,
)
from boardlab.web.schemas import IoiwariGame, IoiwariMove, IoiwariStart
from boardlab.web.svgtag import tag_cells

__all__ = ["read_game", "routes", "state_of"]

PIT_FILL = "#7a4a1e"  # the fill of every pit in render.ioiwari.board_svg
_SOLVER = MemoSolver(IOI)
_SOLVER_LOCK = threading.Lock()


def read_game(game: IoiwariGame) -> State:
    """The game after replaying ``moves`` from ``start`` (a random start from ``seed``
    when ``start`` is absent).

    :raises BoardlabError: for a start that is no Ioiwari position or an illegal move.
    """
    if game.start is None:
        start = list(random.Random(game.seed).choice(IOI.starts()))
    else:
        start = list(game.start)
    IOI.check_pits(start)
    if not any(start):
        raise BoardlabError("The start has no beads: put some in its pits.")
    moves = game.moves
    state = State(IOI, start)
    for number, pit in enumerate(moves, start=1):
        try:
            state.play(Move(pit))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {number} (pit {pit}): {exc}") from None
    return state


def state_of(state: State, start: list[int] | None = None) -> Obj:
    """The JSON form of a game: pits, banks, side to move, legal pits, outcome, the SVG."""
    from boardlab.render.ioiwari import board_svg, transcript

    position = state.position()
    outcome = state.outcome()
    first = start if start is not None else _start_of(state)
    return {
        "start": first,
        "moves": [move.pit for move in state.history],
        "pits": list(state.pits),
        "banks": list(state.banks),
        "to_move": state.to_move,
        "legal": [move.pit for move in state.legal_moves()],
        "over": state.is_over(),
        "winner": None if outcome is None else outcome.winner,
        "result": None if outcome is None else str(outcome),
        "position": str(position),
        "transcript": transcript(first, state.history),
        "svg": tag_cells(
            board_svg(position, last=state.history[-1].pit if state.history else None),
            "circle",
            PIT_FILL,
            [str(i + 1) for i in range(len(state.pits))],
        ),
    }


def _start_of(state: State) -> list[int]:
    replay = state.copy()
    while replay.history:
        replay.pop()
    return list(replay.pits)


def _analysis(state: State) -> Obj:
    with _SOLVER_LOCK:
        found = analyse_position(_SOLVER, state.position())
    return found.as_dict()


def review(request: Request) -> Obj:
    """``POST /api/ioiwari/review``: every position of the game with the final banks
    perfect play reaches from it, and what each move cost its mover (mistakes marked;
    :func:`boardlab.ioiwari.review.review`)."""
    from boardlab.ioiwari.review import review as review_game

    game = read_game(read_request(request, IoiwariGame))
    pits = [move.pit for move in game.history]
    start = game.copy()
    while start.history:
        start.pop()

    def work() -> list[Obj]:
        with _SOLVER_LOCK:
            return [point.as_dict() for point in review_game(_SOLVER, start, pits)]

    return {"points": run_job(request, work)}


def start(request: Request) -> Obj:
    """``POST /api/ioiwari/start``: a start of the statement chosen from ``seed``."""
    seed = read_request(request, IoiwariStart).seed
    return state_of(read_game(IoiwariGame(seed=seed)))


def state(request: Request) -> Obj:
    """``POST /api/ioiwari/state``: the game a request describes."""
    game = read_game(read_request(request, IoiwariGame))
    return state_of(game)


def move(request: Request) -> Obj:
    """``POST /api/ioiwari/move``: sow pit ``move`` for the side to move; 422 if illegal."""
    asked = read_request(request, IoiwariMove)
    game = read_game(asked)
    game.play(Move(asked.move))
    return state_of(game)


def engine(request: Request) -> Obj:
    """``POST /api/ioiwari/engine``: the perfect player's move (ties broken by ``seed``)."""
    asked = read_request(request, IoiwariGame)
    game = read_game(asked)
    seed = asked.seed
    if game.is_over():
        raise ApiError(422, "the game is over: every pit is empty")

    def choose() -> Move:
        with _SOLVER_LOCK:
            player = PerfectPlayer(_SOLVER, random.Random(seed * 1000 + len(game.history)))
            return player.choose(game)

    chosen = run_job(request, choose)
    game.play(chosen)
    answer = state_of(game)
    answer["engine"] = {"move": chosen.pit}
    return answer


def analyse(request: Request) -> Obj:
    """``POST /api/ioiwari/analyze``: the value of the position and of every legal move
    (the bank difference the side to move gains from now on under perfect play)."""
    game = read_game(read_request(request, IoiwariGame))
    return run_job(request, lambda: _analysis(game))


routes = [
    Route("/ioiwari/start", endpoint(start, IoiwariState), methods=["POST"]),
    Route("/ioiwari/review", endpoint(review, IoiwariReviewed), methods=["POST"]),
    Route("/ioiwari/state", endpoint(state, IoiwariState), methods=["POST"]),
    Route("/ioiwari/move", endpoint(move, IoiwariState), methods=["POST"]),
    Route("/ioiwari/engine", endpoint(engine, IoiwariEngineMove), methods=["POST"]),
    Route("/ioiwari/analyze", endpoint(analyse, IoiwariAnalysis), methods=["POST"]),
]
