"""benchmarks/bench_hex_game_playouts.py: kept games replayed move by move, each setting
on the same positions, bad input refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load


def _game(folder: Path) -> None:
    folder.mkdir()
    moves = ";B[e5];W[d6];B[c7];W[f3];B[g4];W[b2]"
    (folder / "one.sgf").write_text(f"(;FF[4]GM[11]SZ[9]{moves})")


def test_each_setting_replays_the_same_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load("bench_hex_game_playouts")
    _game(tmp_path / "games")
    rows = bench.replay({"reuse_visits": "0"}, 9, bench.games(tmp_path / "games", 1)[0][1], 0.02)
    assert rows and all(
        playouts > 0 and cpu >= 0 and outside >= 0 for playouts, cpu, outside in rows
    )
    code = bench.main(
        ["--folder", str(tmp_path / "games"), "--time", "0.02", "--settings", "reuse_visits=0",
         "reuse_visits=16"]
    )  # fmt: skip
    assert code == 0
    out = capsys.readouterr().out
    assert "reuse_visits=0" in out and "reuse_visits=16" in out and "playouts a move" in out


def test_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_game_playouts")
    assert bench.main(["--folder", str(tmp_path)]) == 2
    assert "no games in" in capsys.readouterr().err
    _game(tmp_path / "games")
    assert bench.main(["--folder", str(tmp_path / "games"), "--settings", "nonsense=1"]) == 2
    assert "no engine setting 'nonsense'" in capsys.readouterr().err
    (tmp_path / "games" / "bad.sgf").write_text("(;FF[4]SZ[9];B[zz])")
    assert bench.main(["--folder", str(tmp_path / "games")]) == 2
    assert "bad.sgf" in capsys.readouterr().err
