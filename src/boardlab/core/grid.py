"""Core layer: cells on a lattice, neighbour and jump tables, symmetry maps, bitsets.

A :class:`Grid` is a finite set of cells ``(row, col)`` on a lattice given by its unit
directions: the square lattice (four directions) or the triangular lattice (six; a
cell ``(row, k)`` of a triangle touches ``(row, k±1)``, ``(row±1, k)`` and
``(row±1, k±1)``). Cells are numbered ``0..n-1`` in row-major order; a set of cells
is a bitset, a Python ``int`` of any size (boards reach 25 x 49 = 1225 cells), with
helpers to move bitsets in and out of numpy ``uint64`` words for kernels.

>>> g = Grid.from_cells([(0, 0), (0, 1), (0, 2)], SQUARE)
>>> g.jumps
((0, 1, 2), (2, 1, 0))
>>> len(g.symmetries())
2
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

__all__ = [
    "SQUARE",
    "TRIANGULAR",
    "Coord",
    "Grid",
    "Lattice",
    "Permutation",
    "bits_of",
    "from_words",
    "indices_of",
    "permute_bits",
    "to_words",
    "words_needed",
]

Coord = tuple[int, int]
Permutation = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Lattice:
    """A lattice named by its unit steps (each step's opposite is also a step)."""

    name: str
    directions: tuple[Coord, ...]


SQUARE = Lattice("square", ((-1, 0), (0, 1), (1, 0), (0, -1)))
TRIANGULAR = Lattice("triangular", ((-1, -1), (-1, 0), (0, 1), (1, 1), (1, 0), (0, -1)))


@dataclass(frozen=True)
class Grid:
    """A finite set of lattice cells with their move tables (immutable)."""

    cells: tuple[Coord, ...]
    lattice: Lattice
    index: dict[Coord, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if list(self.cells) != sorted(set(self.cells)):
            raise ValueError("grid cells must be distinct and in row-major order")
        object.__setattr__(self, "index", {cell: i for i, cell in enumerate(self.cells)})

    @classmethod
    def from_cells(cls, cells: Iterable[Coord], lattice: Lattice) -> Grid:
        """A grid of the given cells (any order, duplicates dropped)."""
        return cls(tuple(sorted(set(cells))), lattice)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @cached_property
    def full(self) -> int:
        """The bitset of every cell."""
        return (1 << len(self.cells)) - 1

    @cached_property
    def neighbours(self) -> tuple[tuple[int, ...], ...]:
        """``neighbours[i][d]``: the cell one step from ``i`` in direction ``d``, or -1."""
        table = []
        for row, col in self.cells:
            table.append(
                tuple(
                    self.index.get((row + dr, col + dc), -1) for dr, dc in self.lattice.directions
                )
            )
        return tuple(table)

    @cached_property
    def steps(self) -> tuple[tuple[int, int], ...]:
        """Every one-step move ``(from, to)`` between cells, in cell then direction order."""
        return tuple((i, j) for i, row in enumerate(self.neighbours) for j in row if j >= 0)

    @cached_property
    def jumps(self) -> tuple[tuple[int, int, int], ...]:
        """Every jump ``(from, over, to)`` along a lattice line, in cell then direction order."""
        table = []
        for i, (row, col) in enumerate(self.cells):
            for dr, dc in self.lattice.directions:
                over = self.index.get((row + dr, col + dc))
                to = self.index.get((row + 2 * dr, col + 2 * dc))
                if over is not None and to is not None:
                    table.append((i, over, to))
        return tuple(table)

    @cached_property
    def _symmetries(self) -> tuple[Permutation, ...]:
        directions = set(self.lattice.directions)
        if not self.cells:
            return ((),)
        cell_set = set(self.cells)
        low_row = min(r for r, _ in self.cells)
        low_col = min(c for _, c in self.cells)
        found: list[Permutation] = []
        for a, b, c, d in itertools.product((-1, 0, 1), repeat=4):
            if a * d - b * c not in (1, -1):
                continue
            if {(a * dr + b * dc, c * dr + d * dc) for dr, dc in directions} != directions:
                continue
            image = [(a * r + b * k, c * r + d * k) for r, k in self.cells]
            shift_row = low_row - min(r for r, _ in image)
            shift_col = low_col - min(k for _, k in image)
            moved = [(r + shift_row, k + shift_col) for r, k in image]
            if set(moved) == cell_set:
                found.append(tuple(self.index[cell] for cell in moved))
        return tuple(sorted(set(found)))

    def symmetries(self) -> tuple[Permutation, ...]:
        """The symmetry group: permutations ``p`` (cell ``i`` goes to ``p[i]``), identity first.

        These are the lattice maps (rotations, reflections, with a translation) that carry
        the cell set onto itself; they preserve every jump and step.
        """
        return self._symmetries

    def bits(self, cells: Iterable[Coord]) -> int:
        """The bitset of the given cells (each must be on the grid)."""
        return bits_of(self.index[cell] for cell in cells)

    def coords(self, bits: int) -> list[Coord]:
        """The cells of a bitset, in row-major order."""
        return [self.cells[i] for i in indices_of(bits)]


def bits_of(indices: Iterable[int]) -> int:
    """The bitset holding ``indices``.

    >>> bits_of([0, 3])
    9
    """
    value = 0
    for i in indices:
        value |= 1 << i
    return value


def indices_of(bits: int) -> list[int]:
    """The set bits of ``bits``, smallest first.

    >>> indices_of(0b1010)
    [1, 3]
    """
    result = []
    while bits:
        low = bits & -bits
        result.append(low.bit_length() - 1)
        bits ^= low
    return result


def permute_bits(bits: int, permutation: Sequence[int]) -> int:
    """Move bit ``i`` to bit ``permutation[i]``.

    >>> permute_bits(0b001, (2, 1, 0))
    4
    """
    value = 0
    for i in indices_of(bits):
        value |= 1 << permutation[i]
    return value


def words_needed(size: int) -> int:
    """How many 64-bit words hold a bitset of ``size`` cells."""
    return max(1, (size + 63) // 64)


_WORD_MASK = (1 << 64) - 1


def to_words(bits: int, words: int) -> npt.NDArray[np.uint64]:
    """A bitset as little-endian ``uint64`` words (word 0 holds cells 0..63).

    >>> to_words((1 << 64) | 5, 2).tolist()
    [5, 1]
    """
    if bits < 0 or bits >> (64 * words):
        raise ValueError(f"bitset does not fit in {words} words")
    return np.array([(bits >> (64 * w)) & _WORD_MASK for w in range(words)], dtype=np.uint64)


def from_words(words: npt.NDArray[np.uint64]) -> int:
    """The bitset stored in little-endian ``uint64`` words.

    >>> from_words(to_words(12345678901234567890123, 2))
    12345678901234567890123
    """
    value = 0
    for w, word in enumerate(words.tolist()):
        value |= int(word) << (64 * w)
    return value
