"""The numba kernels against their plain-Python twins (tests/hex/twin.py), bit for bit."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.hex import twin

from boardlab.core.limits import Limit
from boardlab.hex import board
from boardlab.hex.engine import kernel as _kernel
from boardlab.hex.engine.search import tables
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Cell, Position


def random_board(size: int, rng: random.Random, fill: float) -> tuple[list[int], int, int]:
    p = Position(size)
    last = -1
    while p.winner is None and rng.random() < fill and p.legal_indices():
        last = rng.choice(p.legal_indices())
        p.push_index(last)
    if p.winner is not None:
        last = p.pop_index()
    return p.board.copy(), p.to_move, last if p.history else -1


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 11])
def test_playout_matches_twin(size: int) -> None:
    rng = random.Random(size)
    tab = tables(size)
    cells = size * size
    for trial in range(40):
        board, to_move, last = random_board(size, rng, 0.9)
        seed = rng.getrandbits(63) | 1
        kb = np.array(board, np.int8)
        state = np.array([seed], np.uint64)
        won = _kernel.playout(
            kb,
            size,
            to_move,
            last,
            tab.nbr,
            tab.bridges,
            tab.nbridge,
            np.empty(cells, np.int32),
            np.empty(cells, np.int32),
            state,
            np.empty(cells, np.int32),
            np.empty(cells, np.int8),
        )
        pb = board.copy()
        generator = twin.XorShift(seed)
        assert won == twin.playout(pb, size, to_move, last, generator), trial
        assert kb.tolist() == pb
        assert int(state[0]) == generator.state
        assert won == twin.winner_full(pb, size)


def test_the_kernels_dead_cell_rule_is_the_boards_on_every_ring() -> None:
    """The playout kernel's own dead-cell test (``kernel.is_dead``) is
    :func:`boardlab.hex.board.run_dead` on every ring a cell can have: every colouring of
    the on-board neighbours of every cell of the boards up to 4x4 (which hold every
    kind of cell: inside, on each edge, in each corner), edges and corners as the board
    module names them."""
    edge = {board.EDGE_BLACK: 1, board.EDGE_WHITE: 2, board.NOWHERE: -1}
    rings: set[tuple[int, ...]] = set()
    for size in (1, 2, 3, 4):
        ring = board.ring_neighbours(size)
        for cell in range(size * size):
            around = [int(v) for v in ring[cell]]
            inside = [v for v in around if v >= 0]
            for code in range(3 ** len(inside)):
                cells = np.zeros(size * size, np.int8)
                for k, v in enumerate(inside):
                    cells[v] = code // 3**k % 3
                colours = tuple(int(cells[v]) if v >= 0 else edge[v] for v in around)
                rings.add(colours)
                assert _kernel.is_dead(cells, size, cell) == board.run_dead(colours), colours
    # every ring of six stones or empty cells, and the edge and corner rings beside them
    assert len(rings) > 3**6
    assert sum(1 for r in rings if min(r) >= 0 and all(c <= 2 for c in r)) >= 3**6


@pytest.mark.parametrize("size", [2, 3, 5, 6])
def test_dead_cells_match_twin(size: int) -> None:
    rng = random.Random(100 + size)
    out = np.empty(size * size, np.int8)
    for _ in range(100):
        board, _, _ = random_board(size, rng, 0.95)
        _kernel.dead_cells(np.array(board, np.int8), size, out)
        expected = [int(v == 0 and twin.is_dead(board, size, i)) for i, v in enumerate(board)]
        assert out.tolist() == expected


def test_dead_cells_really_are_dead() -> None:
    """Filling a dead cell with either colour never changes who wins a random completion."""
    rng = random.Random(7)
    size = 4
    out = np.empty(size * size, np.int8)
    checked = 0
    for _ in range(300):
        board, _, _ = random_board(size, rng, 0.95)
        _kernel.dead_cells(np.array(board, np.int8), size, out)
        for cell in np.flatnonzero(out).tolist():
            for _ in range(5):
                fill = [v or rng.choice([1, 2]) for v in board]
                a, b = fill.copy(), fill.copy()
                a[cell], b[cell] = 1, 2
                assert twin.winner_full(a, size) == twin.winner_full(b, size)
                checked += 1
    assert checked > 50


def test_search_is_deterministic_from_seed() -> None:
    p = Position(9)  # past the exact solver's board sizes: the playouts decide
    a = SolvingEngine(seed=3, max_nodes=50_000).search(p, Limit(nodes=600))
    b = SolvingEngine(seed=3, max_nodes=50_000).search(p, Limit(nodes=600))
    assert (a.cell, a.top) == (b.cell, b.top)
    assert a.playouts == 600


def test_search_takes_the_win_and_blocks() -> None:
    def cells(names: str) -> list[Cell]:
        return [Cell.parse(name) for name in names.split()]

    p = Position.from_stones(5, cells("a3 b3 c3 d3"), cells("a1 b1 c1 e2"))
    engine = SolvingEngine(seed=1, max_nodes=20_000)
    result = engine.search(p, Limit(nodes=200))
    assert str(result.cell) == "e3" and result.verdict == 1 and result.proven
    p = Position.from_stones(5, cells("a3 b3 c3 d3 a5"), cells("a1 b1 c1 e2"))
    result = engine.search(p, Limit(nodes=200))
    assert str(result.cell) == "e3" and result.reason == "blocks the only threat"


def test_mcts_solver_proves_small_boards() -> None:
    """The first player wins every n x n board; the tree proves it on 3x3 from the centre."""
    engine = SolvingEngine(seed=2, max_nodes=200_000)
    result = engine.search(Position(3), Limit(nodes=20_000))
    assert result.verdict == 1 and str(result.cell) == "b2"
    p = Position(3)
    p.play(Cell.parse("a1"))  # a losing opening on 3x3: white can prove a win
    result = engine.search(p, Limit(nodes=20_000))
    assert result.verdict == 1
