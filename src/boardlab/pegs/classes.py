"""Solver layer: position classes, the invariant that proves most peg games impossible.

On the square lattice colour hole ``(r, c)`` by ``(r + c) mod 3`` and, separately, by
``(r - c) mod 3``. The three holes of any jump along a row or a column carry three
different colours in both colourings; a jump empties two of them and fills the
third, so it flips the parity of the number of pegs on every colour. The pairwise
sums of those parities never change: four bits, sixteen *position classes* (de Bruijn
1972; Bell's "position classes"). Two positions in different classes can never be
joined by jumps.

On the triangular lattice (six directions) ``(r + k) mod 3`` gives three different
colours along each of the three line directions (steps ``(0, 1)``, ``(1, 0)`` and
``(1, 1)`` add 1, 1 and 2): two bits, four classes. It is the only such colouring up
to renaming, so triangles have just this invariant.

>>> from boardlab.pegs.boards import named_board
>>> english = named_board("english")
>>> centre = english.index(english.home)
>>> position_class(english, english.grid.full & ~(1 << centre)) == position_class(
...     english, 1 << centre)
True
"""

from __future__ import annotations

from boardlab.core.grid import indices_of
from boardlab.pegs.boards import Board

__all__ = ["PositionClass", "class_name", "position_class"]

PositionClass = tuple[int, ...]


def position_class(board: Board, bits: int) -> PositionClass:
    """The position class of the pegs ``bits`` on ``board`` (a tuple of parity bits)."""
    first = [0, 0, 0]
    second = [0, 0, 0]
    for i in indices_of(bits):
        row, col = board.grid.cells[i]
        first[(row + col) % 3] ^= 1
        second[(row - col) % 3] ^= 1
    if board.triangular:
        return (first[0] ^ first[1], first[1] ^ first[2])
    return (first[0] ^ first[1], first[1] ^ first[2], second[0] ^ second[1], second[1] ^ second[2])


def class_name(cls: PositionClass) -> str:
    """A short text form of a class, e.g. ``0110``."""
    return "".join(str(bit) for bit in cls)
