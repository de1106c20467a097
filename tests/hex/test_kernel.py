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


def _kernel_playout(
    size: int, board: list[int], to_move: int, last: int, seed: int, block: bool, push: bool = False
) -> tuple[int, list[int], int]:
    """The kernel's playout: the winner, the board filled and the generator's state."""
    tab = tables(size, block, push)
    cells = size * size
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
    return int(won), kb.tolist(), int(state[0])


@pytest.mark.parametrize(("block", "push"), [(False, False), (True, False), (True, True)])
@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 11])
def test_playout_matches_twin(size: int, block: bool, push: bool) -> None:
    rng = random.Random(size)
    for trial in range(40):
        board, to_move, last = random_board(size, rng, 0.9)
        seed = rng.getrandbits(63) | 1
        won, filled, state = _kernel_playout(size, board, to_move, last, seed, block, push)
        pb = board.copy()
        generator = twin.XorShift(seed)
        assert won == twin.playout(pb, size, to_move, last, generator, block, push), trial
        assert filled == pb, trial
        assert state == generator.state
        assert won == twin.winner_full(pb, size)


@pytest.mark.parametrize(
    ("stone", "mine", "block_at", "who"),
    [
        ((2, 1), (2, 0), (3, 0), 2),  # black's stone by its column-0 edge, white answers
        ((1, 3), (0, 3), (0, 4), 1),  # white's stone by its row-0 edge, black answers
        ((2, 3), (1, 4), (2, 4), 2),  # by column 4 (size 5)
    ],
)
def test_playouts_block_a_second_line_stone_s_last_edge_cell(
    stone: tuple[int, int], mine: tuple[int, int], block_at: tuple[int, int], who: int
) -> None:
    size = 5
    board = [0] * size * size
    board[stone[0] * size + stone[1]] = 3 - who
    board[mine[0] * size + mine[1]] = who
    last, cell = stone[0] * size + stone[1], block_at[0] * size + block_at[1]
    seeds = range(1, 40, 2)
    with_block = {_kernel_playout(size, board, who, last, s, True)[1][cell] for s in seeds}
    without = {_kernel_playout(size, board, who, last, s, False)[1][cell] for s in seeds}
    assert with_block == {who}
    assert without == {1, 2}  # left to chance, the cell goes either way


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


def test_playouts_with_pushes_run_a_ladder_to_the_corner() -> None:
    # Black's (2, 1) by its column-0 edge, White holding (3, 0) and just blocking (2, 0):
    # Black pushes to (1, 1), White blocks (1, 0), Black pushes (0, 1), White blocks (0, 0)
    size = 5
    board = [0] * size * size
    board[3 * size] = board[2 * size] = 2
    board[2 * size + 1] = 1
    ladder = {size + 1: 1, size: 2, 1: 1, 0: 2}
    seeds = range(1, 40, 2)
    pushed = [_kernel_playout(size, board, 1, 2 * size, s, True, True)[1] for s in seeds]
    assert all(all(filled[cell] == who for cell, who in ladder.items()) for filled in pushed)
    blocked_only = [_kernel_playout(size, board, 1, 2 * size, s, True)[1] for s in seeds]
    assert {filled[size + 1] for filled in blocked_only} == {1, 2}
