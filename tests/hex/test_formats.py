"""Position files: the diagram and HexGui SGF, round trips and located errors."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.errors import ParseError
from boardlab.hex.formats import (
    format_diagram,
    format_sgf,
    parse_diagram,
    parse_position,
    parse_sgf,
)
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

DATA = Path(__file__).parent / "data"


def random_position(size: int, rng: random.Random) -> Position:
    p = Position(size)
    for _ in range(rng.randrange(size * size + 1)):
        if p.winner is not None or not p.legal_moves():
            break
        p.push(rng.choice(p.legal_moves()))
    return p


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 26), st.randoms(use_true_random=False))
def test_round_trips(size: int, rng: random.Random) -> None:
    p = random_position(size, rng)
    q = parse_diagram(format_diagram(p))
    assert (q.board, q.to_move, q.winner) == (p.board, p.to_move, p.winner)
    s = parse_sgf(format_sgf(p))
    assert (s.board, s.to_move, s.winner) == (p.board, p.to_move, p.winner)


def test_sgf_moves_are_transposed_hexgui_points() -> None:
    p = parse_position((DATA / "game5.sgf").read_text(), "game5.sgf")
    # HexGui c3 d2 d3 b4 (first variation): black joins top/bottom there, so each point
    # is transposed into the IOI orientation
    assert p.stones(BLACK) == [Cell.parse("c3"), Cell.parse("c4")]
    assert p.stones(WHITE) == [Cell.parse("d2"), Cell.parse("b4")]
    assert p.to_move == BLACK


def test_sgf_writes_moves_after_setup() -> None:
    p = Position(3)
    text = format_sgf(p, [Cell.parse("b1").index(3), Cell.parse("a2").index(3)])
    assert text == "(;FF[4]GM[11]SZ[3]AP[boardlab];B[a2];W[b1])\n"
    q = parse_sgf(text)
    assert q.stones(BLACK) == [Cell.parse("b1")] and q.stones(WHITE) == [Cell.parse("a2")]


def test_ioi_sample_file() -> None:
    p = parse_position((DATA / "ioi7.txt").read_text(), "ioi7.txt")
    assert p.size == 7 and len(p.stones(BLACK)) == len(p.stones(WHITE)) == 3
    assert p.to_move == BLACK


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        (". X\n. . .\n. . .\n", "1:1", "row has 2 cells"),
        (". . .\n. Q .\n. . .\n", "2:3", "bad cell symbol 'Q'"),
        ("1 . .\n3 . .\n", "2:1", "row number 3 where row 2 was expected"),
        ("X X\n. .\n", "1:1", "unbalanced position: 2 black and 0 white"),
        ("O .\n. .\n", "1:1", "unbalanced position: 0 black and 1 white"),
        ("# nothing\n", "1:1", "no board rows found"),
        ("(;FF[4]GM[11]SZ[3];B[a1];B[b2])", "1:28", "B[b2] is played out of turn"),
        ("(;FF[4]GM[11]SZ[3];B[a1];W[a1])", "1:28", "already occupied"),
        ("(;FF[4]GM[11]SZ[3];B[d1])", "1:22", "off the 3x3 board"),
        ("(;FF[4]GM[1]SZ[3])", "1:8", "not a Hex game: GM[1]"),
        ("(;FF[4]GM[11])", "1:1", "missing SZ"),
        ("(;FF[4]GM[11]SZ[3x])", "1:17", "bad board size"),
        ("(;FF[4]GM[11]SZ[27])", "1:17", "board size must be in 1..26"),
        ("(;FF[4]GM[11]SZ[3]", "1:19", "unbalanced parentheses"),
        ("(;FF[4]GM[11]SZ[3];B[a1", "1:21", "unterminated property value"),
        ("(;FF[4]GM[11]SZ[3];B[swap-pieces])", "1:22", "unsupported move"),
        ("(;FF[4]GM[11]SZ[3]AB[a1][b1])", "1:1", "unbalanced"),
        ("(;FF[4]GM[11]SZ[3]) x", "1:21", "unexpected text after the game tree"),
    ],
)
def test_errors_name_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_position(text, "f")
    assert str(caught.value).startswith(f"f:{where}: "), str(caught.value)
    assert message in str(caught.value)
