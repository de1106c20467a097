"""benchmarks/hex_refutation_times.py: boardlab's proof of a losing move timed, a winning
move reported as a disagreement, fills played first, the table's counts by budget, bad
requests and MoHex's absence refused (MoHex is not needed here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex.board import vertex_index


def test_a_losing_move_is_proven_lost_and_a_winning_one_is_not() -> None:
    bench = load("hex_refutation_times")
    suite = load("hex_blunder_suite")
    # 3x3: black's centre stone wins, so every white answer loses; the centre itself wins
    lost = bench.boardlab_time(suite.Case("g", 3, ("b2",), "a1", "edge"), 5.0)
    assert lost is not None and lost >= 0.0
    won = bench.boardlab_time(suite.Case("g", 3, (), "b2", "middle"), 5.0)
    assert won == -1.0


def test_fills_are_played_as_stones_before_the_proof() -> None:
    """White's a1 after black's b2 loses on 3x3; with white stones on a3 and b3 as well
    (cutting b2 from black's edge) it wins: the fill reached the solver."""
    bench = load("hex_refutation_times")
    suite = load("hex_blunder_suite")
    case = suite.Case("g", 3, ("b2",), "a1", "edge")
    fills = {vertex_index("a3", 3): 2, vertex_index("b3", 3): 2}
    assert bench.boardlab_time(case, 5.0, fills) == -1.0
    lost = bench.boardlab_time(case, 5.0, {})
    assert lost is not None and lost >= 0.0


def test_the_table_counts_the_proofs_within_each_budget() -> None:
    bench = load("hex_refutation_times")
    line = bench.row("boardlab solve", [0.05, 0.2, 1.5, None, -1.0], [0.1, 0.3, 2.0])
    assert line.split()[2:5] == ["1", "2", "3"]
    assert "of 5" in line and "1 called won: disagreement" in line
    assert "disagreement" not in bench.row("x", [0.05, None], [0.1])


def test_without_mohex_the_script_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load("hex_refutation_times")
    assert bench.main(["--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_bad_requests_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("hex_refutation_times")
    fake = tmp_path / "mohex"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises(SystemExit) as stop:
        bench.main(["--mohex", str(fake), "--budgets", "0.1,x"])
    assert stop.value.code == 2
    assert bench.main(["--mohex", str(fake)]) == 2
    assert "no positions" in capsys.readouterr().err
    suite = tmp_path / "suite.json"
    record = {"game": "g", "size": 3, "moves": ["b2"], "blunder": "b2", "kind": "edge"}
    suite.write_text(json.dumps([record]), encoding="utf-8")
    assert bench.main([str(suite), "--mohex", str(fake)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("hex_refutation_times: ") and err.count("\n") == 1
