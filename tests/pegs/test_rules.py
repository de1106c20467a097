"""Tests of positions: legal moves, push/pop, play with reasons, walks."""

from __future__ import annotations

import random

import pytest

from boardlab.core.errors import IllegalMoveError
from boardlab.pegs.boards import named_board
from boardlab.pegs.cells import Cell, Jump, Walk
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.rules import Position


def test_english_start_has_four_jumps_into_the_centre() -> None:
    position = Position("english")
    assert position.peg_count == 32
    assert {str(jump.dst) for jump in position.legal_jumps()} == {"D4"}


def test_push_pop_restores_everything() -> None:
    rng = random.Random(7)
    for name in ("english", "french", "triangle-6", "asymmetric"):
        position = Position(name)
        history = []
        while moves := position.legal_moves():
            history.append(position.bits)
            position.push(rng.choice(moves))
        assert position.peg_count == named_board(name).size - 1 - len(history)
        while history:
            position.pop()
            assert position.bits == history.pop()
        assert position.history == ()


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        (Jump(Cell(1, 3), Cell(3, 3)), None),
        (Jump(Cell(0, 3), Cell(2, 3)), "A4-C4: C4 is not empty"),
        (Jump(Cell(0, 0), Cell(0, 2)), "A1-A3: A1 is not a hole of the board"),
        (Walk(Cell(2, 3), Cell(3, 3)), "C4-D4: walks are not allowed here (jumps only)"),
    ],
)
def test_reasons(move: Jump | Walk, reason: str | None) -> None:
    position = Position(named_board("french"))
    assert position.why_illegal(move) == reason


def test_diagonal_jump_is_legal_only_on_triangles() -> None:
    square = Position("english", named_board("english").grid.full)
    square.bits &= ~(1 << square.board.index(Cell(4, 4)))
    diagonal = Jump(Cell(2, 2), Cell(4, 4))
    assert square.why_illegal(diagonal) == "9-25: not along a line of the english board"
    triangle = Position("triangle-5")
    assert triangle.is_legal(Jump(Cell(2, 2), Cell(0, 0)))


def test_play_raises_with_the_reason() -> None:
    position = Position("english")
    position.play(position.board.parse_move("5-17"))
    with pytest.raises(IllegalMoveError, match="^2-10: no peg to jump over at 5$"):
        position.play(position.board.parse_move("2-10"))
    assert position.peg_count == 31


def test_walks_under_pegged_rules() -> None:
    position = parse_board_file("__OO_\n__OO_\nOOXOO\nOOOOX\n____X\n")
    position.walks = True
    moves = ["E5 C5", "C3 C4", "C5 C3"]
    for text in moves:
        position.play(position.board.parse_move(text))
    assert [str(cell) for cell in position.pegs] == ["C3"]
    assert position.outcome() == 1


def test_copy_is_independent() -> None:
    position = Position("english")
    twin = position.copy()
    twin.push(twin.legal_moves()[0])
    assert position.peg_count == 32 and twin.peg_count == 31
    assert twin != position and twin.copy() == twin


def _rules_namespace() -> dict[str, object]:
    import boardlab.pegs.boards
    import boardlab.pegs.cells
    import boardlab.pegs.rules

    namespace: dict[str, object] = {}
    for module in (boardlab.pegs.rules, boardlab.pegs.boards, boardlab.pegs.cells):
        namespace.update({k: getattr(module, k) for k in dir(module) if not k.startswith("_")})
    return namespace


@pytest.mark.parametrize(
    "position",
    [
        Position("english"),
        Position("triangle-5", 0b1011, walks=True),
        parse_board_file("_XO_\nXXOX\nOOXO\n", "odd.txt"),
    ],
)
def test_repr_rebuilds_named_and_file_boards(position: Position) -> None:
    rebuilt = eval(repr(position), _rules_namespace())
    assert rebuilt == position and repr(rebuilt) == repr(position)
