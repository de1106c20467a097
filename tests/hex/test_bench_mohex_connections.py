"""benchmarks/hex_mohex_connections.py: bad options and a missing MoHex end with one line
and exit 2; carriers are counted from MoHex's lines (MoHex is not needed here)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load


def test_too_few_cells_are_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = load("hex_mohex_connections")
    argv = ["--sgf", str(tmp_path / "x.sgf"), "--who", "white", "--cells", "east", "--setting", "x"]
    assert bench.main(argv) == 2
    assert "two or more different cells" in capsys.readouterr().err


def test_without_mohex_it_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = load("hex_mohex_connections")
    argv = ["--sgf", str(tmp_path / "x.sgf"), "--who", "black", "--cells", "north c3"]
    assert bench.main([*argv, "--setting", "x", "--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_a_carrier_is_the_first_list() -> None:
    bench = load("hex_mohex_connections")
    line = "white g2 g4 full or [ h1 g3 h3 h4 ] [ ]"
    assert bench.carrier_size(line) == 4
    assert bench.carrier_size("white d3 east semi and [ h1 f2 ] [ ] g2") == 2
    assert bench.carrier_size("no list") == 0


def test_all_names_every_cell_and_the_players_edges(tmp_path: Path) -> None:
    bench = load("hex_mohex_connections")
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;AP[HexGui:0.9]FF[4]GM[11]SZ[3];AB[b2])")
    nodes = bench.every_node(sgf, "white")
    assert nodes[:2] == ["west", "east"]
    assert sorted(nodes[2:]) == sorted(f"{c}{r}" for c in "abc" for r in (1, 2, 3))
    assert bench.every_node(sgf, "black")[:2] == ["north", "south"]


def test_a_broken_position_file_ends_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = load("hex_mohex_connections")
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;GM[11]SZ[x])")
    fake = tmp_path / "mohex"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    argv = ["--sgf", str(sgf), "--who", "white", "--cells", "all", "--mohex", str(fake)]
    assert bench.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1
