"""The command line: play, judge, analyze, versus, solve and the demo."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from boardlab.cli import load_game, main
from boardlab.ioiwari.rules import IOI, State
from boardlab.ioiwari.solver import ValueTable

BOARDLAB = [sys.executable, "-m", "boardlab"]


def _run(
    argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8"))))
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.mark.parametrize("solver", ["auto", "table", "memo"])
def test_play_the_statement_game(
    solver: str,
    use_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, out, err = _run(
        ["ioiwari", "play", "--solver", solver], "4 3 2 4 2 3 2\n3\n4\n7\n", capsys, monkeypatch
    )
    assert (status, out, err) == (0, "2\n5\n5\n", "")


def test_play_without_any_cache_meets_nothing_heavy(tmp_path: Path) -> None:
    # --solver auto with no table on disk: the memoised search, without numba
    code = (
        "import sys, io\n"
        "sys.stdin = io.TextIOWrapper(io.BytesIO(b'4 3 2 4 2 3 2\\n3\\n4\\n7\\n'))\n"
        "from boardlab.cli import main\n"
        "status = main(['ioiwari', 'play'])\n"
        "assert 'numba' not in sys.modules and 'numpy' not in sys.modules, 'heavy import'\n"
        "sys.exit(status)\n"
    )
    env = {"BOARDLAB_CACHE_DIR": str(tmp_path / "empty"), "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, "2\n5\n5\n", "")


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("4 3 2 4 2 3\n", "<stdin>:1:12: the start line has 6 numbers; expected 7 pit counts"),
        ("4 3 2 4 2 3 2 2\n", "<stdin>:1:15: unexpected '2'"),
        ("4 3 -2 4 2 3 2\n", "<stdin>:1:5: pit 3 must be 0 to 5, got -2"),
        ("4 3 2.0 4 2 3 2\n", "<stdin>:1:5: pit 3 must be an integer, got '2.0'"),
        ("4 3 2 6 2 3 2\n", "<stdin>:1:7: pit 4 must be 0 to 5, got 6"),
        ("4 3 2 4 2 3 3\n", "<stdin>:1:1: the pits hold 21 beads; a start holds 20"),
        ("4 3 2 4 2 3 2\n2\n", "<stdin>:2:1: the opponent's move 2 is illegal: pit 2 is empty"),
        ("4 3 2 4 2 3 2\nfour\n", "<stdin>:2:1: the opponent's move must be a pit label"),
        ("4 3 2 4 2 3 2\n3\n", "<stdin>: the input ended before the game was over"),
        ("", "<stdin>: the input ended before the start line"),
    ],
)
def test_play_bad_input_is_exit_2(
    stdin: str,
    message: str,
    use_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = _run(["ioiwari", "play"], stdin, capsys, monkeypatch)
    assert status == 2
    assert err.startswith(f"boardlab ioiwari: error: {message}"), err
    assert len(err.splitlines()) == 1


def test_play_as_a_real_process_flushes_every_move(use_cache: Path) -> None:
    with subprocess.Popen(
        [*BOARDLAB, "ioiwari", "play"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("4 3 2 4 2 3 2\n")
        process.stdin.flush()
        assert process.stdout.readline() == "2\n"  # would block forever without a flush
        process.stdin.write("3\n")
        process.stdin.flush()
        assert process.stdout.readline() == "5\n"
        process.stdin.write("4\n7\n")
        process.stdin.close()
        assert process.stdout.read() == "5\n"
        assert process.wait(timeout=30) == 0
        assert process.stderr is not None and process.stderr.read() == ""


def test_judge_command_line(
    use_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    player = ["--", *BOARDLAB, "ioiwari", "play"]
    sample = ["ioiwari", "judge", "--starts", "4", "--seed", "5", "--time", "20", *player]
    status, out, _ = _run(sample, "", capsys, monkeypatch)
    assert status == 0
    assert "win          4      16" in out and "score       16 / 16 (100.0%)" in out
    one = ["ioiwari", "judge", "--start", "4 3 2 4 2 3 2", "--json", *player]
    status, out, _ = _run(one, "", capsys, monkeypatch)
    report = json.loads(out)
    assert status == 0 and (report["win"], report["score"], report["max_score"]) == (1, 4, 4)
    assert report["records"][0]["banks"] == [11, 9] and report["seconds"] > 0


def test_judge_command_line_bad_program(
    tmp_path: Path,
    use_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    script = tmp_path / "prog_liar.py"
    script.write_text("input()\nprint(1, flush=True)\nprint('junk', flush=True)\n")
    status, out, _ = _run(
        [
            "ioiwari",
            "judge",
            "--start",
            "4 3 2 4 2 3 2",
            "--start",
            "2 2 2 2 4 4 4",
            "--show",
            "all",
            "--",
            sys.executable,
            str(script),
        ],
        "",
        capsys,
        monkeypatch,
    )
    assert status == 0
    assert "loss         2       0" in out and "score        0 / 8 (0.0%)" in out
    assert "loss  4 3 2 4 2 3 2  banks -  moves 1 " in out
    assert "move 2: wrote 'junk', not a pit label" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--", "/no/such/program"], "cannot run '/no/such/program'"),
        ([], "no program to judge"),
        (
            ["--starts", "400", "--", "true"],
            "--starts: the starts must be 'all' or a count from 1 to 357",
        ),
        (["--start", "4 3 2 4 2 3 3", "--", "true"], "--start 1:1:1: the pits hold 21 beads"),
        (["--start", "5 5 5 5 0 0 0", "--", "true"], "pit 1 holds 5 beads; a start has 2..4"),
    ],
)
def test_judge_errors(
    argv: list[str],
    message: str,
    use_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = _run(["ioiwari", "judge", *argv], "", capsys, monkeypatch)
    assert status == 2 and message in err


def test_analyze(
    use_cache: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    picture = tmp_path / "board.svg"
    status, out, err = _run(
        ["ioiwari", "analyze", "4 3 2 4 2 3 2", "--line", "--svg", str(picture)],
        "",
        capsys,
        monkeypatch,
    )
    assert status == 0 and err == ""
    assert "value     +2 for player 1" in out and "final banks 11 : 9" in out
    assert "best      2 4 7" in out
    rows = {
        line.split()[0]: line.split() for line in out.splitlines() if line[:3].strip().isdigit()
    }
    assert {pit: row[4] for pit, row in rows.items()} == {
        "1": "+0",
        "2": "+2",
        "3": "-2",
        "4": "+2",
        "5": "-2",
        "6": "+0",
        "7": "+2",
    }
    assert "Player 2's move: 7      0  0  0  0  0  0  0      11       9" in out
    assert picture.read_text().startswith("<svg")


def test_analyze_mid_game_and_errors(
    use_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _run(
        ["ioiwari", "analyze", "4 0 3 5 0 3 2 | 3 0 | 2", "--line"], "", capsys, monkeypatch
    )
    assert status == 0 and "value     +1 for player 2" in out and "perfect line: " in out
    status, out, _ = _run(
        ["ioiwari", "analyze", "0 0 0 0 0 0 0 | 11 9 | 1"], "", capsys, monkeypatch
    )
    assert status == 0 and "the game is over: 11 : 9" in out
    status, _, err = _run(["ioiwari", "analyze", "4 3 2 9 2 3 2"], "", capsys, monkeypatch)
    assert status == 2 and "pit 4 holds 9 beads; a pit holds 0 to 5" in err
    status, _, err = _run(["ioiwari", "analyze", "4 3 2 4 2 3"], "", capsys, monkeypatch)
    assert status == 2 and "expected 7 pits, got 6" in err


def test_analyze_json_is_the_analysis_as_dict(
    use_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _run(
        ["ioiwari", "analyze", "4 3 2 4 2 3 2", "--line", "--json"], "", capsys, monkeypatch
    )
    found = json.loads(out)
    assert status == 0 and found["value"] == 2 and found["best"] == [2, 4, 7]
    assert found["final_banks"] == [11, 9] and found["proven"] is True
    assert found["seconds"] >= 0 and len(found["line"]) == 6


def test_versus_as_player_one(
    use_cache: Path,
    table: ValueTable,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the person plays the statement's opening, with every kind of mistake on the way
    answers = "?\nx\n9\n2\nu\nu\n1\nu\n2\n5\n5\n"
    status, out, _ = _run(
        ["ioiwari", "versus", "--start", "4 3 2 4 2 3 2"], answers, capsys, monkeypatch
    )
    assert status == 0
    assert "pit 1: +0  pit 2: +2  pit 3: -2  pit 4: +2  pit 5: -2  pit 6: +0  pit 7: +2" in out
    assert "'x' is not a pit label" in out
    assert "illegal: there is no pit 9" in out
    assert out.count("you empty pit 2 (3: drop, 4: drop, 5: capture 2+1)") == 2
    assert "you empty pit 1" in out and "nothing to undo" in out
    assert "the perfect player empties pit 3" in out
    assert "game over: 11 : 9, you win" in out


def test_versus_as_player_two_and_quitting(
    use_cache: Path,
    table: ValueTable,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    start = (2, 2, 2, 2, 4, 4, 4)
    state = State(IOI, start)
    answers = []
    # reply with the lowest pit every time; the perfect player 1 must win
    from boardlab.ioiwari.solver import PerfectPlayer

    player = PerfectPlayer(table)
    while not state.is_over():
        state.play(player.choose(state) if state.to_move == 1 else state.legal_moves()[0])
        if state.history and state.to_move == 1 and len(state.history) % 2 == 0:
            answers.append(str(state.history[-1].pit))
    status, out, _ = _run(
        ["ioiwari", "versus", "--as", "2", "--start", "2 2 2 2 4 4 4"],
        "\n".join(answers) + "\n",
        capsys,
        monkeypatch,
    )
    assert status == 0
    assert f"game over: {state.banks[0]} : {state.banks[1]}, you lose" in out
    status, out, _ = _run(["ioiwari", "versus", "--seed", "3"], "q\n", capsys, monkeypatch)
    assert status == 0 and "random start (seed 3)" in out and "you resigned" in out
    status, out, _ = _run(["ioiwari", "versus", "--seed", "3"], "", capsys, monkeypatch)
    assert status == 0 and "game abandoned" in out


def test_solve_verify(
    use_cache: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _run(["ioiwari", "solve", "--verify"], "", capsys, monkeypatch)
    assert status == 0
    assert "table     279,936 codes, cache" in out
    assert "starts    357: player 1 wins 357, draws 0, loses 0 under perfect play" in out
    assert ": 0 differ" in out


def test_solve_a_variant_without_cache(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = _run(
        [
            "ioiwari",
            "solve",
            "--no-cache",
            "--verify",
            "--variant",
            "pits=5 cap=4 total=10 start=1..3",
        ],
        "",
        capsys,
        monkeypatch,
    )
    assert status == 0 and "table     3,125 codes, built" in out and ": 0 differ" in out


def test_demo(use_cache: Path) -> None:
    game = load_game("ioiwari")
    assert game.demo is not None
    lines = game.demo()
    assert "value +2, best first moves 2 4 7" in lines[1]
    assert lines[2] == "a perfect game: 2 3 5 4 5 7 -> 11 : 9"
    assert "357 legal starts: player 1 wins 357" in lines[3]
