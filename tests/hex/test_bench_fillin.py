"""benchmarks/bench_hex_fillin.py: boardlab's side of the fill-in count, and a clear
refusal when MoHex is absent (MoHex is not needed here)."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex import connections as vc


def test_boardlab_marks_a_dead_corner_and_nothing_on_an_empty_board() -> None:
    bench = load("bench_hex_fillin")
    knowledge = vc.knowledge(5)
    assert bench.boardlab_fills(knowledge, [0] * 25) == set()
    # Black on both neighbours of the corner cell 0 (its other four are edges, two of
    # each colour): whoever gets cell 0 joins nothing new, so it is dead.
    board = [0] * 25
    board[1] = board[5] = 1
    assert 0 in bench.boardlab_fills(knowledge, board)
    board[5] = 2  # one black, one white neighbour: the corner can matter again
    assert 0 not in bench.boardlab_fills(knowledge, board)


def test_without_mohex_the_benchmark_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MOHEX", raising=False)
    bench = load("bench_hex_fillin")
    assert bench.main(["--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err
    assert bench.main(["--size", "12", "--mohex", "/nonexistent/mohex"]) == 2
    assert "--size must be" in capsys.readouterr().err
