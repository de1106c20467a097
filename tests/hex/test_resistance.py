"""The resistance move order of the DFPN solver against a dense-matrix reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.hex.board import ring_neighbours
from boardlab.hex.prover.resistance import cell_flows, flows_reference, move_scores


def random_board(rng: random.Random, n: int) -> tuple[int, int]:
    own = opp = 0
    for i in range(n * n):
        x = rng.random()
        if x < 0.2:
            own |= 1 << i
        elif x < 0.4:
            opp |= 1 << i
    return own, opp


@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_flows_match_the_dense_reference(n: int) -> None:
    rng = random.Random(n)
    ring = ring_neighbours(n)
    for _ in range(40):
        own, opp = random_board(rng, n)
        player = rng.choice((1, 2))
        fast = cell_flows(n, ring, np.uint64(own), np.uint64(opp), player)
        slow = flows_reference(n, own, opp, player)
        twin = cell_flows.py_func(n, ring, np.uint64(own), np.uint64(opp), player)
        assert np.allclose(fast, slow, atol=1e-5)
        assert np.allclose(fast, twin)


def test_a_blocked_player_carries_no_current() -> None:
    n = 3
    column = sum(1 << (r * n + 1) for r in range(n))  # the opponent holds the middle column
    flows = cell_flows(n, ring_neighbours(n), np.uint64(0), np.uint64(column), 1)
    assert not flows.any()


def test_a_lone_path_carries_all_the_current() -> None:
    n = 3
    row = sum(1 << (1 * n + c) for c in range(n))  # player 1's only path is the middle row
    opp = ((1 << n * n) - 1) & ~row
    flows = cell_flows(n, ring_neighbours(n), np.uint64(0), np.uint64(opp), 1)
    assert np.allclose([flows[i] for i in range(n * n) if row >> i & 1], 1.0)
    assert not any(flows[i] for i in range(n * n) if opp >> i & 1)


def test_the_centre_matters_more_than_a_corner() -> None:
    n = 7
    scores = move_scores(n, ring_neighbours(n), np.uint64(0), np.uint64(0))
    assert scores[3 * n + 3] > scores[0]
    assert scores[3 * n + 3] > scores[n * n - 1]
