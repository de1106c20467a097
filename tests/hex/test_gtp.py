"""The Hex GTP engine: HexGui conventions, the transpose to the IOI orientation, errors."""

from __future__ import annotations

import pytest

from boardlab.hex.gtp import HexGtp, parse_vertex, vertex
from boardlab.hex.rules import BLACK, Cell, Position
from boardlab.hex.search import MctsEngine


def session(*lines: str, size: int = 5) -> tuple[HexGtp, list[str]]:
    gtp = HexGtp(MctsEngine(seed=1, max_nodes=50_000), size=size, move_time=0.05)
    replies = [gtp.handle_line(line)[0] for line in lines]
    return gtp, replies


def test_vertex_is_the_transpose() -> None:
    # GTP c5 = column c, row 5 in HexGui; internally (IOI orientation) it is row 3, column 5
    assert parse_vertex("c5", 5) == Cell(2, 4).index(5)
    assert vertex(Cell(2, 4).index(5), 5) == "c5"
    for index in range(25):
        assert parse_vertex(vertex(index, 5), 5) == index


def test_black_joins_top_and_bottom_in_gtp() -> None:
    moves = ["b c1", "w a1", "b c2", "w a2", "b c3", "w a3"]
    gtp, replies = session(*(f"play {m}" for m in moves), "play b c4", "play w a4")
    assert all(r == "= \n\n" for r in replies[:-1])
    assert gtp.position.winner is None
    reply, _ = gtp.handle_line("play b c5")
    assert reply == "= \n\n"
    assert gtp.position.winner == BLACK  # black column c joins rows 1..5 (top to bottom)
    assert gtp.handle_line("genmove w")[0] == "= resign\n\n"
    assert gtp.handle_line("play w e5")[0].startswith("? illegal move: the game is over")


def test_white_joins_left_and_right_in_gtp() -> None:
    lines = ["play w a3", "play w b3", "play w c3", "play w d3", "play w e3"]
    gtp, _ = session(*lines)
    assert gtp.position.winner == 2


def test_ioi_orientation_is_the_transpose_of_gtp() -> None:
    gtp, _ = session("play b c1", "play b c2", "play b c3", "play b c4", "play b c5")
    ioi = Position(5)
    for row in range(5):
        ioi.board[Cell(2, row).index(5)] = BLACK  # IOI: player 1 fills row 3, columns 1..5
    assert gtp.position.board == ioi.board


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("play b z9", "? invalid vertex"),
        ("play b a", "? invalid vertex"),
        ("play x a1", "? invalid color"),
        ("play b", "? play takes a color and a vertex"),
        ("play b swap-pieces", "? unsupported move"),
        ("boardsize 0", "? unacceptable size"),
        ("boardsize 27", "? unacceptable size"),
        ("boardsize 5 6", "? unacceptable size"),
        ("boardsize x", "? boardsize takes"),
        ("genmove", "? genmove takes a color"),
        ("undo", "? cannot undo"),
        ("time_left b x 0", "? invalid time"),
        ("frob", "? unknown command"),
    ],
)
def test_errors_keep_the_engine_running(line: str, message: str) -> None:
    _gtp, replies = session(line, "name")
    assert replies[0].startswith(message), replies[0]
    assert replies[1] == "= boardlab-hex\n\n"


def test_occupied_and_undo() -> None:
    gtp, replies = session("play b a1", "play w a1", "undo", "undo", "play w a1")
    assert replies[1].startswith("? illegal move: a1 is occupied")
    assert replies[2:] == ["= \n\n", "? cannot undo: no move played\n\n", "= \n\n"]
    assert gtp.position.to_move == BLACK


def test_genmove_plays_a_legal_move_and_wins_when_it_can() -> None:
    gtp, replies = session(
        "boardsize 4",
        "play b b1",
        "play w a1",
        "play b b2",
        "play w a2",
        "play b b3",
        "play w a3",
        "genmove b",
    )
    assert replies[-1] in ("= a4\n\n", "= b4\n\n")  # b3 touches a4 and b4 on row 4
    assert gtp.position.winner == BLACK


def test_showboard_and_analyze_commands() -> None:
    _gtp, replies = session(
        "play b a2",
        "showboard",
        "hexgui-analyze_commands",
        "list_commands",
        "boardsize 3",
        "boardlab-solve",
        "known_command genmove",
    )
    board = replies[1]
    assert board.startswith("= \n# HexGui orientation")
    assert " 2  X . . . ." in board
    assert "boardlab-solve" in replies[2]
    for name in [
        "boardsize",
        "clear_board",
        "play",
        "genmove",
        "undo",
        "showboard",
        "name",
        "version",
        "protocol_version",
        "known_command",
        "list_commands",
        "quit",
        "hexgui-analyze_commands",
        "boardlab-solve",
    ]:
        assert name in replies[3].split()
    assert replies[5].startswith("= black b2")
    assert replies[6] == "= true\n\n"
