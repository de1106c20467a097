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

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = ["LOSS", "OPEN", "WIN", "analyse", "dead_cells", "hsearch", "neighbour_masks"]

U64 = npt.NDArray[np.uint64]

WIN = 1
LOSS = -1
OPEN = 0

_ONE = np.uint64(1)
_ZERO = np.uint64(0)


def neighbour_masks(n: int) -> tuple[U64, U64]:
    """``(nbr, lines)``: the neighbour set of each cell, and the four edge lines.

    ``lines`` holds column 0, column n-1 (player 1's edges), row 0 and row n-1 (player 2's).
    """
    nbr = np.zeros(n * n, np.uint64)
    for r in range(n):
        for c in range(n):
            m = 0
            for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
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


@jit
def dead_cells(n: int, nbr: U64, lines: U64, black: np.uint64, white: np.uint64) -> np.uint64:
    """Empty cells with four consecutive neighbours of one colour (edges count as stones).

    Such a cell's colour never matters: a stone of either colour there connects nothing
    that is not already connected.
    """
    found = _ZERO
    dr = (0, 1, 1, 0, -1, -1)
    dc = (1, 0, -1, -1, 0, 1)
    colours = np.zeros(6, np.int64)
    for r in range(n):
        for c in range(n):
            b = _ONE << np.uint64(r * n + c)
            if (black | white) & b:
                continue
            for k in range(6):
                rr = r + dr[k]
                cc = c + dc[k]
                if 0 <= rr < n and 0 <= cc < n:
                    nb = _ONE << np.uint64(rr * n + cc)
                    colours[k] = 1 if black & nb else (2 if white & nb else 0)
                else:
                    off_row = rr < 0 or rr >= n
                    off_col = cc < 0 or cc >= n
                    colours[k] = -1 if off_row and off_col else (2 if off_row else 1)
            for s in range(6):
                col = colours[s]
                if (
                    col > 0
                    and colours[(s + 1) % 6] == col
                    and colours[(s + 2) % 6] == col
                    and colours[(s + 3) % 6] == col
                ):
                    found |= b
                    break
    return found


