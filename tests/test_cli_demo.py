"""``boardlab demo``: each game's kernels are loaded before its clock and its solvers'
time limits start, so a fresh install (numba's cache empty) shows the same answers."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import boardlab
from boardlab.cli import load_game, main


def test_the_demo_warms_up_before_its_clock(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardlab.cli._command import Game

    done: list[str] = []

    def demo() -> list[str]:
        done.append("demo")
        return [f"after {' '.join(done)}"]

    game = Game("pegged", "a test game", (), demo=demo, warm_up=lambda: done.append("warm"))
    real = load_game
    monkeypatch.setattr(
        "boardlab.cli.load_game", lambda name: game if name == "pegged" else real(name)
    )
    assert main(["demo", "pegged"]) == 0
    assert "   after warm demo\n" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["pegged", "hex", "shongololo", "ioiwari"])
def test_the_timed_demos_have_a_warm_up(name: str) -> None:
    assert load_game(name).warm_up is not None


def test_pegged_demo_on_a_fresh_install_is_optimal(tmp_path: Path) -> None:
    """Under an empty numba cache the kernel compiles for many seconds; it must do so
    before the solver's 5 s start: the beam then runs (its runs counted, not timed) and
    finds the optimal 35 moves, as with a warm cache."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "PYTHONPATH": str(Path(boardlab.__file__).parents[1]),
    }
    done = subprocess.run(
        [sys.executable, "-m", "boardlab", "demo", "pegged"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    line = next(line for line in done.stdout.splitlines() if "solver:" in line)
    runs = re.search(r"\((\d+) beam runs?, ([\d,]+) nodes?\)", line)
    assert runs is not None and int(runs.group(1)) >= 1, line
    assert "35 moves (0 walks)" in line and "optimal yes" in line, line
