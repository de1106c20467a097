"""Solver layer: numba kernels of the exact Hex solver (H-search virtual connections).

Boards of at most 64 cells: a set of cells is a ``uint64`` with cell ``(r, c)`` at bit
``r * n + c``. :func:`analyse` runs, for each player, a bounded H-search (Anshelevich's
AND/OR rules over carriers) on the position with the dead cells filled in, and turns it
into a verdict for the side to move: a won position (a full or semi virtual connection
between its edges), a lost one (the opponent's edge-to-edge connections leave no cell
that is in all of their carriers), or the *must-play* set of moves worth trying.

Every function here is plain Python that numba compiles; ``analyse.py_func`` is the
pure-Python twin the tests compare with on small boards.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.geometry import DIRECTIONS

__all__ = [
    "LOSS",
    "OPEN",
    "WIN",
    "analyse",
    "dead_cells",
    "dead_ring_table",
    "dominators",
    "fill_captured",
    "hsearch",
    "neighbour_masks",
    "ring_neighbours",
]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]
U2 = npt.NDArray[np.uint64]  # a connection table, rows of two words
I2 = npt.NDArray[np.int64]
I3 = npt.NDArray[np.int64]

WIN = 1
LOSS = -1
OPEN = 0

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2
#: Bits in one mask word.
_WORD_BITS = 64
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
    for r in range(n):
        for c in range(n):
            m = 0
            for dr, dc in DIRECTIONS:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n:
                    m |= 1 << (rr * n + cc)
            nbr[r * n + c] = np.uint64(m)
    lines = np.zeros(4, np.uint64)
    for k in range(n):
        lines[0] |= np.uint64(1 << (k * n))
        lines[1] |= np.uint64(1 << (k * n + n - 1))
        lines[2] |= np.uint64(1 << k)
        lines[3] |= np.uint64(1 << ((n - 1) * n + k))
    return nbr, lines


@jit
def _popcount(x: np.uint64) -> int:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return int(x & np.uint64(127))


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


# Ring codes: the six neighbours of a cell in turning order (geometry.DIRECTIONS), two bits
# each (0 empty, 1 black or black's edge, 2 white or white's edge, 3 off the board at a
# corner, where the two edges meet and nothing is adjacent).
EDGE_BLACK = -1
EDGE_WHITE = -2
NOWHERE = -3


def ring_neighbours(n: int) -> npt.NDArray[np.int64]:
    """Each cell's six neighbours in turning order: a cell index, or EDGE_BLACK (off the
    board past a column edge), EDGE_WHITE (past a row edge) or NOWHERE (past both)."""
    ring = np.zeros((n * n, 6), np.int64)
    for r in range(n):
        for c in range(n):
            for k, (dr, dc) in enumerate(DIRECTIONS):
                rr, cc = r + dr, c + dc
                off_row = not 0 <= rr < n
                off_col = not 0 <= cc < n
                if off_row and off_col:
                    ring[r * n + c, k] = NOWHERE
                elif off_col:
                    ring[r * n + c, k] = EDGE_BLACK
                elif off_row:
                    ring[r * n + c, k] = EDGE_WHITE
                else:
                    ring[r * n + c, k] = rr * n + cc
    return ring


def _one_arc(flags: list[bool]) -> bool:
    """Do the set cells of a ring of six form at most one run of consecutive cells?"""
    ends = sum(1 for k in range(6) if flags[k] and not flags[(k + 1) % 6])
    return ends <= 1


@cache
def dead_ring_table() -> npt.NDArray[np.bool_]:
    """For each of the 4**6 ring codes: is the centre cell dead?

    It is when, however the empty neighbours are filled, each colour's neighbours form
    one run around the ring. Consecutive ring cells touch each other (and two pieces of
    one edge are the same edge), so a stone of either colour in the centre joins nothing
    that is not already joined: its colour never decides the game.
    """
    table = np.zeros(4**6, np.bool_)
    for code in range(4**6):
        ring = [(code >> (2 * k)) & 3 for k in range(6)]
        holes = [k for k in range(6) if ring[k] == 0]
        dead = True
        for fill in range(1 << len(holes)):
            full = list(ring)
            for j, k in enumerate(holes):
                full[k] = 1 + (fill >> j & 1)
            if not (
                _one_arc([x == _BLACK for x in full]) and _one_arc([x == _WHITE for x in full])
            ):
                dead = False
                break
        table[code] = dead
    return table


@jit
def _ring_code(ring: I64, cell: int, black: np.uint64, white: np.uint64) -> int:
    code = 0
    for k in range(6):
        v = ring[cell, k]
        if v >= 0:
            b = _ONE << np.uint64(v)
            colour = 1 if black & b else (2 if white & b else 0)
        else:
            colour = -v
        code |= colour << (2 * k)
    return code


@jit
def dead_cells(n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64) -> np.uint64:
    """The empty cells whose ring code is dead in ``table`` (see :func:`dead_ring_table`)."""
    found = _ZERO
    for cell in range(n * n):
        b = _ONE << np.uint64(cell)
        if (black | white) & b:
            continue
        if table[_ring_code(ring, cell, black, white)]:
            found |= b
    return found


@jit
def fill_captured(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """The position with every captured pair of cells filled by its captor.

    Two touching empty cells are captured by a colour when a stone of that colour on
    either one leaves the other dead: whatever the opponent plays in the pair, the
    captor answers in the other cell and the opponent's stone is dead. Filling such a
    pair with the captor's stones does not change who wins (Henderson and Hayward's
    captured-cell fill-in). Pairs are filled one at a time, each found on the board the
    earlier fills left, until none is left.
    """
    return _fill_pairs(n, ring, table, black, white, 0)


@jit
def _fill_pairs(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, only: int
) -> tuple[np.uint64, np.uint64]:
    """:func:`fill_captured` for the pairs of both colours (``only`` 0) or of player
    ``only`` alone."""
    changed = True
    while changed:
        changed = False
        for x in range(n * n):
            bx = _ONE << np.uint64(x)
            if (black | white) & bx:
                continue
            for k in range(6):
                y = ring[x, k]
                if y <= x:
                    continue
                by = _ONE << np.uint64(y)
                if (black | white) & by:
                    continue
                if (
                    only != _WHITE
                    and table[_ring_code(ring, x, black | by, white)]
                    and table[_ring_code(ring, y, black | bx, white)]
                ):
                    black |= bx | by
                    changed = True
                    break
                if (
                    only != _BLACK
                    and table[_ring_code(ring, x, black, white | by)]
                    and table[_ring_code(ring, y, black, white | bx)]
                ):
                    white |= bx | by
                    changed = True
                    break
    return black, white


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


#: Row kinds of a connection table (see :func:`hsearch`).
FULL_ROW = 0
SEMI_ROW = 1
PENDING_ROW = 2


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
def analyse(
    n: int,
    nbr: U64,
    lines: U64,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    seed: U2,
    thorough: bool,
    mover_seed: U2,
) -> tuple[int, np.uint64, np.uint64, np.uint64, np.uint64, U2, U2]:
    """``(verdict, moves, black, white, proof, vcs, theirs)`` for ``player`` (1 or 2) to
    move.

    The position is first reduced: captured pairs filled (:func:`fill_captured`), the
    returned ``black`` and ``white`` are the reduced stones (same winner). Then
    ``verdict`` is WIN (the mover has an edge-to-edge full or semi connection), LOSS
    (the opponent has a full one, or semi ones whose carriers share no cell) or OPEN,
    with ``moves`` the cells worth trying: inside every opponent connection's carrier,
    dead cells left out (unless nothing else is left).

    ``proof`` is a set of empty cells of the given position that the verdict rests on:
    the verdict stays true when every other empty cell goes to the loser (for OPEN: every
    move left out stays losing). It holds the filled-in and dead cells and the carriers
    of the connections used.

    A ``thorough`` analysis searches both players' connections and returns in ``vcs`` the
    mover's connection table and in ``theirs`` the opponent's (see :func:`hsearch`; both
    only for OPEN), for the analyses of the positions after its moves: they pass ``vcs``
    as ``seed``, which starts the search of the player who just moved (the opponent of
    ``player`` there), and ``theirs`` as ``mover_seed``, which starts the search of the
    side to move there, less the connections the new stone broke (measured on seven 7x7
    openings: 14,405 analysed positions in 159 s without ``mover_seed``, 15,440 in 112 s
    with it). A table with no rows stands for none. A light one (not ``thorough``: a
    first estimate for a position just reached) skips the mover's own search, so it
    never finds a WIN by a connection: after a move inside the must-play region the side
    to move seldom has one, and the search would cost as much as the rest (measured in
    ``docs/benchmarks/hex.md``).
    """
    cells = n * n
    board = (_ONE << np.uint64(cells)) - _ONE if cells < _WORD_BITS else ~_ZERO
    given = black | white
    black, white = fill_captured(n, ring, table, black, white)
    empty = board & ~(black | white)
    dead = dead_cells(n, ring, table, black, white)
    base = (black | white) & ~given | dead
    none = np.empty((0, 2), np.uint64)
    if player == 1:
        own, opp, lo, hi, olo, ohi = black, white, lines[0], lines[1], lines[2], lines[3]
    else:
        own, opp, lo, hi, olo, ohi = white, black, lines[2], lines[3], lines[0], lines[1]
    if _joined(nbr, own | dead, lo, hi):
        return WIN, _ZERO, black, white, base, none, none
    if _joined(nbr, opp | dead, olo, ohi):
        return LOSS, _ZERO, black, white, base, none, none
    f, s, proof, mine = False, False, _ZERO, none
    if thorough:
        f, s, _, proof, mine = hsearch(
            n, nbr, own | dead, opp, lo, hi, kf, ks, max_work, True, mover_seed, True
        )
    if f or s:
        return WIN, _ZERO, black, white, base | proof, none, none
    f, s, carrier, proof, theirs = hsearch(
        n, nbr, opp | dead, own, olo, ohi, kf, ks, max_work, False, seed, True
    )
    if f:
        return LOSS, _ZERO, black, white, base | proof, mine, none
    moves = empty & ~dead
    if s:
        moves &= carrier
        if moves == _ZERO:
            return LOSS, _ZERO, black, white, base | proof, mine, none
    if moves == _ZERO:
        moves = empty
    moves, killers = _drop_vulnerable(n, ring, table, black, white, player, moves)
    moves = _drop_dominated(n, ring, table, black, white, player, moves)
    return OPEN, moves, black, white, base | proof | killers, mine, theirs


@jit
def _killed(
    n: int,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    c: int,
    fill: bool,
) -> np.uint64:
    """The first killer of ``player``'s stone on ``c``: an empty neighbour whose opponent
    stone leaves it dead (with ``fill``, once the opponent's captured pairs are filled
    in), with the cells filled; no cell if there is none."""
    bc = _ONE << np.uint64(c)
    for j in range(6):
        k = ring[c, j]
        if k < 0:
            continue
        bk = _ONE << np.uint64(k)
        if (black | white) & bk:
            continue
        b, w = (black | bc, white | bk) if player == 1 else (black | bk, white | bc)
        if fill:
            fb, fw = _fill_pairs(n, ring, table, b, w, 3 - player)
        else:
            fb, fw = b, w
        if table[_ring_code(ring, c, fb, fw)]:
            return bk | ((fb | fw) & ~(b | w))
    return _ZERO


@jit
def _drop_vulnerable(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int, moves: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """``(moves, keep)``: the moves without the mover's vulnerable cells, and the cells a
    proof must keep empty for them.

    A cell is vulnerable when one opponent stone on a neighbour (its killer) would leave
    it dead, at once or once the opponent's captured pairs are filled in after it
    (:func:`_fill_pairs`; a fill-in keeps the value). Such a move is never needed: after
    it the opponent may kill it, and whatever the mover then wins it also wins by
    playing its next move at once (the opponent's extra stones only hurt). Following
    that argument from any winning vulnerable move ends at a winning move that is not
    vulnerable (each step adds opponent stones, which keep dead cells dead and captured
    pairs captured), so all of them can be dropped, one cell being kept if every move is
    vulnerable. A proof of the position must keep the killers and the fills they rely on
    empty, hence they are returned.
    """
    kept = _ZERO
    keep = _ZERO
    for c in range(n * n):
        bc = _ONE << np.uint64(c)
        if not moves & bc:
            continue
        killed = _killed(n, ring, table, black, white, player, c, False)
        if killed == _ZERO:
            killed = _killed(n, ring, table, black, white, player, c, True)
        if killed == _ZERO:
            kept |= bc
        else:
            keep |= killed
    if kept == _ZERO:
        kept = moves & (~moves + _ONE)  # the lowest move
    return kept, keep


@jit
def _drop_dominated(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int, moves: np.uint64
) -> np.uint64:
    """The moves without those another kept move dominates.

    Move ``d`` dominates move ``c`` when the mover's stone on ``d`` makes ``c`` fillable
    by the mover: ``c`` is dead, or filled when the mover's captured pairs are filled in
    one after the other (:func:`_fill_pairs`). Then the position after ``d`` is as good
    as with the mover on ``d``, ``c`` and the other fills, which is at least as good as
    after ``c`` alone. Moves are looked at in cell order as dominators, and a move not
    dropped yet drops the moves it dominates, so every dropped move leads through a
    chain of dominations to a kept one (a chain only points to moves kept at the time,
    so it cannot close on itself). No cell joins the proof: the cells outside it go to
    the loser, the mover, and fills and dead cells stay so however the empty cells
    around them are filled; if the loser already holds ``d``, ``c`` is fillable outright,
    a move that changes nothing.
    """
    dropped = _ZERO
    for d in range(n * n):
        bd = _ONE << np.uint64(d)
        if not moves & bd or dropped & bd:
            continue
        dropped |= _fillable_after(n, ring, table, black, white, player, d, moves & ~dropped & ~bd)
    return moves & ~dropped


@jit
def _fillable_after(
    n: int,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    d: int,
    within: np.uint64,
) -> np.uint64:
    """The empty cells of ``within`` (``d`` left out) that ``player``'s stone on ``d``
    makes fillable by ``player``: dead, or filled when ``player``'s captured pairs are
    filled in one after the other (:func:`_fill_pairs`). ``d`` dominates each of them
    (see :func:`_drop_dominated`)."""
    bd = _ONE << np.uint64(d)
    if player == 1:
        fb, fw = _fill_pairs(n, ring, table, black | bd, white, _BLACK)
    else:
        fb, fw = _fill_pairs(n, ring, table, black, white | bd, _WHITE)
    within &= ~(black | white | bd)
    made = (fb | fw) & within
    for c in range(n * n):
        bc = _ONE << np.uint64(c)
        if within & bc and not made & bc and table[_ring_code(ring, c, fb, fw)]:
            made |= bc
    return made


@jit
def dominators(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int
) -> U64:
    """For each empty cell ``c``, the empty cells ``d`` that dominate it for ``player``
    (``d``'s stone makes ``c`` fillable, see :func:`_drop_dominated`): a move on ``c`` is
    no better than one on ``d``, so ``c`` loses when ``d`` does and ``d`` wins when ``c``
    does."""
    out = np.zeros(n * n, np.uint64)
    for d in range(n * n):
        bd = _ONE << np.uint64(d)
        if (black | white) & bd:
            continue
        made = _fillable_after(n, ring, table, black, white, player, d, ~_ZERO)
        for c in range(n * n):
            if made & (_ONE << np.uint64(c)):
                out[c] |= bd
    return out


@jit
def _joined(nbr: U64, stones: np.uint64, low: np.uint64, high: np.uint64) -> bool:
    """Do ``stones`` join the lines ``low`` and ``high``?"""
    group = stones & low
    while True:
        if group & high:
            return True
        grown = group | (_spread(nbr, group) & stones)
        if grown == group:
            return False
        group = grown


def warm() -> Any:
    """Compile the kernels (one tiny call)."""
    nbr, lines = neighbour_masks(2)
    table = dead_ring_table()
    ring = ring_neighbours(2)
    none = np.empty((0, 2), np.uint64)
    return analyse(
        2, nbr, lines, ring, table, np.uint64(0), np.uint64(0), 1, 2, 2, 10, none, True, none
    )
