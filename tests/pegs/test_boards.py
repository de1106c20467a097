"""Tests of the named boards: hole counts, symmetry groups, homes, hole names."""

from __future__ import annotations

import pytest

from boardlab.core.errors import UnknownNameError
from boardlab.pegs.boards import named_board
from boardlab.pegs.cells import Cell


@pytest.mark.parametrize(
    ("name", "holes", "symmetries", "jumps", "home"),
    [
        ("english", 33, 8, 76, "D4"),
        ("french", 37, 8, 92, "D4"),
        ("wiegleb", 45, 8, 108, "E5"),
        ("asymmetric", 39, 2, 92, "E5"),
        ("diamond", 41, 8, 100, "E5"),
        ("triangle-4", 10, 6, 18, "A1"),
        ("triangle-5", 15, 6, 36, "A1"),
        ("triangle-6", 21, 6, 60, "A1"),
    ],
)
def test_named_board_facts(name: str, holes: int, symmetries: int, jumps: int, home: str) -> None:
    board = named_board(name)
    assert board.size == holes
    assert len(board.symmetries()) == symmetries
    assert len(board.grid.jumps) == jumps
    assert str(board.home) == home
    assert board.start == board.grid.full & ~(1 << board.index(board.parse_hole(home)))


def test_jump_counts_by_formula() -> None:
    # A triangle of side n has (n-1)(n-2)/2 lines of three holes in each of its three
    # directions, and every line of three gives two jumps.
    for side in range(4, 12):
        board = named_board(f"triangle-{side}")
        assert board.size == side * (side + 1) // 2
        lines_of_three = 3 * (side - 2) * (side - 1) // 2
        assert len(board.grid.jumps) == 2 * lines_of_three


def test_english_hiq_numbers_follow_rows() -> None:
    board = named_board("english")
    assert [board.hole_name(cell) for cell in board.cells] == [str(n) for n in range(1, 34)]
    assert board.parse_hole("1") == Cell(0, 2)
    assert board.parse_hole("33") == Cell(6, 4)
    assert board.parse_hole("d4") == board.parse_hole("17")


def test_square_boards_use_pegged_names() -> None:
    board = named_board("french")
    assert board.hole_name(Cell(0, 2)) == "A3"
    assert board.parse_move("B4 D4") == board.parse_move("B4-D4")


def test_triangle_names_are_row_letter_and_place() -> None:
    board = named_board("triangle-5")
    assert [str(cell) for cell in board.cells[:6]] == ["A1", "B1", "B2", "C1", "C2", "C3"]
    assert board.parse_move("A1 C3").over == Cell(1, 1)  # type: ignore[union-attr]


def test_aliases_and_errors() -> None:
    assert named_board("European") is named_board("french")
    assert named_board("triangle5") is named_board("triangle-5")
    with pytest.raises(UnknownNameError, match="unknown board 'hexagon'"):
        named_board("hexagon")
    with pytest.raises(UnknownNameError, match="triangle side must be 4..25, got 3"):
        named_board("triangle-3")
    board = named_board("english")
    with pytest.raises(UnknownNameError, match="hole 34 does not exist"):
        board.parse_hole("34")
    with pytest.raises(UnknownNameError, match="A1 is not a hole of the english board"):
        board.parse_hole("A1")


def test_repr_rebuilds() -> None:
    from boardlab.pegs.boards import named_board as rebuilt

    board = named_board("diamond")
    assert eval(repr(board), {"named_board": rebuilt}) is board
