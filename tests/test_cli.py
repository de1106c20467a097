"""Tests of the top-level command line: help, version, unknown names."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from boardlab import __version__
from boardlab.cli import available_games, load_game, main

ROOT = Path(__file__).resolve().parents[1]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["--version"])
    assert caught.value.code == 0
    assert capsys.readouterr().out == "boardlab 0.2.0\n"
    assert __version__ == "0.2.0"


def test_the_version_is_written_once() -> None:
    """pyproject.toml names no version of its own: the build reads ``__version__``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "boardlab.__version__"}
    assert (ROOT / "src" / "boardlab" / "__init__.py").read_text().count("__version__ = ") == 1


def test_help_lists_every_available_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for name in available_games():
        assert name in out


#: Each contest game by the contest and year a user knows it by.
CONTESTS = {
    "hiq": "Hi-Q (Mid-Atlantic 1996)",
    "pegged": "PEGGED (POTM 1997)",
    "ioiwari": "Ioiwari (IOI 2001)",
    "hex": "Hex (IOI 1997)",
    "mars": "Mars explorer (IOI 1997)",
    "shongololo": "Toxic iShongololo (IOI 1997)",
}


def test_help_names_each_game_by_its_contest_and_year(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "seed" not in out
    for name, title in CONTESTS.items():
        line = next(line for line in out.splitlines() if line.split()[:1] == [name])
        assert title in line
        with pytest.raises(SystemExit):
            main([name, "--help"])
        assert "seed 0" not in capsys.readouterr().out


def test_unknown_game_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["no-such-game"])
    assert caught.value.code == 2
    assert "unknown game 'no-such-game'" in capsys.readouterr().err


@pytest.mark.parametrize("name", available_games())
def test_every_game_help_lists_its_verbs(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = load_game(name)
    with pytest.raises(SystemExit) as caught:
        main([name, "--help"])
    assert caught.value.code == 0
    out = capsys.readouterr().out
    for verb in game.verbs:
        assert verb.name in out


def test_help_does_not_import_heavy_modules() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from boardlab.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('numba', 'starlette', 'ortools', 'uvicorn') if m in sys.modules]\n"
        "print('HEAVY:' + ','.join(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "HEAVY:"


def test_progress_without_a_total_logs_the_description_alone(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A search that reports a count (no total) logs one line with its count and rate."""
    from boardlab.cli import _progress

    monkeypatch.setattr(_progress, "LOG_EVERY", 0.0)
    with _progress.ProgressLine("8x8 solve") as line:
        _progress.counting(line, "8x8 solve", "positions analysed")(1536)
    err = capsys.readouterr().err
    assert "] 8x8 solve: 1,536 positions analysed, " in err
    assert err.rstrip().endswith("a second")


def test_a_signal_stops_the_searches_of_the_block_and_a_second_stops_at_once() -> None:
    """The first SIGTERM cancels the block's stop (budgets started in it are spent); the
    second raises KeyboardInterrupt; a SIGINT ignored before stays ignored; the handlers
    are put back after the block."""
    import os
    import signal

    from boardlab.cli._signals import stop_on_signal
    from boardlab.core.limits import Limit

    before_term = signal.getsignal(signal.SIGTERM)  # another test's library may have set one
    before_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with pytest.raises(KeyboardInterrupt), stop_on_signal("a test") as stop:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            budget = Limit(time=600).start()
            assert not budget.exhausted()
            os.kill(os.getpid(), signal.SIGTERM)
            assert stop.cancelled and budget.exhausted()
            assert stop.reason == "stopped by SIGTERM"
            os.kill(os.getpid(), signal.SIGTERM)
            raise AssertionError("the second signal should have stopped the block")
        assert signal.getsignal(signal.SIGTERM) is before_term
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before_int)


@pytest.mark.parametrize("argv", [[], ["hex"], ["pegs"]])
def test_no_game_or_no_verb_lists_them_and_says_so_on_stderr(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert "usage:" in out
    assert len(err.strip().splitlines()) == 1 and "error: give a" in err
