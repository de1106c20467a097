"""Board layer: bounded H-search over cell sets of any width, for both rooms (numba).

:func:`hsearch` runs Anshelevich's AND and OR rules over carriers for one player between
two edge lines, on the sets of :mod:`boardlab.hex.cellsets` (one word up to 8x8, two up to
11x11: numba compiles one version per width from this one source). It may start from the
edge templates placed on the board (:func:`boardlab.hex.connections.edge_templates`) and
from the connection table of an earlier search (the incremental H-search), and it can
hand its own table back for the positions after a move. The verdicts
(:func:`boardlab.hex.connections.verdict`) read it.

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.bits import trailing_zeros
from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.cellsets import (
    Cells,
    cut,
    every,
    flood,
    has,
    is_empty,
    join,
    lowest,
    meets,
    minus,
    nothing,
    only,
    put_row,
    put_row_at,
    row,
    row_at,
    size,
    spread,
    within,
)

__all__ = ["AND_OVER_EDGE", "FULL_ROW", "OR_STEPS", "PENDING_ROW", "SEMI_ROW", "hsearch", "joined"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I2 = npt.NDArray[np.int64]

_Z = np.uint64(0)
_ALL = ~np.uint64(0)

# Subsets of semi connections the OR rule tries per new semi connection (measured on six
# 6x6 openings: 32 steps solve them in 41 s, 256 steps in 56 s, 8 steps in 43 s).
OR_STEPS = 32
# The AND rule never joins two nodes through an edge (two cells each joined to the same
# edge). Such connections are true but fill the pair lists with long carriers that feed
# few decisions; without them an analysed position costs about an eighth as much (the
# tables seeded from the parents are smaller too). Measured on the whole empty 7x7 board:
# 722.6 s, 264 110 analysed positions with them; 167.4 s, 350 290 without. MoHex 2.0's
# engine does join through an edge (its ``and_over_edge 0`` notwithstanding) and decides
# more positions from nothing; every variant tried here (always, on three 7x7 openings;
# one carrier empty or one end a stone group, on the 7x7 puzzles) cost more time than it
# saved (docs/benchmarks/hex.md).
AND_OVER_EDGE = False

#: Row kinds of a connection table (see :func:`hsearch`).
FULL_ROW = 0
SEMI_ROW = 1
PENDING_ROW = 2


@jit_borrow
def _largest(rows: Rows, base: int, count: int, like: Cells) -> int:
    """The offset of the largest of the ``count`` carriers from row ``base`` (the first
    on a tie): the one a full list gives up for a smaller newcomer."""
    worst = 0
    for i in range(1, count):
        if size(row(rows, base + i, like)) > size(row(rows, base + worst, like)):
            worst = i
    return worst


@jit_borrow
def _place(rows: Rows, keys: I64 | None, base: int, k: int, cap: int, c: Cells) -> tuple[int, int]:
    """Make room for carrier ``c`` in a pair's list of ``k`` carriers from row ``base``
    (none within another, ``cap`` at most): ``(slot, length)``, the row offset ``c`` goes
    to (-1 if a carrier within ``c`` makes it useless, or the list is full of carriers no
    larger) and the list's new length. The carriers holding ``c`` are dropped first (their
    ``keys``, if any, move with the rows); a full list gives up its largest carrier for a
    smaller ``c``."""
    wider = False  # does some carrier hold ``c``? (it goes; the list holds no subsets)
    for i in range(k):
        e = row(rows, base + i, c)
        if within(e, c):
            return -1, k
        wider = wider or within(c, e)
    j = k
    if wider:
        j = 0
        for i in range(k):
            e = row(rows, base + i, c)
            if not within(c, e):
                if j < i:
                    put_row(rows, base + j, e)
                    if keys is not None:
                        keys[base + j] = keys[base + i]
                j += 1
    if j < cap:
        return j, j + 1
    worst = _largest(rows, base, j, c)
    if size(row(rows, base + worst, c)) <= size(c):
        return -1, j
    return worst, j


@jit_borrow
def _add_full(full: Rows, fcount: I2, x: int, y: int, c: Cells, kf: int) -> bool:
    """Add carrier ``c`` to the pair's full connections; False if subsumed or no room."""
    a, b = (x, y) if x < y else (y, x)
    base = (a * fcount.shape[0] + b) * kf
    slot, length = _place(full, None, base, fcount[a, b], kf, c)
    fcount[a, b] = length
    if slot < 0:
        return False
    put_row(full, base + slot, c)
    return True


