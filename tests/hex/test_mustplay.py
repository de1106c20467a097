"""The must-play region: the kernel against its plain-Python twin, and its soundness
against the exact solver on small boards."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.hex import twin

from boardlab.core.limits import Limit
from boardlab.hex.board import bridge_table
from boardlab.hex.engine.mustplay import link_table, must_play
from boardlab.hex.engine.search import tables
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Position, random_open_position


def kernel_region(position: Position, mover: int) -> set[int] | None:
    n = position.size
    tab = tables(n)
    allowed = np.zeros(n * n, np.int8)
    work = np.zeros(n * n + 4, np.int32)
    used = np.zeros(n * n, np.int32)
    board = np.array(position.board, np.int8)
    if not must_play(board, n, mover, tab.nbr, tab.links, tab.nlinks, allowed, work, used):
        return None
    return {i for i in range(n * n) if allowed[i]}


def python_links(n: int) -> list[list[tuple[int, int, int]]]:
    links, count = link_table(n)
    return [[tuple(int(v) for v in links[c, k]) for k in range(count[c])] for c in range(n * n)]


@pytest.mark.parametrize("size", [3, 4, 6, 9])
def test_link_table_holds_every_bridge_and_edge_template(size: int) -> None:
    ours = {
        (c, p, frozenset((x, y))) for c, entry in enumerate(python_links(size)) for p, x, y in entry
    }
    bridges = {
        (a, b, frozenset((x, y)))
        for x, entry in enumerate(bridge_table(size))
        for a, b, y in entry
        if b >= 0
    }
    both_ways = {(a, b, xy) for a, b, xy in bridges} | {(b, a, xy) for a, b, xy in bridges}
    assert {t for t in ours if t[1] < size * size} == both_ways
    edges = {
        (a, frozenset((x, y)))
        for x, entry in enumerate(bridge_table(size))
        for a, b, y in entry
        if b < 0
    }
    assert {(c, xy) for c, p, xy in ours if p >= size * size} == edges


@pytest.mark.parametrize("size", [3, 5, 7, 11])
def test_kernel_matches_twin(size: int) -> None:
    rng = random.Random(size)
    links = python_links(size)
    applied = 0
    for _ in range(300):
        stones = rng.randrange(0, size * size * 2 // 3)
        p = random_open_position(size, stones, rng)
        for mover in (1, 2):
            expected = twin.must_play(list(p.board), size, mover, links)
            assert kernel_region(p, mover) == expected, (repr(p), mover)
            applied += expected is not None
    assert applied > 0


@pytest.mark.parametrize("size", [4, 5])
def test_moves_outside_the_region_lose(size: int) -> None:
    """Every pruned move is a proven loss (the solver on the position after it), on the
    first 150 pruned moves of seeded random positions."""
    rng = random.Random(100 + size)
    checked = 0
    while checked < 150:
        p = random_open_position(size, rng.randrange(2, size * size // 2), rng)
        region = kernel_region(p, p.to_move)
        if region is None:
            continue
        for cell in p.legal_indices():
            if cell in region:
                continue
            p.push_index(cell)
            if p.winner is None:
                result = solve(p, Limit(nodes=100_000), all_moves=False)
                assert result.winner == p.to_move, (repr(p), cell)
                checked += 1
            else:
                assert p.winner != p.to_move  # a pruned move never wins at once
            p.pop_index()
