"""Prover layer: bounded H-search, the exact solver's virtual connections (numba).

Boards of at most 64 cells: a set of cells is a ``uint64`` with cell ``(r, c)`` at bit
``r * n + c``. :func:`hsearch` runs Anshelevich's AND/OR rules over carriers for one
player between two edge lines and returns its connection table, which the verdicts
(:mod:`boardlab.hex.prover.verdicts`) read and the positions after a move start from.

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.bits import popcount as _popcount
from boardlab.core.jit import jit
from boardlab.hex.board import edge_lines, neighbours

__all__ = ["AND_OVER_EDGE", "OR_STEPS", "hsearch", "joined", "neighbour_masks"]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
U2 = npt.NDArray[np.uint64]  # a connection table, rows of two words
I2 = npt.NDArray[np.int64]
I3 = npt.NDArray[np.int64]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

# Subsets of semi connections the OR rule tries per new semi connection (measured on six
# 6x6 openings: 32 steps solve them in 41 s, 256 steps in 56 s, 8 steps in 43 s).
OR_STEPS = 32
# The AND rule never joins two nodes through an edge (two cells each joined to the same
# edge). Such connections are true but fill the pair lists with long carriers that feed
# few decisions; without them an analysed position costs about an eighth as much (the
# tables seeded from the parents are smaller too). Measured on the whole empty 7x7 board:
# 722.6 s, 264 110 analysed positions with them; 167.4 s, 350 290 without. MoHex 2.0's
# solver leaves them out too (its ``param_solver_vc`` lists ``and_over_edge 0``).
AND_OVER_EDGE = False


def neighbour_masks(n: int) -> tuple[U64, U64]:
    """``(nbr, lines)``: the neighbour set of each cell, and the four edge lines.

    ``lines`` holds column 0, column n-1 (player 1's edges), row 0 and row n-1 (player 2's).
    """
    nbr = np.zeros(n * n, np.uint64)
    for cell, around in enumerate(neighbours(n)):
        nbr[cell] = np.uint64(sum(1 << other for other in around))
    lines = np.zeros(4, np.uint64)
    for row, cells in enumerate(edge_lines(n)):
        lines[row] = np.uint64(sum(1 << cell for cell in cells))
    return nbr, lines


@jit
def _spread(nbr: U64, mask: np.uint64) -> np.uint64:
    out = _ZERO
    rest = mask
    i = 0
    while rest:
        if rest & _ONE:
            out |= nbr[i]
        rest >>= _ONE
        i += 1
    return out


#: Row kinds of a connection table (see :func:`hsearch`).
FULL_ROW = 0
SEMI_ROW = 1
PENDING_ROW = 2


@jit
def _add_full(full: U64, fcount: I2, x: int, y: int, c: np.uint64, kf: int) -> bool:
    """Add carrier ``c`` to the full connections of the pair; False if subsumed or full."""
    a, b = (x, y) if x < y else (y, x)
    k = fcount[a, b]
    for i in range(k):
        if full[a, b, i] & c == full[a, b, i]:
            return False
    j = 0
    for i in range(k):
        e = full[a, b, i]
        if e & c != c:
            full[a, b, j] = e
            j += 1
    if j >= kf:
        worst = 0
        for i in range(1, j):
            if _popcount(full[a, b, i]) > _popcount(full[a, b, worst]):
                worst = i
        if _popcount(full[a, b, worst]) <= _popcount(c):
            fcount[a, b] = j
            return False
        full[a, b, worst] = c
    else:
        full[a, b, j] = c
        j += 1
    fcount[a, b] = j
    return True


@jit
def _add_semi(
    full: U64,
    fcount: I2,
    semi: U64,
    skey: I3,
    scount: I2,
    x: int,
    y: int,
    c: np.uint64,
    key: int,
    ks: int,
) -> int:
    """Add semi carrier ``c`` (its ``key`` included); the slot it took, or -1 if subsumed."""
    a, b = (x, y) if x < y else (y, x)
    for i in range(fcount[a, b]):
        if full[a, b, i] & c == full[a, b, i]:
            return -1
    k = scount[a, b]
    for i in range(k):
        if semi[a, b, i] & c == semi[a, b, i]:
            return -1
    j = 0
    for i in range(k):
        e = semi[a, b, i]
        if e & c != c:
            semi[a, b, j] = e
            skey[a, b, j] = skey[a, b, i]
            j += 1
    slot = j
    if j >= ks:
        worst = 0
        for i in range(1, j):
            if _popcount(semi[a, b, i]) > _popcount(semi[a, b, worst]):
                worst = i
        if _popcount(semi[a, b, worst]) <= _popcount(c):
            scount[a, b] = j
            return -1
        slot = worst
    else:
        j += 1
    semi[a, b, slot] = c
    skey[a, b, slot] = key
    scount[a, b] = j
    return slot


@jit
def _or_rule(
    full: U64,
    fcount: I2,
    semi: U64,
    scount: I2,
    x: int,
    y: int,
    slot: int,
    kf: int,
    ks: int,
    queue: U64,
    head: int,
    tail: int,
) -> int:
    """The OR rule for the semi carrier just put in ``slot`` of the pair: semis whose
    carriers have an empty intersection, that one included, make a full connection with
    the union of their carriers. Subsets are tried depth first, ``OR_STEPS`` steps at
    most; each new full connection joins the queue. Returns the new queue tail."""
    qsize = queue.shape[0]
    r, w = (x, y) if x < y else (y, x)
    k = scount[r, w]
    s = semi[r, w, slot]
    common = s
    for j in range(k):
        common &= semi[r, w, j]
    if common != _ZERO:
        return tail  # every subset shares a cell: no full connection
    stack_i = np.zeros(ks + 1, np.int64)
    stack_u = np.zeros(ks + 1, np.uint64)
    stack_n = np.zeros(ks + 1, np.uint64)
    depth = 0
    stack_u[0] = s
    stack_n[0] = s
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
        other = semi[r, w, j]
        inter = stack_n[depth] & other
        if inter == stack_n[depth]:
            continue
        union = stack_u[depth] | other
        if inter == _ZERO:
            if _add_full(full, fcount, x, y, union, kf) and tail - head < qsize // 2:
                tail = _push(queue, tail, x, y, union)
            continue
        if depth + 1 < ks:
            depth += 1
            stack_i[depth] = j + 1
            stack_u[depth] = union
            stack_n[depth] = inter
    return tail


@jit
def _push(queue: U64, tail: int, x: int, y: int, c: np.uint64) -> int:
    """Queue the full connection ``(x, y, c)``; the new tail (a ring of two words a row)."""
    slot = tail % (queue.shape[0] // 2)
    queue[2 * slot] = np.uint64(np.int64(x) | np.int64(y) << 8)
    queue[2 * slot + 1] = c
    return tail + 1


@jit
def _row(kind: int, a: int, b: int, key: int) -> np.uint64:
    return np.uint64(np.int64(kind) | np.int64(a) << 8 | np.int64(b) << 16 | np.int64(key) << 24)


@jit
def hsearch(
    n: int,
    nbr: U64,
    own: np.uint64,
    opp: np.uint64,
    low: np.uint64,
    high: np.uint64,
    kf: int,
    ks: int,
    max_work: int,
    stop_at_semi: bool,
    seed: U2,
    keep: bool,
) -> tuple[bool, bool, np.uint64, np.uint64, U2]:
    """Bounded H-search for the owner of ``own`` joining the lines ``low`` and ``high``.

    ``kf`` and ``ks`` bound the full and semi connections kept per pair (the smallest
    carriers win), ``max_work`` the carrier combinations tried; the search stops at the
    first edge-to-edge full connection (or semi one, with ``stop_at_semi``).

    Returns ``(full, semi, carrier, proof, table)``: whether an edge-to-edge full
    (second-player) connection was found, whether a semi (first-player) one was, the
    intersection of the carriers of all of them (semi carriers include their key; all
    ones if none), a set of cells the owner's win rests on (see :func:`_proof`: the
    smallest full carrier, else the smallest semi one with ``stop_at_semi``, else a union
    of semi carriers; empty if none), and, with ``keep``, the connections found as a
    table (else a table with no rows).

    The table's first row is ``(own, opp)``; each further row is ``(code, carrier)`` with
    ``code = kind | a << 8 | b << 16 | key << 24`` for a connection between the nodes
    ``a`` and ``b`` (a cell, the group holding it, or ``n*n`` and ``n*n + 1`` for the two
    lines): kind FULL_ROW, SEMI_ROW (with its key) or PENDING_ROW (a full connection the
    search had queued but not combined yet).

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
    cells = n * n
    m = cells + 2
    e0 = cells
    e1 = cells + 1
    member = np.zeros(m, np.uint64)
    touch = np.zeros(m, np.uint64)
    stone = np.zeros(m, np.bool_)
    active = np.zeros(m, np.int64)
    node = np.full(m, -1, np.int64)  # the node each cell belongs to (-1: the opponent's)
    count = 0
    seen = _ZERO
    for c in range(cells):
        bit = _ONE << np.uint64(c)
        if opp & bit or seen & bit:
            continue
        if own & bit:
            group = bit
            while True:
                grown = group | (_spread(nbr, group) & own)
                if grown == group:
                    break
                group = grown
            seen |= group
            member[c] = group
            touch[c] = _spread(nbr, group) & ~group
            stone[c] = True
            for d in range(c, cells):
                if group & (_ONE << np.uint64(d)):
                    node[d] = c
        else:
            member[c] = bit
            touch[c] = nbr[c]
            node[c] = c
        active[count] = c
        count += 1
    touch[e0] = low
    touch[e1] = high
    stone[e0] = True
    stone[e1] = True
    node[e0] = e0
    node[e1] = e1
    active[count] = e0
    active[count + 1] = e1
    count += 2
    cbit = np.zeros(m, np.uint64)
    for i in range(count):
        v = active[i]
        if not stone[v]:
            cbit[v] = member[v]
    full = np.empty((m, m, kf), np.uint64)
    fcount = np.zeros((m, m), np.int64)
    semi = np.empty((m, m, ks), np.uint64)
    skey = np.empty((m, m, ks), np.int64)
    scount = np.zeros((m, m), np.int64)
    queue = np.empty(2 << 15, np.uint64)
    qsize = queue.shape[0] // 2
    head = 0
    tail = 0
    for i in range(count):
        u = active[i]
        for j in range(i + 1, count):
            v = active[j]
            if ((touch[u] & member[v]) or (touch[v] & member[u])) and _add_full(
                full, fcount, u, v, _ZERO, kf
            ):
                tail = _push(queue, tail, u, v, _ZERO)
    if seed.shape[0] > 0 and not seed[0, 0] & ~own and not seed[0, 1] & ~opp:
        lost = opp & ~seed[0, 1]
        for i in range(1, seed.shape[0]):
            code = np.int64(seed[i, 0])
            c = seed[i, 1]
            if c & lost:
                continue
            kind, key = int(code & 255), int(code >> 24 & 255)
            a, b = int(code >> 8 & 255), int(code >> 16 & 255)
            x, y = int(node[a]), int(node[b])
            if x < 0 or y < 0 or x == y:
                continue
            carrier = c & ~own
            # a semi whose key was played loses it from its carrier, so it moved too
            moved = carrier != c or x != a or y != b
            if kind == PENDING_ROW:  # its carrier also comes as a FULL_ROW
                if tail - head < qsize:
                    tail = _push(queue, tail, x, y, carrier)
            elif not moved:
                # unchanged, and the parent's lists hold no subsumed carriers: append it
                # unless the pair now touches or its list is full
                if fcount[x, y] > 0 and full[x, y, 0] == _ZERO:
                    continue
                if kind == FULL_ROW and fcount[x, y] < kf:
                    full[x, y, fcount[x, y]] = carrier
                    fcount[x, y] += 1
                elif kind == SEMI_ROW and scount[x, y] < ks:
                    semi[x, y, scount[x, y]] = carrier
                    skey[x, y, scount[x, y]] = key
                    scount[x, y] += 1
            elif kind == SEMI_ROW and not own & (_ONE << np.uint64(key)):
                slot = _add_semi(full, fcount, semi, skey, scount, x, y, carrier, key, ks)
                if slot >= 0:
                    tail = _or_rule(
                        full, fcount, semi, scount, x, y, slot, kf, ks, queue, head, tail
                    )
            elif _add_full(full, fcount, x, y, carrier, kf) and tail - head < qsize:
                # a full connection that changed, or a semi whose key was played: full now
                tail = _push(queue, tail, x, y, carrier)
    done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    work = 0
    while head < tail and work < max_work and not done:
        slot = head % qsize
        ends = np.int64(queue[2 * slot])
        a = int(ends & 255)
        b = int(ends >> 8)
        ca = queue[2 * slot + 1]
        head += 1
        for side in range(2):
            x = a if side == 0 else b
            z = b if side == 0 else a
            if not AND_OVER_EDGE and z >= e0:
                continue
            for t in range(count):
                y = active[t]
                if y in (x, z):
                    continue
                p, q = (z, y) if z < y else (y, z)
                if fcount[p, q] == 0:
                    continue
                xy0, xy1 = (x, y) if x < y else (y, x)
                if fcount[xy0, xy1] > 0 and full[xy0, xy1, 0] == _ZERO:
                    continue  # x and y touch: nothing to add
                for i in range(fcount[p, q]):
                    work += 1
                    c2 = full[p, q, i]
                    if ca & c2:
                        continue
                    u = ca | c2
                    if u & cbit[x] or u & cbit[y]:
                        continue
                    if stone[z]:
                        if _add_full(full, fcount, x, y, u, kf) and tail - head < qsize:
                            tail = _push(queue, tail, x, y, u)
                        continue
                    s = u | cbit[z]
                    slot = _add_semi(full, fcount, semi, skey, scount, x, y, s, z, ks)
                    if slot >= 0:
                        tail = _or_rule(
                            full, fcount, semi, scount, x, y, slot, kf, ks, queue, head, tail
                        )
        done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    carrier = ~_ZERO
    for i in range(fcount[e0, e1]):
        carrier &= full[e0, e1, i]
    for i in range(scount[e0, e1]):
        carrier &= semi[e0, e1, i]
    table = np.empty((0, 2), np.uint64)
    if keep:
        table = _table(own, opp, active, count, full, fcount, semi, skey, scount, queue, head, tail)
    return (
        fcount[e0, e1] > 0,
        scount[e0, e1] > 0,
        carrier,
        _proof(full, fcount, semi, scount, e0, e1, stop_at_semi),
        table,
    )


