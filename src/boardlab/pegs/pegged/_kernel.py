"""Solver layer: numba kernels of the PEGGED beam search (walks cost 1, jumps are free).

A position is a ``uint8`` array with one byte per hole (1 = peg). One *step* of the
search removes one peg: it is a jump, optionally preceded by a shortest walk of one
peg through empty holes into a jumping position. A step is a row of six ``int32``:
``(p, t, a, b, c, d)``: peg ``p`` walks ``d`` holes to ``t`` (``p = t = -1``, ``d = 0``
for a plain jump), then the peg at ``a`` jumps over ``b`` into ``c``.

:func:`children` lists the steps of a position (the pure-Python twin is
:func:`boardlab.pegs.pegged.search.children_reference`); :func:`beam` runs one beam
search from the start to one peg and returns the chosen steps.
Directions are ``0`` up, ``1`` right, ``2`` down, ``3`` left, so ``d ^ 2`` is the opposite.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = ["beam", "children"]

_BIG = 1 << 30
_SHIFT = np.int64(1 << 24)


@jit
def children(
    cur: npt.NDArray[np.uint8],
    nbr: npt.NDArray[np.int32],
    trapped: npt.NDArray[np.uint8],
    eager: int,
    slack: int,
    out: npt.NDArray[np.int32],
    dist: npt.NDArray[np.int32],
    queue: npt.NDArray[np.int32],
) -> int:  # pragma: no cover - numba
    """Fill ``out`` with the steps of ``cur``; return how many.

    Every free jump; and when there is none (or ``eager`` is set) the walk-then-jump
    steps of walk length at most ``best + slack`` (``slack`` when ``eager`` and a
    free jump exists), ``best`` the shortest walk that enables a jump. When a free
    jump exists, only pegs on a trapped hole or with no orthogonal neighbour walk. ``dist`` must
    hold -1 everywhere (it is restored); ``queue`` is scratch of one slot per hole.
    """
    n = cur.shape[0]
    room = out.shape[0]
    count = 0
    for a in range(n):
        if cur[a] == 1:
            for d in range(4):
                b = nbr[a, d]
                if b >= 0 and cur[b] == 1:
                    c = nbr[b, d]
                    if c >= 0 and cur[c] == 0 and count < room:
                        out[count, 0] = -1
                        out[count, 1] = -1
                        out[count, 2] = a
                        out[count, 3] = b
                        out[count, 4] = c
                        out[count, 5] = 0
                        count += 1
    jumps = count
    if jumps > 0 and eager == 0:
        return count
    best = _BIG
    if jumps > 0:
        best = 0
    for p in range(n):
        if cur[p] == 0:
            continue
        if jumps > 0 and trapped[p] == 0:
            alone = True
            for d in range(4):
                y = nbr[p, d]
                if y >= 0 and cur[y] == 1:
                    alone = False
            if not alone:
                continue
        head = 0
        tail = 1
        queue[0] = p
        dist[p] = 0
        while head < tail:
            x = queue[head]
            head += 1
            dx = dist[x]
            if dx > best + slack:
                continue
            if dx >= 1:
                for d in range(4):
                    b = nbr[x, d]
                    if b >= 0 and b != p and cur[b] == 1:
                        c = nbr[b, d]
                        if c >= 0 and (cur[c] == 0 or c == p) and count < room:
                            out[count, 0] = p
                            out[count, 1] = x
                            out[count, 2] = x
                            out[count, 3] = b
                            out[count, 4] = c
                            out[count, 5] = dx
                            count += 1
                            if dx < best:
                                best = dx
                    a = nbr[x, d]
                    c = nbr[x, d ^ 2]
                    if (
                        a >= 0
                        and c >= 0
                        and a != p
                        and cur[a] == 1
                        and (cur[c] == 0 or c == p)
                        and count < room
                    ):
                        out[count, 0] = p
                        out[count, 1] = x
                        out[count, 2] = a
                        out[count, 3] = x
                        out[count, 4] = c
                        out[count, 5] = dx
                        count += 1
                        if dx < best:
                            best = dx
            if dx + 1 > best + slack:
                continue
            for d in range(4):
                y = nbr[x, d]
                if y >= 0 and cur[y] == 0 and dist[y] < 0:
                    dist[y] = dx + 1
                    queue[tail] = y
                    tail += 1
        for i in range(tail):
            dist[queue[i]] = -1
    kept = jumps
    for i in range(jumps, count):
        if out[i, 5] <= best + slack:
            for k in range(6):
                out[kept, k] = out[i, k]
            kept += 1
    return kept


@jit
def _status(
    cur: npt.NDArray[np.uint8],
    x: int,
    nbr: npt.NDArray[np.int32],
    near: npt.NDArray[np.int32],
    trapped: npt.NDArray[np.uint8],
    w_far: int,
    w_lonely: int,
    w_trap: int,
) -> int:  # pragma: no cover - numba
    if cur[x] == 0:
        return 0
    base = w_trap if trapped[x] == 1 else 0
    for k in range(4):
        y = nbr[x, k]
        if y >= 0 and cur[y] == 1:
            return base
    for k in range(near.shape[1]):
        y = near[x, k]
        if y >= 0 and cur[y] == 1:
            return base + w_lonely
    return base + w_far


@jit
def _spread(
    cur: npt.NDArray[np.uint8],
    nbr: npt.NDArray[np.int32],
    near: npt.NDArray[np.int32],
    rows: npt.NDArray[np.int32],
    cols: npt.NDArray[np.int32],
    mark: npt.NDArray[np.int32],
    queue: npt.NDArray[np.int32],
    stack: npt.NDArray[np.int32],
    w_comp: int,
    w_mst: int,
    mst_pegs: int,
) -> int:  # pragma: no cover - numba
    """``w_comp`` per group of pegs beyond the first (pegs within distance two are
    grouped) plus, with at most ``mst_pegs`` pegs, ``w_mst`` per unit of a minimum
    spanning tree of the pegs whose edges cost Manhattan distance - 1."""
    n = cur.shape[0]
    pegs = 0
    for i in range(n):
        if cur[i] == 1:
            queue[pegs] = i
            pegs += 1
            mark[i] = -1
    groups = 0
    for k in range(pegs):
        root = queue[k]
        if mark[root] >= 0:
            continue
        groups += 1
        mark[root] = root
        stack[0] = root
        top = 1
        while top > 0:
            top -= 1
            x = stack[top]
            for j in range(4):
                y = nbr[x, j]
                if y >= 0 and cur[y] == 1 and mark[y] < 0:
                    mark[y] = root
                    stack[top] = y
                    top += 1
            for j in range(near.shape[1]):
                y = near[x, j]
                if y >= 0 and cur[y] == 1 and mark[y] < 0:
                    mark[y] = root
                    stack[top] = y
                    top += 1
    total = w_comp * (groups - 1)
    if pegs <= mst_pegs and pegs > 1:
        best = np.full(pegs, 1 << 30, np.int64)
        done = np.zeros(pegs, np.uint8)
        best[0] = 0
        tree = 0
        for _ in range(pegs):
            pick = -1
            for k in range(pegs):
                if done[k] == 0 and (pick < 0 or best[k] < best[pick]):
                    pick = k
            done[pick] = 1
            tree += best[pick]
            a = queue[pick]
            for k in range(pegs):
                if done[k] == 0:
                    b = queue[k]
                    cost = abs(rows[a] - rows[b]) + abs(cols[a] - cols[b]) - 1
                    if cost < best[k]:
                        best[k] = cost
        total += w_mst * tree
    return total


@jit
def _apply(cur: npt.NDArray[np.uint8], step: npt.NDArray[np.int32]) -> None:  # pragma: no cover
    if step[0] >= 0:
        cur[step[0]] = 0
        cur[step[1]] = 1
    cur[step[2]] = 0
    cur[step[3]] = 0
    cur[step[4]] = 1


@jit
def beam(
    start: npt.NDArray[np.uint8],
    nbr: npt.NDArray[np.int32],
    near: npt.NDArray[np.int32],
    trapped: npt.NDArray[np.uint8],
    centre_distance: npt.NDArray[np.int32],
    pull: npt.NDArray[np.int32],
    keys: npt.NDArray[np.uint64],
    width: int,
    seed: int,
    slack: int,
    eager: int,
    noise: int,
    w_walk: int,
    w_far: int,
    w_lonely: int,
    w_trap: int,
    w_centre: int,
    rows: npt.NDArray[np.int32],
    cols: npt.NDArray[np.int32],
    w_comp: int,
    w_mst: int,
    mst_pegs: int,
    spread_pegs: int,
) -> tuple[npt.NDArray[np.int32], int, int]:  # pragma: no cover - numba
    """One beam search to one peg: ``(steps, walks, expanded)``; ``walks = -1`` if it died.

    Children are ranked by ``w_walk * walks + heuristic + noise``: the heuristic
    charges ``w_far`` for a peg with no peg within distance two and ``w_lonely`` for a
    peg with no orthogonal neighbour, ``w_trap`` for a peg on a trapped hole (one no
    jump starts from or passes over: it must walk), the ``_spread`` of the pegs once
    at most ``spread_pegs`` remain, and ``w_centre`` times each peg's ``pull`` (its
    walking distance to a gathering hole: it draws the pegs together); ``noise`` is
    uniform in ``0..noise`` from an xorshift generator seeded with ``seed``. Equal
    positions are merged (64-bit Zobrist keys). The last level is ranked by walks,
    then distance to the centre.
    """
    n = start.shape[0]
    pegs = 0
    for i in range(n):
        pegs += start[i]
    levels = pegs - 1
    if levels <= 0:
        return np.zeros((0, 6), np.int32), 0, 0
    per_state = 4 * n + 8
    cap = width * per_state
    beam_a = np.zeros((width, n), np.uint8)
    beam_b = np.zeros((width, n), np.uint8)
    walks_a = np.zeros(width, np.int64)
    walks_b = np.zeros(width, np.int64)
    hash_a = np.zeros(width, np.uint64)
    hash_b = np.zeros(width, np.uint64)
    heur_a = np.zeros(width, np.int64)
    heur_b = np.zeros(width, np.int64)
    parent = np.full((levels, width), -1, np.int32)
    moves = np.zeros((levels, width, 6), np.int32)
    out = np.zeros((per_state, 6), np.int32)
    dist = np.full(n, -1, np.int32)
    queue = np.zeros(n, np.int32)
    stamp = np.zeros(n, np.int64)
    mark = np.full(n, -1, np.int32)
    mqueue = np.zeros(n, np.int32)
    mstack = np.zeros(n, np.int32)
    c_parent = np.zeros(cap, np.int32)
    c_step = np.zeros((cap, 6), np.int32)
    c_score = np.zeros(cap, np.int64)
    c_walks = np.zeros(cap, np.int64)
    c_hash = np.zeros(cap, np.uint64)
    c_heur = np.zeros(cap, np.int64)
    c_slot = np.zeros(cap, np.int64)
    tsize = 1
    while tsize < 2 * cap:
        tsize *= 2
    table = np.full(tsize, -1, np.int64)
    mask = np.uint64(tsize - 1)
    rng = np.uint64(seed) * np.uint64(6364136223846793005) + np.uint64(1442695040888963407)
    if rng == np.uint64(0):
        rng = np.uint64(88172645463325252)
    saved = np.zeros(5, np.uint8)
    cells = np.zeros(5, np.int64)
    for i in range(n):
        beam_a[0, i] = start[i]
        if start[i] == 1:
            hash_a[0] ^= keys[i]
    h0 = 0
    for i in range(n):
        h0 += _status(beam_a[0], i, nbr, near, trapped, w_far, w_lonely, w_trap)
        h0 += int(start[i]) * w_centre * int(pull[i])
    heur_a[0] = h0
    size = 1
    expanded = 0
    tick = 0
    for level in range(levels):
        last = level == levels - 1
        ncand = 0
        for s in range(size):
            cur = beam_a[s]
            count = children(cur, nbr, trapped, eager, slack, out, dist, queue)
            expanded += 1
            for i in range(count):
                step = out[i]
                cells[0] = step[2]
                cells[1] = step[3]
                cells[2] = step[4]
                ncells = 3
                if step[0] >= 0:
                    cells[3] = step[0]
                    cells[4] = step[1]
                    ncells = 5
                tick += 1
                before = 0
                for j in range(ncells):
                    x = cells[j]
                    saved[j] = cur[x]
                    if stamp[x] != tick:
                        stamp[x] = tick
                        before += _status(cur, x, nbr, near, trapped, w_far, w_lonely, w_trap)
                    for k in range(4):
                        y = nbr[x, k]
                        if y >= 0 and stamp[y] != tick:
                            stamp[y] = tick
                            before += _status(cur, y, nbr, near, trapped, w_far, w_lonely, w_trap)
                    for k in range(near.shape[1]):
                        y = near[x, k]
                        if y >= 0 and stamp[y] != tick:
                            stamp[y] = tick
                            before += _status(cur, y, nbr, near, trapped, w_far, w_lonely, w_trap)
                _apply(cur, step)
                tick += 1
                after = 0
                key = hash_a[s]
                for j in range(ncells):
                    x = cells[j]
                    if stamp[x] != tick:
                        stamp[x] = tick
                        after += _status(cur, x, nbr, near, trapped, w_far, w_lonely, w_trap)
                        if cur[x] != saved[j]:
                            key ^= keys[x]
                            change = int(cur[x]) - int(saved[j])
                            after += change * w_centre * pull[x]
                    for k in range(4):
                        y = nbr[x, k]
                        if y >= 0 and stamp[y] != tick:
                            stamp[y] = tick
                            after += _status(cur, y, nbr, near, trapped, w_far, w_lonely, w_trap)
                    for k in range(near.shape[1]):
                        y = near[x, k]
                        if y >= 0 and stamp[y] != tick:
                            stamp[y] = tick
                            after += _status(cur, y, nbr, near, trapped, w_far, w_lonely, w_trap)
                spread = 0
                if pegs - level - 1 <= spread_pegs and not last:
                    spread = _spread(
                        cur, nbr, near, rows, cols, mark, mqueue, mstack, w_comp, w_mst, mst_pegs
                    )
                for j in range(ncells - 1, -1, -1):
                    cur[cells[j]] = saved[j]
                walks = walks_a[s] + step[5]
                heur = heur_a[s] + after - before
                if last:
                    score = walks * 4096 + centre_distance[step[4]]
                else:
                    rng ^= rng << np.uint64(13)
                    rng ^= rng >> np.uint64(7)
                    rng ^= rng << np.uint64(17)
                    jitter = np.int64(rng % np.uint64(noise + 1)) if noise > 0 else 0
                    score = walks * w_walk + heur + spread + jitter
                slot = key & mask
                while True:
                    held = table[slot]
                    if held < 0:
                        break
                    if c_hash[held] == key:
                        break
                    slot = (slot + np.uint64(1)) & mask
                held = table[slot]
                if held >= 0:
                    if c_score[held] <= score:
                        continue
                    target = held
                else:
                    if ncand >= cap:
                        continue
                    target = ncand
                    table[slot] = ncand
                    c_slot[ncand] = np.int64(slot)
                    ncand += 1
                c_parent[target] = s
                for k in range(6):
                    c_step[target, k] = step[k]
                c_score[target] = score
                c_walks[target] = walks
                c_hash[target] = key
                c_heur[target] = heur
        if ncand == 0:
            return np.zeros((0, 6), np.int32), -1, expanded
        for i in range(ncand):
            table[c_slot[i]] = -1
        order_keys = np.empty(ncand, np.int64)
        for i in range(ncand):
            order_keys[i] = c_score[i] * _SHIFT + i
        order = np.argsort(order_keys)
        nsize = min(width, ncand)
        for j in range(nsize):
            ci = order[j]
            ps = c_parent[ci]
            for i in range(n):
                beam_b[j, i] = beam_a[ps, i]
            _apply(beam_b[j], c_step[ci])
            walks_b[j] = c_walks[ci]
            hash_b[j] = c_hash[ci]
            heur_b[j] = c_heur[ci]
            parent[level, j] = ps
            for k in range(6):
                moves[level, j, k] = c_step[ci, k]
        beam_a, beam_b = beam_b, beam_a
        walks_a, walks_b = walks_b, walks_a
        hash_a, hash_b = hash_b, hash_a
        heur_a, heur_b = heur_b, heur_a
        size = nsize
    result = np.zeros((levels, 6), np.int32)
    j = 0
    for level in range(levels - 1, -1, -1):
        for k in range(6):
            result[level, k] = moves[level, j, k]
        j = parent[level, j]
    return result, int(walks_a[0]), expanded
