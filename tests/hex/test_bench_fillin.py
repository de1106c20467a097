"""benchmarks/bench_hex_fillin.py and bench_hex_fill_value.py: boardlab's side of the
fill-in count, MoHex's fill answers read and played as stones, and a clear refusal when
MoHex is absent (MoHex is not needed here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex import connections as vc
from boardlab.hex.gtp import parse_vertex
from boardlab.hex.rules import BLACK, WHITE, Position
from boardlab.peers.mohex import fill_in_cells


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


def test_fill_value_reads_mohex_fills_and_plays_them_as_stones() -> None:
    bench = load("bench_hex_fill_value")
    answer = " a1 iv[a2] b1 fb c1 ii[b2-c2]\n d1 x e1 fw  a2 fb"
    fills = fill_in_cells(answer, 5)
    assert fills == {
        parse_vertex("b1", 5): BLACK,
        parse_vertex("e1", 5): WHITE,
        parse_vertex("a2", 5): BLACK,
    }
    position = Position(5)
    position.play_index(parse_vertex("c3", 5))
    filled = bench.with_stones(position, fills)
    assert filled.to_move == position.to_move == WHITE
    assert sum(1 for v in filled.board if v == BLACK) == 3
    assert sum(1 for v in filled.board if v == WHITE) == 1


def test_fill_value_without_mohex_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.delenv("MOHEX", raising=False)
    bench = load("bench_hex_fill_value")
    assert bench.main(["--sgf", str(tmp_path / "none.sgf"), "--mohex", "/nonexistent"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err
