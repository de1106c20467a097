"""The board layer (hex/board.py): one definition of each board fact, the same in every
encoding that derives from it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.hex.twin import is_dead as twin_is_dead

from boardlab.hex import board
from boardlab.hex.board import (
    DEAD_RUN,
    EDGE_BLACK,
    EDGE_WHITE,
    NOWHERE,
    Cell,
    centre_order,
    dead_ring_table,
    edge_lines,
    neighbours,
    reverse_bits,
    ring_neighbours,
    rotated,
    run_dead,
    vertex,
    vertex_index,
    vertex_names,
)


def _colours(code: int) -> list[int]:
    """A ring code's six colours as :func:`run_dead` reads them (3, a corner: -1)."""
    return [-1 if (code >> (2 * k)) & 3 == 3 else (code >> (2 * k)) & 3 for k in range(6)]


def test_the_simple_dead_pattern_is_a_case_of_the_table() -> None:
    table = dead_ring_table()
    runs = [code for code in range(4**6) if run_dead(_colours(code))]
    assert runs
    assert all(table[code] for code in runs)
    assert sum(bool(x) for x in table) > len(runs)  # the table knows more dead cells
    assert DEAD_RUN == 4


def test_a_dead_ring_holds_at_most_two_empty_cells() -> None:
    # the captured-pair fill-in skips cells with more than three empty neighbours on this
    table = dead_ring_table()
    open_cells = [sum(c == 0 for c in _colours(code)) for code in range(4**6) if table[code]]
    assert max(open_cells) == 2


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8])
def test_run_dead_is_the_engine_twins_rule(size: int) -> None:
    rng = random.Random(size)
    ring = ring_neighbours(size)
    edge = {EDGE_BLACK: 1, EDGE_WHITE: 2, NOWHERE: -1}
    for _ in range(40):
        cells = [rng.choice((0, 0, 1, 2)) for _ in range(size * size)]
        for cell in range(size * size):
            colours = [int(cells[v]) if v >= 0 else edge[int(v)] for v in ring[cell]]
            assert run_dead(colours) == twin_is_dead(cells, size, cell)


@pytest.mark.parametrize("size", [1, 2, 4, 7, 11])
def test_rings_edges_and_neighbours_agree(size: int) -> None:
    ring = ring_neighbours(size)
    for cell, around in enumerate(neighbours(size)):
        assert sorted(int(v) for v in ring[cell] if v >= 0) == sorted(around)
    columns, last_column, rows, last_row = edge_lines(size)
    assert all(cell % size == 0 for cell in columns)
    assert all(cell % size == size - 1 for cell in last_column)
    assert all(cell // size == 0 for cell in rows)
    assert all(cell // size == size - 1 for cell in last_row)
    assert ring.dtype == np.int64


def test_vertex_names_lists_a_bit_set_in_index_order() -> None:
    cells = [vertex_index(name, 5) for name in ("c2", "a1", "e5")]
    bits = sum(1 << c for c in cells)
    assert vertex_names(bits, 5) == " ".join(vertex(c, 5) for c in sorted(cells))
    assert set(vertex_names(bits, 5).split()) == {"a1", "c2", "e5"}
    assert vertex_names(0, 5) == "-"


@pytest.mark.parametrize("size", [1, 2, 3, 6, 8])
def test_the_turn_in_indices_and_in_bit_sets(size: int) -> None:
    cells = size * size
    turn = reverse_bits(cells)
    for cell in range(cells):
        assert rotated(rotated(cell, size), size) == cell
        assert turn(1 << cell) == 1 << rotated(cell, size)
    order = centre_order(size)
    assert sorted(order) == list(range(cells))
    if size % 2:
        assert order[0] == rotated(order[0], size)  # the centre cell, its own turn


@pytest.mark.parametrize("size", [1, 3, 11, 26])
def test_the_one_vertex_rule(size: int) -> None:
    for index in range(size * size):
        name = vertex(index, size)
        assert vertex_index(name, size) == index
        assert name == str(Cell.of_index(index, size).transposed())


def test_the_board_layer_loads_no_kernel() -> None:
    assert "jit" not in vars(board)
