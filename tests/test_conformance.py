"""The state protocol of ``core/state.py``, checked the same way on every game.

Seeded random playouts from seeded starts check, at every step: the legal moves are
legal and their text forms round-trip; every other candidate move is refused by
``play`` with an ``IllegalMoveError`` and leaves the state as it was; ``repr`` rebuilds
an equal state; a copy is independent; ``push`` then ``pop`` restores the state; the
game is over exactly when no move is left, and only then has an outcome; a game's own
fast path (Hex's ``push_index``/``pop_index``, Mars's ``advance``) makes the same state
and history as ``push`` and pops back the same. At the end the whole history pops back
to the start.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from boardlab.core.errors import IllegalMoveError, NoMoveToUndoError
from boardlab.core.state import GameState

State = GameState[Any, Any, Any]


@dataclass(frozen=True)
class Case:
    """One game: seeded starts, a move parser and the moves worth trying in a state."""

    name: str
    start: Callable[[random.Random], State]
    parse: Callable[[State, str], object]
    candidates: Callable[[State], list[Any]]
    namespace: Callable[[], dict[str, object]]
    max_moves: int = 400
    #: the game's fast path: make a legal move its own way (None: it has none)
    fast: Callable[[State, Any], None] | None = None


def _names(*modules: str) -> dict[str, object]:
    import importlib

    namespace: dict[str, object] = {}
    for name in modules:
        module = importlib.import_module(name)
        namespace.update({key: getattr(module, key) for key in dir(module) if key[0] != "_"})
    return namespace


# -- peg solitaire ------------------------------------------------------------------------
def _pegs_start(rng: random.Random) -> State:
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.rules import Position

    name = rng.choice(["english", "french", "wiegleb", "diamond", "triangle-5", "asymmetric"])
    board = named_board(name)
    holes = list(range(board.size))
    empty = rng.sample(holes, rng.choice([1, 1, 2, 5]))
    bits = sum(1 << hole for hole in holes if hole not in empty)
    return Position(board, bits, walks=rng.random() < 0.3)


def _pegs_parse(state: State, text: str) -> object:
    from boardlab.pegs.cells import parse_move

    return parse_move(text)


def _pegs_candidates(state: State) -> list[Any]:
    from boardlab.pegs.cells import Jump, Walk

    board = state.board  # type: ignore[attr-defined]
    cells = board.cells
    moves: list[Any] = [Jump(cells[a], cells[c]) for a, _, c in board.grid.jumps]
    moves += [Walk(cells[a], cells[b]) for a, b in board.grid.steps]
    return moves


# -- Hex ----------------------------------------------------------------------------------
def _hex_start(rng: random.Random) -> State:
    from boardlab.hex.rules import Position

    return Position(rng.choice([1, 2, 3, 4, 5, 7]), swap=rng.random() < 0.5)


def _hex_parse(state: State, text: str) -> object:
    from boardlab.hex.rules import parse_move

    return parse_move(text, state.size)  # type: ignore[attr-defined]


def _hex_candidates(state: State) -> list[Any]:
    from boardlab.hex.rules import SWAP_MOVE, Cell

    size: int = state.size  # type: ignore[attr-defined]
    cells: list[Any] = [Cell(row, col) for row in range(size + 1) for col in range(size)]
    return [*cells, SWAP_MOVE]


# -- Ioiwari ------------------------------------------------------------------------------
def _ioiwari_start(rng: random.Random) -> State:
    from boardlab.ioiwari.rules import IOI, State

    return State(IOI, rng.choice(IOI.starts()))


def _ioiwari_parse(state: State, text: str) -> object:
    from boardlab.ioiwari.rules import Move

    return Move.parse(text)


def _ioiwari_candidates(state: State) -> list[Any]:
    from boardlab.ioiwari.rules import Move

    return [Move(pit) for pit in range(1, len(state.pits) + 2)]  # type: ignore[attr-defined]


# -- Mars explorer ------------------------------------------------------------------------
def _mars_start(rng: random.Random) -> State:
    from boardlab.mars.formats import parse_map
    from boardlab.mars.rules import Expedition

    width, height = rng.randint(1, 6), rng.randint(1, 6)
    rows = [[rng.choice((0, 0, 0, 1, 2)) for _ in range(width)] for _ in range(height)]
    rows[0][0] = rows[-1][-1] = 0
    text = "\n".join([str(rng.randint(1, 3)), str(width), str(height)])
    text += "\n" + "\n".join(" ".join(map(str, row)) for row in rows) + "\n"
    return Expedition(parse_map(text))


def _mars_parse(state: State, text: str) -> object:
    from boardlab.mars.values import Step

    return Step.parse(text)


def _mars_candidates(state: State) -> list[Any]:
    from boardlab.mars.values import Step

    vehicles: int = state.mars.vehicles  # type: ignore[attr-defined]
    return [Step(vehicle, way) for vehicle in range(1, vehicles + 1) for way in (0, 1)]


# -- Toxic iShongololo --------------------------------------------------------------------
def _shongololo_start(rng: random.Random) -> State:
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.rules import Shongololo

    return Shongololo(Box(rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 3)))


def _shongololo_parse(state: State, text: str) -> object:
    from boardlab.shongololo.blocks import Action

    return Action.parse(text)


def _shongololo_candidates(state: State) -> list[Any]:
    from boardlab.shongololo.blocks import Action, Block

    box = state.box  # type: ignore[attr-defined]
    blocks = [
        Block(x, y, z)
        for x in range(1, box.length + 2)
        for y in range(1, box.width + 2)
        for z in range(1, box.height + 2)
    ]
    return [Action(kind, block) for block in blocks for kind in ("E", "M")]


def _hex_fast(state: State, move: Any) -> None:
    index = state.index_of(move)  # type: ignore[attr-defined]
    state.push_index(index)  # type: ignore[attr-defined]
    assert state.indices[-1] == index  # type: ignore[attr-defined]


def _mars_fast(state: State, move: Any) -> None:
    assert state.advance(move.vehicle, move.direction) is None  # type: ignore[attr-defined]


CASES = [
    Case(
        "pegs",
        _pegs_start,
        _pegs_parse,
        _pegs_candidates,
        lambda: _names("boardlab.pegs.boards", "boardlab.pegs.cells", "boardlab.pegs.rules"),
    ),
    Case(
        "hex",
        _hex_start,
        _hex_parse,
        _hex_candidates,
        lambda: _names("boardlab.hex.rules"),
        fast=_hex_fast,
    ),
    Case(
        "ioiwari",
        _ioiwari_start,
        _ioiwari_parse,
        _ioiwari_candidates,
        lambda: _names("boardlab.ioiwari.rules"),
    ),
    Case(
        "mars",
        _mars_start,
        _mars_parse,
        _mars_candidates,
        lambda: _names("boardlab.mars.values", "boardlab.mars.rules"),
        fast=_mars_fast,
    ),
    Case(
        "shongololo",
        _shongololo_start,
        _shongololo_parse,
        _shongololo_candidates,
        lambda: _names("boardlab.shongololo.blocks", "boardlab.shongololo.rules"),
    ),
]


def _check_step(case: Case, state: State, rng: random.Random, namespace: dict[str, object]) -> Any:
    """Every check of one state; returns the move to play next."""
    legal = state.legal_moves()
    assert state.is_over() == (not legal), f"{state!r}: is_over disagrees with legal_moves"
    assert (state.outcome() is None) == (not state.is_over())
    rebuilt = eval(repr(state), namespace)  # the repr is an expression that rebuilds it
    assert rebuilt == state, f"{state!r} does not rebuild itself"
    for move in legal:
        assert state.is_legal(move) and state.why_illegal(move) is None
        assert case.parse(state, str(move)) == move, f"{move!r}: text form does not round-trip"
    before = state.copy()
    for move in case.candidates(state):
        if move in legal:
            continue
        assert not state.is_legal(move)
        with pytest.raises(IllegalMoveError):
            state.play(move)
        assert state == before and state.history == before.history
    if not legal:
        return None
    move = rng.choice(legal)
    twin = state.copy()
    twin.push(move)
    assert state == before and state.history == before.history, "a copy shares its state"
    assert twin.history == (*before.history, move)
    state.push(move)
    assert state == twin
    assert state.pop() == move
    assert state == before and state.history == before.history, "pop did not restore"
    if case.fast is not None:
        quick = state.copy()
        case.fast(quick, move)
        assert quick == twin and quick.history == twin.history, "the fast path differs"
        assert quick.ply == twin.ply == before.ply + 1
        assert quick.pop() == move
        assert quick == before and quick.history == before.history, "fast move did not pop"
    return move


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
@pytest.mark.parametrize("seed", range(6))
def test_state_protocol(case: Case, seed: int) -> None:
    rng = random.Random(f"{case.name}:{seed}")
    state = case.start(rng)
    assert isinstance(state, GameState)
    namespace = case.namespace()
    start = state.copy()
    for _ in range(case.max_moves):
        move = _check_step(case, state, rng, namespace)
        if move is None:
            break
        state.play(move)
    while state.history:
        state.pop()
    assert state == start and state.history == ()
    with pytest.raises(NoMoveToUndoError):
        state.pop()
