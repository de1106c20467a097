"""benchmarks/bench_hex_move_time.py: its settings checked, MoHex's absence said, and the
self-play timing loop on boardlab's own engine (MoHex is not needed here)."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load

from boardlab.core.limits import Limit
from boardlab.hex.match import EnginePlayer
from boardlab.hex.player import SolvingEngine


def test_without_mohex_the_script_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_move_time")
    assert bench.main(["--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_bad_settings_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_move_time")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--size", "3", "--mohex", "/nonexistent/mohex"])
    assert stop.value.code == 2
    assert "--size must be 5 to 19, not 3" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        bench.main(["--mohex-time", "0", "--mohex", "/nonexistent/mohex"])


class _Limited(EnginePlayer):
    """The engine under a playout limit whatever the seconds (reproducible, quick)."""

    def genmove(self, color: int, seconds: float) -> str:
        result = self.engine.search(self.position, Limit(nodes=200))
        self.position.push(result.cell)
        return result.cell.vertex()


def test_self_play_times_each_move_until_the_plies_or_the_end() -> None:
    bench = load("bench_hex_move_time")
    spent = bench.timed_self_play(_Limited(SolvingEngine(seed=1)), 5, "c3", 6, 1.0)
    assert len(spent) == 5  # the first stone is placed, not searched
    assert all(seconds >= 0.0 for seconds in spent)
    # a 5x5 game is over long before 40 moves: the loop stops there
    assert len(bench.timed_self_play(_Limited(SolvingEngine(seed=1)), 5, "c3", 40, 1.0)) < 25
    line = bench.summary("boardlab", [1.0, 2.0, 3.0])
    assert "3 moves  mean 2.000 s  median 2.000  least 1.000  most 3.000" in line
