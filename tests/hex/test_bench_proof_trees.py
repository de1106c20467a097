"""The proof-tree benchmark on a board small enough to run in a test."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load

bench = load("bench_hex_proof_trees")


def test_both_trees_of_a_4x4_opening_replay(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--size", "4", "--openings", "b2", "--time", "60"]) == 0
    lines = capsys.readouterr().out.splitlines()
    plain, certified = lines[1], lines[2]
    assert "plain" in plain and "OK:" in plain and "0 connection" in plain
    assert "certified" in certified and "OK:" in certified and "1 connection" in certified


def test_a_bad_cell_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--size", "4", "--openings", "z9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "bench_hex_proof_trees" in err


@pytest.mark.parametrize("size", ["1", "12"])
def test_a_board_the_prover_does_not_take_is_one_line_and_exit_2(
    size: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bench.main(["--size", size, "--openings", "a1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not 2 to 11" in err