@jit_borrow
def _add_semi(
    full: Rows,
    fcount: I2,
    kf: int,
    semi: Rows,
    skey: I64,
    scount: I2,
    x: int,
    y: int,
    c: Cells,
    key: int,
    ks: int,
) -> int:
    """Add semi carrier ``c`` (its ``key`` included); the slot it took, or -1 if subsumed."""
    a, b = (x, y) if x < y else (y, x)
    fbase = (a * fcount.shape[0] + b) * kf
    for i in range(fcount[a, b]):
        if within(row(full, fbase + i, c), c):
            return -1
    base = (a * fcount.shape[0] + b) * ks
    slot, length = _place(semi, skey, base, scount[a, b], ks, c)
    scount[a, b] = length
    if slot < 0:
        return -1
    put_row(semi, base + slot, c)
    skey[base + slot] = key
    return slot


@jit_borrow
def _link(linked: Rows, x: int, y: int) -> None:
    """Mark the pair ``x``, ``y`` in a table of node bits (both ways)."""
    linked[x, y >> 6] |= np.uint64(1) << np.uint64(y & 63)
    linked[y, x >> 6] |= np.uint64(1) << np.uint64(x & 63)


@jit_borrow
def _push(queue: I64, qcarrier: Rows, tail: int, x: int, y: int, c: Cells) -> int:
    """Queue the full connection ``(x, y, c)`` in the ring; the new tail."""
    slot = tail % queue.shape[0]
    queue[slot] = x | y << 8
    put_row(qcarrier, slot, c)
    return tail + 1


@jit_borrow
def _or_rule(
    full: Rows,
    fcount: I2,
    kf: int,
    semi: Rows,
    scount: I2,
    ks: int,
    x: int,
    y: int,
    slot: int,
    queue: I64,
    qcarrier: Rows,
    head: int,
    tail: int,
    like: Cells,
    stack_i: I64,
    stack_u: Rows,
    stack_n: Rows,
) -> int:
    """The OR rule for the semi carrier just put in ``slot``: semis of the pair whose
    carriers share no cell, that one included, make a full connection with the union of
    their carriers. Subsets are tried depth first, :data:`OR_STEPS` steps at most; each
    new full connection joins the queue. Returns the new queue tail."""
    r, w = (x, y) if x < y else (y, x)
    base = (r * fcount.shape[0] + w) * ks
    k = scount[r, w]
    s = row(semi, base + slot, like)
    common = s
    for j in range(k):
        common = cut(common, row(semi, base + j, like))
    if not is_empty(common):
        return tail  # every subset shares a cell: no full connection
    stack_i[0] = 0  # the depth-first stack (scratch rows of ks + 1 the caller owns)
    depth = 0
    put_row(stack_u, 0, s)
    put_row(stack_n, 0, s)
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
        other = row(semi, base + j, like)
        now = row(stack_n, depth, like)
        inter = cut(now, other)
        if inter == now:
            continue
        union = join(row(stack_u, depth, like), other)
        if is_empty(inter):
            if _add_full(full, fcount, x, y, union, kf) and tail - head < queue.shape[0] // 2:
                tail = _push(queue, qcarrier, tail, x, y, union)
            continue
        if depth + 1 < ks:
            depth += 1
            stack_i[depth] = j + 1
            put_row(stack_u, depth, union)
            put_row(stack_n, depth, inter)
    return tail


