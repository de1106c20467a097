"""Prover layer: regions of any size captured through a virtual connection (numba).

The rule (connection-based fill-in). Let ``S`` be a connected set of empty cells that
is a whole component of the empty cells: every neighbour of ``S`` outside it is a stone
or an edge. Call a group of ``S``'s neighbours *inside* when all its empty neighbours
are in ``S`` and it touches none of its own player's edges; the other groups and the
edges next to ``S`` are the *things* around ``S`` (a group touching its own edge counts
as that edge). If, for a player ``X`` and its opponent ``Y``,

- at most one thing of ``Y`` touches ``S``, and
- ``X``'s things touching ``S`` are joined by full virtual connections of ``X`` (a
  spanning tree of them, with pairwise disjoint carriers, every carrier inside ``S``),

then the position has the same winner, whoever is to move, with ``S`` filled by ``X``.

Proof. With ``S`` filled the position can only be better for ``X`` (extra stones never
hurt). Conversely let ``X`` win with ``S`` filled. In the position as given ``X`` plays
that strategy outside ``S`` and answers each move of ``Y`` inside ``S`` inside the
carrier it broke (or anywhere, an extra stone); the connections' carriers are disjoint,
so each is answered on its own, and at the end all of ``X``'s things around ``S`` are
joined through ``S``. Take ``X``'s winning path of the filled board: each stretch of it
through ``S`` (and inside groups) runs from one thing of ``X`` to another, and those are
joined in the board as played, so ``X`` has a winning path there too. ``Y`` gets
nothing from ``S``: a ``Y`` path through ``S`` enters from a thing of ``Y`` and leaves to
a thing of ``Y`` (inside groups are reached only through ``S``), the same one, so the
stretch can be cut out. Hex has no draws, so the winners agree.

The fill stays right in a proof: a stone added outside ``S`` is not next to ``S`` (its
neighbours are all stones already), merges things at most, and leaves the carriers, so
``S`` stays captured when the empty cells outside a proof go to the loser; ``S`` joins
the proof. A dead cell stays dead after any stones are added, so regions found with the
dead cells given to ``X`` (``X``'s search) and to ``Y`` (``Y``'s) can be filled
together: they are distinct components of the empty, non-dead cells.

A carrier cell on the outer side of ``S`` (next to an empty cell outside it) would break
the rule: ``Y`` taking it there can use it outside. Taking ``S`` as a whole component
of the empty cells rules that out.

:func:`vc_captured` finds the regions for one player from its H-search table
(:func:`boardlab.hex.hsearch.hsearch` with ``keep``); :func:`vc_captured_reference` is
the slow, obviously right version over Python ints the tests compare it with.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.board import edge_lines, neighbours
from boardlab.hex.cellsets import (
    Cells,
    cut,
    every,
    flood,
    is_empty,
    join,
    lowest,
    meets,
    minus,
    nothing,
    only,
    row_at,
    size,
    spread,
    within,
)
from boardlab.hex.hsearch import FULL_ROW, PENDING_ROW

__all__ = ["MAX_THINGS", "vc_captured", "vc_captured_reference"]

Rows = npt.NDArray[np.uint64]

#: The most things of the captor around one region (more: the region is left alone).
MAX_THINGS = 8


@jit
def _things(
    nbr: Rows, region: Cells, empty: Cells, stones: Cells, lo: Cells, hi: Cells, base: int
) -> tuple[int, npt.NDArray[np.int64]]:
    """The things of the owner of ``stones`` around ``region``: ``(count, ids)``, each id
    a group's lowest cell (a non-inside group touching neither edge line), ``base`` for
    the line ``lo`` or ``base + 1`` for ``hi`` (a group on a line counts as the line);
    count -1 when a group touches both lines."""
    ids = np.full(MAX_THINGS + 2, -1, np.int64)
    count = 0
    on_lo = meets(region, lo)
    on_hi = meets(region, hi)
    rest = cut(spread(nbr, region), stones)
    while not is_empty(rest):
        group = flood(nbr, only(region, lowest(rest)), stones)
        rest = minus(rest, group)
        at_lo, at_hi = meets(group, lo), meets(group, hi)
        if at_lo and at_hi:
            return -1, ids
        if at_lo:
            on_lo = True
        elif at_hi:
            on_hi = True
        elif not within(cut(spread(nbr, group), empty), region):
            if count < MAX_THINGS:
                ids[count] = lowest(group)
            count += 1
    if count > MAX_THINGS:
        return MAX_THINGS + 3, ids
    if on_lo:
        ids[count] = base
        count += 1
    if on_hi:
        ids[count] = base + 1
        count += 1
    return count, ids


@jit
def _joined(table: Rows, region: Cells, ids: npt.NDArray[np.int64], count: int) -> bool:
    """Do full connections of the table, carriers inside ``region`` and pairwise
    disjoint, join the ``count`` things ``ids``? Taken greedily, smallest carriers first
    (a sound answer, maybe a false no)."""
    rows = np.empty(table.shape[0], np.int64)
    sizes = np.empty(table.shape[0], np.int64)
    found = 0
    for r in range(1, table.shape[0]):
        code = np.int64(table[r, 0])
        kind = int(code & 255)
        if kind != FULL_ROW and kind != PENDING_ROW:
            continue
        a, b = int(code >> 8 & 255), int(code >> 16 & 255)
        ia = ib = -1
        for i in range(count):
            if ids[i] == a:
                ia = i
            if ids[i] == b:
                ib = i
        if ia < 0 or ib < 0:
            continue
        carrier = row_at(table, r, 1, region)
        if within(carrier, region):
            rows[found] = r
            sizes[found] = size(carrier)
            found += 1
    order = np.argsort(sizes[:found], kind="mergesort")
    comp = np.arange(count)
    used = nothing(region)
    joins = 0
    for k in range(found):
        r = rows[order[k]]
        carrier = row_at(table, r, 1, region)
        if meets(carrier, used):
            continue
        code = np.int64(table[r, 0])
        a, b = int(code >> 8 & 255), int(code >> 16 & 255)
        ia = ib = 0
        for i in range(count):
            if ids[i] == a:
                ia = i
            if ids[i] == b:
                ib = i
        if comp[ia] == comp[ib]:
            continue
        old, new = comp[ib], comp[ia]
        for i in range(count):
            if comp[i] == old:
                comp[i] = new
        used = join(used, carrier)
        joins += 1
        if joins == count - 1:
            return True
    return False


@jit
def vc_captured(
    n: int,
    nbr: Rows,
    own: Cells,
    opp: Cells,
    lo: Cells,
    hi: Cells,
    olo: Cells,
    ohi: Cells,
    table: Rows,
) -> Cells:
    """The empty cells of the regions the owner of ``own`` captures through its full
    connections (see the module), ``table`` its H-search table on these very stones
    (:func:`boardlab.hex.hsearch.hsearch` with ``keep``: the owner's lines ``lo`` and
    ``hi`` are its nodes ``n*n`` and ``n*n + 1``); ``olo`` and ``ohi`` are the opponent's
    lines. Nothing when the table's first row is not ``own`` and ``opp``."""
    found = nothing(own)
    width = len(own)
    if table.shape[0] == 0:
        return found
    if row_at(table, 0, 0, own) != own or row_at(table, 0, width, own) != opp:
        return found
    empty = minus(every(own, n * n), join(own, opp))
    rest = empty
    while not is_empty(rest):
        region = flood(nbr, only(own, lowest(rest)), empty)
        rest = minus(rest, region)
        theirs, _ = _things(nbr, region, empty, opp, olo, ohi, 0)
        if theirs < 0 or theirs > 1:
            continue
        mine, ids = _things(nbr, region, empty, own, lo, hi, n * n)
        if mine < 0 or mine > MAX_THINGS + 2:
            continue
        if mine <= 1 or _joined(table, region, ids, mine):
            found = join(found, region)
    return found


