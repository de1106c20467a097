"""``boardlab hex ...``: every verb on small inputs, and bad input as exit status 2."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from boardlab.cli import load_game, main
from boardlab.core.limits import Limit
from boardlab.hex.formats import format_diagram, parse_game_sgf, parse_position
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Cell, Position
from boardlab.render.hex import svg_picture

DATA = Path(__file__).parent / "data"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["hex", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "p.svg"
    code, out, err = run(["show", str(DATA / "ioi7.txt"), "--svg", str(picture)], capsys)
    assert code == 0 and err == ""
    # drawn as HexGui draws it: the IOI file's O at a7 (row 7, column 1) is HexGui's g1
    assert out.startswith("# HexGui orientation: X = black joins top and bottom")
    assert "\n   a b c d e f g\n 1 . . . . . . O\n" in out
    assert out.endswith("black (player 1) to move\n")
    assert picture.read_text().startswith("<svg")


def test_show_marks_a_chain_only_when_the_game_is_won(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sgf = tmp_path / "row.sgf"
    # black's row 1 (HexGui's a1 ... c1) joins left and right: not black's win
    sgf.write_text("(;FF[4]GM[11]SZ[3];AB[a1][b1][c1]AW[a2][b2]PL[W])")
    code, out, _ = run(["show", str(sgf)], capsys)
    assert code == 0 and "\n 1 X X X\n 2  O O .\n" in out
    assert "white (player 2) to move" in out
    # white's row 2 is white's win (left to right): its chain in lower case
    sgf.write_text("(;FF[4]GM[11]SZ[3];AB[a1][b1][a3]AW[a2][b2][c2]PL[B])")
    code, out, _ = run(["show", str(sgf)], capsys)
    assert code == 0 and "\n 1 X X .\n 2  o o o\n 3   X . .\n" in out
    assert "white (player 2) has won" in out


def test_convert_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["convert", str(DATA / "ioi7.txt"), "--to", "sgf"], capsys)
    assert code == 0 and out.startswith("(;FF[4]GM[11]SZ[7]")
    sgf = tmp_path / "p.sgf"
    sgf.write_text(out)
    code, back, _ = run(["convert", str(sgf), "--to", "diagram"], capsys)
    assert parse_position(back).board == parse_position((DATA / "ioi7.txt").read_text()).board


def test_solve(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "b.txt"
    board.write_text(". . .\n. . .\n. . .\n")
    # a generous time: on a cold numba cache the first solve waits for its kernels
    code, out, _ = run(["solve", str(board), "--time", "3600"], capsys)
    assert code == 0 and "notation" not in out
    assert "winner: black (player 1)\nwinning moves: b2 a2 a3 c1 c2\n" in out
    assert "complete: True" in out
    code, two, _ = run(["solve", str(board), "--jobs", "2", "--time", "3600"], capsys)
    assert code == 0 and two.split("nodes:")[0] == out.split("nodes:")[0]


def test_every_input_is_answered_in_hexgui_names(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A HexGui file (setup in the second node, white to move) and the same position as
    an IOI diagram are answered alike, in HexGui's names; ``--json`` is the result's own
    ``as_dict()``, nothing added; the old ``--notation`` is refused with the reason."""
    sgf = tmp_path / "p.sgf"
    # HexGui: black b1 b2 (joining top and bottom), white a3; white wins by blocking at b3
    sgf.write_text("(;AP[HexGui:0.9.GIT]FF[4]GM[11]SZ[3];AB[b1][b2]AW[a3]PL[W])")
    code, diagram, _ = run(["convert", str(sgf), "--to", "diagram"], capsys)
    ioi = tmp_path / "p.txt"
    ioi.write_text(diagram)  # the IOI orientation: HexGui's b3 is the IOI cell c2
    assert code == 0 and parse_position(diagram).board[Cell.parse("c2").index(3)] == 0
    for source in (sgf, ioi):
        code, out, _ = run(["solve", str(source)], capsys)
        assert code == 0 and "notation" not in out
        assert "to move: white (player 2)\nwinner: white (player 2)\nwinning moves: b3\n" in out
        code, shown, _ = run(["show", str(source)], capsys)
        assert shown.startswith("# HexGui orientation")
        assert "\n 1 . X .\n 2  . X .\n 3   O . .\n" in shown
        code, out, _ = run(["solve", str(source), "--json"], capsys)
        found = json.loads(out)
        assert found == {
            **solve(parse_position(diagram), Limit(time=30)).as_dict(),
            "seconds": found["seconds"],
            "nodes": found["nodes"],
        }
        assert found["winning_moves"] == ["b3"]
        assert sorted(found["losing_moves"]) == ["a1", "a2", "c1", "c2", "c3"]
        code, out, _ = run(["move", str(source), "--playouts", "200", "--json"], capsys)
        moved = json.loads(out)
        assert code == 0 and moved["move"] == "b3" and "notation" not in moved
    code, out, err = run(["solve", str(sgf), "--notation", "ioi"], capsys)
    assert code == 2 and out == "" and "--notation is gone" in err and err.count("\n") == 1


