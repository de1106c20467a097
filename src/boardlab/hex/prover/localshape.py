"""Prover layer: the local games of a board's candidate regions, built at once (numba).

:func:`local_shapes` is the compiled form of :func:`boardlab.hex.prover.regions._local_game`
for every candidate region of one board: the board's groups (the same ids: a group is
named by the root of the same union-find, so every sorted order, and with it every bit,
is the plain builder's), then, per region, its nodes (its cells, then the groups whose
every liberty lies in it), their links and the bits of what each touches. A region whose
masks would not fit a word is marked and left to the plain builder. The plain builder is
the reference the tests compare with, region for region.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow

__all__ = ["MAX_NODES", "local_shapes", "shape_tables"]

I64 = npt.NDArray[np.int64]
I8 = npt.NDArray[np.int8]
B1 = npt.NDArray[np.bool_]

#: The most nodes (and bits of a mask) of a local game built here: masks stay below bit 62.
MAX_NODES = 62
_EMPTY = 0
#: Each edge line's owner: player 1's two column lines, then player 2's two row lines.
_OWNER = (1, 1, 2, 2)
#: Things one cell can touch: six neighbours and two edge lines.
_TOUCH = 8


@lru_cache(maxsize=16)
def shape_tables(n: int) -> tuple[I64, I64, I64, I64]:
    """``(around, degree, lines, edge_of)`` for :func:`local_shapes`: each cell's
    neighbours in :func:`boardlab.hex.board.neighbours` order (padded with -1), how many,
    the four edge lines' cells in :func:`boardlab.hex.board.edge_lines` order, and per
    cell the lines it lies on (bit ``k`` for line ``k``)."""
    from boardlab.hex.board import edge_lines, neighbours

    cells = n * n
    around = np.full((cells, 6), -1, np.int64)
    degree = np.zeros(cells, np.int64)
    for c, near in enumerate(neighbours(n)):
        around[c, : len(near)] = near
        degree[c] = len(near)
    lines = np.array(edge_lines(n), np.int64).reshape(4, n)
    edge_of = np.zeros(cells, np.int64)
    for k in range(4):
        for c in lines[k]:
            edge_of[c] |= 1 << k
    return around, degree, lines, edge_of


@jit_borrow
def _find(parent: I64, x: int) -> int:
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


@jit
def _groups(n: int, around: I64, degree: I64, lines: I64, board: I8) -> I64:
    """Each cell's and edge line's group root (the plain builder's union-find)."""
    size = n * n
    parent = np.arange(size + 4)
    for k in range(4):
        for i in range(n):
            c = lines[k, i]
            if board[c] == _OWNER[k]:
                parent[_find(parent, c)] = _find(parent, size + k)
    for c in range(size):
        if board[c] != _EMPTY:
            for j in range(degree[c]):
                d = around[c, j]
                if board[d] == board[c]:
                    parent[_find(parent, c)] = _find(parent, d)
    group = np.empty(size + 4, np.int64)
    for x in range(size + 4):
        group[x] = _find(parent, x)
    return group


@jit_borrow
def _outside(
    g: int, r: int, is_edge: B1, lib_start: I64, fill: I64, libs: I64, in_region: I64
) -> bool:
    """Is group ``g`` an edge's, or has it a liberty outside region ``r``?"""
    if is_edge[g]:
        return True
    for q in range(lib_start[g], fill[g]):  # noqa: SIM110 (numba: no generator in any)
        if in_region[libs[q]] != r:
            return True
    return False


@jit_borrow
def _things(
    c: int,
    colour: int,
    around: I64,
    degree: I64,
    edge_of: I64,
    board: I8,
    group: I64,
    outside: B1,
    size: int,
    out: I64,
) -> int:
    """The groups of ``colour`` outside the region next to cell ``c`` and the edge lines
    of ``colour`` it lies on, each once, into ``out``; how many."""
    k = 0
    for j in range(degree[c]):
        d = around[c, j]
        if board[d] == colour and outside[group[d]]:
            k = _append_new(out, k, group[d])
    for line in range(4):
        if edge_of[c] >> line & 1 and _OWNER[line] == colour:
            k = _append_new(out, k, group[size + line])
    return k


@jit_borrow
def _append_new(out: I64, k: int, g: int) -> int:
    """``g`` appended to the ``k`` entries of ``out`` unless among them; the new count."""
    for i in range(k):
        if out[i] == g:
            return k
    out[k] = g
    return k + 1


@jit_borrow
def _gather(
    cells: I64,
    k: int,
    more: I64,
    q: int,
    colour: int,
    around: I64,
    degree: I64,
    edge_of: I64,
    board: I8,
    group: I64,
    outside: B1,
    size: int,
    buf: I64,
    tag: I64,
    r: int,
    found: I64,
) -> int:
    """The things of ``colour`` (see :func:`_things`) next to the first ``k`` of
    ``cells`` and the first ``q`` of ``more``, each once (``tag`` marks those of region
    ``r``), into ``found``; how many."""
    t = 0
    for i in range(k + q):
        c = cells[i] if i < k else more[i - k]
        got = _things(c, colour, around, degree, edge_of, board, group, outside, size, buf)
        for z in range(got):
            if tag[buf[z]] != r:
                tag[buf[z]] = r
                found[t] = buf[z]
                t += 1
    return t


@jit
def local_shapes(
    n: int,
    around: I64,
    degree: I64,
    lines: I64,
    edge_of: I64,
    board: I8,
    player: int,
    regions: I64,
    lengths: I64,
) -> tuple[B1, I64, I64, I64, I64, I64, I64]:
    """The local games of the regions of ``board`` (0 empty, 1 and 2 stones) for
    ``player``: region ``r`` is ``regions[r, :lengths[r]]`` (its cells, ascending).

    Returns ``(fits, nodes, inside, needed, links, own, rival)``: per region whether its
    game fits a word (else the rest of its row means nothing), its node count, the nodes
    of each colour's inside groups (``inside[r, 0]`` black's, ``[r, 1]`` white's), the
    bits one of the player's groups must touch, and per node its links and the bits of
    the player's and the opponent's things it touches (rows of :data:`MAX_NODES`)."""
    size = n * n
    count = regions.shape[0]
    rival = 3 - player
    group = _groups(n, around, degree, lines, board)
    is_edge = np.zeros(size + 4, np.bool_)
    for k in range(4):
        is_edge[group[size + k]] = True
    # every stone group's liberties, by root (a cell may be listed more than once)
    lib_start = np.zeros(size + 5, np.int64)
    for c in range(size):
        if board[c] != _EMPTY:
            lib_start[group[c] + 1] += degree[c]
    for x in range(size + 4):
        lib_start[x + 1] += lib_start[x]
    libs = np.full(lib_start[size + 4], -1, np.int64)
    fill = lib_start.copy()
    for c in range(size):
        if board[c] != _EMPTY:
            g = group[c]
            for j in range(degree[c]):
                d = around[c, j]
                if board[d] == _EMPTY:
                    libs[fill[g]] = d
                    fill[g] += 1
    fits = np.zeros(count, np.bool_)
    nodes = np.zeros(count, np.int64)
    inside = np.zeros((count, 2), np.int64)
    needed = np.zeros(count, np.int64)
    links = np.zeros((count, MAX_NODES), np.int64)
    own = np.zeros((count, MAX_NODES), np.int64)
    opp = np.zeros((count, MAX_NODES), np.int64)
    # per-region tags: an entry counts for region r only where its tag is r
    in_region = np.full(size, -1, np.int64)
    outside = np.zeros(size + 4, np.bool_)
    index = np.zeros(size + 4, np.int64)
    index_tag = np.full(size + 4, -1, np.int64)
    own_bit = np.zeros(size + 4, np.int64)
    rival_bit = np.zeros(size + 4, np.int64)
    inner_tag = np.full(size + 4, -1, np.int64)
    exit_tag = np.full(size, -1, np.int64)
    own_tag = np.full(size + 4, -1, np.int64)
    rival_tag = np.full(size + 4, -1, np.int64)
    buf = np.empty(_TOUCH, np.int64)
    exit_rival = np.zeros(size, np.int64)  # per exit of the region: the rival bits it stands for
    found = np.empty(size + 4, np.int64)
    exits = np.empty(size, np.int64)
    for r in range(count):
        k = lengths[r]
        for i in range(k):
            in_region[regions[r, i]] = r
        # which groups next to the region or its exits are outside it
        for i in range(k):
            c = regions[r, i]
            for j in range(degree[c]):
                d = around[c, j]
                if board[d] != _EMPTY:
                    outside[group[d]] = _outside(
                        group[d], r, is_edge, lib_start, fill, libs, in_region
                    )
                elif in_region[d] != r:
                    for jj in range(degree[d]):
                        e = around[d, jj]
                        if board[e] != _EMPTY:
                            outside[group[e]] = _outside(
                                group[e], r, is_edge, lib_start, fill, libs, in_region
                            )
        # the inside groups, in order: the region's nodes after its cells
        m = 0
        for i in range(k):
            c = regions[r, i]
            for j in range(degree[c]):
                d = around[c, j]
                if board[d] != _EMPTY and not outside[group[d]] and inner_tag[group[d]] != r:
                    inner_tag[group[d]] = r
                    found[m] = group[d]
                    m += 1
        inner = np.sort(found[:m])
        total = k + m
        if total > MAX_NODES:
            continue
        for i in range(k):
            index[regions[r, i]] = i
            index_tag[regions[r, i]] = r
        for i in range(m):
            index[inner[i]] = k + i
            index_tag[inner[i]] = r
        # the exits, ascending
        q = 0
        for i in range(k):
            c = regions[r, i]
            for j in range(degree[c]):
                d = around[c, j]
                if board[d] == _EMPTY and in_region[d] != r and exit_tag[d] != r:
                    exit_tag[d] = r
                    exits[q] = d
                    q += 1
        ex = np.sort(exits[:q])
        # the player's things, then the exits next to none of them
        t = _gather(
            regions[r], k, ex, 0, player, around, degree, edge_of, board, group, outside,
            size, buf, own_tag, r, found,
        )  # fmt: skip
        own_things = np.sort(found[:t])
        for i in range(t):
            own_bit[own_things[i]] = 1 << i
        bits = t
        for i in range(q):
            e = ex[i]
            own_bit[e] = 0
            got = _things(e, player, around, degree, edge_of, board, group, outside, size, buf)
            near_own = False
            for z in range(got):
                if own_tag[buf[z]] == r:
                    near_own = True
            if not near_own and bits < MAX_NODES:
                own_bit[e] = 1 << bits
            bits += 0 if near_own else 1
        if bits > MAX_NODES:
            continue
        needed[r] = (1 << bits) - 1
        # the opponent's things next to the region or an exit, then the bare exits
        t = _gather(
            regions[r], k, ex, q, rival, around, degree, edge_of, board, group, outside,
            size, buf, rival_tag, r, found,
        )  # fmt: skip
        rival_things = np.sort(found[:t])
        for i in range(t):
            rival_bit[rival_things[i]] = 1 << i
        bits = t
        for i in range(q):
            e = ex[i]
            rival_bit[e] = 0
            got = _things(e, rival, around, degree, edge_of, board, group, outside, size, buf)
            if got == 0:  # a bare exit: a bit of its own
                if bits < MAX_NODES:
                    rival_bit[e] = 1 << bits
                bits += 1
            exit_rival[e] = rival_bit[e]  # else the opponent's things it joins
            for z in range(got):
                exit_rival[e] |= rival_bit[buf[z]]
        if bits > MAX_NODES:
            continue
        # each node's links and touches
        for v in range(total):
            linked = 0
            mine = 0
            theirs = 0
            if v >= k:
                inside[r, 0 if board[inner[v - k]] == 1 else 1] |= 1 << v
            # a region node is its cell; an inside group's node, the group's cells
            first, last = (regions[r, v], regions[r, v] + 1) if v < k else (0, size)
            for c in range(first, last):
                if v >= k and (board[c] == _EMPTY or group[c] != inner[v - k]):
                    continue
                for j in range(degree[c]):
                    d = around[c, j]
                    if in_region[d] == r:
                        linked |= 1 << index[d]
                    elif board[d] != _EMPTY and index_tag[group[d]] == r:
                        linked |= 1 << index[group[d]]
                if v < k:
                    got = _things(
                        c, player, around, degree, edge_of, board, group, outside, size, buf
                    )
                    for z in range(got):
                        mine |= own_bit[buf[z]]
                    got = _things(
                        c, rival, around, degree, edge_of, board, group, outside, size, buf
                    )
                    for z in range(got):
                        theirs |= rival_bit[buf[z]]
                    for j in range(degree[c]):
                        d = around[c, j]
                        if board[d] == _EMPTY and in_region[d] != r:
                            mine |= own_bit[d]
                            theirs |= exit_rival[d]
            links[r, v] = linked & ~(1 << v)
            own[r, v] = mine
            opp[r, v] = theirs
        nodes[r] = total
        fits[r] = True
    return fits, nodes, inside, needed, links, own, opp
