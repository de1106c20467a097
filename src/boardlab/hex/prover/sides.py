"""Prover layer: the things around a region, in the order its outer boundary meets them (numba).

A region ``D`` of cells (connected) is bounded by cells outside it: stones of either
player and, past the board, the four edges. Walking once around ``D``'s outer boundary,
side by side (each side of a cell of ``D`` whose neighbour is not in ``D``), meets the
outside cells in a cyclic order; labelled by the *thing* each belongs to, the walk is a
cyclic word whose maximal runs are the *stretches* of the boundary. On the hexagonal grid
three cells meet at every corner and any two of them are neighbours, so ``D`` never
touches itself at a corner: a connected ``D`` whose every outside neighbour lies on the
outer walk has no hole, and is a disc bounded by one closed curve.

That is what the connection-based fill-in needs (:mod:`boardlab.hex.prover.vcfill`):
a path inside the disc from one stretch to another cuts it in two, every stretch of the
one arc between them on one side, of the other arc on the other; so a path of the
captor between two things each met in one stretch separates, within the disc, every
two things of the opponent whose stretches lie on different arcs.

Cells are numbered ``r * n + c``; the walk runs on the board with a ring of cells around
it (``(n + 2)**2`` of them), the ring's cells labelled by their edge: rows ``-1`` and
``n`` are row 0's and row ``n - 1``'s edge, columns ``-1`` and ``n`` column 0's and
column ``n - 1``'s (the two corners next to a board cell, ``(-1, n)`` and ``(n, -1)``,
belong to the rows' edges: they lie between the two edges' stretches either way).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.board import DIRECTIONS

__all__ = ["boundary_word", "ring_index", "ring_line", "stretches"]

#: The neighbour offsets in turning order: ``d - 1`` and ``d + 1`` meet ``d`` at a corner.
_DR = np.array([dr for dr, _ in DIRECTIONS], np.int64)
_DC = np.array([dc for _, dc in DIRECTIONS], np.int64)
#: The direction up (``(-1, 0)``): the cell above a region's first cell is on its outer face.
_UP = DIRECTIONS.index((-1, 0))


@jit
def ring_index(n: int, r: int, c: int) -> int:
    """The index of ``(r, c)`` on the board with its ring (``-1 <= r, c <= n``)."""
    return (r + 1) * (n + 2) + c + 1


@jit
def ring_line(n: int, r: int, c: int) -> int:
    """The edge line a ring cell stands for, numbered as by
    :func:`boardlab.hex.board.edge_lines` (-1 for a board cell)."""
    if r < 0:
        return 2
    if r >= n:
        return 3
    if c < 0:
        return 0
    if c >= n:
        return 1
    return -1


@jit
def boundary_word(
    n: int, inside: npt.NDArray[np.bool_], label: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], int]:
    """The labels of the outside cells met walking once around the outer boundary of the
    region ``inside`` (a flag per cell of the ring board, the region connected and on the
    board), ``label`` the label of each ring-board cell: ``(word, length)``; length -1
    when some outside neighbour of the region is not on the outer walk (a hole)."""
    width = n + 2
    start = -1
    for i in range(inside.shape[0]):
        if inside[i]:
            start = i
            break
    word = np.empty(6 * n * n + 6, np.int64)
    if start < 0:
        return word, 0
    seen = np.zeros(inside.shape[0], np.bool_)
    cell, d = start, _UP
    length = 0
    while True:
        r, c = cell // width - 1, cell % width - 1
        out = ring_index(n, r + _DR[d], c + _DC[d])
        seen[out] = True
        word[length] = label[out]
        length += 1
        e = (d + 1) % 6
        nr, nc = r + _DR[e], c + _DC[e]
        turn = ring_index(n, nr, nc)
        if 0 <= nr < n and 0 <= nc < n and inside[turn]:
            cell, d = turn, (d + 5) % 6
        else:
            d = e
        if (cell == start and d == _UP) or length >= word.shape[0]:
            break
    for i in range(inside.shape[0]):
        if not inside[i]:
            continue
        r, c = i // width - 1, i % width - 1
        for k in range(6):
            near = ring_index(n, r + _DR[k], c + _DC[k])
            if not inside[near] and not seen[near]:
                return word, -1
    return word, length


@jit
def stretches(word: npt.NDArray[np.int64], length: int) -> tuple[npt.NDArray[np.int64], int]:
    """The cyclic word's maximal runs, one label each, in order: ``(labels, count)``
    (the last run merged into the first when they carry the same label)."""
    runs = np.empty(max(length, 1), np.int64)
    count = 0
    for i in range(length):
        if count == 0 or runs[count - 1] != word[i]:
            runs[count] = word[i]
            count += 1
    if count > 1 and runs[count - 1] == runs[0]:
        count -= 1
    return runs, count
