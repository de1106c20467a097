"""Prover layer: the dead regions of the solver's positions (cells on no path between the edges).

On the cell sets of :mod:`boardlab.hex.cellsets` (one word up to 8x8, two up to 11x11:
numba compiles one version per width from this one source). The dead cells of the ring
table, the captured pairs (:mod:`boardlab.hex.connections`) and the vulnerable and
dominated moves (:mod:`boardlab.hex.inferior`) are shared with the engine; the dead
regions (:func:`dead_regions`) are the prover's alone, and the verdicts
(:mod:`boardlab.hex.prover.verdicts`) leave them out of the moves worth trying.

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.cellsets import (
    Cells,
    cut,
    every,
    has,
    join,
    minus,
    nothing,
    only,
)
from boardlab.hex.connections import dead_cells

__all__ = ["dead_regions", "on_paths"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2


@jit
def on_paths(n: int, ring: I64, allowed: Cells, low: Cells, high: Cells) -> Cells:
    """The cells of ``allowed`` that lie on some simple path of ``allowed`` cells from the
    line ``low`` to the line ``high`` (the two edges taken as two terminal nodes).

    With the edge joined to the other by one extra link, a cell lies on such a path
    exactly when it shares a biconnected block with that link (a cycle through both);
    the block is found by Tarjan's depth-first search from one terminal, the link first.
    """
    cells = n * n
    s = cells
    t = cells + 1
    size = cells + 2
    width = max(8, n + 1)
    adj = np.full((size, width), -1, np.int64)
    deg = np.zeros(size, np.int64)
    adj[s, 0] = t
    deg[s] = 1
    adj[t, 0] = s
    deg[t] = 1
    for c in range(cells):
        if not has(allowed, c):
            continue
        for k in range(6):
            v = ring[c, k]
            if v >= 0 and has(allowed, v):
                adj[c, deg[c]] = v
                deg[c] += 1
        if has(low, c):
            adj[c, deg[c]] = s
            deg[c] += 1
            adj[s, deg[s]] = c
            deg[s] += 1
        if has(high, c):
            adj[c, deg[c]] = t
            deg[c] += 1
            adj[t, deg[t]] = c
            deg[t] += 1
    disc = np.full(size, -1, np.int64)
    lowest = np.zeros(size, np.int64)
    parent = np.full(size, -1, np.int64)
    step = np.zeros(size, np.int64)
    stack = np.empty(size, np.int64)
    edges = np.empty((size * width, 2), np.int64)
    top = 0
    depth = 0
    clock = 1
    stack[0] = s
    disc[s] = 0
    found = nothing(allowed)
    while depth >= 0:
        u = stack[depth]
        if step[u] < deg[u]:
            w = adj[u, step[u]]
            step[u] += 1
            if disc[w] < 0:
                parent[w] = u
                disc[w] = clock
                lowest[w] = clock
                clock += 1
                edges[top, 0], edges[top, 1] = u, w
                top += 1
                depth += 1
                stack[depth] = w
            elif w != parent[u] and disc[w] < disc[u]:
                lowest[u] = min(lowest[u], disc[w])
                edges[top, 0], edges[top, 1] = u, w
                top += 1
            continue
        depth -= 1
        if depth < 0:
            break
        p = stack[depth]
        lowest[p] = min(lowest[p], lowest[u])
        if lowest[u] >= disc[p]:
            block = nothing(allowed)
            while top > 0:
                top -= 1
                a, b = edges[top, 0], edges[top, 1]
                if a < cells:
                    block = join(block, only(allowed, a))
                if b < cells:
                    block = join(block, only(allowed, b))
                if a == p and b == u:
                    break
            if p == s and u == t:
                found = block
    return found


@jit
def dead_regions(
    n: int,
    ring: I64,
    table: B1,
    edges: tuple[Cells, Cells, Cells, Cells],
    black: Cells,
    white: Cells,
) -> Cells:
    """The empty cells whose colour can never decide the game, to a fixed point: the
    dead cells of the ring table (:func:`dead_cells`) and every cell on no simple path
    between one player's edges through empty cells and that player's stones. Whoever
    wins a filled board has such a path, and one without the cell; so the cell's colour
    never changes a winner, and once it is known dead it is left out of both players'
    paths in the next round. ``edges`` are the lines of player 1's two edges, then
    player 2's."""
    empty = minus(every(black, n * n), join(black, white))
    dead = dead_cells(n, ring, table, black, white)
    while True:
        live = minus(empty, dead)
        first = on_paths(n, ring, join(live, black), edges[0], edges[1])
        second = on_paths(n, ring, join(live, white), edges[2], edges[3])
        grown = join(dead, minus(live, cut(first, second)))
        if grown == dead:
            return dead
        dead = grown
