"""Rules layer: the geometry of the Hex rhombus, from which every board encoding derives.

One source for the board's shape: :data:`DIRECTIONS` (the six neighbour offsets in
turning order), :func:`neighbours` (each cell's on-board neighbours) and
:func:`bridge_table` (the bridges and edge bridges each cell carries). The rules'
union-find, the engine's numpy tables (``search.tables``), the DFPN kernel's masks and
ring codes (``_solver_kernel``) and the alpha-beta solver's padded bit layout
(``alphabeta.geometry``) are all built from these.

>>> neighbours(2)
((1, 2), (3, 2, 0), (3, 0, 1), (2, 1))
"""

from __future__ import annotations

from functools import cache

__all__ = ["DIRECTIONS", "bridge_table", "neighbours"]

#: The six neighbour offsets (d_row, d_col) in clockwise order starting east.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
#: A bridge is held by its two common neighbours.
_BRIDGE_CARRIER = 2
#: Edge bridges exist from boards of this size on.
_SMALLEST_EDGE_BRIDGE = 3


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
