"""benchmarks/bench_hex_mohex.py: its settings checked before MoHex is looked for, and
the GTP lines that give MoHex its threads (MoHex is not needed here)."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load

from boardlab.peers.mohex import mohex_settings


def test_threads_below_one_are_refused_before_anything_runs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load("bench_hex_mohex")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--match", "--threads", "0", "--mohex", "/nonexistent/mohex"])
    assert stop.value.code == 2
    assert "--threads must be at least 1, not 0" in capsys.readouterr().err


def test_without_mohex_the_match_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_mohex")
    assert bench.main(["--match", "--threads", "2", "--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_mohex_is_given_its_threads_and_no_pondering() -> None:
    lines = mohex_settings(1.0, None, threads=2)
    assert "param_mohex num_threads 2" in lines
    assert "param_mohex perform_pre_search 0" in lines
    assert "param_mohex max_games" not in " ".join(lines)