@jit_borrow
def _seed_templates(
    cells: int,
    templates: Rows,
    edges: int,
    own: Cells,
    opp: Cells,
    active: I64,
    count: int,
    member: Rows,
    full: Rows,
    fcount: I2,
    kf: int,
    queue: I64,
    qcarrier: Rows,
    tail: int,
) -> int:
    """Add a full connection from each node to an edge for every edge template placed
    on one of its cells whose carrier holds no opponent stone and whose other stones are
    the owner's (the owner's stones in the carrier only help, so they are left out of
    it); returns the queue's new tail. ``templates`` holds two rows an entry: its
    carrier, then its other stones (see :func:`boardlab.hex.connections.edge_templates`)."""
    per = templates.shape[0] // (4 * cells) if cells > 0 else 0
    if per == 0:
        return tail
    for i in range(count):
        v = active[i]
        if v >= cells:
            continue
        group = row(member, v, own)
        for side in range(2):
            e = cells + side
            rest = group
            while not is_empty(rest):
                c = lowest(rest)
                rest = minus(rest, only(own, c))
                base = ((edges + side) * cells + c) * per
                for k in range(0, per, 2):
                    t = row(templates, base + k, own)
                    if is_empty(t) or meets(t, opp):
                        continue
                    if not within(row(templates, base + k + 1, own), own):
                        continue
                    carrier = minus(t, own)
                    if _add_full(full, fcount, v, e, carrier, kf) and tail < queue.shape[0]:
                        tail = _push(queue, qcarrier, tail, v, e, carrier)
    return tail


@jit
def _code(kind: int, a: int, b: int, key: int) -> np.uint64:
    return np.uint64(np.int64(kind) | np.int64(a) << 8 | np.int64(b) << 16 | np.int64(key) << 24)


@jit_borrow
def _seed_table(
    seed: Rows,
    own: Cells,
    opp: Cells,
    node: I64,
    full: Rows,
    fcount: I2,
    kf: int,
    semi: Rows,
    skey: I64,
    scount: I2,
    ks: int,
    queue: I64,
    qcarrier: Rows,
    head: int,
    tail: int,
    stack_i: I64,
    stack_u: Rows,
    stack_n: Rows,
) -> int:
    """Start from the connection table ``seed`` of an earlier search (see
    :func:`hsearch`); returns the queue's new tail."""
    width = len(own)
    if seed.shape[0] == 0:
        return tail
    if not within(row(seed, 0, own), own):
        return tail
    old_opp = row_at(seed, 0, width, own)
    if not within(old_opp, opp):
        return tail
    lost = minus(opp, old_opp)
    m = fcount.shape[0]
    for i in range(1, seed.shape[0]):
        code = np.int64(seed[i, 0])
        c = row_at(seed, i, 1, own)
        if meets(c, lost):
            continue
        kind, key = int(code & 255), int(code >> 24 & 255)
        a, b = int(code >> 8 & 255), int(code >> 16 & 255)
        x, y = int(node[a]), int(node[b])
        if x < 0 or y < 0 or x == y:
            continue
        carrier = minus(c, own)
        # a semi whose key was played loses it from its carrier, so it moved too
        moved = carrier != c or x != a or y != b
        if kind == PENDING_ROW:  # its carrier also comes as a FULL_ROW
            if tail - head < queue.shape[0]:
                tail = _push(queue, qcarrier, tail, x, y, carrier)
        elif not moved:
            # unchanged, and the parent's lists hold no subsumed carriers: append it
            # unless the pair now touches or its list is full
            if fcount[x, y] > 0 and is_empty(row(full, (x * m + y) * kf, own)):
                continue
            if kind == FULL_ROW and fcount[x, y] < kf:
                put_row(full, (x * m + y) * kf + fcount[x, y], carrier)
                fcount[x, y] += 1
            elif kind == SEMI_ROW and scount[x, y] < ks:
                put_row(semi, (x * m + y) * ks + scount[x, y], carrier)
                skey[(x * m + y) * ks + scount[x, y]] = key
                scount[x, y] += 1
        elif kind == SEMI_ROW and not has(own, key):
            slot = _add_semi(full, fcount, kf, semi, skey, scount, x, y, carrier, key, ks)
            if slot >= 0:
                tail = _or_rule(
                    full, fcount, kf, semi, scount, ks, x, y, slot, queue, qcarrier, head,
                    tail, own, stack_i, stack_u, stack_n,
                )  # fmt: skip
        elif _add_full(full, fcount, x, y, carrier, kf) and tail - head < queue.shape[0]:
            # a full connection that changed, or a semi whose key was played: full now
            tail = _push(queue, qcarrier, tail, x, y, carrier)
    return tail


