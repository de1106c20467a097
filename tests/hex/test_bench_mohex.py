"""benchmarks/bench_hex_mohex.py: its settings checked before MoHex is looked for, and
the GTP lines that give MoHex its threads (MoHex is not needed here)."""

from __future__ import annotations

import argparse

import pytest
from tests.hex.benchmark_script import load

from boardlab.peers.mohex import mohex_settings


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threads", "0"], "--threads must be at least 1, not 0"),
        (["--mohex-time", "-1"], "--time and --mohex-time must be positive"),
        (["--part", "3/2"], "expected I/K with 1 <= I <= K, not '3/2'"),
    ],
)
def test_bad_options_are_refused_before_anything_runs(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load("bench_hex_mohex")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--match", *argv, "--mohex", "/nonexistent/mohex"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_without_mohex_the_match_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_mohex")
    assert bench.main(["--match", "--threads", "2", "--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_mohex_is_given_its_threads_and_no_pondering() -> None:
    lines = mohex_settings(1.0, None, threads=2)
    assert "param_mohex num_threads 2" in lines
    assert "param_mohex perform_pre_search 0" in lines
    assert "param_mohex max_games" not in " ".join(lines)


def test_mohex_values_are_read_as_whites_chance() -> None:
    """``mohex-values`` prints thousandths without leading zeros (``.50`` is 0.050) and
    rounded counts (``1k``); the most visited reply gives the chance, a proven win 1."""
    bench = load("bench_hex_mohex")
    assert bench.white_chance("a1 .523@1k b2 .900@999 c3 L@3 d4 0") == 0.523
    assert bench.white_chance("a1 .50@2k b1 .900@3") == 0.05
    assert bench.white_chance("a1 .1000@1.20m b1 .400@900k") == 1.0
    assert bench.white_chance("a1 .300@10 b1 W@4") == 1.0
    assert bench.white_chance("a1 0 b1 L@2") is None


def test_balanced_openings_are_checked_before_mohex_is_looked_for(
    capsys: pytest.CaptureFixture[str],
) -> None:
    bench = load("bench_hex_mohex")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--match", "--games", "4", "--balanced", "3", "--mohex", "/bin/true"])
    assert stop.value.code == 2
    assert "--balanced must be 0 to 2 (the openings), not 3" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [("speed=3", "no engine setting 'speed'"), ("max_nodes=many", "is not a number")],
)
def test_bad_engine_settings_are_refused_before_mohex_is_looked_for(
    text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load("bench_hex_mohex")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--match", "--setting", text, "--mohex", "/nonexistent/mohex"])
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_searched_seconds_leave_out_the_forced_opening() -> None:
    bench = load("bench_hex_mohex")
    # 7 moves, black at 0, 2, 4, 6 and white at 1, 3, 5
    took = [0.0, 0.1, 1.0, 1.1, 2.0, 2.1, 3.0]
    assert bench.searched_seconds(took, 1, 0) == [0.0, 1.0, 2.0, 3.0]
    assert bench.searched_seconds(took, 2, 0) == [0.1, 1.1, 2.1]
    assert bench.searched_seconds(took, 1, 1) == [1.0, 2.0, 3.0]  # black's stone forced
    assert bench.searched_seconds(took, 2, 1) == [0.1, 1.1, 2.1]
    assert bench.searched_seconds(took, 2, 2) == [1.1, 2.1]  # a stone each forced
    assert bench.searched_seconds(took[:1], 2, 1) == []


def test_each_sides_time_a_move_is_kept_and_combined() -> None:
    bench = load("bench_hex_mohex")
    tally = bench.Tally("equal time 1.0 s")
    tally.add(1, "proof", 1, "g.sgf")
    early = bench.EARLY_MOVES
    tally.add_timing("g.sgf", [1.0] * 30, [1.5] * early + [0.1] * (30 - early))
    assert f"boardlab 1.00 s (first {early}: 1.00 s)" in tally.line()
    assert tally.per_move("mohex", early=True) == 1.5
    entry = tally.as_dict()
    assert entry["seconds_a_move_first"] == {"boardlab": 1.0, "mohex": 1.5}
    assert entry["timings"][0]["mohex"][early] == 0.1  # every move's time is kept
    again = bench.Tally("equal time 1.0 s")
    for game in entry["timings"]:
        again.add_timing(game["game"], game["boardlab"], game["mohex"])
    assert again.per_move("mohex") == pytest.approx(tally.per_move("mohex"))
    assert again.per_move("mohex") == pytest.approx(0.8)


def test_a_part_of_the_openings_is_read_and_checked() -> None:
    bench = load("bench_hex_mohex")
    assert bench.part_of("1/2") == (0, 2)
    assert bench.part_of("3/3") == (2, 3)
    # every opening in exactly one of the parts
    parts = [bench.part_of(f"{i}/3") for i in (1, 2, 3)]
    assert [[n for n in range(7) if bench.in_part(n, part)] for part in parts] == [
        [0, 3, 6],
        [1, 4],
        [2, 5],
    ]
    for bad in ("0/2", "3/2", "2", "a/b", "1/0"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected I/K"):
            bench.part_of(bad)
