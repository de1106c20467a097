"""Prover layer: numba kernel of the electrical-resistance move order of the DFPN solver.

Each player's view of the board is a resistor network (Anshelevich's and Queenbee's
evaluation): an empty cell has resistance 1, the player's own stone almost none, an
opposing stone is cut out, two touching cells are joined by the sum of their
resistances, and the player's two edges are the terminals. With one volt across the
edges, the current through a cell measures how much the player's best connections run
through it. The solver tries first the moves where the sum of both players' currents is
largest: the cells that matter to both sides (Henderson's thesis orders its DFPN children
by a resistance evaluation; this is the one-solve-per-player version of that idea).

:func:`cell_flows` is compiled by numba; ``cell_flows.py_func`` is its plain-Python twin
and :func:`flows_reference` an independent dense-matrix version the tests compare with.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = ["OWN_RESISTANCE", "board_scores", "cell_flows", "flows_reference", "move_scores"]

F64 = npt.NDArray[np.float64]
I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]

#: Resistance of a cell holding the player's own stone (an empty cell has 1).
OWN_RESISTANCE = 0.01
#: Conductance from every cell to the low-voltage terminal, so that a pocket of cells
#: that no edge reaches still has a defined voltage (it carries no current to speak of).
LEAK = 1e-9
#: Below this total current the edges are cut apart (only leaks carry current): no flows.
#: A connected board carries at least 1 / 130 (a path of 64 cells in series).
NO_CURRENT = 1e-6

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
def cell_flows(n: int, ring: I64, own: np.uint64, opp: np.uint64, player: int) -> F64:
    """The current through each cell of ``player``'s network (a share of the total: the
    values of a path's cells are each at most 1), 0 for the opponent's cells, and 0
    everywhere when the opponent has cut the player's edges apart.

    ``ring`` is :func:`boardlab.hex.board.ring_neighbours` (negative entries:
    off the board). Player 1 joins column 0 to column n-1, player 2 row 0 to row n-1.
    The voltages solve the network's Laplacian by Cholesky factorisation (the matrix is
    symmetric positive definite thanks to the small leak of every cell).
    """
    res = np.empty(n * n)
    for i in range(n * n):
        res[i] = _resistance(own, opp, i)
    return _flows(n, ring, res, player)


@jit
def _flows(n: int, ring: I64, res: F64, player: int) -> F64:
    """:func:`cell_flows` of the network whose cells have resistances ``res`` (-1: cut)."""
    cells = n * n
    a = np.zeros((cells, cells))
    rhs = np.zeros(cells)
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
    # Cholesky: a = l l^T, l lower triangular, stored in a's lower half. Cells touch
    # cells at most n apart in index, so a is banded and l keeps its band: the loops
    # skip the entries outside it, which are zeros (the same sums, term for term).
    band = n
    for j in range(cells):
        s = a[j, j]
        for k in range(max(0, j - band), j):
            s -= a[j, k] * a[j, k]
        d = np.sqrt(s)
        a[j, j] = d
        for i in range(j + 1, min(cells, j + band + 1)):
            t = a[i, j]
            for k in range(max(0, i - band), j):
                t -= a[i, k] * a[j, k]
            a[i, j] = t / d
    volt = np.empty(cells)
    for i in range(cells):
        t = rhs[i]
        for k in range(max(0, i - band), i):
            t -= a[i, k] * volt[k]
        volt[i] = t / a[i, i]
    for i in range(cells - 1, -1, -1):
        t = volt[i]
        for k in range(i + 1, min(cells, i + band + 1)):
            t -= a[k, i] * volt[k]
        volt[i] = t / a[i, i]
    flow = np.zeros(cells)
    total = 0.0
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
def move_scores(n: int, ring: I64, black: np.uint64, white: np.uint64) -> F64:
    """Each cell's current in player 1's network plus its current in player 2's."""
    return cell_flows(n, ring, black, white, 1) + cell_flows(n, ring, white, black, 2)


@jit
def board_scores(n: int, ring: I64, board: I8) -> F64:
    """:func:`move_scores` of a board of any size (0 empty, 1 and 2 the players' stones,
    cell ``r * n + c``), for the solver's boards of more than 64 cells."""
    first = np.empty(n * n)
    second = np.empty(n * n)
    for i in range(n * n):
        v = board[i]
        first[i] = 1.0 if v == 0 else (OWN_RESISTANCE if v == _FIRST else -1.0)
        second[i] = 1.0 if v == 0 else (OWN_RESISTANCE if v == _SECOND else -1.0)
    return _flows(n, ring, first, _FIRST) + _flows(n, ring, second, _SECOND)


def flows_reference(n: int, own: int, opp: int, player: int) -> list[float]:
    """:func:`cell_flows` by a dense solve with explicit terminal nodes (numpy), for tests."""
    from boardlab.hex.board import DIRECTIONS

    cells = n * n
    low, high = cells, cells + 1
    size = cells + 2
    lap = np.zeros((size, size))
    links: list[tuple[int, int, float]] = []

    def res(i: int) -> float:
        return OWN_RESISTANCE if own >> i & 1 else 1.0

    def link(a: int, b: int, g: float) -> None:
        lap[a, a] += g
        lap[b, b] += g
        lap[a, b] -= g
        lap[b, a] -= g
        links.append((a, b, g))

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
    for i in range(cells):
        if opp >> i & 1:
            lap[i, i] = 1.0
    inner = list(range(cells))
    volt = np.zeros(size)
    volt[low] = 1.0
    volt[:cells] = np.linalg.solve(lap[np.ix_(inner, inner)], -lap[inner, low])
    flow = np.zeros(size)
    for a, b, g in links:
        x = abs(volt[a] - volt[b]) * g
        flow[a] += x
        flow[b] += x
    total = flow[low]
    if total <= NO_CURRENT:
        return [0.0] * cells
    return [float(f / (2 * total)) for f in flow[:cells]]