def vc_captured_reference(
    n: int,
    own: int,
    opp: int,
    own_lines: tuple[int, int],
    opp_lines: tuple[int, int],
    connections: list[tuple[int, int, int]],
) -> int:
    """:func:`vc_captured` in plain Python over ints, the spanning tree searched over
    every subset of the connections ``(a, b, carrier)`` (nodes as in the table: a
    group's lowest cell, ``n*n`` and ``n*n + 1`` the owner's lines): slow and plainly
    right, for the tests."""
    around = neighbours(n)
    lines = edge_lines(n)
    mask = (1 << n * n) - 1
    empty = mask & ~own & ~opp

    def flood(start: int, allowed: int) -> int:
        seen, todo = {start}, [start]
        while todo:
            c = todo.pop()
            for d in around[c]:
                if allowed >> d & 1 and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return sum(1 << c for c in seen)

    def line_cells(k: int) -> int:
        return sum(1 << c for c in lines[k])

    def things(region: int, stones: int, lo: int, hi: int, base: int) -> set[int] | None:
        cells = [c for c in range(n * n) if region >> c & 1]
        near = {d for c in cells for d in around[c] if stones >> d & 1}
        found: set[int] = set()
        if region & lo:
            found.add(base)
        if region & hi:
            found.add(base + 1)
        for d in near:
            group = flood(d, stones)
            if group & lo and group & hi:
                return None
            if group & lo:
                found.add(base)
            elif group & hi:
                found.add(base + 1)
            else:
                libs = {e for c in range(n * n) if group >> c & 1 for e in around[c]}
                if any(empty >> e & 1 and not region >> e & 1 for e in libs):
                    found.add(min(c for c in range(n * n) if group >> c & 1))
        return found

    lo, hi = (line_cells(k) for k in own_lines)
    olo, ohi = (line_cells(k) for k in opp_lines)
    result = 0
    rest = empty
    while rest:
        start = (rest & -rest).bit_length() - 1
        region = flood(start, empty)
        rest &= ~region
        theirs = things(region, opp, olo, ohi, 0)
        mine = things(region, own, lo, hi, n * n)
        if theirs is None or mine is None or len(theirs) > 1:
            continue
        if len(mine) <= 1 or _tree(mine, region, connections):
            result |= region
    return result


def _tree(things: set[int], region: int, connections: list[tuple[int, int, int]]) -> bool:
    """Does some set of ``connections``, carriers inside ``region`` and pairwise
    disjoint, join all of ``things``? (every subset of the right size tried)"""
    usable = [
        (a, b, c) for a, b, c in connections if a in things and b in things and not c & ~region
    ]
    for chosen in combinations(usable, len(things) - 1):
        carriers = [c for _, _, c in chosen]
        if any(x & y for x, y in combinations(carriers, 2)):
            continue
        parent = {t: t for t in things}
        for a, b, _ in chosen:
            parent[_root(parent, a)] = _root(parent, b)
        if len({_root(parent, t) for t in things}) == 1:
            return True
    return False


def _root(parent: dict[int, int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x