@jit
def hsearch(
    n: int,
    nbr: Rows,
    own: Cells,
    opp: Cells,
    low: Cells,
    high: Cells,
    kf: int,
    ks: int,
    max_work: int,
    stop_at_semi: bool,
    seed: Rows,
    keep: bool,
    templates: Rows,
    edges: int,
) -> tuple[bool, bool, Cells, int, Cells, Cells, Rows]:
    """Bounded H-search for the owner of ``own`` joining the lines ``low`` and ``high``.

    ``kf`` and ``ks`` bound the full and semi connections kept per pair (the smallest
    carriers win), ``max_work`` the carrier combinations tried; the search stops at the
    first edge-to-edge full connection (or semi one, with ``stop_at_semi``).

    Returns ``(full, semi, common, key, proof, union, table)``: whether an edge-to-edge
    full (second-player) connection was found, whether a semi (first-player) one was, the
    intersection of the carriers of all of them (semi carriers include their key; every
    cell if none), the key of the smallest semi connection (-1 if none), a set of cells
    the owner's win rests on (see :func:`_proof`: the smallest full carrier, else the
    smallest semi one with ``stop_at_semi``, else a union of semi carriers; empty if
    none), the union of all their carriers, and, with ``keep``, the connections found as
    a table (else a table with no rows).

    ``templates`` (rows of :func:`boardlab.hex.connections.edge_templates`, or none) seed
    the search with the edge templates toward the edge lines ``edges`` and ``edges + 1``
    of every node whose carrier holds no opponent stone.

    The table has ``2 * w`` columns for sets of ``w`` words. Its first row is ``own``
    then ``opp``; each further row is ``code`` then a carrier, with ``code = kind | a << 8
    | b << 16 | key << 24`` for a connection between the nodes ``a`` and ``b`` (a cell,
    the group holding it, or ``n*n`` and ``n*n + 1`` for the two lines): kind FULL_ROW,
    SEMI_ROW (with its key) or PENDING_ROW (a full connection the search had queued but
    not combined yet).

    ``seed`` is such a table from an earlier search of the same owner (or has no rows).
    When that search's ``own`` is a subset of this one's and its ``opp`` a subset too
    (the owner gained stones, as after its own move and the fill-in, or the opponent
    did, as after the opponent's move), its connections whose carriers and ends hold no
    new opposing stone still hold here: they start the search, and only those that
    changed (new own stones in the carrier or at an end, a semi whose key is now the
    owner's) are combined again, with the pending ones and the new adjacencies (the
    incremental H-search). Connections an opposing stone broke are dropped; the
    alternatives the parent's size limits had left out do not come back, so a seeded
    search may find less than one from nothing, never anything false. A seed whose
    stones are not subsets is not used.
    """
    width = len(own)
    cells = n * n
    m = cells + 2
    e0 = cells
    e1 = cells + 1
    member = np.zeros((m, width), np.uint64)
    touch = np.zeros((m, width), np.uint64)
    stone = np.zeros(m, np.bool_)
    active = np.zeros(m, np.int64)
    node = np.full(m, -1, np.int64)  # the node each cell belongs to (-1: the opponent's)
    count = 0
    seen = nothing(own)
    for c in range(cells):
        if has(opp, c) or has(seen, c):
            continue
        if has(own, c):
            group = flood(nbr, only(own, c), own)
            seen = join(seen, group)
            put_row(member, c, group)
            put_row(touch, c, minus(spread(nbr, group), group))
            stone[c] = True
            for d in range(c, cells):
                if has(group, d):
                    node[d] = c
        else:
            put_row(member, c, only(own, c))
            put_row(touch, c, row(nbr, c, own))
            node[c] = c
        active[count] = c
        count += 1
    put_row(touch, e0, low)
    put_row(touch, e1, high)
    stone[e0] = True
    stone[e1] = True
    node[e0] = e0
    node[e1] = e1
    active[count] = e0
    active[count + 1] = e1
    count += 2
    cbit = np.zeros((m, width), np.uint64)
    for i in range(count):
        v = active[i]
        if not stone[v]:
            put_row(cbit, v, row(member, v, own))
    full = np.empty((m * m * kf, width), np.uint64)
    fcount = np.zeros((m, m), np.int64)
    semi = np.empty((m * m * ks, width), np.uint64)
    skey = np.empty(m * m * ks, np.int64)
    scount = np.zeros((m, m), np.int64)
    queue = np.empty(1 << 15, np.int64)
    qcarrier = np.empty((1 << 15, width), np.uint64)
    qsize = queue.shape[0]
    # the OR rule's depth-first stack, one row a semi connection of a pair at most
    stack_i = np.zeros(ks + 1, np.int64)
    stack_u = np.zeros((ks + 1, width), np.uint64)
    stack_n = np.zeros((ks + 1, width), np.uint64)
    none = nothing(own)
    head = 0
    tail = 0
    for i in range(count):
        u = active[i]
        for j in range(i + 1, count):
            v = active[j]
            if (
                meets(row(touch, u, own), row(member, v, own))
                or meets(row(touch, v, own), row(member, u, own))
            ) and _add_full(full, fcount, u, v, none, kf):
                tail = _push(queue, qcarrier, tail, u, v, none)
    if templates.shape[0] > 0:
        tail = _seed_templates(
            cells, templates, edges, own, opp, active, count, member, full, fcount, kf,
            queue, qcarrier, tail,
        )  # fmt: skip
    tail = _seed_table(
        seed, own, opp, node, full, fcount, kf, semi, skey, scount, ks, queue, qcarrier,
        head, tail, stack_i, stack_u, stack_n,
    )  # fmt: skip
    # each node's fully connected nodes, a bit each: the AND rule walks only those, and
    # not those the other end touches (an empty carrier, first in its list)
    linked = np.zeros((m, (m + 63) >> 6), np.uint64)
    touching = np.zeros((m, (m + 63) >> 6), np.uint64)
    for i in range(count):
        for j in range(i + 1, count):
            u, v = active[i], active[j]
            if fcount[u, v] > 0:
                _link(linked, u, v)
                if is_empty(row(full, (u * m + v) * kf, own)):
                    _link(touching, u, v)
    done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    work = 0
    while head < tail and work < max_work and not done:
        slot = head % qsize
        a = int(queue[slot] & 255)
        b = int(queue[slot] >> 8)
        ca = row(qcarrier, slot, own)
        head += 1
        for side in range(2):
            x = a if side == 0 else b
            z = b if side == 0 else a
            if not AND_OVER_EDGE and z >= e0:
                continue
            for word in range(linked.shape[1]):
                bits = np.uint64(linked[z, word] & ~touching[x, word])
                while bits != _Z:
                    y = 64 * word + trailing_zeros(bits)
                    bits &= bits - np.uint64(1)
                    if y == x:
                        continue
                    p, q = (z, y) if z < y else (y, z)
                    xy0, xy1 = (x, y) if x < y else (y, x)
                    base = (p * m + q) * kf
                    for i in range(fcount[p, q]):
                        work += 1
                        c2 = row(full, base + i, own)
                        if meets(ca, c2):
                            continue
                        u = join(ca, c2)
                        if meets(u, row(cbit, x, own)) or meets(u, row(cbit, y, own)):
                            continue
                        if stone[z]:
                            if _add_full(full, fcount, x, y, u, kf):
                                _link(linked, x, y)
                                if is_empty(u):
                                    _link(touching, x, y)
                                if tail - head < qsize:
                                    tail = _push(queue, qcarrier, tail, x, y, u)
                            continue
                        s = join(u, row(cbit, z, own))
                        put = _add_semi(full, fcount, kf, semi, skey, scount, x, y, s, z, ks)
                        if put >= 0:
                            tail = _or_rule(
                                full, fcount, kf, semi, scount, ks, x, y, put, queue, qcarrier,
                                head, tail, own, stack_i, stack_u, stack_n,
                            )  # fmt: skip
                            if fcount[xy0, xy1] > 0:
                                _link(linked, x, y)
        done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    common = every(own, 64 * width)
    union = nothing(own)
    key = -1
    fbase = (e0 * m + e1) * kf
    for i in range(fcount[e0, e1]):
        carrier = row(full, fbase + i, own)
        common = cut(common, carrier)
        union = join(union, carrier)
    sbase = (e0 * m + e1) * ks
    best = 1 << 30
    for i in range(scount[e0, e1]):
        carrier = row(semi, sbase + i, own)
        common = cut(common, carrier)
        union = join(union, carrier)
        if size(carrier) < best:
            best = size(carrier)
            key = skey[sbase + i]
    table = np.empty((0, 2 * width), np.uint64)
    if keep:
        table = _table(
            own, opp, active, count, full, fcount, kf, semi, skey, scount, ks, queue,
            qcarrier, head, tail,
        )  # fmt: skip
    proof = _proof(full, fcount, kf, semi, scount, ks, e0, e1, stop_at_semi, own)
    return fcount[e0, e1] > 0, scount[e0, e1] > 0, common, key, proof, union, table