@jit
def _table(
    own: np.uint64,
    opp: np.uint64,
    active: I64,
    count: int,
    full: U64,
    fcount: I2,
    semi: U64,
    skey: I3,
    scount: I2,
    queue: U64,
    head: int,
    tail: int,
) -> U2:
    """The connection table of a search (see :func:`hsearch`): pending rows first."""
    rows = 1 + tail - head
    for i in range(count):
        for j in range(i + 1, count):
            u, v = active[i], active[j]
            rows += fcount[u, v] + scount[u, v]
    table = np.empty((rows, 2), np.uint64)
    table[0, 0] = own
    table[0, 1] = opp
    r = 1
    qsize = queue.shape[0] // 2
    for t in range(head, tail):
        slot = t % qsize
        ends = np.int64(queue[2 * slot])
        table[r, 0] = _row(PENDING_ROW, int(ends & 255), int(ends >> 8), 0)
        table[r, 1] = queue[2 * slot + 1]
        r += 1
    for i in range(count):
        for j in range(i + 1, count):
            u, v = active[i], active[j]
            for k in range(fcount[u, v]):
                table[r, 0] = _row(FULL_ROW, u, v, 0)
                table[r, 1] = full[u, v, k]
                r += 1
            for k in range(scount[u, v]):
                table[r, 0] = _row(SEMI_ROW, u, v, skey[u, v, k])
                table[r, 1] = semi[u, v, k]
                r += 1
    return table


