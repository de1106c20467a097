"""scripts/hex_edge_patterns.py's windows: the endpoint's own row widened by ``--side``,
and ``--far`` trying only the extra stones beyond the second cell of that row."""

from __future__ import annotations

from tests.hex.benchmark_script import SCRIPTS, load


def test_the_side_widens_the_endpoints_row_only() -> None:
    script = load("hex_edge_patterns", SCRIPTS)
    near = set(script.window(3, 4, 4, 2))
    wide = set(script.window(3, 4, 4, 4))
    assert wide - near == {(0, -4), (0, -3), (0, 3), (0, 4)}
    assert all(dr > 0 or 0 < abs(dc) <= 2 for dr, dc in near)
    assert (0, 0) not in wide  # the endpoint itself is no cell of its window


def test_far_tries_only_the_row_cells_past_the_near_side() -> None:
    script = load("hex_edge_patterns", SCRIPTS)
    cells = script.window(3, 4, 4, 4)
    assert script.extra_stones(cells, 0) == [()]
    assert len(script.extra_stones(cells, 1)) == len(cells)
    far = script.extra_stones(cells, 1, far=True)
    assert sorted(stone for (stone,) in far) == [(0, -4), (0, -3), (0, 3), (0, 4)]