def test_sgf_with_variations_says_which_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sgf = tmp_path / "v.sgf"
    sgf.write_text("(;FF[4]GM[11]SZ[3];B[a1](;W[b2])(;W[c1]))")
    code, out, err = run(["show", str(sgf)], capsys)
    assert code == 0 and "read the main line" in err and " 2  . O ." in out
    code, out, err = run(["show", str(sgf), "--line", "last"], capsys)
    assert "read the last variations" in err and " 1 X . O" in out


def test_solve_and_move_json_share_the_api_form(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = tmp_path / "b.txt"
    board.write_text(". . .\n. . .\n. . .\n")
    code, out, _ = run(["solve", str(board), "--json"], capsys)
    solved = json.loads(out)
    assert code == 0 and solved["winner"] == 1 and solved["proven"] and solved["complete"]
    assert solved["winning_moves"] == ["b2", "a2", "a3", "c1", "c2"]
    assert {"nodes", "seconds"} <= solved.keys()
    # 9x9 is past the DFPN solver, so the engine's playouts choose the move
    open9 = tmp_path / "open9.txt"
    open9.write_text(format_diagram(Position(9)))
    code, out, _ = run(["move", str(open9), "--playouts", "300", "--json"], capsys)
    moved = json.loads(out)
    assert code == 0 and moved["playouts"] >= 300 and len(moved["move"]) >= 2
    assert {"win_rate", "proven", "nodes", "seconds", "top"} <= moved.keys()
    # the 7x7 IOI position is proven by the engine's solver before any playout
    code, out, _ = run(["move", str(DATA / "ioi7.txt"), "--playouts", "300", "--json"], capsys)
    solved_move = json.loads(out)
    assert code == 0 and solved_move.keys() == moved.keys()
    assert solved_move["proven"] == 1 and solved_move["win_rate"] == 1.0


def test_move_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["move", str(DATA / "ioi7.txt"), "--playouts", "500", "--seed", "4"]
    first = run(args, capsys)
    second = run(args, capsys)
    assert first[0] == 0
    # the move, its win rate and the playout count repeat; only the seconds may differ
    assert first[1].split(" in ")[0] == second[1].split(" in ")[0]
    assert first[1].split("top:")[1] == second[1].split("top:")[1]


def test_gtp_loop(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("name\nplay b zz\nboardsize 3\nquit\nname\n"))
    code, out, _ = run(["gtp", "--time", "0.05"], capsys)
    assert code == 0
    assert out.split("\n\n")[:4] == [
        "= boardlab-hex",
        "? invalid vertex: bad cell 'zz': expected a letter and a row number like 'c5'",
        "= ",
        "= ",
    ]


def test_ioi_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = tmp_path / "start.txt"
    start.write_text(". . . .\n . X . .\n  . . O .\n   . . . .\n")
    code, out, err = run(["ioi", str(start), "--strength", "weak", "--time", "2"], capsys)
    assert code == 0 and err == ""
    assert "GameIsOver = 2: our program (player 1) won" in out


def test_ioi_lost_game_is_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # player 2's b2 reaches row 1 through b1/c1 and row 3 through a3/b3: an unbreakable
    # connection, and player 1's a1 touches neither pair
    text = "X . .\n . O .\n  . . .\n"
    assert solve(parse_position(text), Limit(time=30)).winner == 2
    start = tmp_path / "lost.txt"
    start.write_text(text)
    code, out, err = run(["ioi", str(start), "--strength", "weak", "--time", "2"], capsys)
    assert code == 1 and err == ""
    assert "GameIsOver = 3: the library won" in out


def test_ioi_help_documents_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["hex", "ioi", "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    assert "exit status:" in out
    assert "0  our program (player 1) won" in out
    assert "1  our program lost" in out
    assert "2  bad input" in out


def test_gtp_swap_flag(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    lines = "param_game\nplay b c3\ngenmove w\nquit\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    code, out, _ = run(["gtp", "--size", "5", "--time", "0.05", "--swap"], capsys)
    assert code == 0
    assert out.split("\n\n")[:3] == ["= \n[bool] allow_swap 1", "= ", "= swap-pieces"]
    monkeypatch.setattr("sys.stdin", io.StringIO("param_game\n"))
    code, out, _ = run(["gtp", "--size", "5"], capsys)
    assert out == "= \n[bool] allow_swap 0\n\n"


def test_selfplay_with_swap(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["selfplay", "--size", "5", "--playouts", "300", "--swap"]
    code, out, _ = run(args, capsys)
    assert code == 0 and "won after" in out
    moves = out.splitlines()[0].split()[1:]
    # player 1 opens on an outer cell, and player 2 swaps it exactly when the solver
    # says it wins for player 1
    first = Cell.parse(moves[0]).transposed()  # HexGui's name
    assert min(first.row, first.col, 4 - first.row, 4 - first.col) <= 1
    opening = Position(5)
    opening.play(first)
    wins = solve(opening, Limit(time=30)).winner == 1
    assert (moves[1] == "swap") == wins
    assert run(args, capsys)[1] == out  # reproducible


def test_generate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["generate", "--size", "4", "--stones", "2", "--seed", "1"], capsys)
    assert code == 0 and "certified by the exact solver" in out
    position = parse_position(out)
    assert len(position.stones(1)) == len(position.stones(2)) == 2


def test_selfplay_and_demo(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["selfplay", "--size", "4", "--playouts", "300"], capsys)
    assert code == 0 and "won after" in out
    game = load_game("hex")
    assert game.demo is not None
    lines = game.demo()
    assert lines[0].startswith("4x4 solved: player 1 wins; winning openings b3 c2 a4 d1")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "/nonexistent.txt"], "cannot read"),
        (["solve", "BAD"], "cannot read"),
        (["generate", "--size", "30"], "board size must be 1 to 26"),
        (["generate", "--size", "3", "--stones", "5"], "cannot place 5 stones"),
        (["match", "--size", "5"], "give the opponent's command"),
        (["match", "--size", "40", "--", "x"], "board size must be 1 to 26"),
        (["match", "--size", "5", "--", "/nonexistent/engine"], "cannot start engine"),
        (["selfplay", "--size", "0"], "board size must be 1 to 26"),
        (["match", "--sgf", f"{__file__}/games", "--", "x"], "cannot write games into"),
    ],
)
def test_bad_input_is_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_solve_jobs_must_be_a_small_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("0", "x", "65"):
        with pytest.raises(SystemExit) as stopped:
            run(["solve", "b.txt", "--jobs", bad], capsys)
        err = capsys.readouterr().err
        assert stopped.value.code == 2 and "argument --jobs" in err and err.count("\n") == 1