@jit
def _proof(
    full: U64,
    fcount: npt.NDArray[np.int64],
    semi: U64,
    scount: npt.NDArray[np.int64],
    a: int,
    b: int,
    one: bool,
) -> np.uint64:
    """The cells a pair's connections rest on: the smallest full carrier if there is one;
    else, with ``one`` (the owner is to move and needs a single semi connection), the
    smallest semi carrier; else the union of the semi carriers that, taken smallest
    first, each shrink the intersection of the ones before (the same intersection as all
    of them: what the opponent's must-play rests on)."""
    best = _ZERO
    size = 1 << 30
    for i in range(fcount[a, b]):
        if _popcount(full[a, b, i]) < size:
            size = _popcount(full[a, b, i])
            best = full[a, b, i]
    if fcount[a, b] > 0:
        return best
    k = scount[a, b]
    if one:
        for i in range(k):
            if _popcount(semi[a, b, i]) < size:
                size = _popcount(semi[a, b, i])
                best = semi[a, b, i]
        return best
    taken = np.zeros(k, np.bool_)
    inter = ~_ZERO
    union = _ZERO
    for _ in range(k):
        pick = -1
        size = 1 << 30
        for i in range(k):
            if not taken[i] and _popcount(semi[a, b, i]) < size:
                size = _popcount(semi[a, b, i])
                pick = i
        taken[pick] = True
        if inter & semi[a, b, pick] != inter:
            inter &= semi[a, b, pick]
            union |= semi[a, b, pick]
    return union


@jit
def joined(nbr: U64, stones: np.uint64, low: np.uint64, high: np.uint64) -> bool:
    """Do ``stones`` join the lines ``low`` and ``high``?"""
    group = stones & low
    while True:
        if group & high:
            return True
        grown = group | (_spread(nbr, group) & stones)
        if grown == group:
            return False
        group = grown
