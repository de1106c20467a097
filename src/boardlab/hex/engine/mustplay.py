"""Engine layer: the must-play region of a Hex position from simple virtual connections.

When the opponent is one stone away from joining its edges, every move outside the
cells that threat rests on loses, so the tree search need not try them. The threats
looked for are built from the opponent's stones joined by adjacency, by *bridges* (two
stones with two empty common neighbours) and by *edge templates* (a stone on the
second line with two empty edge cells). A link is taken only when both its cells are
free and in no link taken before (first come, in cell order), so the carriers of the
links are disjoint and the groups they make are virtually connected: the owner keeps
each one by answering an intrusion into a link at its other cell.

A *threat* is an empty cell ``x`` that touches (by adjacency or by a bridge or edge
template of its own, with fresh disjoint carriers) both the group holding the
opponent's first edge and the group holding its second. Its carrier is ``x``, the
cells of the links ``x`` uses and the cells of every link inside those two groups (a
superset of what the threat rests on, which keeps the pruning sound). The must-play
region is the intersection of the carriers of every threat: a move outside it leaves
some threat whole, the opponent plays its cell and holds a virtual connection (no
immediate win of the mover can interfere: a virtual connection of one side leaves the
other none). The region is not used when the mover can win at once, when the opponent
is already virtually connected, or when it is empty (the mover is lost anyway).

Boards are ``int8`` arrays of ``n * n`` cells as in :mod:`boardlab.hex.engine.kernel`;
``links[c, k] = (partner, x, y)`` lists the bridges and edge templates of cell ``c``
(:func:`link_table`): ``partner`` is a cell, or ``n * n + e`` for edge ``e`` (0 and 1:
player 1's columns ``0`` and ``n - 1``; 2 and 3: player 2's rows), and ``x``, ``y``
are the two carrier cells. ``tests/hex/twin.py`` holds the plain-Python twin.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.board import DIRECTIONS

__all__ = ["link_table", "must_play"]

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]

#: Bridges and edge templates of one cell, at most (six bridges; edge templates only
#: replace bridges that would leave the board).
MAX_LINKS = 8
_EDGES = 4


def link_table(n: int) -> tuple[I32, I32]:
    """``(links, count)``: every bridge and edge template of each cell (see the module
    docstring), in a fixed order."""
    cells = n * n
    links = np.full((cells, MAX_LINKS, 3), -1, np.int32)
    count = np.zeros(cells, np.int32)

    def add(cell: int, partner: int, x: int, y: int) -> None:
        links[cell, count[cell]] = (partner, x, y)
        count[cell] += 1

    def on(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n

    for r in range(n):
        for c in range(n):
            cell = r * n + c
            for k in range(6):
                # the two neighbours (dr1, dc1) and (dr2, dc2) next to each other in the
                # ring share the bridge partner at their sum
                dr1, dc1 = DIRECTIONS[k]
                dr2, dc2 = DIRECTIONS[(k + 1) % 6]
                if (
                    on(r + dr1 + dr2, c + dc1 + dc2)
                    and on(r + dr1, c + dc1)
                    and on(r + dr2, c + dc2)
                ):
                    partner = (r + dr1 + dr2) * n + c + dc1 + dc2
                    add(cell, partner, (r + dr1) * n + c + dc1, (r + dr2) * n + c + dc2)
            for edge, line, first in ((0, c, True), (1, c, True), (2, r, False), (3, r, False)):
                target = 0 if edge % 2 == 0 else n - 1
                if n < 3 or abs(line - target) != 1:  # noqa: PLR2004 (a 2x2 board has none)
                    continue
                pair = []
                for dr, dc in DIRECTIONS:
                    rr, cc = r + dr, c + dc
                    if on(rr, cc) and (cc if first else rr) == target:
                        pair.append(rr * n + cc)
                if len(pair) == 2:  # noqa: PLR2004 (a template is held by two edge cells)
                    add(cell, cells + edge, pair[0], pair[1])
    return links, count


@jit
def _find(parent: I32, i: int) -> int:
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@jit
def _union(parent: I32, a: int, b: int) -> bool:
    ra = _find(parent, a)
    rb = _find(parent, b)
    if ra == rb:
        return False
    if ra < rb:
        parent[rb] = ra
    else:
        parent[ra] = rb
    return True


@jit
def _adjacency_groups(board: I8, n: int, who: int, nbr: I32, parent: I32) -> None:
    """Union-find of ``who``'s stones by adjacency, with its two edges as nodes."""
    cells = n * n
    for i in range(cells + _EDGES):
        parent[i] = i
    low = cells + (0 if who == 1 else 2)
    for i in range(cells):
        if board[i] != who:
            continue
        for k in range(6):
            j = nbr[i, k]
            if j > i and board[j] == who:
                _union(parent, i, j)
        line = i % n if who == 1 else i // n
        if line == 0:
            _union(parent, i, low)
        if line == n - 1:
            _union(parent, i, low + 1)


