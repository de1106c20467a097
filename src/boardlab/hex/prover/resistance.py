"""Prover layer: numba kernel of the electrical-resistance move order of the DFPN solver.

Each player's view of the board is a resistor network (Anshelevich's and Queenbee's
evaluation): an empty cell has resistance 1, the player's own stone almost none, an
opposing stone is cut out, two touching cells are joined by the sum of their
resistances, and the player's two edges are the terminals. The analysis's full
connections join their two ends as well (Anshelevich's circuit with virtual
connections: a link of conductance :data:`VC_CONDUCTANCE` per pair of nodes, a cell, a
stone group through one of its cells, or an edge). With one volt across the edges, the
current through a cell measures how much the player's best connections run through it.
The solver tries first the moves where the sum of both players' currents is largest:
the cells that matter to both sides (Henderson's thesis orders its DFPN children by a
resistance evaluation; this is the one-solve-per-player version of that idea).

:func:`cell_flows` is compiled by numba; ``cell_flows.py_func`` is its plain-Python twin
and :func:`flows_reference` an independent dense-matrix version the tests compare with.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.hsearch import SEMI_ROW

__all__ = [
    "OWN_RESISTANCE",
    "VC_CONDUCTANCE",
    "board_scores",
    "cell_flows",
    "flows_reference",
    "links_of",
    "move_scores",
]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
Rows = npt.NDArray[np.uint64]

#: Resistance of a cell holding the player's own stone (an empty cell has 1).
OWN_RESISTANCE = 0.01
#: Conductance from every cell to the low-voltage terminal, so that a pocket of cells
#: that no edge reaches still has a defined voltage (it carries no current to speak of).
LEAK = 1e-9
#: Below this total current the edges are cut apart (only leaks carry current): no flows.
#: A connected board carries at least 1 / 130 (a path of 64 cells in series).
NO_CURRENT = 1e-6
#: Conductance of the link a full connection adds between its two ends (two touching
#: empty cells are joined by 0.5). Measured (analysed positions) on MoHex's puzzle suite
#: (65 cases noted 5 s or less) and its 25 7x7 openings: without the links 66,958 and
#: 229,928; links of 1: case 162 (8x8) 8,313 (10,796 without); 5: 40,572 and 168,115;
#: 20: 40,247 and 166,904; semi connections as links too (5 and 1) did worse on case 162
#: (5,418 with 167 against 4,522).
VC_CONDUCTANCE = 5.0

_ONE = np.uint64(1)
_FIRST = 1
_SECOND = 2


@jit
def _resistance(own: np.uint64, opp: np.uint64, cell: int) -> float:
    b = _ONE << np.uint64(cell)
    if opp & b:
        return -1.0
    return OWN_RESISTANCE if own & b else 1.0


@jit
def _edge_side(n: int, cell: int, player: int) -> int:
    """-1 on the player's low edge (voltage 1), +1 on its high edge (voltage 0), else 0
    (a cell of a 1x1 board is on both; its low edge counts)."""
    k = cell % n if player == 1 else cell // n
    if k == 0:
        return -1
    return 1 if k == n - 1 else 0


@jit
def cell_flows(n: int, ring: I64, own: np.uint64, opp: np.uint64, player: int, links: I64) -> F64:
    """The current through each cell of ``player``'s network (a share of the total: the
    values of a path's cells are each at most 1), 0 for the opponent's cells, and 0
    everywhere when the opponent has cut the player's edges apart; ``links`` (pairs of
    :func:`links_of`, possibly none) join nodes as full connections do.

    ``ring`` is :func:`boardlab.hex.board.ring_neighbours` (negative entries:
    off the board). Player 1 joins column 0 to column n-1, player 2 row 0 to row n-1.
    The voltages solve the network's Laplacian by Cholesky factorisation (the matrix is
    symmetric positive definite thanks to the small leak of every cell).
    """
    res = np.empty(n * n)
    for i in range(n * n):
        res[i] = _resistance(own, opp, i)
    return _flows(n, ring, res, player, links)


@jit
def links_of(table: Rows, cells: int) -> I64:
    """The pairs of nodes ``(a, b)``, ``a < b``, that a connection table's full
    connections join (:func:`boardlab.hex.hsearch.hsearch`: ``cells`` and ``cells + 1``
    are the player's edges), each pair once, edge to edge left out."""
    m = cells + 2
    joined = np.zeros((m, m), np.bool_)
    count = 0
    for r in range(1, table.shape[0]):
        code = int(table[r, 0])
        if code & 255 == SEMI_ROW:
            continue
        x, y = (code >> 8) & 255, (code >> 16) & 255
        a, b = min(x, y), max(x, y)
        if a == b or a >= cells or joined[a, b]:
            continue
        joined[a, b] = True
        count += 1
    links = np.empty((count, 2), np.int64)
    k = 0
    for a in range(cells):
        for b in range(a + 1, m):
            if joined[a, b]:
                links[k, 0], links[k, 1] = a, b
                k += 1
    return links


@jit
def _flows(n: int, ring: I64, res: F64, player: int, links: I64) -> F64:
    """:func:`cell_flows` of the network whose cells have resistances ``res`` (-1: cut)
    with ``links`` (:func:`links_of`) as well."""
    cells = n * n
    a = np.zeros((cells, cells))
    rhs = np.zeros(cells)
    # lo[i]: the first column of row i inside the matrix's envelope (cells touch cells
    # at most n apart in index; a link may reach further)
    lo = np.empty(cells, np.int64)
    for i in range(cells):
        lo[i] = max(0, i - n)
    vc = VC_CONDUCTANCE
    for t in range(links.shape[0]):
        i, j = links[t, 0], links[t, 1]
        if res[i] < 0 or (j < cells and res[j] < 0):
            continue
        a[i, i] += vc
        if j >= cells:
            if j == cells:
                rhs[i] += vc
            continue
        a[j, j] += vc
        a[i, j] -= vc
        a[j, i] -= vc
        lo[j] = min(lo[j], i)
    for i in range(cells):
        if res[i] < 0:
            a[i, i] = 1.0
            continue
        a[i, i] += LEAK
        for k in range(6):
            j = ring[i, k]
            if j > i and res[j] >= 0:
                g = 1.0 / (res[i] + res[j])
                a[i, i] += g
                a[j, j] += g
                a[i, j] -= g
                a[j, i] -= g
        side = _edge_side(n, i, player)
        if side != 0:
            g = 1.0 / res[i]
            a[i, i] += g
            if side < 0:
                rhs[i] += g
    # Cholesky: a = l l^T, l lower triangular, stored in a's lower half. l keeps a's
    # envelope (each row from its first entry lo[i]): the loops skip the entries outside
    # it, which are zeros (the same sums, term for term). hi[j]: the last row whose
    # envelope reaches column j.
    hi = np.zeros(cells, np.int64)
    for i in range(cells):
        hi[lo[i]] = max(hi[lo[i]], i)
    for j in range(1, cells):
        hi[j] = max(hi[j], hi[j - 1])
    for j in range(cells):
        s = a[j, j]
        for k in range(lo[j], j):
            s -= a[j, k] * a[j, k]
        d = np.sqrt(s)
        a[j, j] = d
        for i in range(j + 1, hi[j] + 1):
            if lo[i] > j:
                continue
            t = a[i, j]
            for k in range(max(lo[i], lo[j]), j):
                t -= a[i, k] * a[j, k]
            a[i, j] = t / d
    volt = np.empty(cells)
    for i in range(cells):
        t = rhs[i]
        for k in range(lo[i], i):
            t -= a[i, k] * volt[k]
        volt[i] = t / a[i, i]
    for i in range(cells - 1, -1, -1):
        t = volt[i]
        for k in range(i + 1, hi[i] + 1):
            t -= a[k, i] * volt[k]
        volt[i] = t / a[i, i]
    flow = np.zeros(cells)
    total = 0.0
    for t in range(links.shape[0]):
        i, j = links[t, 0], links[t, 1]
        if res[i] < 0 or (j < cells and res[j] < 0):
            continue
        far = volt[j] if j < cells else (1.0 if j == cells else 0.0)
        x = abs(volt[i] - far) * vc
        flow[i] += x
        if j < cells:
            flow[j] += x
        elif j == cells:
            total += (1.0 - volt[i]) * vc
    for i in range(cells):
        if res[i] < 0:
            continue
        for k in range(6):
            j = ring[i, k]
            if j > i and res[j] >= 0:
                x = abs(volt[i] - volt[j]) / (res[i] + res[j])
                flow[i] += x
                flow[j] += x
        side = _edge_side(n, i, player)
        if side != 0:
            x = abs((1.0 if side < 0 else 0.0) - volt[i]) / res[i]
            flow[i] += x
            if side < 0:
                total += (1.0 - volt[i]) / res[i]
    if total <= NO_CURRENT:
        return np.zeros(cells)
    for i in range(cells):
        flow[i] /= 2.0 * total
    return flow


@jit
def move_scores(
    n: int, ring: I64, black: np.uint64, white: np.uint64, first: Rows, second: Rows
) -> F64:
    """Each cell's current in player 1's network plus its current in player 2's, each
    network with its player's full connections (``first``, ``second``: connection
    tables of :func:`boardlab.hex.hsearch.hsearch`, possibly without rows)."""
    cells = n * n
    return cell_flows(n, ring, black, white, _FIRST, links_of(first, cells)) + cell_flows(
        n, ring, white, black, _SECOND, links_of(second, cells)
    )


@jit
def board_scores(n: int, ring: I64, board: I8, first: Rows, second: Rows) -> F64:
    """:func:`move_scores` of a board of any size (0 empty, 1 and 2 the players' stones,
    cell ``r * n + c``), for the solver's boards of more than 64 cells."""
    cells = n * n
    mine = np.empty(cells)
    theirs = np.empty(cells)
    for i in range(cells):
        v = board[i]
        mine[i] = 1.0 if v == 0 else (OWN_RESISTANCE if v == _FIRST else -1.0)
        theirs[i] = 1.0 if v == 0 else (OWN_RESISTANCE if v == _SECOND else -1.0)
    return _flows(n, ring, mine, _FIRST, links_of(first, cells)) + _flows(
        n, ring, theirs, _SECOND, links_of(second, cells)
    )


def flows_reference(
    n: int, own: int, opp: int, player: int, links: Sequence[tuple[int, int]] = ()
) -> list[float]:
    """:func:`cell_flows` (with ``links`` as :func:`links_of` gives them: ``n * n`` and
    ``n * n + 1`` the player's low and high edges) by a dense solve with explicit
    terminal nodes (numpy), for tests."""
    from boardlab.hex.board import DIRECTIONS

    cells = n * n
    low, high = cells, cells + 1
    size = cells + 2
    lap = np.zeros((size, size))
    wires: list[tuple[int, int, float]] = []

    def res(i: int) -> float:
        return OWN_RESISTANCE if own >> i & 1 else 1.0

    def link(a: int, b: int, g: float) -> None:
        lap[a, a] += g
        lap[b, b] += g
        lap[a, b] -= g
        lap[b, a] -= g
        wires.append((a, b, g))

    for i in range(cells):
        if opp >> i & 1:
            continue
        r, c = divmod(i, n)
        for dr, dc in DIRECTIONS:
            rr, cc = r + dr, c + dc
            j = rr * n + cc
            if 0 <= rr < n and 0 <= cc < n and j > i and not opp >> j & 1:
                link(i, j, 1.0 / (res(i) + res(j)))
        along = c if player == 1 else r
        if along == 0:
            link(i, low, 1.0 / res(i))
        elif along == n - 1:
            link(i, high, 1.0 / res(i))
        lap[i, i] += LEAK
    for a, b in links:
        if not opp >> a & 1 and (b >= cells or not opp >> b & 1):
            link(a, b, VC_CONDUCTANCE)
    for i in range(cells):
        if opp >> i & 1:
            lap[i, i] = 1.0
    inner = list(range(cells))
    volt = np.zeros(size)
    volt[low] = 1.0
    volt[:cells] = np.linalg.solve(lap[np.ix_(inner, inner)], -lap[inner, low])
    flow = np.zeros(size)
    for a, b, g in wires:
        x = abs(volt[a] - volt[b]) * g
        flow[a] += x
        flow[b] += x
    total = flow[low]
    if total <= NO_CURRENT:
        return [0.0] * cells
    return [float(f / (2 * total)) for f in flow[:cells]]
