"""benchmarks/bench_hex_vc_decided.py: the open positions it samples and the fills it reads
from MoHex's answers (MoHex is not needed: a stand-in answers)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.rules import Position


def test_open_positions_are_open_legal_positions() -> None:
    bench = load("bench_hex_vc_decided")
    position = Position(6)
    position.play_index(0)  # black in a corner, white to move: a short proof
    found = bench.open_positions(position, 60.0)
    assert found
    fresh = Dfpn(6, Limit().start())
    for black, white, player in found:
        assert not black & white and player in (1, 2)
        assert (black | white) < 1 << 36
    # the root is among them (in one of its two frames), open for a fresh analysis too
    assert (1, 0, 2) in found or (1 << 35, 0, 2) in found
    assert fresh.analyse(1, 0, 2)[0] == 0


#: A stand-in for MoHex: every numbered command is answered with two fills (HexGui's
#: a1 for black, c2 for white) and one cell of another kind, which is not a fill.
FAKE_MOHEX = """\
import sys
for line in sys.stdin:
    words = line.split()
    if words and words[0].isdigit():
        print(f"={words[0]} a1 fb b1 iv[c1] c2 fw\\n")
    elif words:
        print("= \\n")
    sys.stdout.flush()
"""


def test_mohex_fills_read_per_position(tmp_path: Path) -> None:
    bench = load("bench_hex_vc_decided")
    script = tmp_path / "mohex"
    script.write_text(f"#!{sys.executable}\n{FAKE_MOHEX}")
    script.chmod(0o755)
    sample = [(0, 0, 1), (1 << 40, 0, 2)]
    fills = bench.mohex_fills(str(script), sample, 8, (), "compute-fillin")
    n = 8
    a1 = 1 << vertex_index("a1", n)
    c2 = 1 << vertex_index("c2", n)
    assert fills == [(a1, c2), (a1, c2)]
    assert bench.handed_fill("param_player_vc use_patterns 0; vc-build") == (
        ("param_player_vc use_patterns 0",),
        "vc-build",
    )
    assert bench.handed_fill("showboard") is None


def test_show_fills_names_both_programs_fills(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_vc_decided")
    n = 4
    cell = {name: 1 << vertex_index(name, n) for name in ("a1", "b1", "b2", "c3", "d4")}
    key = (cell["b2"], cell["c3"], 1)
    bench.show_fills(n, key, (cell["a1"] | cell["b1"], cell["d4"]), (cell["a1"], 0))
    out = capsys.readouterr().out
    assert "black b2; white c3; black to move" in out
    assert "MoHex fills black a1 b1, white d4; boardlab fills black a1, white -" in out


@pytest.mark.parametrize(
    "bad",
    [
        ["--mohex", "{missing}"],
        ["--sample", "-1"],
        ["--time", "0"],
        ["--show", "-1"],
        ["--handed-fill", "showboard"],
        ["--show-fills", "-1"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    bad: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An absent MoHex, a sample below 1, a time not positive or a negative --show."""
    bench = load("bench_hex_vc_decided")
    suite = tmp_path / "s.tst"
    suite.write_text("boardsize 3 3\n10 dfpn-solve-state white\n#? [black]\n")
    args = [word.format(missing=tmp_path / "no") for word in bad]
    assert bench.main(["--suite", str(suite), "--case", "10", *args]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
