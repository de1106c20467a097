"""Tests of the peg text formats: round trips (hypothesis) and every error message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.pegs.boards import named_board
from boardlab.pegs.cells import Cell, Jump, Walk, parse_move
from boardlab.pegs.formats import (
    format_board_file,
    format_hiq_output,
    format_moves,
    parse_board_file,
    parse_hiq_input,
    parse_move_lines,
    parse_start,
)
from boardlab.pegs.rules import Position

cells = st.builds(Cell, st.integers(0, 24), st.integers(0, 48))
HINT = "(use _ for no hole, O for a hole, X for a peg)"
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


@given(cells)
def test_cell_round_trip(cell: Cell) -> None:
    assert Cell.parse(str(cell)) == cell
    assert eval(repr(cell)) == cell


@given(st.integers(2, 22), st.integers(2, 46), st.sampled_from(STEPS), st.booleans())
def test_move_round_trip(row: int, col: int, step: tuple[int, int], jump: bool) -> None:
    scale = 2 if jump else 1
    src, dst = Cell(row, col), Cell(row + scale * step[0], col + scale * step[1])
    move = Jump(src, dst) if jump else Walk(src, dst)
    assert parse_move(str(move)) == move
    assert parse_move(f"{move.src} {move.dst}") == move
    assert eval(repr(move)) == move


@given(st.lists(st.lists(st.sampled_from("_OX"), min_size=1, max_size=49), min_size=1, max_size=25))
def test_board_file_round_trip(rows: list[list[str]]) -> None:
    width = len(rows[0])
    grid = ["".join((row * width)[:width]) for row in rows]
    if all(set(line) == {"_"} for line in grid):
        grid[0] = "O" + grid[0][1:]
    text = "\n".join(grid) + "\n"
    position = parse_board_file(text)
    assert format_board_file(position) == text
    assert position.peg_count == text.count("X")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "b.txt:1:1: the board file is empty"),
        ("XOX\nXO\n", "b.txt:2:3: ragged row: 2 columns where the first row has 3"),
        ("XOX\nXOXX\n", "b.txt:2:4: ragged row: 4 columns where the first row has 3"),
        (
            "XOX\nX.X\n",
            "b.txt:2:2: '.' is not a board symbol (use _ for no hole, O for a hole, X for a peg)",
        ),
        ("XO X\n", f"b.txt:1:3: a space is not a board symbol {HINT}"),
        ("___\n___\n", "b.txt:1:1: the board has no holes"),
        ("X" * 50 + "\n", "b.txt:1:50: row is longer than 49 columns"),
        ("X\n" * 26, "b.txt:26:1: too many rows: 26 (at most 25)"),
    ],
)
def test_board_file_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_board_file(text, source="b.txt")
    assert str(caught.value) == message


def test_board_file_tolerates_crlf_and_trailing_blank_lines() -> None:
    position = parse_board_file("_X_\r\nXOX\r\n_X_\r\n\n\n")
    assert position.board.rows == 3 and position.peg_count == 4
    assert str(position.board.centre) == "B2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0", "<stdin>:1:1: number of games N must be 1 to 10, got 0"),
        ("11", "<stdin>:1:1: number of games N must be 1 to 10, got 11"),
        ("two", "<stdin>:1:1: number of games N must be an integer, got 'two'"),
        ("1\n5 34 0", "<stdin>:2:3: hole or 0 of game 1 of 1 must be 0 to 33, got 34"),
        ("1\n5 5 0", "<stdin>:2:3: hole 5 is listed twice in game 1"),
        ("1\n7 5 0", "<stdin>:2:3: holes of game 1 must increase: 5 comes after 7"),
        ("1\n5 6", "<stdin>:2:4: missing hole or 0 of game 1 of 1: the input ends here"),
        ("2\n5 6 0\n", "<stdin>:2:6: missing hole or 0 of game 2 of 2: the input ends here"),
        ("1\n5 x 0", "<stdin>:2:3: hole or 0 of game 1 of 1 must be an integer, got 'x'"),
        ("1\n-3 0", "<stdin>:2:1: hole or 0 of game 1 of 1 must be 0 to 33, got -3"),
        ("1\n5 0 7", "<stdin>:2:5: unexpected '7' after the end of the 1 game(s)"),
    ],
)
def test_hiq_input_errors(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_hiq_input(text)
    assert str(caught.value) == message


@given(st.lists(st.sets(st.integers(1, 33)), min_size=1, max_size=10), st.randoms())
def test_hiq_input_ignores_line_breaks(games: list[set[int]], rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    tokens = [str(len(games))]
    for game in games:
        tokens.extend(str(hole) for hole in sorted(game))
        tokens.append("0")
    text = "".join(token + rng.choice([" ", "\n", "  ", "\t", "\n\n"]) for token in tokens)
    assert parse_hiq_input(text) == [tuple(sorted(game)) for game in games]


def test_hiq_output_format() -> None:
    assert format_hiq_output([51, 0]) == "HI Q OUTPUT\n51\n0\nEND OF OUTPUT\n"


def test_move_lists_in_both_styles() -> None:
    board = named_board("english")
    moves = [board.parse_move("5-17"), board.parse_move("12-10")]
    assert format_moves(moves, board) == "5-17\n12-10\n"
    assert format_moves(moves, board, "pegged") == "B4 D4\nC6 C4\n"
    for style in ("board", "pegged"):
        lines = parse_move_lines(format_moves(moves, board, style), board)
        assert [line.move for line in lines] == moves
    with pytest.raises(BoardlabError, match="unknown move style"):
        format_moves(moves, board, "fancy")


def test_move_lines_keep_errors_with_line_numbers() -> None:
    lines = parse_move_lines("5-17\n\nhello\nA1 A9\n", named_board("english"))
    assert [(line.line, line.error is None) for line in lines] == [
        (1, True),
        (3, False),
        (4, False),
    ]
    assert lines[1].error == "not a move: 'hello' (expected FROM-TO or FROM TO, like D2-D4)"
    assert lines[2].error == "not a move: A1 and A9 are neither one nor two cells apart in a line"


def test_start_is_full_a_vacancy_or_a_board_file() -> None:
    board = named_board("english")
    assert parse_start(board, "full") == board.grid.full
    assert parse_start(board, " 17 ") == board.start
    assert parse_start(board, format_board_file(Position("english"))) == board.start
    with pytest.raises(BoardlabError, match="different board shape"):
        parse_start(board, "XXO\n", "tiny.txt")
    with pytest.raises(BoardlabError, match="hole 99 does not exist"):
        parse_start(board, "99")


def test_position_equals_its_board_file_round_trip() -> None:
    position = Position("english")
    assert parse_board_file(format_board_file(position)).bits == position.bits