def test_malformed_file_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text(". . .\n. ? .\n. . .\n")
    code, _, err = run(["show", str(bad)], capsys)
    assert code == 2 and f"{bad}:2:3: bad cell symbol '?'" in err
    unbalanced = tmp_path / "u.txt"
    unbalanced.write_text("X X\n. O\n")
    code, _, err = run(["ioi", str(unbalanced)], capsys)
    assert code == 2 and "equally many stones" in err


def test_svg_highlights_the_winning_chain() -> None:
    p = parse_position("X X\n. O\n")
    picture = svg_picture(p)
    assert picture.count('stroke-width="3"') == 2


def test_match_saves_every_game_as_sgf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "games" / "today"
    opponent = [sys.executable, "-m", "boardlab", "hex", "gtp", "--time", "0.02", "--seed", "3"]
    args = ["match", "--size", "3", "--games", "2", "--time", "0.02", "--sgf", str(folder)]
    # a real engine's first answer may wait for numba to compile its kernels (a cold cache)
    code, out, _ = run([*args, "--timeout", "600", "--", *opponent], capsys)
    assert code == 0 and f"games saved as SGF in {folder}" in out
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["game-01-boardlab-black.sgf", "game-02-boardlab-white.sgf"]
    for name, ours in zip(names, ("black", "white"), strict=True):
        text = (folder / name).read_text(encoding="utf-8")
        game = parse_game_sgf(text)
        assert getattr(game, ours) == "boardlab" and game.decided_by == "connection"
        position = parse_position(text)  # as HexGui reads it: the game as it ended
        assert position.winner == game.winner is not None
        assert len(position.history) == len(game.moves)


