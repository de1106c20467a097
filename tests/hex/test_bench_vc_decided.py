"""benchmarks/bench_hex_vc_decided.py: the open positions it samples (MoHex is not needed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.core.limits import Limit
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


@pytest.mark.parametrize(
    "bad", [["--mohex", "{missing}"], ["--sample", "-1"], ["--time", "0"], ["--show", "-1"]]
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
