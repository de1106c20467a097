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
from boardlab.hex.rules import BLACK, SWAP, WHITE, Cell, Position

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
        ("(;FF[4]GM[11]SZ[3];B[swap-pieces])", "1:22", "only white may swap"),
        ("(;FF[4]GM[11]SZ[3];W[swap-pieces])", "1:22", "W[swap-pieces] is played out of turn"),
        (
            "(;FF[4]GM[11]SZ[3];B[a1];W[b2];B[c3];W[swap-pieces])",
            "1:40",
            "answer to player 1's first stone",
        ),
        (
            "(;FF[4]GM[11]SZ[3]AB[a1]AW[c3];B[b2];W[swap-pieces])",
            "1:40",
            "did not start from the empty board",
        ),
        ("(;FF[4]GM[11]SZ[3];B[a1];W[swap-sides])", "1:28", "unsupported move W[swap-sides]"),
        ("(;FF[4]GM[11]SZ[3]AB[a1][b1])", "1:19", "unbalanced"),
        ("(;FF[4]GM[11]SZ[3]) x", "1:21", "unexpected text after the game tree"),
    ],
)
def test_errors_name_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_position(text, "f")
    assert str(caught.value).startswith(f"f:{where}: "), str(caught.value)
    assert message in str(caught.value)


def test_sgf_reads_hexgui_swap_pieces() -> None:
    text = "(;FF[4]GM[11]SZ[5]AP[HexGui:0.9]\n;B[c2];W[swap-pieces]\n;B[d4])"
    p = parse_sgf(text)
    # HexGui c2 is this module's b3; the swap puts white on its mirror c2, black moves
    # again and plays HexGui d4 (= d4 here)
    assert p.stones(WHITE) == [Cell.parse("c2")]
    assert p.stones(BLACK) == [Cell.parse("d4")]
    assert p.to_move == WHITE and p.swap
    assert p.indices == [Cell.parse("b3").index(5), SWAP, Cell.parse("d4").index(5)]
    p.pop()
    p.pop()
    assert p.stones(BLACK) == [Cell.parse("b3")] and p.stones(WHITE) == []
    assert not parse_sgf("(;FF[4]GM[11]SZ[5];B[c2])").swap
    assert parse_sgf("(;FF[4]GM[11]SZ[5];B[c2])", swap=True).can_swap()


def test_sgf_writes_swap_pieces() -> None:
    first = Cell.parse("b3").index(5)
    text = format_sgf(Position(5), [first, SWAP, Cell.parse("d4").index(5)])
    assert text == "(;FF[4]GM[11]SZ[5]AP[boardlab];B[c2];W[swap-pieces];B[d4])\n"
    p = parse_sgf(text)
    assert p.indices[1] == SWAP and p.stones(WHITE) == [Cell.parse("c2")]


def test_sgf_position_after_a_swap_keeps_the_side_to_move() -> None:
    # after a swap white has one stone more and black is to move: PL says so
    p = parse_sgf("(;FF[4]GM[11]SZ[5];B[c2];W[swap-pieces])")
    text = format_sgf(p)
    assert text == "(;FF[4]GM[11]SZ[5]AP[boardlab]AW[b3]PL[B])\n"
    q = parse_sgf(text)
    assert (q.board, q.to_move) == (p.board, p.to_move)
    r = parse_sgf("(;FF[4]GM[11]SZ[5];B[c2];W[swap-pieces];B[a1])")
    assert format_sgf(r).endswith("AB[a1]AW[b3]PL[W])\n")
    assert parse_sgf(format_sgf(r)).to_move == WHITE


def test_a_refereed_game_keeps_its_result_and_how_it_was_decided() -> None:
    from boardlab.hex.formats import format_game_sgf, parse_game_sgf
    from boardlab.hex.judge import GameRecord

    cases = [
        (1, "connection", "B+"),
        (2, "resignation", "W+R"),
        (2, "proof", "W+"),
        (None, "void", "Void"),
    ]
    for winner, decided_by, result in cases:
        record = GameRecord(
            3, "boardlab", "mo]hex", winner, decided_by, "mohex failed: x]y", ("b2", "a1"), (0, 0)
        )
        text = format_game_sgf(record)
        assert f"RE[{result}]" in text
        game = parse_game_sgf(text)
        assert (game.winner, game.decided_by, game.result) == (winner, decided_by, result)
        assert (game.black, game.white, game.moves) == ("boardlab", "mo]hex", ("b2", "a1"))
        assert game.comment.splitlines()[1] == "mohex failed: x]y"
    # a file written before the referee said how games end: no decision, the result kept
    old = parse_game_sgf("(;FF[4]GM[11]SZ[3]PB[a]PW[b]RE[B+]C[b resigned];B[b2];W[a1])")
    assert (old.winner, old.decided_by) == (1, None)
    with pytest.raises(ParseError, match="no setup"):
        parse_game_sgf("(;FF[4]GM[11]SZ[3]AB[a1];W[b2])")


def test_hexgui_setup_in_the_second_node_then_moves() -> None:
    # HexGui writes a puzzle's stones in the node after the root, with PL
    puzzle = parse_sgf(
        "(;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[7];AB[e2][e3][c4][d5][d6]AW[d3][d4][e4][c5]PL[W])"
    )
    assert puzzle.to_move == WHITE
    assert sorted(str(c.transposed()) for c in puzzle.stones(BLACK)) == [
        "c4",
        "d5",
        "d6",
        "e2",
        "e3",
    ]
    assert len(puzzle.stones(WHITE)) == 4
    # a game started from a setup: its moves follow PL, not the stone counts
    game = parse_sgf("(;FF[4]GM[11]SZ[7];AB[b2][c6][f3]AW[e5][b4][d2]PL[W];W[d4];B[c5])")
    assert game.to_move == WHITE and len(game.history) == 2
    assert game.board[Cell.parse("d4", 7).transposed().index(7)] == WHITE
    # AE empties a cell; a setup after moves starts from the stones on the board
    later = parse_sgf("(;FF[4]GM[11]SZ[3];B[a1];W[b2];AE[a1]AB[c3]PL[W])")
    assert sorted(map(str, later.stones(BLACK))) == ["c3"] and later.to_move == WHITE
    with pytest.raises(ParseError, match=r"1:29: bad player PL\[X\]"):
        parse_sgf("(;FF[4]GM[11]SZ[3];AB[a1]PL[X])")