@jit
def _touch_marks(
    board: I8, n: int, who: int, nbr: I32, parent: I32, low: int, high: int, marks: I32
) -> None:
    """For every empty cell, bit 1 of ``marks`` when a stone of ``who`` there would join
    the group ``low`` by adjacency (a neighbour in it, or the cell on the line of an edge
    in it), bit 2 the group ``high``; 0 on the stones. Found from the stones and the edge
    lines, not cell by cell."""
    cells = n * n
    edge = cells + (0 if who == 1 else 2)
    for x in range(cells):
        marks[x] = 0
    for line in range(2):
        root = _find(parent, edge + line)
        bits = (1 if root == low else 0) | (2 if root == high else 0)
        if bits == 0:
            continue
        at = 0 if line == 0 else n - 1
        for k in range(n):
            x = k * n + at if who == 1 else at * n + k
            marks[x] |= bits
    for i in range(cells):
        if board[i] != who:
            continue
        root = _find(parent, i)
        bits = (1 if root == low else 0) | (2 if root == high else 0)
        if bits == 0:
            continue
        for k in range(6):
            j = nbr[i, k]
            if j >= 0:
                marks[j] |= bits
    for x in range(cells):
        if board[x] != 0:
            marks[x] = 0


@jit
def must_play(
    board: I8,
    n: int,
    mover: int,
    nbr: I32,
    links: I32,
    nlinks: I32,
    allowed: I8,
    parent: I32,
    used: I32,
) -> bool:
    """Mark in ``allowed`` the must-play region of ``mover`` (see the module docstring).

    Returns True when the region applies (some threat found, no immediate win for the
    mover, the region not empty); ``allowed`` is then 1 on its cells and 0 elsewhere.
    ``parent`` (``n * n + 4`` entries) and ``used`` (``n * n``) are work arrays.
    """
    cells = n * n
    opp = 3 - mover
    # the mover's immediate wins first: then no region applies
    _adjacency_groups(board, n, mover, nbr, parent)
    mlow = _find(parent, cells + (0 if mover == 1 else 2))
    mhigh = _find(parent, cells + (1 if mover == 1 else 3))
    _touch_marks(board, n, mover, nbr, parent, mlow, mhigh, used)
    for x in range(cells):
        if used[x] == 3:  # noqa: PLR2004 (both bits: the cell joins both edges)
            return False
    # the opponent's groups by adjacency, then by links with fresh disjoint carriers
    _adjacency_groups(board, n, opp, nbr, parent)
    for i in range(cells):
        used[i] = -1
    elow = cells + (0 if opp == 1 else 2)
    for i in range(cells):
        if board[i] != opp:
            continue
        for k in range(nlinks[i]):
            p = links[i, k, 0]
            x = links[i, k, 1]
            y = links[i, k, 2]
            if p < cells:
                if p < i or board[p] != opp:
                    continue
            elif p != elow and p != elow + 1:
                continue
            if board[x] != 0 or board[y] != 0 or used[x] >= 0 or used[y] >= 0:
                continue
            if _union(parent, i, p):
                used[x] = i
                used[y] = i
    low = _find(parent, elow)
    high = _find(parent, elow + 1)
    if low == high:
        return False  # already virtually connected: the search finds out the rest
    for c in range(cells):
        allowed[c] = 1
    local = np.empty(2 * MAX_LINKS, np.int32)
    marks = np.empty(cells, np.int32)
    _touch_marks(board, n, opp, nbr, parent, low, high, marks)
    threats = 0
    for x in range(cells):
        if board[x] != 0:
            continue
        hit_low = (marks[x] & 1) != 0
        hit_high = (marks[x] & 2) != 0
        nlocal = 0
        for k in range(nlinks[x]):
            if hit_low and hit_high:
                break
            p = links[x, k, 0]
            a = links[x, k, 1]
            b = links[x, k, 2]
            if p < cells:
                if board[p] != opp:
                    continue
            elif p != elow and p != elow + 1:
                continue
            if board[a] != 0 or board[b] != 0 or used[a] >= 0 or used[b] >= 0:
                continue
            clash = False
            for q in range(nlocal):
                if local[q] == a or local[q] == b:
                    clash = True
            if clash:
                continue
            r = _find(parent, p)
            if r == low and not hit_low:
                hit_low = True
            elif r == high and not hit_high:
                hit_high = True
            else:
                continue
            local[nlocal] = a
            local[nlocal + 1] = b
            nlocal += 2
        if not (hit_low and hit_high):
            continue
        threats += 1
        for c in range(cells):
            if not allowed[c] or c == x:
                continue
            keep = False
            for q in range(nlocal):
                if local[q] == c:
                    keep = True
            if not keep and used[c] >= 0:
                r = _find(parent, used[c])
                keep = r in (low, high)
            if not keep:
                allowed[c] = 0
    if threats == 0:
        return False
    for c in range(cells):  # noqa: SIM110 (numba compiles no generators)
        if allowed[c] and board[c] == 0:
            return True
    return False
