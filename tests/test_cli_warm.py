"""``boardlab warm``: every game's kernels loaded ahead of timed play, the Hex engine's
for the board sizes asked; bad names and sizes are one line and exit status 2."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from boardlab.cli import load_game, main
from boardlab.cli._command import Game


def _fake_games(monkeypatch: pytest.MonkeyPatch, done: list[str]) -> None:
    """hex and pegged replaced by games that record their warm-up, every other game by
    one with none; the engine's per-size load recorded too (nothing compiled)."""

    def recorder(name: str) -> Callable[[], object]:
        return lambda: done.append(name)

    fakes = {
        name: Game(name, "a test game", (), warm_up=recorder(name)) for name in ("hex", "pegged")
    }
    fakes["warm"] = load_game("warm")
    monkeypatch.setattr(
        "boardlab.cli.load_game", lambda name: fakes.get(name) or Game(name, "no kernels", ())
    )

    def engine(size: int = 3) -> float:
        done.append(f"hex {size}")
        return 0.0

    monkeypatch.setattr("boardlab.hex.player.warm_up", engine)


def test_warm_loads_the_named_games_and_the_hex_sizes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    done: list[str] = []
    _fake_games(monkeypatch, done)
    assert main(["warm", "pegged", "hex", "--hex-size", "9", "--hex-size", "13"]) == 0
    assert done == ["pegged", "hex", "hex 9", "hex 13"]
    out = capsys.readouterr().out
    assert "hex 13x13 engine ..." in out
    assert "kernel cache:" in out


def test_warm_defaults_to_every_game_and_11_and_13(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    done: list[str] = []
    _fake_games(monkeypatch, done)
    assert main(["warm"]) == 0
    assert sorted(done) == sorted(["pegged", "hex", "hex 11", "hex 13"])
    assert done.index("hex") < done.index("hex 11") < done.index("hex 13")
    assert "4 step(s)" in capsys.readouterr().out


def test_every_game_with_kernels_is_warmed() -> None:
    from boardlab.cli import played_games

    with_kernels = {n for n in played_games() if load_game(n).warm_up is not None}
    assert {"hex", "pegged", "ioiwari", "shongololo"} <= with_kernels


def test_warm_really_loads_a_small_hex_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["warm", "hex", "--hex-size", "5"]) == 0
    out = capsys.readouterr().out
    assert "hex 5x5 engine" in out
    assert "done in" in out


def test_the_parallel_plan_puts_the_hex_engine_and_prover_apart_and_first() -> None:
    from boardlab.cli.warm import _tasks

    tasks = _tasks(["pegged", "hex", "ioiwari"], [11, 13])
    assert [[step[0] for step in task] for task in tasks] == [
        ["hex engine", "hex 11x11 engine", "hex 13x13 engine"],
        ["hex prover"],
        ["pegged"],
        ["ioiwari"],
    ]
    assert tasks[0][2] == ("hex 13x13 engine", "hex", "engine", 13)
    assert _tasks([], [11]) == []


def test_warm_in_two_processes_loads_each_game_and_says_the_wall_time(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["warm", "ioiwari", "shongololo", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "kernels of 2 step(s) in 2 processes" in out
    assert "  ioiwari ... " in out and "  shongololo ... " in out
    assert "done in" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["warm", "--jobs", "-1"], "--jobs must be 0 (one per core) or more, not -1"),
        (["warm", "chess"], "no kernels to warm for chess"),
        (["warm", "demo"], "no kernels to warm for demo"),
        (["warm", "hex", "--hex-size", "0"], "--hex-size: board size must be"),
        (["warm", "hex", "--hex-size", "27"], "--hex-size: board size must be"),
    ],
)
def test_bad_warm_requests_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    assert err.count("\n") == 1


def test_a_slow_kernel_load_says_why_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hex command whose kernels take long to load (numba compiling them on a first
    run) says so once on stderr, naming boardlab warm; a quick load says nothing."""
    from boardlab.cli._progress import slow_load_hint

    with slow_load_hint("hex move", after=0.05) as slow:
        time.sleep(0.3)
    assert slow.said
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "boardlab hex move: compiling the kernels" in err
    assert "'boardlab warm'" in err
    with slow_load_hint("hex move", after=5.0) as quick:
        pass
    time.sleep(0.05)
    assert not quick.said
    assert capsys.readouterr().err == ""


def test_hex_move_loads_its_kernels_under_the_hint(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``hex move`` loads the engine's kernels for the position's size before its search
    (under the hint), so the search's clock starts with them loaded."""
    import boardlab.cli._progress as progress

    sizes: list[int] = []

    def engine(size: int = 3) -> float:
        time.sleep(0.3)
        sizes.append(size)
        return 0.0

    monkeypatch.setattr("boardlab.hex.player.warm_up", engine)
    monkeypatch.setattr(progress, "LOAD_HINT_AFTER", 0.05)
    position = tmp_path / "p.txt"
    position.write_text("(;FF[4]GM[11]SZ[5])\n")
    assert main(["hex", "move", str(position), "--playouts", "50"]) == 0
    assert sizes[0] == 5  # before the search (which loads its own for 3x3 too)
    assert "boardlab hex move: compiling the kernels" in capsys.readouterr().err


def test_the_games_warmed_and_shown_are_the_games_not_the_tools() -> None:
    from boardlab.cli import GAMES, TOOLS, available_games, played_games

    assert set(GAMES) >= TOOLS
    assert set(played_games()) == set(available_games()) - TOOLS
    assert {"hex", "pegs", "mars"} <= set(played_games())
