"""The resistance move order of the DFPN solver against a dense-matrix reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.hex import connections
from boardlab.hex import hsearch as hsearch_module
from boardlab.hex.board import ring_neighbours
from boardlab.hex.prover.resistance import (
    board_scores,
    cell_flows,
    flows_reference,
    links_of,
    move_scores,
)

NO_LINKS = np.zeros((0, 2), np.int64)
NO_TABLE = np.zeros((0, 2), np.uint64)


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
        fast = cell_flows(n, ring, np.uint64(own), np.uint64(opp), player, NO_LINKS)
        slow = flows_reference(n, own, opp, player)
        twin = cell_flows.py_func(n, ring, np.uint64(own), np.uint64(opp), player, NO_LINKS)
        assert np.allclose(fast, slow, atol=1e-5)
        assert np.allclose(fast, twin)


@pytest.mark.parametrize("n", [2, 4, 7, 8])
def test_linked_flows_match_the_dense_reference(n: int) -> None:
    """Links anywhere (far apart in cell order, to either edge) as full connections add
    them: the envelope of the factorisation must hold every one."""
    rng = random.Random(10 + n)
    ring = ring_neighbours(n)
    cells = n * n
    for _ in range(40):
        own, opp = random_board(rng, n)
        player = rng.choice((1, 2))
        pairs = set()
        for _ in range(rng.randrange(1, 8)):
            a, b = rng.randrange(cells), rng.randrange(cells + 2)
            if a != b:
                pairs.add((min(a, b), max(a, b)))
        links = np.array(sorted(pairs), np.int64).reshape(-1, 2)
        fast = cell_flows(n, ring, np.uint64(own), np.uint64(opp), player, links)
        slow = flows_reference(n, own, opp, player, sorted(pairs))
        assert np.allclose(fast, slow, atol=1e-5), (own, opp, player, sorted(pairs))


@pytest.mark.parametrize("size", [4, 6])
def test_links_are_the_tables_full_connections(size: int) -> None:
    k = connections.knowledge(size, 1)
    rng = random.Random(size)
    cells = size * size
    for _ in range(6):
        own = opp = 0
        for i in range(cells):
            x = rng.random()
            own |= (x < 0.15) << i
            opp |= (0.15 <= x < 0.3) << i
        table = hsearch_module.hsearch(
            size, k.nbr, (np.uint64(own),), (np.uint64(opp),), (k.lines[0][0],),
            (k.lines[1][0],), 16, 24, 100_000, False, NO_TABLE, True, NO_TABLE, 0,
        )[6]  # fmt: skip
        want = set()
        for code_, _ in table[1:]:
            code = int(code_)
            a, b = sorted((code >> 8 & 255, code >> 16 & 255))
            if code & 255 != hsearch_module.SEMI_ROW and a < cells and a != b:
                want.add((a, b))
        assert {(int(a), int(b)) for a, b in links_of(table, cells)} == want
        assert len(links_of(table, cells)) == len(want)


def test_board_scores_agree_with_move_scores() -> None:
    """The any-size entry and the one-word entry give the same scores."""
    n = 6
    rng = random.Random(3)
    ring = ring_neighbours(n)
    for _ in range(10):
        black, white = random_board(rng, n)
        board = np.array(
            [1 if black >> i & 1 else 2 if white >> i & 1 else 0 for i in range(n * n)], np.int8
        )
        table = np.array([[0, 0], [hsearch_module.FULL_ROW | 0 << 8 | 35 << 16, 0]], np.uint64)
        one = move_scores(n, ring, np.uint64(black), np.uint64(white), table, NO_TABLE)
        wide = board_scores(n, ring, board, table, NO_TABLE)
        assert np.allclose(one, wide)


def test_a_full_connection_carries_current_past_its_carrier() -> None:
    """A bridge's two cells carry less of player 1's current once the bridge is a link."""
    n = 3
    ring = ring_neighbours(n)
    own = 1 << 0 | 1 << (1 * n + 2)  # a1-ish and the far side: stones at 0 and 5
    plain = cell_flows(n, ring, np.uint64(own), np.uint64(0), 1, NO_LINKS)
    linked = cell_flows(n, ring, np.uint64(own), np.uint64(0), 1, np.array([[0, 5]], np.int64))
    carrier = (1, 3)
    assert sum(linked[c] for c in carrier) < sum(plain[c] for c in carrier)


def test_a_blocked_player_carries_no_current() -> None:
    n = 3
    column = sum(1 << (r * n + 1) for r in range(n))  # the opponent holds the middle column
    flows = cell_flows(n, ring_neighbours(n), np.uint64(0), np.uint64(column), 1, NO_LINKS)
    assert not flows.any()


def test_a_lone_path_carries_all_the_current() -> None:
    n = 3
    row = sum(1 << (1 * n + c) for c in range(n))  # player 1's only path is the middle row
    opp = ((1 << n * n) - 1) & ~row
    flows = cell_flows(n, ring_neighbours(n), np.uint64(0), np.uint64(opp), 1, NO_LINKS)
    assert np.allclose([flows[i] for i in range(n * n) if row >> i & 1], 1.0)
    assert not any(flows[i] for i in range(n * n) if opp >> i & 1)


def test_the_centre_matters_more_than_a_corner() -> None:
    n = 7
    scores = move_scores(n, ring_neighbours(n), np.uint64(0), np.uint64(0), NO_TABLE, NO_TABLE)
    assert scores[3 * n + 3] > scores[0]
    assert scores[3 * n + 3] > scores[n * n - 1]
