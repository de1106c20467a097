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
from boardlab.hex.rules import BLACK, SWAP, WHITE, Cell, Position, parse_move

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
        ("(;FF[4]GM[11]SZ[3];B[a1];W[a1])", "1:28", "already occupied"),
        ("(;FF[4]GM[11]SZ[3];B[d1])", "1:22", "off the 3x3 board"),
        ("(;FF[4]GM[1]SZ[3])", "1:8", "not a Hex game: GM[1]"),
        ("(;FF[4]GM[11])", "1:1", "missing SZ"),
        ("(;FF[4]GM[11]SZ[3x])", "1:17", "bad board size"),
        ("(;FF[4]GM[11]SZ[27])", "1:17", "board size must be 1 to 26"),
        ("(;FF[4]GM[11]SZ[3]", "1:19", "unbalanced parentheses"),
        ("(;FF[4]GM[11]SZ[3];B[a1", "1:21", "unterminated property value"),
        ("(;FF[4]GM[11]SZ[3];B[swap-pieces])", "1:22", "unsupported move B[swap-pieces]"),
        ("(;FF[4]GM[11]SZ[3];W[swap-pieces])", "1:22", "answer to black's first stone"),
        ("(;FF[4]GM[11]SZ[3];B[a1];W[SWAP];W[zz])", "1:36", "bad cell 'zz'"),
        (
            "(;FF[4]GM[11]SZ[3];B[a1];W[b2];B[c3];W[swap-pieces])",
            "1:40",
            "answer to black's first stone",
        ),
        (
            "(;FF[4]GM[11]SZ[3]AB[a1]AW[c3];B[b2];W[swap-pieces])",
            "1:40",
            "on an empty board",
        ),
        (
            "(;FF[4]GM[11]SZ[3];B[a1];W[swap-pieces];W[swap-pieces])",
            "1:43",
            "answer to black's first stone",
        ),
        ("(;FF[4]GM[11]SZ[3];B[a1];W[resign];B[b2])", "1:38", "B[b2] is played after W[resign]"),
        (
            "(;FF[4]GM[11]SZ[3](;B[a1])(;B[b1]);W[c3])",
            "1:35",
            "a node after the variations",
        ),
        ("(;FF[4]GM[11]SZ[3];B[a1];W[swap-sides])", "1:28", "unsupported move W[swap-sides]"),
        ("(;FF[4]GM[11]SZ[3]) x", "1:21", "unexpected text after the game tree"),
        ("(;FF[4]GM[11]SZ[5]AB[c3]AW[c3])", "1:28", "AW[c3]: the cell is set by AB already"),
        ("(;FF[4]GM[11]SZ[5]AB[c3][c3])", "1:26", "AB[c3]: the cell is set by AB already"),
        ("(;FF[4]GM[11]SZ[5];B[c3][d4])", "1:26", "B takes one point, not 2"),
    ],
)
def test_errors_name_line_and_column(text: str, where: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_position(text, "f")
    assert str(caught.value).startswith(f"f:{where}: "), str(caught.value)
    assert message in str(caught.value)


def test_sgf_reads_hexgui_swap_pieces() -> None:
    """HexGui and MoHex: after W[swap-pieces] the board stays and white moves again (the
    players exchanged colours); the file HexGui saved for such a game reads as HexGui
    shows it."""
    p = parse_sgf("(;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[7];B[d4];W[swap-pieces];W[c5];B[e4])")
    black = [Cell.parse(c).transposed() for c in ("d4", "e4")]
    assert sorted(p.stones(BLACK)) == sorted(black)
    assert p.stones(WHITE) == [Cell.parse("c5").transposed()]
    assert p.to_move == WHITE and not p.can_swap()
    q = parse_sgf("(;FF[4]GM[11]SZ[5];B[c2];W[swap-pieces])")
    assert q.stones(BLACK) == [Cell.parse("b3")] and q.to_move == WHITE and not q.swap
    assert not parse_sgf("(;FF[4]GM[11]SZ[5];B[c2])").swap
    assert parse_sgf("(;FF[4]GM[11]SZ[5];B[c2])", swap=True).can_swap()


def test_sgf_writes_boardlab_swap_in_hexgui_frame() -> None:
    """boardlab's swap (stone mirrored to white, black again) is the same game seen
    across the long diagonal: written as HexGui plays it, the moves after it have their
    colours exchanged and are not transposed, and HexGui's reading shows the same
    position with colours exchanged and transposed."""
    first = Cell.parse("b3").index(5)
    game = Position(5, swap=True)
    for move in (first, SWAP, Cell.parse("d4").index(5), Cell.parse("a1").index(5)):
        game.push_index(move)
    text = format_sgf(Position(5, swap=True), game.indices)
    assert text == "(;FF[4]GM[11]SZ[5]AP[boardlab];B[c2];W[swap-pieces];W[d4];B[a1])\n"
    hexgui = parse_sgf(text)
    assert hexgui.to_move == WHITE
    # boardlab's position, transposed with colours exchanged, is HexGui's
    for index, value in enumerate(game.board):
        mirror = Cell.of_index(index, 5).transposed().index(5)
        assert hexgui.board[mirror] == (3 - value if value else 0)


def test_sgf_setup_goes_in_a_second_node_as_hexgui_writes_it() -> None:
    p = parse_sgf("(;FF[4]GM[11]SZ[5];B[c2];W[a1])")
    text = format_sgf(p)
    assert text == "(;FF[4]GM[11]SZ[5]AP[boardlab];AB[c2]AW[a1]PL[B])\n"
    q = Position.from_stones(5, [Cell.parse("b3")], [Cell.parse("a1")], WHITE)
    assert format_sgf(q).endswith(";AB[c2]AW[a1]PL[W])\n")
    assert parse_sgf(format_sgf(q)).to_move == WHITE
    assert format_sgf(Position(3)) == "(;FF[4]GM[11]SZ[3]AP[boardlab])\n"


def test_sgf_variations_main_or_last_line() -> None:
    from boardlab.hex.formats import sgf_has_variations

    text = "(;FF[4]GM[11]SZ[3];B[a1](;W[b2];B[c3])(;W[c1](;B[a3])(;B[b3])))"
    main = parse_sgf(text)
    last = parse_sgf(text, line="last")
    assert main.indices == [Cell.parse(c).transposed().index(3) for c in ("a1", "b2", "c3")]
    assert last.indices == [Cell.parse(c).transposed().index(3) for c in ("a1", "c1", "b3")]
    assert sgf_has_variations(text)
    assert not sgf_has_variations("(;FF[4]GM[11]SZ[3];B[a1];W[b2])")
    assert not sgf_has_variations("(;FF[4]GM[11]SZ[3](;B[a1];W[b2]))")


def test_sgf_reads_what_hexgui_reads() -> None:
    """Old HexGui puzzle files place stones as moves of any colour in any order, and
    templates set up any stones: read as HexGui shows them (the other colour moves
    after a move; after a setup PL, else the side to move before it)."""
    p = parse_sgf("(;AP[HexGui:0.2]FF[4]GM[11]SZ[5];W[a1];B[b2];B[c3];W[d4])")
    assert len(p.stones(BLACK)) == 2 and len(p.stones(WHITE)) == 2 and p.to_move == BLACK
    t = parse_sgf("(;AP[HexGui:0.2]FF[4]GM[11]SZ[11];AB[e3][f3])")
    assert len(t.stones(BLACK)) == 2 and t.to_move == BLACK
    u = parse_sgf("(;FF[4]GM[11]SZ[5];AB[a1]AW[b1][c1][d1];W[e5])")
    assert u.to_move == BLACK and len(u.stones(WHITE)) == 4
    v = parse_sgf("(;FF[4]GM[11]SZ[5];AB[a1][a2][a3]PL[W])")
    assert v.to_move == WHITE
    # an older Benzene game's swap
    w = parse_sgf("(;AP[Hex-benzene:0.1]FF[4]GM[11]SZ[11];B[b2];W[SWAP];W[f6];B[g6])")
    assert len(w.stones(BLACK)) == 2 and len(w.stones(WHITE)) == 1 and w.to_move == WHITE


def test_sgf_resign_ends_the_moves() -> None:
    p = parse_sgf("(;FF[4]GM[11]SZ[3];B[b2];W[resign])")
    assert p.indices == [Cell.parse("b2").index(3)]


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


def test_sgf_as_played_is_the_inverse_of_format_sgf() -> None:
    """The web page's games keep boardlab's swap: reading ``as_played`` gives back the
    moves written, and refuses moves out of turn."""
    game = Position(5, swap=True)
    for name in ("a1", "swap-pieces", "c3", "b4", "e5"):
        game.play(parse_move(name, 5))
    text = format_sgf(Position(5, swap=True), game.indices)
    back = parse_sgf(text, as_played=True)
    assert back.indices == game.indices and back.board == game.board
    with pytest.raises(ParseError, match="out of turn"):
        parse_sgf("(;FF[4]GM[11]SZ[3];B[a1];B[b2])", as_played=True)
