"""GTP transcripts of what HexGui sends: the swap rule across games, stones after the win."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.hex.gtp import HexGtp, parse_vertex
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import BLACK, WHITE

OK = "= \n\n"


def transcript(*lines: str, size: int = 7, swap: bool = False) -> tuple[HexGtp, list[str]]:
    gtp = HexGtp(SolvingEngine(seed=1, max_nodes=20_000), size=size, move_time=0.05, swap=swap)
    return gtp, [gtp.handle_line(line)[0] for line in lines]


def stones(gtp: HexGtp) -> dict[str, int]:
    """The board as HexGui names it: vertex -> colour."""
    size = gtp.position.size
    names = {
        parse_vertex(f"{chr(97 + c)}{r + 1}", size): f"{chr(97 + c)}{r + 1}"
        for r in range(size)
        for c in range(size)
    }
    return {names[i]: v for i, v in enumerate(gtp.position.board) if v}


@pytest.mark.parametrize("started_with_swap", [False, True])
def test_a_played_swap_keeps_the_swap_rule_for_the_next_game(started_with_swap: bool) -> None:
    lines = [
        "boardsize 7 7",
        "play black b2",
        "play white swap-pieces",
        "boardsize 7 7",
        "param_game",
        "play black b2",
        "play white swap-pieces",
        "clear_board",
        "param_game",
    ]
    if not started_with_swap:
        lines.insert(0, "param_game allow_swap 1")
    gtp, replies = transcript(*lines, swap=started_with_swap)
    assert all(reply == OK for reply in replies if "allow_swap" not in reply), replies
    assert replies.count("= \n[bool] allow_swap 1\n\n") == 2
    assert gtp.position.swap and gtp.allow_swap


def test_genmove_swaps_again_in_the_next_game() -> None:
    # black's centre stone on 3x3 wins, so white swaps it in every game
    _gtp, replies = transcript(
        "param_game allow_swap 1",
        "play b b2",
        "genmove w",
        "clear_board",
        "play b b2",
        "genmove w",
        size=3,
    )
    assert replies[2] == replies[5] == "= swap-pieces\n\n"


def test_a_swap_setting_changed_after_a_swap_leaves_that_game_spent() -> None:
    gtp, replies = transcript(
        "param_game allow_swap 1",
        "play b b2",
        "play w swap-pieces",
        "param_game allow_swap 1",
        "play w swap",
    )
    assert replies[-1].startswith("? illegal move: swap")
    assert replies[-2] == OK and not gtp.position.can_swap()


def test_stones_after_the_win_are_recorded_so_undo_stays_in_step() -> None:
    # black joins top and bottom with b1 b2 b3 on 3x3; HexGui does not see the win and
    # sends white a3; its undo then takes a3 back, and so must boardlab's
    gtp, replies = transcript(
        "boardsize 3",
        "play b b1",
        "play w a1",
        "play b b2",
        "play w a2",
        "play b b3",
        "play w a3",
        size=3,
    )
    assert replies == [OK] * 7
    assert gtp.position.winner == BLACK
    assert stones(gtp) == {
        "b1": BLACK,
        "b2": BLACK,
        "b3": BLACK,
        "a1": WHITE,
        "a2": WHITE,
        "a3": WHITE,
    }
    assert gtp.handle_line("genmove w")[0] == "= resign\n\n"  # HexGui then ends the game
    assert gtp.position.winner == BLACK and len(stones(gtp)) == 6  # resign plays nothing
    assert gtp.handle_line("play b a3")[0].startswith("? illegal move: a3 is occupied")
    assert gtp.handle_line("undo")[0] == OK  # HexGui takes back a3
    assert "a3" not in stones(gtp) and gtp.position.winner == BLACK
    assert gtp.position.to_move == WHITE
    assert gtp.handle_line("undo")[0] == OK  # ... then b3: nobody has won
    assert stones(gtp) == {"b1": BLACK, "b2": BLACK, "a1": WHITE, "a2": WHITE}
    assert gtp.position.winner is None and gtp.position.to_move == BLACK
    # the game goes on as HexGui shows it: b3 is free again
    assert gtp.handle_line("play b b3")[0] == OK
    assert gtp.position.winner == BLACK


def test_many_stones_after_the_win_and_undo_back_to_the_start() -> None:
    moves = ["b b1", "w a1", "b b2", "w a2", "b b3", "w a3", "b c1", "w c2"]
    gtp, replies = transcript(*(f"play {m}" for m in moves), size=3)
    assert replies == [OK] * len(moves)
    assert gtp.position.winner == BLACK and len(stones(gtp)) == len(moves)
    for left in range(len(moves) - 1, -1, -1):
        assert gtp.handle_line("undo")[0] == OK
        assert len(stones(gtp)) == left
        assert (gtp.position.winner == BLACK) == (left >= 5)  # b3 (the fifth stone) won
    assert gtp.handle_line("undo")[0].startswith("? cannot undo")


#: A 3x3 game as HexGui saves it when a stone is played after black's win (b1 b2 b3).
AFTER_WIN = "(;FF[4]AP[HexGui:0.10]SZ[3];B[b1];W[a1];B[b2];W[a2];B[b3];W[a3])\n"


def test_show_reads_a_hexgui_game_with_a_move_after_the_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "saved.sgf"
    path.write_text(AFTER_WIN, encoding="utf-8")
    assert main(["hex", "show", "--line", "last", str(path)]) == 0
    out = capsys.readouterr().out
    assert "black (player 1) has won" in out
    board = out.splitlines()[2:5]
    assert [row.split()[1:] for row in board] == [["O", "x", "."]] * 3  # the chain: lower case


def test_sgf_errors_name_black_and_white(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.sgf"
    path.write_text(AFTER_WIN.replace("W[a3]", "W[b2]"), encoding="utf-8")
    assert main(["hex", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert "cell b2 is already occupied" in err and "player" not in err


def board_rows(reply: str) -> list[list[str]]:
    """The cells of each row of a ``showboard`` answer."""
    return [line.split()[1:] for line in reply.splitlines() if line[:3].strip().isdigit()]


def test_showboard_marks_a_chain_only_when_the_game_is_won() -> None:
    # black's a1 ... e1 is row 1: it joins left and right, which is white's way, not black's
    gtp, replies = transcript(
        "boardsize 5 5", *(f"play black {c}1" for c in "abcde"), "showboard", size=5
    )
    assert gtp.position.winner is None
    assert board_rows(replies[-1])[0] == ["X"] * 5
    assert all(cell in "XO." for row in board_rows(replies[-1]) for cell in row)
    # black's column c joins top and bottom: the chain in lower case, the other stones not
    lines = ["boardsize 5 5", "play black a1", *(f"play black c{r}" for r in range(1, 6))]
    gtp, replies = transcript(*lines, "play white e5", "showboard", size=5)
    assert gtp.position.winner == BLACK
    rows = board_rows(replies[-1])
    assert [row[2] for row in rows] == ["x"] * 5
    assert rows[0][0] == "X" and rows[4][4] == "O"


@pytest.mark.parametrize("first", ["play black a1", "play white a1"])
def test_undo_after_genmove_for_the_side_not_to_move_restores_the_position(first: str) -> None:
    # after play black a1 white is to move; HexGui may still ask genmove black
    gtp, _ = transcript("boardsize 3", first, size=3)
    before = (gtp.position.board.copy(), gtp.position.to_move, gtp.position.winner)
    colour = "black" if first == "play black a1" else "white"
    moved = gtp.handle_line(f"genmove {colour}")[0]
    assert moved.startswith("= ") and moved != OK
    assert gtp.handle_line("undo")[0] == OK
    assert (gtp.position.board, gtp.position.to_move, gtp.position.winner) == before
    # the solver then answers for the side that was to move, as before the genmove
    _, expected = transcript("boardsize 3", first, "boardlab-solve", size=3)
    assert gtp.handle_line("boardlab-solve")[0] == expected[-1]
