"""Prover layer: the certifier's H-search compiled, every connection's derivation logged.

The same search as :class:`boardlab.hex.prover.certify._Search` (Anshelevich's AND and
OR rules from touching nodes, the smallest carriers kept per pair, a bounded number of
carrier combinations), on arrays: nodes are numbered ``0 .. n*n - 1`` (an empty cell, or
a winner's group named by its lowest cell) and ``n*n``, ``n*n + 1`` for the winner's
first and last edge. Every connection made is appended to a log (its kind, its ends,
full or semi, its carrier and the log entries it was made of), so the derivation of any
of them can be read back; :mod:`boardlab.hex.prover.certify` turns a log into the
checker's steps. Nothing here is trusted: the checker (:mod:`boardlab.hex.proofcheck`)
verifies every step it is given.

Boards of at most 64 cells (carriers are one ``uint64`` word).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.bits import popcount
from boardlab.core.jit import jit

__all__ = ["KIND_AND", "KIND_OR", "KIND_TOUCH", "search_log"]

KIND_TOUCH, KIND_AND, KIND_OR = 0, 1, 2
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
#: Log entries a search may make (past them it stops, as past its work limit).
LOG_CAP = 1 << 16


@jit
def _room(row: I64, count: int, carriers: U64, carrier: np.uint64, most: int) -> int:
    """Make room in one pair's list (``row[:count]``, log indices) for ``carrier``: the
    new count with the carriers holding it (and, when full, the largest) dropped, or
    -1 when a carrier within it is there, or the list is full of carriers no larger."""
    wider = False
    for i in range(count):
        c = carriers[row[i]]
        if c & ~carrier == 0:
            return -1
        if carrier & ~c == 0:
            wider = True
    if wider:
        kept = 0
        for i in range(count):
            if carrier & ~carriers[row[i]] != 0:
                row[kept] = row[i]
                kept += 1
        count = kept
    if count >= most:
        worst, worst_bits = 0, -1
        for i in range(count):
            bits = popcount(carriers[row[i]])
            if bits > worst_bits:
                worst, worst_bits = i, bits
        if worst_bits <= popcount(carrier):
            return -1
        for i in range(worst, count - 1):
            row[i] = row[i + 1]
        count -= 1
    return count


@jit
def _file_full(
    full_rows: I64,
    full_count: I64,
    linked: npt.NDArray[np.bool_],
    queue: I64,
    tail: int,
    key: int,
    count: int,
    e: int,
    a: int,
    b: int,
) -> int:
    """File log entry ``e``, a full connection between ``a`` and ``b`` (pair ``key``), at
    ``count`` in its pair's list, link the two and queue it; the queue's new tail."""
    full_rows[key, count] = e
    full_count[key] = count + 1
    linked[a, b] = linked[b, a] = True
    queue[tail] = e
    return tail + 1


@jit
def search_log(
    nn: int,
    is_cell: npt.NDArray[np.bool_],
    touches: I64,
    semi_ends: bool,
    max_work: int,
    most_full: int,
    most_semi: int,
    or_steps: int,
) -> tuple[
    int,
    npt.NDArray[np.int8],
    I64,
    I64,
    U64,
    I64,
    I64,
    I64,
    I64,
    I64,
    int,
]:
    """Run the search on ``nn`` nodes (the last two the edges; ``is_cell`` marks the
    empty cells) from the pairs that ``touches``.

    Returns ``(done, kind, ends_a, ends_b, carrier, ref1, ref2, through, pool,
    edge_semis, edge_semi_count)``, the log's columns after ``done``, the log entry of a
    connection between the edges that ends the search (a full one; a semi one too with
    ``semi_ends``) or -1;
    each entry's ``ref1`` and ``ref2`` are its two parts (an AND, through node
    ``through``) or its start and length in ``pool`` (an OR's semi connections);
    ``edge_semis[:edge_semi_count]`` the semi connections between the edges kept at the
    end."""
    cap = LOG_CAP
    kind = np.empty(cap, np.int8)
    ends_a = np.empty(cap, np.int64)
    ends_b = np.empty(cap, np.int64)
    carriers = np.empty(cap, np.uint64)
    ref1 = np.empty(cap, np.int64)
    ref2 = np.empty(cap, np.int64)
    through = np.empty(cap, np.int64)
    pool = np.empty(cap * 4, np.int64)
    pooled = 0
    full_rows = np.empty((nn * nn, most_full), np.int64)
    full_count = np.zeros(nn * nn, np.int64)
    semi_rows = np.empty((nn * nn, most_semi), np.int64)
    semi_count = np.zeros(nn * nn, np.int64)
    linked = np.zeros((nn, nn), np.bool_)
    queue = np.empty(cap, np.int64)
    head, tail = 0, 0
    entries = 0
    done = -1
    first_edge, last_edge = nn - 2, nn - 1
    edges = min(first_edge, last_edge) * nn + max(first_edge, last_edge)
    one = np.uint64(1)
    cells = nn - 2
    # the OR rule's depth-first stack: where to go on, the semi connections chosen, the
    # intersection and the union of their carriers
    room = or_steps + most_semi + 2
    stack_start = np.zeros(room, np.int64)
    stack_depth = np.zeros(room, np.int64)
    stack_chosen = np.zeros((room, most_semi + 1), np.int64)
    stack_inter = np.zeros(room, np.uint64)
    stack_union = np.zeros(room, np.uint64)
    others = np.zeros(most_semi, np.int64)
    snapshot = np.zeros(most_full, np.int64)
    work = 0

    for t in range(touches.shape[0]):
        a, b = touches[t, 0], touches[t, 1]
        key = min(a, b) * nn + max(a, b)
        if entries >= cap:
            break
        count = _room(full_rows[key], full_count[key], carriers, np.uint64(0), most_full)
        if count < 0:
            continue
        e = entries
        entries += 1
        kind[e], ends_a[e], ends_b[e], carriers[e] = KIND_TOUCH, a, b, np.uint64(0)
        tail = _file_full(full_rows, full_count, linked, queue, tail, key, count, e, a, b)
        if key == edges:
            done = e

    while head < tail and done < 0 and work < max_work and entries < cap - or_steps - 2:
        s = queue[head]
        head += 1
        x0, x1, c1 = ends_a[s], ends_b[s], carriers[s]
        key = min(x0, x1) * nn + max(x0, x1)
        still = False
        for i in range(full_count[key]):
            if full_rows[key, i] == s:
                still = True
        if not still:
            continue  # dropped for a smaller carrier since
        for side in range(2):
            x, z = (x0, x1) if side == 0 else (x1, x0)
            if z >= cells:
                continue  # never through an edge (as the prover's H-search)
            bx = one << np.uint64(x) if x < cells else np.uint64(0)
            through_cell = is_cell[z]
            zbit = one << np.uint64(z)
            for y in range(nn):
                if not linked[z, y] or y == x:
                    continue
                by = one << np.uint64(y) if y < cells else np.uint64(0)
                if by & c1:
                    continue
                zy = min(z, y) * nn + max(z, y)
                m = full_count[zy]
                for i in range(m):
                    snapshot[i] = full_rows[zy, i]
                for i in range(m):
                    t = snapshot[i]
                    c2 = carriers[t]
                    work += 1
                    if c1 & c2 or (bx | by) & c2:
                        continue
                    if entries >= cap - or_steps - 2:
                        break
                    xy = min(x, y) * nn + max(x, y)
                    if not through_cell:  # a full connection through a group
                        count = _room(full_rows[xy], full_count[xy], carriers, c1 | c2, most_full)
                        if count < 0:
                            continue
                        e = entries
                        entries += 1
                        kind[e], ends_a[e], ends_b[e] = KIND_AND, x, y
                        carriers[e], ref1[e], ref2[e], through[e] = c1 | c2, s, t, z
                        tail = _file_full(
                            full_rows, full_count, linked, queue, tail, xy, count, e, x, y
                        )
                        if xy == edges:
                            done = e
                            break
                        continue
                    # a semi connection through an empty cell
                    carrier = c1 | c2 | zbit
                    covered = False
                    for i2 in range(full_count[xy]):
                        if carriers[full_rows[xy, i2]] & ~carrier == 0:
                            covered = True
                    if covered:
                        continue
                    count = _room(semi_rows[xy], semi_count[xy], carriers, carrier, most_semi)
                    if count < 0:
                        continue
                    new = entries
                    entries += 1
                    kind[new], ends_a[new], ends_b[new] = KIND_AND, x, y
                    carriers[new], ref1[new], ref2[new], through[new] = carrier, s, t, z
                    semi_rows[xy, count] = new
                    semi_count[xy] = count + 1
                    if semi_ends and xy == edges:
                        done = new
                        break
                    # the OR rule: subsets of the pair's semi connections, the new one
                    # among them, whose carriers share no cell (depth first, bounded)
                    common = carrier
                    for i2 in range(semi_count[xy]):
                        common &= carriers[semi_rows[xy, i2]]
                    if common:
                        continue
                    n_others = 0
                    for i2 in range(semi_count[xy]):
                        if semi_rows[xy, i2] != new:
                            others[n_others] = semi_rows[xy, i2]
                            n_others += 1
                    top = 1
                    stack_start[0], stack_depth[0], stack_chosen[0, 0] = 0, 1, new
                    stack_inter[0], stack_union[0] = carrier, carrier
                    tried = 0
                    while top > 0 and tried < or_steps:
                        top -= 1
                        start, depth = stack_start[top], stack_depth[top]
                        inter, union = stack_inter[top], stack_union[top]
                        chosen = stack_chosen[top, :depth].copy()
                        for k in range(start, n_others):
                            tried += 1
                            index = others[k]
                            meet = inter & carriers[index]
                            if meet == inter:
                                continue
                            if meet == 0:
                                if entries >= cap or pooled + depth + 1 > pool.size:
                                    continue  # checked first: _room compacts the list
                                joined = union | carriers[index]
                                count = _room(
                                    full_rows[xy], full_count[xy], carriers, joined, most_full
                                )
                                if count < 0:
                                    continue
                                e = entries
                                entries += 1
                                kind[e], ends_a[e], ends_b[e] = KIND_OR, x, y
                                carriers[e], ref1[e], ref2[e] = joined, pooled, depth + 1
                                for j in range(depth):
                                    pool[pooled + j] = chosen[j]
                                pool[pooled + depth] = index
                                pooled += depth + 1
                                tail = _file_full(
                                    full_rows, full_count, linked, queue, tail, xy, count, e, x, y
                                )
                                if xy == edges:
                                    done = e
                            elif top < stack_start.size and depth < most_semi + 1:
                                stack_start[top], stack_depth[top] = k + 1, depth + 1
                                stack_chosen[top, :depth] = chosen
                                stack_chosen[top, depth] = index
                                stack_inter[top] = meet
                                stack_union[top] = union | carriers[index]
                                top += 1
                    if done >= 0:
                        break
                if done >= 0:
                    break
            if done >= 0:
                break
    edge_semis = semi_rows[edges].copy()
    return (
        done,
        kind,
        ends_a,
        ends_b,
        carriers,
        ref1,
        ref2,
        through,
        pool,
        edge_semis,
        int(semi_count[edges]),
    )
