"""benchmarks/soak_gtp.py: its verdict fails on memory that grows, a restarted or void
game; and a match of three games works end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.hex.benchmark_script import load

MIB = 2**20


def records(soak: Any, match: list[int], gtp: list[int], pid: int = 7) -> list[Any]:
    """A sample each 100 games with these resident sizes (MiB)."""
    return [
        soak.Record(
            games=max(1, 100 * n) if n < len(match) - 1 else 999,
            seconds=10.0 * n,
            match_rss=m * MIB,
            match_floor=m * MIB,
            match_threads=2,
            gtp_pid=pid,
            gtp_rss=g * MIB,
            gtp_floor=g * MIB,
            gtp_threads=2,
        )
        for n, (m, g) in enumerate(zip(match, gtp, strict=True))
    ]


def failed(checks: list[Any]) -> list[str]:
    return [check.name for check in checks if not check.passed]


def test_the_verdict_passes_a_flat_match_and_fails_each_goal_missed() -> None:
    soak = load("soak_gtp")
    flat = [150, 200, 210, 210, 211, 209, 210, 212, 210, 211, 212]
    assert failed(soak.judge(records(soak, flat, flat), 1000, 1000, 0, 0, {7})) == []
    grown = [*flat[:-1], 260]  # the GTP engine 23 % larger at the end
    assert failed(soak.judge(records(soak, flat, grown), 1000, 1000, 0, 0, {7})) == [
        "the GTP engine's memory flat (its floor)"
    ]
    assert failed(soak.judge(records(soak, flat, flat), 1000, 1000, 0, 0, {7, 8})) == [
        "one GTP process from the first game to the last (no restart)"
    ]
    for played, void, status in ((998, 0, 0), (1000, 2, 0), (1000, 0, 2)):
        checks = soak.judge(records(soak, flat, flat), 1000, played, void, status, {7})
        assert failed(checks) == ["every game played, none void"]


def test_sample_points_and_options() -> None:
    soak = load("soak_gtp")
    assert soak.sample_points(1000, 100) == [1, 100, 200, 300, 400, 500, 600, 700, 800, 900, 999]
    assert soak.sample_points(1, 1) == [1]
    assert soak.main(["--games", "0"]) == 2
    assert soak.main(["--size", "12"]) == 2


def test_a_match_of_three_games(tmp_path: Path) -> None:
    soak = load("soak_gtp")
    out = tmp_path / "soak.json"
    assert soak.main(["--games", "3", "--size", "4", "--out", str(out)]) == 0
    saved = json.loads(out.read_text())
    assert saved["passed"] and saved["played"] == 3 and len(saved["gtp_pids"]) == 1
    assert saved["records"][-1]["games"] >= 2
