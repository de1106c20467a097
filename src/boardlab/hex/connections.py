"""Board layer: virtual connections of a position on boards up to 11x11, for both rooms.

The knowledge of who is already won that the engine (its root and tree nodes) and the
prover (its DFPN on boards of more than 64 cells, :mod:`boardlab.hex.prover.wide`) share,
in numba: a set of cells is a pair of
``uint64`` words ``(lo, hi)`` (cell ``i`` is bit ``i`` of ``lo`` below 64, else bit
``i - 64`` of ``hi``), so boards of up to 126 cells fit. :func:`analyse` fills in the
captured pairs, runs a bounded H-search (Anshelevich's AND and OR rules over carriers)
for both players and turns it into a verdict for the side to move:

- WIN: the mover has an edge-to-edge full connection (any move keeps it) or a semi one
  (its key makes it full); the move returned wins;
- LOSS: the opponent has a full one, or semi ones whose carriers share no cell;
- OPEN: every move outside the returned must-play set (inside the carrier of each of
  the opponent's semi connections, dead cells left out) loses.

The rules are those of the prover's 64-cell kernels (:mod:`boardlab.hex.prover.hsearch`,
its fast path up to 8x8; the dead-cell table and ring layout of :mod:`boardlab.hex.board`
are shared); this one starts each search from nothing and keeps no tables.
``analyse.py_func`` is the plain-Python twin the tests compare with on small boards,
beside the solver's kernel and brute force.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from boardlab.core.bits import popcount as _popcount
from boardlab.core.jit import jit
from boardlab.hex.board import dead_ring_table, edge_lines, neighbours, ring_neighbours

__all__ = [
    "KEEP_FULL",
    "KEEP_SEMI",
    "LOSS",
    "MAX_SIZE",
    "MAX_WORK",
    "OPEN",
    "WIN",
    "Knowledge",
    "analyse",
    "analyse_with_proof",
    "cells_of",
    "dead_regions",
    "knowledge",
    "on_paths",
    "words_of",
]

U2 = npt.NDArray[np.uint64]
I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]
Mask = tuple[np.uint64, np.uint64]

WIN = 1
LOSS = -1
OPEN = 0
#: The largest board whose cells (and its two edge nodes) fit two words.
MAX_SIZE = 11

#: Full and semi carriers kept per pair, and the AND-rule combinations tried per search.
KEEP_FULL = 12
KEEP_SEMI = 16
MAX_WORK = 200_000
#: Subsets of semi connections the OR rule tries per new semi connection.
OR_STEPS = 32

#: Edge templates, made by ``scripts/hex_edge_templates.py`` with the exact solver:
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

_Z = np.uint64(0)
_ONE = np.uint64(1)
_ALL = ~np.uint64(0)
_BLACK, _WHITE = 1, 2
#: Cells in the first word.
_WORD = 64
#: The edge lines from this one on are rows (player 2's); those before, columns.
_EDGE_ROWS = 2


def words_of(cells: int) -> Mask:
    """A set of cells (bit ``c`` for cell ``c``) as the kernel's two words."""
    return np.uint64(cells & (2**64 - 1)), np.uint64(cells >> 64)


def cells_of(words: Mask | npt.NDArray[np.uint64]) -> int:
    """The kernel's two words (numba hands them back as Python ints) as one cell set."""
    return int(words[0]) | int(words[1]) << 64


@jit
def _bit(c: int) -> Mask:
    if c < _WORD:
        return (_ONE << np.uint64(c), _Z)
    return (_Z, _ONE << np.uint64(c - 64))


@jit
def _has(m: Mask, c: int) -> bool:
    if c < _WORD:
        return bool((m[0] >> np.uint64(c)) & _ONE != _Z)
    return bool((m[1] >> np.uint64(c - 64)) & _ONE != _Z)


@jit
def _and(a: Mask, b: Mask) -> Mask:
    return (a[0] & b[0], a[1] & b[1])


@jit
def _or(a: Mask, b: Mask) -> Mask:
    return (a[0] | b[0], a[1] | b[1])


@jit
def _minus(a: Mask, b: Mask) -> Mask:
    return (a[0] & ~b[0], a[1] & ~b[1])


@jit
def _none(a: Mask) -> bool:
    return bool(a[0] == _Z and a[1] == _Z)


@jit
def _within(a: Mask, b: Mask) -> bool:
    """Is ``a`` a subset of ``b``?"""
    return bool(a[0] & ~b[0] == _Z and a[1] & ~b[1] == _Z)


