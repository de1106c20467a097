"""benchmarks/soak_web.py: its verdict fails on memory that grows, a 5xx, a slow health
answer, a search or threads left behind; and a run of a few seconds works end to end."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.hex.benchmark_script import load

MIB = 2**20


def records(soak: Any, floors: list[int], statuses: dict[str, int] | None = None) -> list[Any]:
    """One record a minute with these memory floors (MiB), every answer a 200 but
    ``statuses`` in the last one."""
    made = []
    for minute, floor in enumerate(floors):
        last = minute == len(floors) - 1
        answers = (statuses or {"200": 10}) if last else {"200": 10}
        made.append(
            soak.Record(
                seconds=60.0 * minute,
                rss=floor * MIB,
                rss_floor=floor * MIB,
                rss_peak=(floor + 50) * MIB,
                threads=8,
                threads_peak=9,
                requests=sum(answers.values()),
                statuses=answers,
                health_count=240,
                health_p50_ms=2.0,
                health_p99_ms=20.0,
                health_max_ms=30.0,
                short_p50_ms=3.0,
                short_p99_ms=25.0,
                stopped=1,
                errors=0,
                surprises=0,
                load=1.0,
            )
        )
    return made


HEALTH = [(second * 0.25, 5.0) for second in range(14_400)]  # an hour, 4 probes a second
END = {"running": 0, "queued": 0, "threads": 4, "baseline_threads": 4, "waited": 0.5}


def failed(checks: list[Any]) -> list[str]:
    return [check.name for check in checks if not check.passed]


def test_the_verdict_passes_a_flat_run_and_fails_each_goal_missed() -> None:
    soak = load("soak_web")
    flat = [300] * 10 + [320] * 51  # grows in the warm-up, flat after it
    assert failed(soak.judge(records(soak, flat), HEALTH, END, [], 0)) == []
    # memory that keeps growing after the warm-up: 320 MiB to 420 MiB
    growing = [300] * 10 + [320 + 2 * minute for minute in range(51)]
    assert failed(soak.judge(records(soak, growing), HEALTH, END, [], 0)) == [
        "server memory flat after the warm-up (its floor in each sample)"
    ]
    # one 500 among the answers
    with_500 = records(soak, flat, {"200": 9, "500": 1})
    assert failed(soak.judge(with_500, HEALTH, END, [], 0)) == ["no 5xx"]
    # health slow in one tenth of the run only: 2 % of its probes over 100 ms
    slow = [(t, 150.0 if 400 <= t < 400 + 7.5 else ms) for t, ms in HEALTH]
    assert failed(soak.judge(records(soak, flat), slow, END, [], 0)) == [
        "/api/health under 100 ms at the 99th percentile throughout"
    ]
    # a search still running, threads above the baseline, a request cut off, a surprise
    assert failed(soak.judge(records(soak, flat), HEALTH, END | {"running": 1}, [], 0)) == [
        "no search left running or waiting at the end"
    ]
    assert failed(soak.judge(records(soak, flat), HEALTH, END | {"threads": 5}, [], 0)) == [
        "server threads back to their baseline"
    ]
    cut = soak.judge(records(soak, flat), HEALTH, END, ["GET /api/health: ReadError"], 1)
    assert failed(cut) == ["no request cut off or refused", "every answer as documented"]


def test_bad_values_pass_the_documented_limits() -> None:
    soak = load("soak_web")
    assert soak.out_of_limits({"type": "integer", "minimum": 1, "maximum": 26}) == (27, 400)
    assert soak.out_of_limits({"type": "number", "minimum": 0.1}) == (0.1 - 1, 400)
    text = {"anyOf": [{"type": "string", "maxLength": 16}, {"type": "null"}]}
    assert soak.out_of_limits(text) == ("x" * 17, 413)
    assert soak.out_of_limits({"type": "boolean"}) is None
    assert soak.main(["--minutes", "0"]) == 2
    assert soak.main(["--url", "http://example.org:8000/"]) == 2


def test_a_run_of_a_few_seconds_records_and_judges(tmp_path: Path) -> None:
    soak = load("soak_web")
    out = tmp_path / "soak.json"
    argv = ["--minutes", "0.1", "--clients", "2", "--quiet", "0", "--settle", "40"]
    status = soak.main([*argv, "--out", str(out)])
    saved = json.loads(out.read_text())
    assert status == (0 if saved["passed"] else 1)
    assert len(saved["records"]) >= 3 and sum(saved["steps"].values()) > 0
    assert saved["records"][0]["rss"] > 0
    checks = {check["name"]: check for check in saved["checks"]}
    # the goals that do not depend on the machine's speed hold in any run
    for name in (
        "no 5xx",
        "no request cut off or refused",
        "every answer as documented",
        "no search left running or waiting at the end",
    ):
        assert checks[name]["passed"], checks[name]