def test_match_tells_the_opponent_its_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "heard.txt"
    fake = Path(__file__).with_name("fake_gtp.py")
    opponent = [sys.executable, str(fake), f"!log={log}", "!knows=time_settings,param_mohex"]
    args = ["match", "--size", "3", "--games", "1", "--time", "0.3", "--sgf", str(tmp_path)]
    code, out, _ = run([*args, "--", *opponent, "!resign"], capsys)
    assert code == 0 and "game 1: black boardlab, white fake: black won (fake resigned)" in out
    heard = log.read_text().splitlines()
    assert heard[heard.index("genmove w") - 2 : heard.index("genmove w")] == [
        "time_settings 0 3 10",
        "param_mohex max_time 0.3",
    ]


#: ``hex selfplay`` transcripts (the same seed and playouts give the same game).
SELFPLAY = {
    ("--size", "4", "--playouts", "300", "--seed", "2"): """\
moves: b3 c2 a2 b2 a3 a1 b1 d4 a4
# HexGui orientation: X = black joins top and bottom, O = white left and right
   a b c d
 1 O x . .
 2  x O O .
 3   x x . .
 4    x . . O
black (player 1) won after 9 moves
""",
    ("--size", "3", "--playouts", "100", "--seed", "0", "--swap"): """\
moves: a2 swap c1 b3 a1 a3 a2 c2
# HexGui orientation: X = black joins top and bottom, O = white left and right
   a b c
 1 X O X
 2  X . o
 3   o o .
white (player 2) won after 8 moves
""",
}


@pytest.mark.parametrize("args", list(SELFPLAY))
def test_selfplay_transcript(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.hex.selfplay import self_play

    code, out, err = run(["selfplay", *args], capsys)
    assert (code, out, err) == (0, SELFPLAY[args], "")
    # the game loop lives in the Hex room, callable without the command line
    options = dict(zip(args[::2], args[1::2], strict=False))
    game = self_play(
        int(options["--size"]), int(options["--playouts"]), int(options["--seed"]), "--swap" in args
    )
    assert out.startswith(f"moves: {' '.join(game.moves)}\n")


def test_match_transcript_and_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fake = [sys.executable, str(Path(__file__).with_name("fake_gtp.py")), "!resign", "!resign"]
    args = ["match", "--size", "3", "--games", "2", "--time", "0.3", "--sgf", str(tmp_path)]
    code, out, err = run([*args, "--", *fake], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    first = lines[5].rsplit(" ", 1)[-1]  # boardlab's opening move, whichever wins
    assert lines == [
        "match boardlab vs fake: 3x3, 2 games, 0.3 s per move",
        "colour of boardlab      games   wins   win %",
        "black (first)               1      1     100",
        "white (second)              1      1     100",
        "total vs fake               2      2",
        f"game 1: black boardlab, white fake: black won (fake resigned) {first}",
        "game 2: black fake, white boardlab: white won (fake resigned) ",
        f"games saved as SGF in {tmp_path}",
    ]
    head = "(;FF[4]GM[11]SZ[3]AP[boardlab hex match]"
    assert (tmp_path / "game-01-boardlab-black.sgf").read_text() == (
        f"{head}PB[boardlab]PW[fake]RE[B+R]C[decided by: resignation\nfake resigned];B[{first}])\n"
    )
    assert (tmp_path / "game-02-boardlab-white.sgf").read_text() == (
        f"{head}PB[fake]PW[boardlab]RE[W+R]C[decided by: resignation\nfake resigned])\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "game-01-boardlab-black.sgf",
        "game-02-boardlab-white.sgf",
    ]


@pytest.mark.parametrize(
    "sgf",
    [
        "(;FF[4]GM[11]SZ[5];B[c3];B[d3])",  # HexGui's colours as named: two black stones
        "(;FF[4]GM[11]SZ[5]AB[c3][d3])",  # a puzzle's setup
        "(;FF[4]GM[11]SZ[5]AB[c3]AW[d3]PL[W])",  # balanced, but the wrong side to move
    ],
)
def test_convert_refuses_a_diagram_that_cannot_hold_the_position(
    sgf: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.sgf"
    path.write_text(sgf)
    assert main(["hex", "convert", "--to", "diagram", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "a diagram cannot hold this position" in err and len(err.strip().splitlines()) == 1
    assert main(["hex", "convert", "--to", "sgf", str(path)]) == 0  # an SGF keeps it