@jit
def _meets(a: Mask, b: Mask) -> bool:
    return bool(a[0] & b[0] != _Z or a[1] & b[1] != _Z)


@jit
def _count(a: Mask) -> int:
    return _popcount(a[0]) + _popcount(a[1])


@jit
def _lowest(a: Mask) -> int:
    """The lowest cell of a non-empty set."""
    if a[0] != _Z:
        return _popcount((a[0] & (~a[0] + _ONE)) - _ONE)
    return 64 + _popcount((a[1] & (~a[1] + _ONE)) - _ONE)


@jit
def _get(rows: U2, i: int) -> Mask:
    return (rows[i, 0], rows[i, 1])


@jit
def _spread(nbr: U2, m: Mask) -> Mask:
    """The cells next to some cell of ``m``."""
    out0 = _Z
    out1 = _Z
    for word in range(2):
        w = m[word]
        while w != _Z:
            low = w & (~w + _ONE)
            i = _popcount(low - _ONE) + 64 * word
            out0 |= nbr[i, 0]
            out1 |= nbr[i, 1]
            w ^= low
    return (out0, out1)


@cache
def knowledge(n: int) -> Knowledge:
    """The masks and tables :func:`analyse` needs for an ``n x n`` board (cached)."""
    if not 1 <= n <= MAX_SIZE:
        raise ValueError(f"virtual connections are searched on boards up to 11x11, not {n}x{n}")
    nbr = np.zeros((n * n, 2), np.uint64)
    for cell, around in enumerate(neighbours(n)):
        for other in around:
            nbr[cell, other // 64] |= np.uint64(1 << (other % 64))
    lines = np.zeros((4, 2), np.uint64)
    for row, cells in enumerate(edge_lines(n)):
        for cell in cells:
            lines[row, cell // 64] |= np.uint64(1 << (cell % 64))
    return Knowledge(n, nbr, lines, ring_neighbours(n), dead_ring_table(), edge_templates(n))


def _placed(n: int, edge: int, anchor: int, depth: int, dr: int, dc: int) -> int:
    """The cell at offset ``(dr, dc)`` of a template of ``depth`` anchored at cell
    ``anchor`` toward ``edge`` (the order of the edge lines), or -1 when it is off the
    board or the template's last row is not the edge's own line."""
    row, col = divmod(anchor, n)
    # rows and columns swapped for player 1's columns; turned half a turn toward line 0
    across, along = (col, row) if edge < _EDGE_ROWS else (row, col)
    sign = -1 if edge % 2 == 0 else 1
    a, b = across + sign * dr, along + sign * dc
    line = across + sign * depth - (0 if sign < 0 else n - 1)
    r, c = (b, a) if edge < _EDGE_ROWS else (a, b)
    if line != 0 or not (0 <= r < n and 0 <= c < n):
        return -1
    return r * n + c


@cache
def edge_templates(n: int) -> U2:
    """The carriers of :data:`EDGE_TEMPLATES` placed on an ``n x n`` board: row
    ``(edge * n * n + anchor) * len(EDGE_TEMPLATES) + k`` holds the cells of the ``k``-th
    template joining a stone on ``anchor`` to ``edge`` (0 and 1: player 1's columns 0
    and ``n-1``, 2 and 3: player 2's rows 0 and ``n-1``), no cell where it does not fit.
    """
    count = len(EDGE_TEMPLATES)
    table = np.zeros((4 * n * n * count, 2), np.uint64)
    for edge in range(4):
        for anchor in range(n * n):
            for k, (depth, offsets) in enumerate(EDGE_TEMPLATES):
                cells = [_placed(n, edge, anchor, depth, dr, dc) for dr, dc in offsets]
                if min(cells) < 0:
                    continue
                row = (edge * n * n + anchor) * count + k
                for cell in cells:
                    table[row, cell // 64] |= np.uint64(1 << (cell % 64))
    return table


class Knowledge:
    """An ``n x n`` board's neighbour sets, edge lines (column 0, column ``n-1``: player
    1's; row 0, row ``n-1``: player 2's), neighbour rings, dead-ring table and edge
    templates (:func:`edge_templates`)."""

    __slots__ = ("lines", "n", "nbr", "ring", "table", "templates")

    def __init__(self, n: int, nbr: U2, lines: U2, ring: I64, table: B1, templates: U2) -> None:
        self.n, self.nbr, self.lines, self.ring, self.table = n, nbr, lines, ring, table
        self.templates = templates


@jit
def _ring_code(ring: I64, cell: int, black: Mask, white: Mask) -> int:
    code = 0
    for k in range(6):
        v = ring[cell, k]
        colour = -v
        if v >= 0:
            colour = 1 if _has(black, v) else (2 if _has(white, v) else 0)
        code |= colour << (2 * k)
    return code


@jit
def dead_cells(n: int, ring: I64, table: B1, black: Mask, white: Mask) -> Mask:
    """The empty cells whose colour can never decide the game (see
    :func:`boardlab.hex.board.dead_ring_table`)."""
    found = (_Z, _Z)
    taken = _or(black, white)
    for cell in range(n * n):
        if not _has(taken, cell) and table[_ring_code(ring, cell, black, white)]:
            found = _or(found, _bit(cell))
    return found


@jit
def on_paths(n: int, ring: I64, allowed: Mask, low: Mask, high: Mask) -> Mask:
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
        if not _has(allowed, c):
            continue
        for k in range(6):
            v = ring[c, k]
            if v >= 0 and _has(allowed, v):
                adj[c, deg[c]] = v
                deg[c] += 1
        if _has(low, c):
            adj[c, deg[c]] = s
            deg[c] += 1
            adj[s, deg[s]] = c
            deg[s] += 1
        if _has(high, c):
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
    found = (_Z, _Z)
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
            block = (_Z, _Z)
            while top > 0:
                top -= 1
                a, b = edges[top, 0], edges[top, 1]
                if a < cells:
                    block = _or(block, _bit(a))
                if b < cells:
                    block = _or(block, _bit(b))
                if a == p and b == u:
                    break
            if p == s and u == t:
                found = block
    return found


@jit
def dead_regions(
    n: int, ring: I64, table: B1, edges: tuple[Mask, Mask, Mask, Mask], black: Mask, white: Mask
) -> Mask:
    """The empty cells whose colour can never decide the game, to a fixed point: the
    dead cells of the ring table (:func:`dead_cells`) and every cell on no simple path
    between one player's edges through empty cells and that player's stones. Whoever
    wins a filled board has such a path, and one without the cell; so the cell's colour
    never changes a winner, and once it is known dead it is left out of both players'
    paths in the next round. ``edges`` are the lines of player 1's two edges, then
    player 2's."""
    everything = (_Z, _Z)
    for c in range(n * n):
        everything = _or(everything, _bit(c))
    empty = _minus(everything, _or(black, white))
    dead = dead_cells(n, ring, table, black, white)
    while True:
        live = _minus(empty, dead)
        first = on_paths(n, ring, _or(live, black), edges[0], edges[1])
        second = on_paths(n, ring, _or(live, white), edges[2], edges[3])
        grown = _or(dead, _minus(live, _and(first, second)))
        if grown == dead:
            return dead
        dead = grown


@jit
def fill_captured(n: int, ring: I64, table: B1, black: Mask, white: Mask) -> tuple[Mask, Mask]:
    """The position with every captured pair filled by its captor, one pair at a time
    (a stone of the captor on either cell leaves the other dead; the winner is the same).
    """
    return fill_pairs(n, ring, table, black, white, 0)


@jit
def fill_pairs(
    n: int, ring: I64, table: B1, black: Mask, white: Mask, only: int
) -> tuple[Mask, Mask]:
    """:func:`fill_captured` for the pairs of both colours (``only`` 0) or of player
    ``only`` alone."""
    changed = True
    while changed:
        changed = False
        for x in range(n * n):
            bx = _bit(x)
            if _meets(_or(black, white), bx):
                continue
            for k in range(6):
                y = ring[x, k]
                if y <= x:
                    continue
                by = _bit(y)
                if _meets(_or(black, white), by):
                    continue
                if (
                    only != _WHITE
                    and table[_ring_code(ring, x, _or(black, by), white)]
                    and table[_ring_code(ring, y, _or(black, bx), white)]
                ):
                    black = _or(black, _or(bx, by))
                    changed = True
                    break
                if (
                    only != _BLACK
                    and table[_ring_code(ring, x, black, _or(white, by))]
                    and table[_ring_code(ring, y, black, _or(white, bx))]
                ):
                    white = _or(white, _or(bx, by))
                    changed = True
                    break
    return black, white


@jit
def _killed(
    n: int, ring: I64, table: B1, black: Mask, white: Mask, player: int, c: int, fill: bool
) -> Mask:
    """The first killer of ``player``'s stone on ``c`` (an empty neighbour whose opponent
    stone leaves it dead, with ``fill`` once the opponent's captured pairs are filled
    in), with the cells filled; no cell if there is none."""
    bc = _bit(c)
    for j in range(6):
        k = ring[c, j]
        if k < 0:
            continue
        bk = _bit(k)
        if _meets(_or(black, white), bk):
            continue
        if player == _BLACK:
            b, w = _or(black, bc), _or(white, bk)
        else:
            b, w = _or(black, bk), _or(white, bc)
        fb, fw = fill_pairs(n, ring, table, b, w, 3 - player) if fill else (b, w)
        if table[_ring_code(ring, c, fb, fw)]:
            return _or(bk, _minus(_or(fb, fw), _or(b, w)))
    return (_Z, _Z)


@jit
def drop_vulnerable(
    n: int, ring: I64, table: B1, black: Mask, white: Mask, player: int, moves: Mask
) -> tuple[Mask, Mask]:
    """``(moves, keep)``: the moves without the mover's vulnerable cells (one opponent
    stone on a neighbour would leave the cell dead, at once or once the opponent's
    captured pairs are filled in), and the killers and fills a proof must keep empty;
    one move is kept if every move is vulnerable. The argument is that of the 64-cell
    kernel's :func:`boardlab.hex.prover.inferior.drop_vulnerable`."""
    kept = (_Z, _Z)
    keep = (_Z, _Z)
    for c in range(n * n):
        if not _has(moves, c):
            continue
        killed = _killed(n, ring, table, black, white, player, c, False)
        if _none(killed):
            killed = _killed(n, ring, table, black, white, player, c, True)
        if _none(killed):
            kept = _or(kept, _bit(c))
        else:
            keep = _or(keep, killed)
    if _none(kept) and not _none(moves):
        kept = _bit(_lowest(moves))
    return kept, keep


@jit
def drop_dominated(
    n: int, ring: I64, table: B1, black: Mask, white: Mask, player: int, moves: Mask
) -> Mask:
    """The moves without those another kept move dominates (its stone makes them dead
    or filled by the mover's captured pairs); the argument is that of the 64-cell
    kernel's :func:`boardlab.hex.prover.inferior.drop_dominated`."""
    dropped = (_Z, _Z)
    for d in range(n * n):
        if not _has(moves, d) or _has(dropped, d):
            continue
        bd = _bit(d)
        within = _minus(_minus(moves, dropped), _or(bd, _or(black, white)))
        if player == _BLACK:
            fb, fw = fill_pairs(n, ring, table, _or(black, bd), white, _BLACK)
        else:
            fb, fw = fill_pairs(n, ring, table, black, _or(white, bd), _WHITE)
        made = _and(_or(fb, fw), within)
        for c in range(n * n):
            if _has(within, c) and not _has(made, c) and table[_ring_code(ring, c, fb, fw)]:
                made = _or(made, _bit(c))
        dropped = _or(dropped, made)
    return _minus(moves, dropped)


@jit
def _stones(n: int, board: I8) -> tuple[Mask, Mask]:
    """The black and the white stones of an ``int8`` board as cell sets."""
    black = (_Z, _Z)
    white = (_Z, _Z)
    for c in range(n * n):
        if board[c] == _BLACK:
            black = _or(black, _bit(c))
        elif board[c] == _WHITE:
            white = _or(white, _bit(c))
    return black, white


@jit
def _largest(rows: U2, base: int, count: int) -> int:
    """The offset of the largest of the ``count`` carriers from row ``base`` (the first
    on a tie): the one a full list gives up for a smaller newcomer."""
    worst = 0
    for i in range(1, count):
        if _count(_get(rows, base + i)) > _count(_get(rows, base + worst)):
            worst = i
    return worst


@jit
def _add_full(full: U2, fcount: I64, x: int, y: int, c: Mask, kf: int) -> bool:
    """Add carrier ``c`` to the pair's full connections; False if subsumed or no room."""
    a, b = (x, y) if x < y else (y, x)
    base = (a * fcount.shape[0] + b) * kf
    k = fcount[a, b]
    for i in range(k):
        if _within((full[base + i, 0], full[base + i, 1]), c):
            return False
    j = 0
    for i in range(k):
        e = _get(full, base + i)
        if not _within(c, e):
            full[base + j, 0] = e[0]
            full[base + j, 1] = e[1]
            j += 1
    if j >= kf:
        worst = _largest(full, base, j)
        if _count(_get(full, base + worst)) <= _count(c):
            fcount[a, b] = j
            return False
        slot = worst
    else:
        slot = j
        j += 1
    full[base + slot, 0] = c[0]
    full[base + slot, 1] = c[1]
    fcount[a, b] = j
    return True


@jit
def _add_semi(
    full: U2,
    fcount: I64,
    kf: int,
    semi: U2,
    skey: I64,
    scount: I64,
    x: int,
    y: int,
    c: Mask,
    key: int,
    ks: int,
) -> int:
    """Add semi carrier ``c`` (its ``key`` included); the slot it took, or -1 if subsumed."""
    a, b = (x, y) if x < y else (y, x)
    fbase = (a * fcount.shape[0] + b) * kf
    for i in range(fcount[a, b]):
        if _within(_get(full, fbase + i), c):
            return -1
    base = (a * fcount.shape[0] + b) * ks
    k = scount[a, b]
    for i in range(k):
        if _within(_get(semi, base + i), c):
            return -1
    j = 0
    for i in range(k):
        e = _get(semi, base + i)
        if not _within(c, e):
            semi[base + j, 0] = e[0]
            semi[base + j, 1] = e[1]
            skey[base + j] = skey[base + i]
            j += 1
    slot = j
    if j >= ks:
        worst = _largest(semi, base, j)
        if _count(_get(semi, base + worst)) <= _count(c):
            scount[a, b] = j
            return -1
        slot = worst
    else:
        j += 1
    semi[base + slot, 0] = c[0]
    semi[base + slot, 1] = c[1]
    skey[base + slot] = key
    scount[a, b] = j
    return slot


@jit
def _or_rule(
    full: U2,
    fcount: I64,
    kf: int,
    semi: U2,
    scount: I64,
    ks: int,
    x: int,
    y: int,
    slot: int,
    queue: I64,
    qcarrier: U2,
    head: int,
    tail: int,
) -> int:
    """The OR rule for the semi carrier just put in ``slot``: semis of the pair whose
    carriers share no cell, that one included, make a full connection with the union of
    their carriers. Subsets are tried depth first, :data:`OR_STEPS` steps at most; each
    new full connection joins the queue. Returns the new queue tail."""
    r, w = (x, y) if x < y else (y, x)
    base = (r * fcount.shape[0] + w) * ks
    k = scount[r, w]
    s = _get(semi, base + slot)
    common = s
    for j in range(k):
        common = _and(common, _get(semi, base + j))
    if not _none(common):
        return tail
    stack_i = np.zeros(ks + 1, np.int64)
    stack_u = np.zeros((ks + 1, 2), np.uint64)
    stack_n = np.zeros((ks + 1, 2), np.uint64)
    depth = 0
    stack_u[0, 0], stack_u[0, 1] = s[0], s[1]
    stack_n[0, 0], stack_n[0, 1] = s[0], s[1]
    steps = 0
    while depth >= 0 and steps < OR_STEPS:
        steps += 1
        j = stack_i[depth]
        if j >= k:
            depth -= 1
            continue
        stack_i[depth] = j + 1
        if j == slot:
            continue
        other = _get(semi, base + j)
        now = _get(stack_n, depth)
        inter = _and(now, other)
        if inter == now:
            continue
        union = _or(_get(stack_u, depth), other)
        if _none(inter):
            if _add_full(full, fcount, x, y, union, kf) and tail - head < queue.shape[0] // 2:
                tail = _push(queue, qcarrier, tail, x, y, union)
            continue
        if depth + 1 < ks:
            depth += 1
            stack_i[depth] = j + 1
            stack_u[depth, 0], stack_u[depth, 1] = union[0], union[1]
            stack_n[depth, 0], stack_n[depth, 1] = inter[0], inter[1]
    return tail


@jit
def _push(queue: I64, qcarrier: U2, tail: int, x: int, y: int, c: Mask) -> int:
    """Queue the full connection ``(x, y, c)`` in the ring; the new tail."""
    slot = tail % queue.shape[0]
    queue[slot] = x | y << 8
    qcarrier[slot, 0] = c[0]
    qcarrier[slot, 1] = c[1]
    return tail + 1


@jit
def _seed_templates(
    cells: int,
    templates: U2,
    edges: int,
    own: Mask,
    opp: Mask,
    active: I64,
    count: int,
    member: U2,
    full: U2,
    fcount: I64,
    kf: int,
    queue: I64,
    qcarrier: U2,
    tail: int,
) -> int:
    """Add a full connection from each node to an edge for every edge template placed
    on one of its cells whose carrier holds no opponent stone (the owner's stones in it
    only help, so they are left out of the carrier); returns the queue's new tail."""
    per = templates.shape[0] // (4 * cells) if cells > 0 else 0
    if per == 0:
        return tail
    for i in range(count):
        v = active[i]
        if v >= cells:
            continue
        group = _get(member, v)
        for side in range(2):
            e = cells + side
            for c in range(cells):
                if not _has(group, c):
                    continue
                base = ((edges + side) * cells + c) * per
                for k in range(per):
                    t = _get(templates, base + k)
                    if _none(t) or _meets(t, opp):
                        continue
                    carrier = _minus(t, own)
                    if _add_full(full, fcount, v, e, carrier, kf) and tail < queue.shape[0]:
                        tail = _push(queue, qcarrier, tail, v, e, carrier)
    return tail


@jit
def hsearch(
    n: int,
    nbr: U2,
    own: Mask,
    opp: Mask,
    low: Mask,
    high: Mask,
    kf: int,
    ks: int,
    max_work: int,
    stop_at_semi: bool,
    templates: U2,
    edges: int,
) -> tuple[bool, bool, Mask, int, Mask, Mask]:
    """Bounded H-search for the owner of ``own`` joining the lines ``low`` and ``high``
    (edge lines ``edges`` and ``edges + 1`` of :func:`edge_templates`, whose carriers
    seed it with the edge templates of every node).

    Returns ``(full, semi, common, key, smallest, union)``: whether an edge-to-edge full
    connection was found, whether a semi one was, the intersection of the carriers of
    all of them (semi carriers include their key; every cell if none), the key of the
    smallest semi connection (-1 if none), the smallest full carrier (else the
    smallest semi one) and the union of all their carriers. The search stops at the
    first edge-to-edge full connection (or semi one, with ``stop_at_semi``) or after
    ``max_work`` carrier combinations.
    """
    cells = n * n
    m = cells + 2
    e0 = cells
    e1 = cells + 1
    member = np.zeros((m, 2), np.uint64)
    touch = np.zeros((m, 2), np.uint64)
    stone = np.zeros(m, np.bool_)
    active = np.zeros(m, np.int64)
    count = 0
    seen = (_Z, _Z)
    for c in range(cells):
        if _has(opp, c) or _has(seen, c):
            continue
        if _has(own, c):
            group = _bit(c)
            while True:
                grown = _or(group, _and(_spread(nbr, group), own))
                if grown == group:
                    break
                group = grown
            seen = _or(seen, group)
            around = _minus(_spread(nbr, group), group)
            stone[c] = True
        else:
            group = _bit(c)
            around = _get(nbr, c)
        member[c, 0], member[c, 1] = group[0], group[1]
        touch[c, 0], touch[c, 1] = around[0], around[1]
        active[count] = c
        count += 1
    touch[e0, 0], touch[e0, 1] = low[0], low[1]
    touch[e1, 0], touch[e1, 1] = high[0], high[1]
    stone[e0] = True
    stone[e1] = True
    active[count] = e0
    active[count + 1] = e1
    count += 2
    cbit = np.zeros((m, 2), np.uint64)
    for i in range(count):
        v = active[i]
        if not stone[v]:
            cbit[v, 0], cbit[v, 1] = member[v, 0], member[v, 1]
    full = np.empty((m * m * kf, 2), np.uint64)
    fcount = np.zeros((m, m), np.int64)
    semi = np.empty((m * m * ks, 2), np.uint64)
    skey = np.empty(m * m * ks, np.int64)
    scount = np.zeros((m, m), np.int64)
    queue = np.empty(1 << 15, np.int64)
    qcarrier = np.empty((1 << 15, 2), np.uint64)
    qsize = queue.shape[0]
    head = 0
    tail = 0
    for i in range(count):
        u = active[i]
        for j in range(i + 1, count):
            v = active[j]
            if (
                _meets(_get(touch, u), _get(member, v)) or _meets(_get(touch, v), _get(member, u))
            ) and _add_full(full, fcount, u, v, (_Z, _Z), kf):
                tail = _push(queue, qcarrier, tail, u, v, (_Z, _Z))
    tail = _seed_templates(
        cells,
        templates,
        edges,
        own,
        opp,
        active,
        count,
        member,
        full,
        fcount,
        kf,
        queue,
        qcarrier,
        tail,
    )
    done = fcount[e0, e1] > 0
    work = 0
    while head < tail and work < max_work and not done:
        slot = head % qsize
        a = int(queue[slot] & 255)
        b = int(queue[slot] >> 8)
        ca = _get(qcarrier, slot)
        head += 1
        for side in range(2):
            x = a if side == 0 else b
            z = b if side == 0 else a
            if z >= e0:
                continue  # never join two nodes through an edge (as the solver's kernel)
            for t in range(count):
                y = active[t]
                if y in (x, z):
                    continue
                p, q = (z, y) if z < y else (y, z)
                if fcount[p, q] == 0:
                    continue
                xy0, xy1 = (x, y) if x < y else (y, x)
                if fcount[xy0, xy1] > 0 and _none(_get(full, (xy0 * m + xy1) * kf)):
                    continue  # x and y touch: nothing to add
                base = (p * m + q) * kf
                for i in range(fcount[p, q]):
                    work += 1
                    c2 = _get(full, base + i)
                    if _meets(ca, c2):
                        continue
                    u = _or(ca, c2)
                    if _meets(u, _get(cbit, x)) or _meets(u, _get(cbit, y)):
                        continue
                    if stone[z]:
                        if _add_full(full, fcount, x, y, u, kf) and tail - head < qsize:
                            tail = _push(queue, qcarrier, tail, x, y, u)
                        continue
                    s = _or(u, _get(cbit, z))
                    put = _add_semi(full, fcount, kf, semi, skey, scount, x, y, s, z, ks)
                    if put >= 0:
                        tail = _or_rule(
                            full,
                            fcount,
                            kf,
                            semi,
                            scount,
                            ks,
                            x,
                            y,
                            put,
                            queue,
                            qcarrier,
                            head,
                            tail,
                        )
        done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    common = (_ALL, _ALL)
    union = (_Z, _Z)
    smallest = (_Z, _Z)
    best = 1 << 30
    key = -1
    fbase = (e0 * m + e1) * kf
    for i in range(fcount[e0, e1]):
        carrier = _get(full, fbase + i)
        common = _and(common, carrier)
        union = _or(union, carrier)
        if _count(carrier) < best:
            best = _count(carrier)
            smallest = carrier
    sbase = (e0 * m + e1) * ks
    skeybest = 1 << 30
    for i in range(scount[e0, e1]):
        carrier = _get(semi, sbase + i)
        common = _and(common, carrier)
        union = _or(union, carrier)
        if _count(carrier) < skeybest:
            skeybest = _count(carrier)
            key = skey[sbase + i]
            if fcount[e0, e1] == 0:
                smallest = carrier
    return fcount[e0, e1] > 0, scount[e0, e1] > 0, common, key, smallest, union


@jit
def _joined(nbr: U2, stones: Mask, low: Mask, high: Mask) -> bool:
    """Do ``stones`` join the lines ``low`` and ``high``?"""
    group = _and(stones, low)
    while True:
        if _meets(group, high):
            return True
        grown = _or(group, _and(_spread(nbr, group), stones))
        if grown == group:
            return False
        group = grown


@jit
def analyse(
    n: int,
    nbr: U2,
    lines: U2,
    ring: I64,
    table: B1,
    templates: U2,
    board: I8,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
) -> tuple[int, int, U2]:
    """``(verdict, move, moves)`` for ``player`` (1 or 2) to move on ``board`` (0 empty,
    1 and 2 the players' stones, cell ``r * n + c``).

    WIN comes with a winning ``move``; LOSS and OPEN with ``move`` -1. ``moves`` is one
    row of two words: for OPEN the must-play set (every empty cell when the opponent
    threatens nothing), for WIN and LOSS empty. (:func:`analyse_with_proof` without
    the proof.)
    """
    verdict, move, moves, _ = analyse_with_proof(
        n, nbr, lines, ring, table, templates, board, player, kf, ks, max_work, False
    )
    return verdict, move, moves


@jit
def analyse_with_proof(
    n: int,
    nbr: U2,
    lines: U2,
    ring: I64,
    table: B1,
    templates: U2,
    board: I8,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    regions: bool = False,
) -> tuple[int, int, U2, U2]:
    """:func:`analyse` with the verdict's proof: ``(verdict, move, moves, proof)``,
    ``proof`` one row of two words holding a set of empty cells the verdict rests on.

    For WIN and LOSS the winner still wins when the loser gets every other empty cell;
    for OPEN every move outside ``moves`` still loses then. It holds the cells filled in
    as captured, the dead cells and the carriers of the connections used (the smallest
    full or semi one for a won or lost position, all the opponent's semi ones for a lost
    or open one settled by them). With ``regions`` (the prover's analysis) the dead
    cells are those of :func:`dead_regions`, else of the ring table alone, and the
    must-play set loses its vulnerable and dominated cells (:func:`drop_vulnerable`,
    :func:`drop_dominated`; the killers join the proof).
    """
    black, white = _stones(n, board)
    given = _or(black, white)
    black, white = fill_captured(n, ring, table, black, white)
    if regions:
        edges = (_get(lines, 0), _get(lines, 1), _get(lines, 2), _get(lines, 3))
        dead = dead_regions(n, ring, table, edges, black, white)
    else:
        dead = dead_cells(n, ring, table, black, white)
    everything = (_Z, _Z)
    for c in range(n * n):
        everything = _or(everything, _bit(c))
    empty = _minus(everything, _or(black, white))
    base = _or(_minus(_or(black, white), given), dead)
    out = np.zeros((1, 2), np.uint64)
    proof = np.zeros((1, 2), np.uint64)
    if player == _BLACK:
        own, opp = black, white
        lo, hi, olo, ohi = _get(lines, 0), _get(lines, 1), _get(lines, 2), _get(lines, 3)
    else:
        own, opp = white, black
        lo, hi, olo, ohi = _get(lines, 2), _get(lines, 3), _get(lines, 0), _get(lines, 1)
    filled_own = _minus(own, given)
    proof[0, 0], proof[0, 1] = base[0], base[1]
    if _joined(nbr, _or(own, dead), lo, hi):
        spare = _or(filled_own, dead)
        return WIN, (_lowest(spare) if not _none(spare) else -1), out, proof
    if _joined(nbr, _or(opp, dead), olo, ohi):
        return LOSS, -1, out, proof
    mine, theirs = (0, 2) if player == _BLACK else (2, 0)
    f, s, _, key, smallest, _ = hsearch(
        n, nbr, _or(own, dead), opp, lo, hi, kf, ks, max_work, True, templates, mine
    )
    if f or s:
        used = _or(base, _and(smallest, empty))
        proof[0, 0], proof[0, 1] = used[0], used[1]
    if s and not f:
        return WIN, key, out, proof
    if f:
        spare = _and(smallest, empty)
        if _none(spare):
            spare = _or(filled_own, dead)
        return WIN, (_lowest(spare) if not _none(spare) else -1), out, proof
    f, s, common, _, smallest, union = hsearch(
        n, nbr, _or(opp, dead), own, olo, ohi, kf, ks, max_work, False, templates, theirs
    )
    if f:
        used = _or(base, _and(smallest, empty))
        proof[0, 0], proof[0, 1] = used[0], used[1]
        return LOSS, -1, out, proof
    used = _or(base, _and(union, empty))
    proof[0, 0], proof[0, 1] = used[0], used[1]
    moves = _minus(empty, dead)
    if s:
        moves = _and(moves, common)
        if _none(moves):
            return LOSS, -1, out, proof
    if _none(moves):
        moves = empty
    if regions:
        moves, keep = drop_vulnerable(n, ring, table, black, white, player, moves)
        moves = drop_dominated(n, ring, table, black, white, player, moves)
        used = _or(used, _and(keep, empty))
        proof[0, 0], proof[0, 1] = used[0], used[1]
    out[0, 0], out[0, 1] = moves[0], moves[1]
    return OPEN, -1, out, proof


@jit
def filled_board(n: int, ring: I64, table: B1, board: I8, player: int) -> I8:
    """``board`` (0 empty, 1 and 2 stones) with the captured pairs filled by their captors
    and the dead cells by the opponent of ``player`` (the side to move): the same winner
    (MoHex runs its playouts on such a reduced board); the cells left empty are the
    moves worth searching."""
    black, white = _stones(n, board)
    black, white = fill_captured(n, ring, table, black, white)
    dead = dead_cells(n, ring, table, black, white)
    out = board.copy()
    for c in range(n * n):
        if _has(black, c):
            out[c] = _BLACK
        elif _has(white, c):
            out[c] = _WHITE
        elif _has(dead, c):
            out[c] = 3 - player
    return out
