"""Board layer: the Hex rhombus, the one source every board encoding and both rooms derive from.

The layer under the rules, the engine (:mod:`boardlab.hex.engine`) and the prover
(:mod:`boardlab.hex.prover`); it imports nothing of them. It holds:

- the shape: :data:`DIRECTIONS` (the six neighbour offsets in turning order),
  :func:`neighbours` (each cell's on-board neighbours), :func:`bridge_table` (the
  bridges and edge bridges each cell carries), :func:`ring_neighbours` (each cell's ring
  of six, edges included) and :func:`edge_lines` (the cells along the four edges);
- the dead and captured patterns: :func:`dead_ring_table` (the ring codes around a dead
  cell, from which the captured pairs follow) and :func:`run_dead` with
  :data:`DEAD_RUN` (its simple case the engine's playouts and the alpha-beta solver test);
- the move order and the symmetry: :func:`centre_order` (nearest the centre first),
  :func:`rotated` and :func:`reverse_bits` (the 180-degree turn, which keeps a
  position's value);
- the cell and its names: :class:`Cell` (``c5``) and the one vertex rule,
  :func:`vertex` / :func:`vertex_index` (HexGui's, GTP's and SGF's names are boardlab's
  cells across the long diagonal, :meth:`Cell.transposed`).

The rules' union-find, the engine's numpy tables (``engine.search.tables``), the
kernels' cell sets and ring codes (``hex.connections``, ``prover.inferior``) and the
alpha-beta solver's padded bit layout (``prover.alphabeta.geometry``) are all built
from these.

>>> neighbours(2)
((1, 2), (3, 2, 0), (3, 0, 1), (2, 1))
>>> vertex(1, 3), vertex_index("a2", 3)
('a2', 1)
>>> centre_order(3)[:3], rotated(0, 3)
([4, 1, 2], 8)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from boardlab.core.errors import ParseError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "DEAD_RUN",
    "DIRECTIONS",
    "EDGE_BLACK",
    "EDGE_TEMPLATES",
    "EDGE_WHITE",
    "LETTERS",
    "NOWHERE",
    "Cell",
    "bridge_table",
    "centre_order",
    "dead_ring_table",
    "edge_lines",
    "neighbours",
    "reverse_bits",
    "ring_neighbours",
    "rotated",
    "run_dead",
    "vertex",
    "vertex_index",
    "vertex_names",
]

#: The six neighbour offsets (d_row, d_col) in clockwise order starting east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
#: A bridge is held by its two common neighbours.
_BRIDGE_CARRIER = 2
#: Edge bridges exist from boards of this size on.
_SMALLEST_EDGE_BRIDGE = 3
#: Edge templates, made by ``scripts/hex_edge_templates.py`` with the exact solver (the
#: one table: the virtual-connection kernel places them, alpha-beta takes the ziggurats):
#: ``(depth, carrier)``, the carrier's cells as offsets ``(dr, dc)`` from a stone
#: ``depth`` rows above an edge (the edge below row ``depth``, neighbours as
#: :data:`boardlab.hex.board.DIRECTIONS`); inside its carrier the stone joins the
#: edge whatever the opponent plays. H-search finds the third-row ones itself (they are
#: seeds here to save its work) but none of the fourth row.
EDGE_TEMPLATES: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = (
    (2, ((0, 1), (1, -1), (1, 0), (1, 1), (2, -2), (2, -1), (2, 0), (2, 1))),
    (2, ((0, -1), (1, -2), (1, -1), (1, 0), (2, -3), (2, -2), (2, -1), (2, 0))),
    (
        2,
        ((0, -1), (0, 1), (1, -2), (1, -1), (1, 0), (1, 1), (2, -3), (2, -2), (2, 0), (2, 1)),
    ),
    (
        3,
        (
            (0, 1),
            *((1, dc) for dc in range(-2, 3)),
            *((2, dc) for dc in range(-3, 3)),
            *((3, dc) for dc in range(-4, 3)),
        ),
    ),
    (
        3,
        (
            (0, -1),
            *((1, dc) for dc in range(-3, 2)),
            *((2, dc) for dc in range(-4, 2)),
            *((3, dc) for dc in range(-5, 2)),
        ),
    ),
    (
        3,
        (
            (0, -1),
            (0, 1),
            *((1, dc) for dc in range(-3, 3)),
            *((2, dc) for dc in range(-4, 3) if dc != -1),
            *((3, dc) for dc in range(-5, 3)),
        ),
    ),
)
#: Column letters of the cell names.
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: A cell name is a letter and at least one digit.
_SHORTEST_NAME = 2
#: Stone colours in the ring codes (the rules' BLACK and WHITE).
_BLACK, _WHITE = 1, 2


@cache
def neighbours(size: int) -> tuple[tuple[int, ...], ...]:
    """For every cell index, the indices of its on-board neighbours."""
    table = []
    for row in range(size):
        for col in range(size):
            adjacent = [
                (row + dr) * size + col + dc
                for dr, dc in DIRECTIONS
                if 0 <= row + dr < size and 0 <= col + dc < size
            ]
            table.append(tuple(adjacent))
    return tuple(table)


@cache
def bridge_table(size: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For every cell ``x``, the bridges that ``x`` is a carrier of: ``(a, b, y)``.

    ``a`` and ``b`` are two non-adjacent cells with exactly two common neighbours ``x`` and
    ``y``; when the opponent plays ``x`` the owner of ``a`` and ``b`` saves the bridge at
    ``y``. An edge bridge (a stone on the second line and two empty edge cells) has ``b = -1``
    and is ``a``'s owner's edge: ``-1`` stands for player 1's edges (columns) and ``-2`` for
    player 2's (rows).
    """
    adjacent = [set(ns) for ns in neighbours(size)]
    cells = size * size
    table: list[list[tuple[int, int, int]]] = [[] for _ in range(cells)]
    for a in range(cells):
        for b in range(a + 1, cells):
            if b in adjacent[a]:
                continue
            common = sorted(adjacent[a] & adjacent[b])
            if len(common) == _BRIDGE_CARRIER:
                x, y = common
                table[x].append((a, b, y))
                table[y].append((a, b, x))
    for a in range(cells):
        row, col = divmod(a, size)
        for edge_code, line, first in ((-1, col, True), (-2, row, False)):
            for edge in (0, size - 1):
                if size < _SMALLEST_EDGE_BRIDGE or abs(line - edge) != 1:
                    continue
                pair = [n for n in adjacent[a] if (n % size if first else n // size) == edge]
                if len(pair) == _BRIDGE_CARRIER:
                    x, y = pair
                    table[x].append((a, edge_code, y))
                    table[y].append((a, edge_code, x))
    return tuple(tuple(entry) for entry in table)


def edge_lines(size: int) -> tuple[tuple[int, ...], ...]:
    """The cells along the four edges: column 0 and column ``size-1`` (player 1's), row 0
    and row ``size-1`` (player 2's), each from the first row or column to the last."""
    return (
        tuple(k * size for k in range(size)),
        tuple(k * size + size - 1 for k in range(size)),
        tuple(range(size)),
        tuple((size - 1) * size + k for k in range(size)),
    )


# -- ring codes and the dead patterns ------------------------------------------------------

# Ring codes: the six neighbours of a cell in turning order (DIRECTIONS), two bits each (0
# empty, 1 black or black's edge, 2 white or white's edge, 3 off the board at a corner,
# where the two edges meet and nothing is adjacent).
EDGE_BLACK = -1
EDGE_WHITE = -2
NOWHERE = -3


def ring_neighbours(size: int) -> npt.NDArray[np.int64]:
    """Each cell's six neighbours in turning order: a cell index, or EDGE_BLACK (off the
    board past a column edge), EDGE_WHITE (past a row edge) or NOWHERE (past both)."""
    import numpy as np

    n = size
    ring = np.zeros((n * n, 6), np.int64)
    for r in range(n):
        for c in range(n):
            for k, (dr, dc) in enumerate(DIRECTIONS):
                rr, cc = r + dr, c + dc
                off_row = not 0 <= rr < n
                off_col = not 0 <= cc < n
                if off_row and off_col:
                    ring[r * n + c, k] = NOWHERE
                elif off_col:
                    ring[r * n + c, k] = EDGE_BLACK
                elif off_row:
                    ring[r * n + c, k] = EDGE_WHITE
                else:
                    ring[r * n + c, k] = rr * n + cc
    return ring


def _one_arc(flags: list[bool]) -> bool:
    """Do the set cells of a ring of six form at most one run of consecutive cells?"""
    ends = sum(1 for k in range(6) if flags[k] and not flags[(k + 1) % 6])
    return ends <= 1


@cache
def dead_ring_table() -> npt.NDArray[np.bool_]:
    """For each of the 4**6 ring codes: is the centre cell dead?

    It is when, however the empty neighbours are filled, each colour's neighbours form
    one run around the ring. Consecutive ring cells touch each other (and two pieces of
    one edge are the same edge), so a stone of either colour in the centre joins nothing
    that is not already joined: its colour never decides the game. Two touching empty
    cells are *captured* by a colour when its stone on either leaves the other dead by
    this table (the prover's and the engine's fill-in read it so).
    """
    import numpy as np

    table = np.zeros(4**6, np.bool_)
    for code in range(4**6):
        ring = [(code >> (2 * k)) & 3 for k in range(6)]
        holes = [k for k in range(6) if ring[k] == 0]
        dead = True
        for fill in range(1 << len(holes)):
            full = list(ring)
            for j, k in enumerate(holes):
                full[k] = 1 + (fill >> j & 1)
            if not (
                _one_arc([x == _BLACK for x in full]) and _one_arc([x == _WHITE for x in full])
            ):
                dead = False
                break
        table[code] = dead
    return table


#: A cell is dead when this many consecutive ring neighbours (edges count) share a colour:
#: the simple case of :func:`dead_ring_table` that the engine's kernel
#: (``engine.kernel.is_dead``) and the alpha-beta solver test cell by cell.
DEAD_RUN = 4


def run_dead(colours: Sequence[int]) -> bool:
    """True when :data:`DEAD_RUN` consecutive entries of a cell's ring of six colours
    (in turning order; 1 or 2 for a stone or its owner's edge, 0 empty, -1 a corner)
    share a colour: a stone of either colour on the cell changes no connection.

    >>> run_dead([1, 1, 0, 2, 1, 1]), run_dead([1, 1, 1, 0, 2, 2])
    (True, False)
    """
    for start in range(6):
        colour = colours[start]
        if colour > 0 and all(colours[(start + k) % 6] == colour for k in range(1, DEAD_RUN)):
            return True
    return False


# -- move order and symmetry ----------------------------------------------------------------


def centre_order(size: int) -> list[int]:
    """The cells of the ``size x size`` board, nearest the centre first (the order moves
    are tried; ties by index)."""
    mid = (size - 1) / 2
    n = size
    return sorted(
        range(n * n),
        key=lambda i: (abs(i // n - mid) + abs(i % n - mid) + abs(i // n + i % n - 2 * mid), i),
    )


def rotated(index: int, size: int) -> int:
    """The cell the 180-degree turn takes ``index`` to (it maps the board and both players'
    edges to themselves, so a position and its turn have the same value)."""
    return size * size - 1 - index


@cache
def reverse_bits(bits: int) -> Callable[[int], int]:
    """A function reversing the low ``bits`` bits of an int: the 180-degree turn of a set
    of cells (cell ``i`` at bit ``i``) on a board of ``bits`` cells (see :func:`rotated`)."""
    byte_rev = bytes(int(f"{b:08b}"[::-1], 2) for b in range(256))
    nbytes = (bits + 7) // 8
    shift = nbytes * 8 - bits

    def reverse(x: int) -> int:
        # each byte reversed in place, the bytes read in the other order
        flipped = x.to_bytes(nbytes, "little").translate(byte_rev)
        return int.from_bytes(flipped, "big") >> shift

    return reverse


# -- the cell and its names ---------------------------------------------------------------


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """A cell by 0-based ``row`` and ``col`` of the IOI board; its text form (``c5``:
    column c, row 5) names it on that board, as the IOI diagrams do. Every result names
    it by :meth:`vertex`, HexGui's name (the cell across the long diagonal)."""

    row: int
    col: int

    @classmethod
    def parse(cls, text: str, size: int | None = None) -> Cell:
        """The cell named ``text`` (``c5`` = column c, row 5), checked against ``size``.

        :raises ParseError: when ``text`` is not a cell name or is off the board.
        """
        name = text.strip().lower()
        if len(name) < _SHORTEST_NAME or name[0] not in LETTERS or not name[1:].isdigit():
            raise ParseError(f"bad cell {text!r}: expected a letter and a row number like 'c5'")
        if not name[1:].isascii() or name[1] == "0":
            raise ParseError(f"bad cell {text!r}: rows count from 1")
        cell = cls(int(name[1:]) - 1, LETTERS.index(name[0]))
        if size is not None and not cell.on_board(size):
            raise ParseError(f"cell {text!r} is off the {size}x{size} board")
        return cell

    @classmethod
    def from_ioi(cls, row: int, column: int) -> Cell:
        """The cell at the IOI API's 1-based ``(row, column)``."""
        return cls(row - 1, column - 1)

    def ioi(self) -> tuple[int, int]:
        """The IOI API's 1-based ``(row, column)``."""
        return self.row + 1, self.col + 1

    def index(self, size: int) -> int:
        """The cell's index ``row * size + col``."""
        return self.row * size + self.col

    @classmethod
    def of_index(cls, index: int, size: int) -> Cell:
        """The cell with index ``index`` on a ``size`` board."""
        return cls(*divmod(index, size))

    def on_board(self, size: int) -> bool:
        """True when the cell lies on a ``size x size`` board."""
        return 0 <= self.row < size and 0 <= self.col < size

    def transposed(self) -> Cell:
        """The mirror cell across the long diagonal (swaps rows and columns)."""
        return Cell(self.col, self.row)

    def vertex(self) -> str:
        """HexGui's name of the cell (the name GTP, HexGui's and MoHex's SGF use): this
        cell's across the long diagonal. The one place of that rule."""
        return str(self.transposed())

    def __str__(self) -> str:
        if not 0 <= self.col < len(LETTERS) or self.row < 0:
            return f"({self.row},{self.col})"
        return f"{LETTERS[self.col]}{self.row + 1}"


def vertex(index: int, size: int) -> str:
    """HexGui's name of the cell at ``index`` (:meth:`Cell.vertex`)."""
    return Cell.of_index(index, size).vertex()


def vertex_names(cells: int, size: int) -> str:
    """HexGui's names of the cells of the bit set ``cells`` (bit ``index``), in index
    order, separated by spaces; ``-`` for none."""
    return " ".join(vertex(c, size) for c in range(size * size) if cells >> c & 1) or "-"


def vertex_index(text: str, size: int) -> int:
    """The index of the cell HexGui names ``text`` (the inverse of :func:`vertex`).

    :raises ParseError: for a malformed or off-board name.
    """
    return Cell.parse(text, size).transposed().index(size)