@jit
def _table(
    own: Cells,
    opp: Cells,
    active: I64,
    count: int,
    full: Rows,
    fcount: I2,
    kf: int,
    semi: Rows,
    skey: I64,
    scount: I2,
    ks: int,
    queue: I64,
    qcarrier: Rows,
    head: int,
    tail: int,
) -> Rows:
    """The connection table of a search (see :func:`hsearch`): pending rows first."""
    width = len(own)
    m = fcount.shape[0]
    rows = 1 + tail - head
    for i in range(count):
        for j in range(i + 1, count):
            u, v = active[i], active[j]
            rows += fcount[u, v] + scount[u, v]
    table = np.zeros((rows, 2 * width), np.uint64)
    put_row_at(table, 0, 0, own)
    put_row_at(table, 0, width, opp)
    r = 1
    qsize = queue.shape[0]
    for t in range(head, tail):
        slot = t % qsize
        table[r, 0] = _code(PENDING_ROW, int(queue[slot] & 255), int(queue[slot] >> 8), 0)
        put_row_at(table, r, 1, row(qcarrier, slot, own))
        r += 1
    for i in range(count):
        for j in range(i + 1, count):
            u, v = active[i], active[j]
            for k in range(fcount[u, v]):
                table[r, 0] = _code(FULL_ROW, u, v, 0)
                put_row_at(table, r, 1, row(full, (u * m + v) * kf + k, own))
                r += 1
            for k in range(scount[u, v]):
                table[r, 0] = _code(SEMI_ROW, u, v, skey[(u * m + v) * ks + k])
                put_row_at(table, r, 1, row(semi, (u * m + v) * ks + k, own))
                r += 1
    return table


