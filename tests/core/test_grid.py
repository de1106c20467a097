"""Tests of lattice geometry, symmetry groups and bitset helpers."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.grid import (
    SQUARE,
    TRIANGULAR,
    Grid,
    bits_of,
    from_words,
    indices_of,
    permute_bits,
    to_words,
    words_needed,
)


def test_square_lattice_tables() -> None:
    grid = Grid.from_cells([(r, c) for r in range(3) for c in range(3)], SQUARE)
    assert grid.size == 9
    assert len(grid.steps) == 24
    assert len(grid.jumps) == 12
    assert len(grid.symmetries()) == 8


def test_triangle_has_six_symmetries_and_diagonal_jumps() -> None:
    grid = Grid.from_cells([(r, k) for r in range(4) for k in range(r + 1)], TRIANGULAR)
    assert len(grid.symmetries()) == 6
    top, bottom_left = grid.index[(0, 0)], grid.index[(2, 0)]
    assert (top, grid.index[(1, 0)], bottom_left) in grid.jumps
    assert (top, grid.index[(1, 1)], grid.index[(2, 2)]) in grid.jumps


def test_symmetries_preserve_jumps() -> None:
    grid = Grid.from_cells([(r, k) for r in range(5) for k in range(r + 1)], TRIANGULAR)
    jumps = set(grid.jumps)
    for perm in grid.symmetries():
        assert {(perm[a], perm[b], perm[c]) for a, b, c in jumps} == jumps


def test_asymmetric_shape_keeps_only_identity() -> None:
    grid = Grid.from_cells([(0, 0), (0, 1), (1, 0), (0, 2), (2, 0), (0, 3)], SQUARE)
    assert grid.symmetries() == (tuple(range(6)),)


@given(st.sets(st.integers(min_value=0, max_value=1300)))
def test_bitset_round_trips(indices: set[int]) -> None:
    bits = bits_of(indices)
    assert indices_of(bits) == sorted(indices)
    words = words_needed(1301)
    assert from_words(to_words(bits, words)) == bits


@given(st.permutations(list(range(12))), st.integers(min_value=0, max_value=(1 << 12) - 1))
def test_permute_bits_keeps_popcount(perm: list[int], bits: int) -> None:
    moved = permute_bits(bits, perm)
    assert moved.bit_count() == bits.bit_count()
    inverse = [0] * 12
    for i, p in enumerate(perm):
        inverse[p] = i
    assert permute_bits(moved, inverse) == bits
