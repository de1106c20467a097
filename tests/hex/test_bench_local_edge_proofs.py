"""benchmarks/hex_local_edge_proofs.py: the made-up position ties the group alone to the far
edge, a second-row stone joins its edge through two empty cells, bad moves end with one
line and exit 2."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load


def test_the_chain_touches_the_cone_only_next_to_the_group() -> None:
    bench = load("hex_local_edge_proofs")
    rng = random.Random(7)
    n = 6
    nbr = bench.neighbour_masks(n)
    for _ in range(200):
        cells = rng.sample(range(n * n), 10)
        own = sum(1 << c for c in cells[:5])
        opp = sum(1 << c for c in cells[5:])
        node = cells[0]
        line = rng.randrange(4)
        mine, theirs, cone, group = bench.made_up(n, own, opp, node, line, 2)
        assert not mine & theirs and not cone & (mine | theirs)
        assert mine | theirs | cone == (1 << n * n) - 1
        chain_and_kept = mine & ~group
        outside = chain_and_kept & ~own  # the chain's cells that were not the owner's
        assert bench.spread(nbr, outside) & cone & ~bench.spread(nbr, group) == 0


def test_a_second_row_stone_joins_its_edge_and_a_blocked_one_does_not() -> None:
    bench = load("hex_local_edge_proofs")
    n = 5
    tally = bench.Tally()
    # white's edges are the solver's rows 0 and n - 1; a white stone on row n - 2
    stone = (n - 2) * n + 2
    joined = bench.joins(n, 2, 1 << stone, 0, stone, 3, 2, tally, 200)
    assert joined is not None and joined.bit_count() >= 2
    around = bench.spread(bench.neighbour_masks(n), 1 << stone)
    below = sum(1 << c for c in range((n - 1) * n, n * n) if around >> c & 1)
    assert below.bit_count() == 2
    assert bench.joins(n, 2, 1 << stone, below, stone, 3, 2, tally, 200) is None


def test_a_bad_move_ends_with_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = load("hex_local_edge_proofs")
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;AP[HexGui:0.9]FF[4]GM[11]SZ[4];AB[b2])")
    assert bench.main(["--sgf", str(sgf), "--play", "x b3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and err.count("\n") == 1