@jit
def _proof(
    full: Rows,
    fcount: I2,
    kf: int,
    semi: Rows,
    scount: I2,
    ks: int,
    a: int,
    b: int,
    one: bool,
    like: Cells,
) -> Cells:
    """The cells a pair's connections rest on: the smallest full carrier if there is one;
    else, with ``one`` (the owner is to move and needs a single semi connection), the
    smallest semi carrier; else the union of the semi carriers that, taken smallest
    first, each shrink the intersection of the ones before (the same intersection as all
    of them: what the opponent's must-play rests on)."""
    m = fcount.shape[0]
    fbase = (a * m + b) * kf
    sbase = (a * m + b) * ks
    best = nothing(like)
    most = 1 << 30
    for i in range(fcount[a, b]):
        c = row(full, fbase + i, like)
        if size(c) < most:
            most = size(c)
            best = c
    if fcount[a, b] > 0:
        return best
    k = scount[a, b]
    if one:
        for i in range(k):
            c = row(semi, sbase + i, like)
            if size(c) < most:
                most = size(c)
                best = c
        return best
    taken = np.zeros(k, np.bool_)
    inter = every(like, 64 * len(like))
    union = nothing(like)
    for _ in range(k):
        pick = -1
        most = 1 << 30
        for i in range(k):
            if not taken[i] and size(row(semi, sbase + i, like)) < most:
                most = size(row(semi, sbase + i, like))
                pick = i
        taken[pick] = True
        c = row(semi, sbase + pick, like)
        if cut(inter, c) != inter:
            inter = cut(inter, c)
            union = join(union, c)
    return union


@jit_borrow
def joined(nbr: Rows, stones: Cells, low: Cells, high: Cells) -> bool:
    """Do ``stones`` join the lines ``low`` and ``high``?"""
    group = cut(stones, low)
    while True:
        if meets(group, high):
            return True
        grown = join(group, cut(spread(nbr, group), stones))
        if grown == group:
            return False
        group = grown