@jit
def _add_full(
    full: U64, fcount: npt.NDArray[np.int64], x: int, y: int, c: np.uint64, kf: int
) -> bool:
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
    fcount: npt.NDArray[np.int64],
    semi: U64,
    scount: npt.NDArray[np.int64],
    x: int,
    y: int,
    c: np.uint64,
    ks: int,
) -> int:
    """Add semi carrier ``c`` (key included); the slot it took, or -1 if subsumed."""
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
    scount[a, b] = j
    return slot


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
) -> tuple[bool, bool, np.uint64]:
    """Bounded H-search for the owner of ``own`` joining the lines ``low`` and ``high``.

    ``kf`` and ``ks`` bound the full and semi connections kept per pair (the smallest
    carriers win), ``max_work`` the carrier combinations tried; the search stops at the
    first edge-to-edge full connection (or semi one, with ``stop_at_semi``).

    Returns ``(full, semi, carrier)``: whether an edge-to-edge full (second-player)
    connection was found, whether a semi (first-player) one was, and the intersection of
    the carriers of all of them (semi carriers include their key; all ones if none).
    """
    cells = n * n
    m = cells + 2
    e0 = cells
    e1 = cells + 1
    member = np.zeros(m, np.uint64)
    touch = np.zeros(m, np.uint64)
    stone = np.zeros(m, np.bool_)
    active = np.zeros(m, np.int64)
    count = 0
    seen = _ZERO
    for c in range(cells):
        b = _ONE << np.uint64(c)
        if opp & b or seen & b:
            continue
        if own & b:
            group = b
            while True:
                grown = group | (_spread(nbr, group) & own)
                if grown == group:
                    break
                group = grown
            seen |= group
            member[c] = group
            touch[c] = _spread(nbr, group) & ~group
            stone[c] = True
        else:
            member[c] = b
            touch[c] = nbr[c]
        active[count] = c
        count += 1
    touch[e0] = low
    touch[e1] = high
    stone[e0] = True
    stone[e1] = True
    active[count] = e0
    active[count + 1] = e1
    count += 2
    cbit = np.zeros(m, np.uint64)
    for i in range(count):
        v = active[i]
        if not stone[v]:
            cbit[v] = member[v]
    full = np.zeros((m, m, kf), np.uint64)
    fcount = np.zeros((m, m), np.int64)
    semi = np.zeros((m, m, ks), np.uint64)
    scount = np.zeros((m, m), np.int64)
    qsize = 1 << 15
    qx = np.zeros(qsize, np.int64)
    qy = np.zeros(qsize, np.int64)
    qc = np.zeros(qsize, np.uint64)
    head = 0
    tail = 0
    for i in range(count):
        u = active[i]
        for j in range(i + 1, count):
            v = active[j]
            if ((touch[u] & member[v]) or (touch[v] & member[u])) and _add_full(
                full, fcount, u, v, _ZERO, kf
            ):
                qx[tail % qsize] = u
                qy[tail % qsize] = v
                qc[tail % qsize] = _ZERO
                tail += 1
    done = fcount[e0, e1] > 0
    work = 0
    stack_i = np.zeros(ks + 1, np.int64)
    stack_u = np.zeros(ks + 1, np.uint64)
    stack_n = np.zeros(ks + 1, np.uint64)
    while head < tail and work < max_work and not done:
        a = qx[head % qsize]
        b = qy[head % qsize]
        ca = qc[head % qsize]
        head += 1
        for side in range(2):
            x = a if side == 0 else b
            z = b if side == 0 else a
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
                            qx[tail % qsize] = x
                            qy[tail % qsize] = y
                            qc[tail % qsize] = u
                            tail += 1
                        continue
                    s = u | cbit[z]
                    slot = _add_semi(full, fcount, semi, scount, x, y, s, ks)
                    if slot < 0:
                        continue
                    # OR rule: semis whose carriers have an empty intersection, the new one
                    # included, make a full connection with the union of the carriers
                    r, w = (x, y) if x < y else (y, x)
                    k = scount[r, w]
                    depth = 0
                    stack_i[0] = 0
                    stack_u[0] = s
                    stack_n[0] = s
                    steps = 0
                    while depth >= 0 and steps < 256:
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
                            if _add_full(full, fcount, x, y, union, kf) and tail - head < qsize:
                                qx[tail % qsize] = x
                                qy[tail % qsize] = y
                                qc[tail % qsize] = union
                                tail += 1
                            continue
                        if depth + 1 < ks:
                            depth += 1
                            stack_i[depth] = j + 1
                            stack_u[depth] = union
                            stack_n[depth] = inter
        done = fcount[e0, e1] > 0 or (stop_at_semi and scount[e0, e1] > 0)
    carrier = ~_ZERO
    for i in range(fcount[e0, e1]):
        carrier &= full[e0, e1, i]
    for i in range(scount[e0, e1]):
        carrier &= semi[e0, e1, i]
    return fcount[e0, e1] > 0, scount[e0, e1] > 0, carrier


@jit
def analyse(
    n: int,
    nbr: U64,
    lines: U64,
    black: np.uint64,
    white: np.uint64,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
) -> tuple[int, np.uint64]:
    """``(verdict, moves)`` for ``player`` (1 or 2) to move.

    ``verdict`` is WIN (the mover has an edge-to-edge full or semi connection), LOSS
    (the opponent has connections whose carriers share no cell) or OPEN, with ``moves``
    the cells worth trying: inside every opponent connection's carrier, dead cells left
    out (unless nothing else is left).
    """
    cells = n * n
    board = (_ONE << np.uint64(cells)) - _ONE if cells < 64 else ~_ZERO
    empty = board & ~(black | white)
    dead = dead_cells(n, nbr, lines, black, white)
    if player == 1:
        own, opp, lo, hi, olo, ohi = black, white, lines[0], lines[1], lines[2], lines[3]
    else:
        own, opp, lo, hi, olo, ohi = white, black, lines[2], lines[3], lines[0], lines[1]
    f, s, _ = hsearch(n, nbr, own | dead, opp, lo, hi, kf, ks, max_work, True)
    if f or s:
        return WIN, _ZERO
    f, s, carrier = hsearch(n, nbr, opp | dead, own, olo, ohi, kf, ks, max_work, False)
    moves = empty & ~dead
    if f or s:
        moves &= carrier
        if moves == _ZERO:
            return LOSS, _ZERO
    if moves == _ZERO:
        moves = empty
    return OPEN, moves


def warm() -> Any:
    """Compile the kernels (one tiny call)."""
    nbr, lines = neighbour_masks(2)
    return analyse(2, nbr, lines, np.uint64(0), np.uint64(0), 1, 2, 2, 10)
