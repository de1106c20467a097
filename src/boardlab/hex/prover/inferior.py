"""Prover layer: inferior cells of the solver's positions (vulnerable, dominated, dead regions).

On the cell sets of :mod:`boardlab.hex.cellsets` (one word up to 8x8, two up to 11x11:
numba compiles one version per width from this one source). The dead cells of the ring
table and the captured pairs are shared with the engine
(:func:`boardlab.hex.connections.dead_cells`, :func:`boardlab.hex.connections.fill_pairs`);
from them follow, for the prover alone, the mover's vulnerable cells
(:func:`drop_vulnerable`), the dominated moves (:func:`drop_dominated`,
:func:`dominators`) and the dead regions (:func:`dead_regions`: cells on no path between a
player's edges), which the verdicts (:mod:`boardlab.hex.prover.verdicts`) leave out of the
moves worth trying.

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.cellsets import (
    Cells,
    cut,
    every,
    has,
    is_empty,
    join,
    lowest,
    minus,
    nothing,
    only,
    put_row,
    row,
)
from boardlab.hex.connections import dead_cells, fill_pairs, ring_code

__all__ = [
    "dead_regions",
    "dominators",
    "drop_dominated",
    "drop_vulnerable",
    "on_paths",
]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2


@jit_borrow
def _killed(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, c: int, fill: bool
) -> Cells:
    """The first killer of ``player``'s stone on ``c``: an empty neighbour whose opponent
    stone leaves it dead (with ``fill``, once the opponent's captured pairs are filled
    in), with the cells filled; no cell if there is none."""
    bc = only(black, c)
    for j in range(6):
        k = ring[c, j]
        if k < 0 or has(black, k) or has(white, k):
            continue
        bk = only(black, k)
        if player == _BLACK:
            b, w = join(black, bc), join(white, bk)
        else:
            b, w = join(black, bk), join(white, bc)
        fb, fw = fill_pairs(n, ring, table, b, w, 3 - player) if fill else (b, w)
        if table[ring_code(ring, c, fb, fw)]:
            return join(bk, minus(join(fb, fw), join(b, w)))
    return nothing(black)


@jit
def drop_vulnerable(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, moves: Cells
) -> tuple[Cells, Cells]:
    """``(moves, keep)``: the moves without the mover's vulnerable cells, and the cells a
    proof must keep empty for them.

    A cell is vulnerable when one opponent stone on a neighbour (its killer) would leave
    it dead, at once or once the opponent's captured pairs are filled in after it
    (:func:`boardlab.hex.connections.fill_pairs`; a fill-in keeps the value). Such a move
    is never needed: after it the opponent may kill it, and whatever the mover then wins
    it also wins by playing its next move at once (the opponent's extra stones only
    hurt). Following that argument from any winning vulnerable move ends at a winning
    move that is not vulnerable (each step adds opponent stones, which keep dead cells
    dead and captured pairs captured), so all of them can be dropped, one cell being
    kept if every move is vulnerable. A proof of the position must keep the killers and
    the fills they rely on empty, hence they are returned.
    """
    kept = nothing(moves)
    keep = nothing(moves)
    for c in range(n * n):
        if not has(moves, c):
            continue
        killed = _killed(n, ring, table, black, white, player, c, False)
        if is_empty(killed):
            killed = _killed(n, ring, table, black, white, player, c, True)
        if is_empty(killed):
            kept = join(kept, only(moves, c))
        else:
            keep = join(keep, killed)
    if is_empty(kept) and not is_empty(moves):
        kept = only(moves, lowest(moves))
    return kept, keep


@jit
def drop_dominated(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, moves: Cells
) -> Cells:
    """The moves without those another kept move dominates.

    Move ``d`` dominates move ``c`` when the mover's stone on ``d`` makes ``c`` fillable
    by the mover: ``c`` is dead, or filled when the mover's captured pairs are filled in
    one after the other (:func:`boardlab.hex.connections.fill_pairs`). Then the position
    after ``d`` is as good as with the mover on ``d``, ``c`` and the other fills, which
    is at least as good as after ``c`` alone. Moves are looked at in cell order as
    dominators, and a move not dropped yet drops the moves it dominates, so every dropped
    move leads through a chain of dominations to a kept one (a chain only points to
    moves kept at the time, so it cannot close on itself). No cell joins the proof: the
    cells outside it go to the loser, the mover, and fills and dead cells stay so however
    the empty cells around them are filled; if the loser already holds ``d``, ``c`` is
    fillable outright, a move that changes nothing.
    """
    dropped = nothing(moves)
    for d in range(n * n):
        if not has(moves, d) or has(dropped, d):
            continue
        within = minus(moves, join(dropped, only(moves, d)))
        dropped = join(dropped, _fillable_after(n, ring, table, black, white, player, d, within))
    return minus(moves, dropped)


@jit_borrow
def _fillable_after(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, d: int, within: Cells
) -> Cells:
    """The empty cells of ``within`` (``d`` left out) that ``player``'s stone on ``d``
    makes fillable by ``player``: dead, or filled when ``player``'s captured pairs are
    filled in one after the other. ``d`` dominates each of them (see
    :func:`drop_dominated`)."""
    bd = only(black, d)
    if player == _BLACK:
        fb, fw = fill_pairs(n, ring, table, join(black, bd), white, _BLACK)
    else:
        fb, fw = fill_pairs(n, ring, table, black, join(white, bd), _WHITE)
    within = minus(within, join(join(black, white), bd))
    made = cut(join(fb, fw), within)
    for c in range(n * n):
        if has(within, c) and not has(made, c) and table[ring_code(ring, c, fb, fw)]:
            made = join(made, only(black, c))
    return made


@jit
def dominators(n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int) -> Rows:
    """For each empty cell ``c`` (a row of words), the empty cells ``d`` that dominate it
    for ``player`` (``d``'s stone makes ``c`` fillable, see :func:`drop_dominated`): a
    move on ``c`` is no better than one on ``d``, so ``c`` loses when ``d`` does and
    ``d`` wins when ``c`` does."""
    out = np.zeros((n * n, len(black)), np.uint64)
    everything = every(black, 64 * len(black))
    for d in range(n * n):
        if has(black, d) or has(white, d):
            continue
        made = _fillable_after(n, ring, table, black, white, player, d, everything)
        bd = only(black, d)
        for c in range(n * n):
            if has(made, c):
                put_row(out, c, join(row(out, c, black), bd))
    return out


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
