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

The second form lets several things of ``Y`` touch ``S``. With its inside groups ``S``
makes a region ``D``; when every cell next to ``D`` lies on its outer boundary, ``D`` is a
disc (:mod:`boardlab.hex.prover.sides`) whose boundary, walked round, meets the things in
*stretches*. A chosen connection between two things of ``X`` each met in one stretch,
whose carrier touches no other stone of ``X`` outside ``D``, is a *chord*: every path of
``X`` holding it runs inside ``D`` from the one stretch to the other and cuts the disc in
two. If between every two stretches of different things of ``Y`` along the boundary lies
a stretch of one same component of chords, any path of ``Y`` inside ``D`` from one thing
of ``Y`` to another crosses a path of ``X`` in some chord (two cell paths of the
hexagonal grid cross only in a shared cell), which it cannot; so ``S`` is filled in this
form too.

Proof. With ``S`` filled the position can only be better for ``X`` (extra stones never
hurt). Conversely let ``X`` win with ``S`` filled. In the position as given ``X`` plays
that strategy outside ``S`` and answers each move of ``Y`` inside ``S`` inside the
carrier it broke (or anywhere, an extra stone); the connections' carriers are disjoint,
so each is answered on its own, and at the end all of ``X``'s things around ``S`` are
joined through ``S``. Take ``X``'s winning path of the filled board: each stretch of it
through ``S`` (and inside groups) runs from one thing of ``X`` to another, and those are
joined in the board as played, so ``X`` has a winning path there too. ``Y`` gets
nothing from ``S``: a ``Y`` path through ``S`` enters from a thing of ``Y`` and leaves to
a thing of ``Y`` (inside groups are reached only through ``S``), the same one (in the
second form another one would cross a chord), so the stretch can be cut out. Hex has no
draws, so the winners agree.

The fill stays right in a proof: a stone added outside ``S`` is not next to ``S`` (its
neighbours are all stones already), merges things at most, and leaves the carriers, so
``S`` stays captured when the empty cells outside a proof go to the loser (a chord still
lands on the stretches it landed on, and things of ``Y`` merged need no cut between them);
``S`` joins the proof. A dead cell stays dead after any stones are added, so regions found with the
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

from collections.abc import Iterator
from itertools import combinations, product

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.board import edge_lines, neighbours
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
    row_at,
    size,
    spread,
    within,
)
from boardlab.hex.hsearch import FULL_ROW, PENDING_ROW
from boardlab.hex.prover.sides import boundary_word, ring_index, ring_line, stretches

__all__ = ["MAX_THINGS", "vc_captured", "vc_captured_reference"]

Rows = npt.NDArray[np.uint64]

#: The most things of the captor around one region (more: the region is left alone).
MAX_THINGS = 8


@jit
def _things(
    nbr: Rows, region: Cells, empty: Cells, stones: Cells, lo: Cells, hi: Cells, base: int
) -> tuple[int, npt.NDArray[np.int64], Cells]:
    """The things of the owner of ``stones`` around ``region``: ``(count, ids, inside)``,
    each id a group's lowest cell (a group touching neither edge line with an empty
    neighbour outside the region), ``base`` for the line ``lo`` or ``base + 1`` for
    ``hi`` (a group on a line counts as the line); count -1 when a group touches both
    lines. ``inside`` gathers the other groups next to the region: every empty neighbour
    in it, no line touched."""
    ids = np.full(MAX_THINGS + 2, -1, np.int64)
    inside = nothing(region)
    count = 0
    on_lo = meets(region, lo)
    on_hi = meets(region, hi)
    rest = cut(spread(nbr, region), stones)
    while not is_empty(rest):
        group = flood(nbr, only(region, lowest(rest)), stones)
        rest = minus(rest, group)
        at_lo, at_hi = meets(group, lo), meets(group, hi)
        if at_lo and at_hi:
            return -1, ids, inside
        if at_lo:
            on_lo = True
        elif at_hi:
            on_hi = True
        elif within(cut(spread(nbr, group), empty), region):
            inside = join(inside, group)
        else:
            if count < MAX_THINGS:
                ids[count] = lowest(group)
            count += 1
    if count > MAX_THINGS:
        return MAX_THINGS + 3, ids, inside
    if on_lo:
        ids[count] = base
        count += 1
    if on_hi:
        ids[count] = base + 1
        count += 1
    return count, ids, inside


@jit
def _joined(
    table: Rows,
    region: Cells,
    ids: npt.NDArray[np.int64],
    count: int,
    chosen: npt.NDArray[np.int64],
) -> bool:
    """Do full connections of the table, carriers inside ``region`` and pairwise
    disjoint, join the ``count`` things ``ids``? Taken greedily, smallest carriers first
    (a sound answer, maybe a false no); the table rows taken go to ``chosen`` (``count
    - 1`` of them when the answer is yes)."""
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
        chosen[joins] = r
        joins += 1
        if joins == count - 1:
            return True
    return False


#: Labels on the boundary walk: the captor's things are their index in ``ids``; these
#: offsets mark its other stones, the opponent's groups and the opponent's lines.
_OTHER, _THEIR_GROUP, _THEIR_LINE = 1000, 3000, 5000
#: Lines 0 and 1 are the columns' edges, 2 and 3 the rows'; a board needs two cells a
#: side for its first row to tell them apart.
_SIDES = 2


@jit_borrow
def _code(
    nbr: Rows, stones: Cells, cell: int, lo: Cells, hi: Cells, line: int
) -> tuple[int, Cells]:
    """The group of ``stones`` on ``cell`` and its thing: ``(code, group)``, the code
    ``line`` or ``line + 1`` for a group on ``lo`` or ``hi``, else its lowest cell; -1
    when it touches both lines."""
    group = flood(nbr, only(stones, cell), stones)
    at_lo, at_hi = meets(group, lo), meets(group, hi)
    if at_lo and at_hi:
        return -1, group
    if at_lo:
        return line, group
    if at_hi:
        return line + 1, group
    return lowest(group), group


@jit_borrow
def _index(ids: npt.NDArray[np.int64], count: int, code: int) -> int:
    """Where ``code`` stands in ``ids[:count]`` (-1: nowhere)."""
    for i in range(count):
        if ids[i] == code:
            return i
    return -1


@jit_borrow
def _root_of(parent: npt.NDArray[np.int64], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x


@jit
def _separated(
    n: int,
    nbr: Rows,
    region: Cells,
    own: Cells,
    opp: Cells,
    inside_own: Cells,
    inside_opp: Cells,
    lines: tuple[Cells, Cells, Cells, Cells],
    ids: npt.NDArray[np.int64],
    count: int,
    table: Rows,
    chosen: npt.NDArray[np.int64],
) -> bool:
    """Do the chosen connections (``count - 1`` table rows joining the captor's things
    ``ids``) cut every two different things of the opponent apart inside the region?
    (the second form of the rule; see the module) ``inside_own`` and ``inside_opp`` are
    the two players' groups inside the region (:func:`_things`), ``lines`` the captor's
    two lines and the opponent's."""
    if n < _SIDES:
        return False
    lo, hi, olo, ohi = lines
    disc = join(region, join(inside_own, inside_opp))
    width = n + 2
    flag = np.zeros(width * width, np.bool_)
    label = np.full(width * width, -1, np.int64)
    own_columns = has(lo, 0) and has(lo, (n - 1) * n)
    for r in range(-1, n + 1):
        for c in range(-1, n + 1):
            k = ring_line(n, r, c)
            if k < 0:
                flag[ring_index(n, r, c)] = has(disc, r * n + c)
                continue
            if (k < _SIDES) == own_columns:
                at = _index(ids, count, n * n + k % 2)
                label[ring_index(n, r, c)] = at if at >= 0 else _OTHER + n * n + k % 2
            else:
                label[ring_index(n, r, c)] = _THEIR_LINE + k % 2
    rest = minus(spread(nbr, disc), disc)
    while not is_empty(rest):
        cell = lowest(rest)
        if has(own, cell):
            code, group = _code(nbr, own, cell, lo, hi, n * n)
            at = _index(ids, count, code)
            mark = at if at >= 0 else _OTHER + code
        elif has(opp, cell):
            code, group = _code(nbr, opp, cell, olo, ohi, n * n)
            mark = _THEIR_LINE + code - n * n if code >= n * n else _THEIR_GROUP + code
        else:
            return False  # an empty cell next to the disc: the region is no component
        if code < 0:
            return False
        for i in range(n * n):
            if has(group, i):
                label[ring_index(n, i // n, i % n)] = mark
        rest = minus(rest, group)
    word, length = boundary_word(n, flag, label)
    if length <= 0:
        return False
    runs, m = stretches(word, length)
    runs_of = np.zeros(count, np.int64)
    for i in range(m):
        if runs[i] < 0:
            return False
        if runs[i] < count:
            runs_of[runs[i]] += 1
    # the chosen connections between things met once, whose carriers touch no other
    # stone of the captor outside the disc, are chords of the disc
    parent = np.arange(count)
    for j in range(count - 1):
        nodes = np.int64(table[chosen[j], 0])
        ia = _index(ids, count, int(nodes >> 8 & 255))
        ib = _index(ids, count, int(nodes >> 16 & 255))
        if ia < 0 or ib < 0 or runs_of[ia] != 1 or runs_of[ib] != 1:
            continue
        carrier = row_at(table, chosen[j], 1, region)
        clean = True
        near = minus(cut(spread(nbr, carrier), own), inside_own)
        while clean and not is_empty(near):
            code_here, group = _code(nbr, own, lowest(near), lo, hi, n * n)
            if code_here != ids[ia] and code_here != ids[ib]:
                clean = False
            near = minus(near, group)
        if meets(carrier, lo) and n * n != ids[ia] and n * n != ids[ib]:
            clean = False
        if meets(carrier, hi) and n * n + 1 != ids[ia] and n * n + 1 != ids[ib]:
            clean = False
        if clean:
            parent[_root_of(parent, ia)] = _root_of(parent, ib)
    # between every two stretches of different opponent things, a stretch of one
    # component of chords (the same component each time)
    common = np.ones(count, np.bool_)
    theirs = np.empty(m, np.int64)
    t = 0
    for i in range(m):
        if runs[i] >= _THEIR_GROUP:
            theirs[t] = i
            t += 1
    for k in range(t):
        a, b = theirs[k], theirs[(k + 1) % t]
        if runs[a] == runs[b]:
            continue
        between = np.zeros(count, np.bool_)
        i = (a + 1) % m
        while i != b:
            if runs[i] < count and runs_of[runs[i]] == 1:
                between[_root_of(parent, runs[i])] = True
            i = (i + 1) % m
        for x in range(count):
            common[x] = common[x] and between[x]
    return bool(common.any())


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
    chosen = np.empty(MAX_THINGS + 2, np.int64)
    rest = empty
    while not is_empty(rest):
        region = flood(nbr, only(own, lowest(rest)), empty)
        rest = minus(rest, region)
        theirs, _, inside_opp = _things(nbr, region, empty, opp, olo, ohi, 0)
        if theirs < 0 or theirs > MAX_THINGS + 2:
            continue
        mine, ids, inside_own = _things(nbr, region, empty, own, lo, hi, n * n)
        if mine < 0 or mine > MAX_THINGS + 2:
            continue
        if mine > 1 and not _joined(table, region, ids, mine, chosen):
            continue
        if theirs <= 1 or _separated(
            n,
            nbr,
            region,
            own,
            opp,
            inside_own,
            inside_opp,
            (lo, hi, olo, ohi),
            ids,
            mine,
            table,
            chosen,
        ):
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
    group's lowest cell, ``n*n`` and ``n*n + 1`` the owner's lines) and, where several
    things of the opponent touch a region, every way the owner could hold the chosen
    connections (each inclusion-minimal set of carrier cells joining its two things)
    tried against every path of the opponent through the rest: slow and plainly right,
    for the tests."""
    around = neighbours(n)
    lines = edge_lines(n)
    mask = (1 << n * n) - 1
    empty = mask & ~own & ~opp

    def flood(start: int, allowed: int) -> int:
        seen = {c for c in range(n * n) if start >> c & 1}
        todo = list(seen)
        while todo:
            c = todo.pop()
            for d in around[c]:
                if allowed >> d & 1 and d not in seen:
                    seen.add(d)
                    todo.append(d)
        return sum(1 << c for c in seen)

    def next_to(cells: int) -> int:
        near = {d for c in range(n * n) if cells >> c & 1 for d in around[c]}
        return sum(1 << d for d in near)

    def line_cells(k: int) -> int:
        return sum(1 << c for c in lines[k])

    def things(region: int, stones: int, lo: int, hi: int) -> tuple[dict[int, int], int] | None:
        """The things of ``stones`` around ``region``, each with the region's cells next to
        it (lines ``n*n`` and ``n*n + 1``), and the inside groups' cells; None when a
        group touches both lines."""
        touch: dict[int, int] = {}
        inside = 0
        if region & lo:
            touch[n * n] = region & lo
        if region & hi:
            touch[n * n + 1] = region & hi
        near = next_to(region) & stones
        for d in range(n * n):
            if not near >> d & 1:
                continue
            group = flood(1 << d, stones)
            key = min(c for c in range(n * n) if group >> c & 1)
            if group & lo and group & hi:
                return None
            if group & lo:
                key = n * n
            elif group & hi:
                key = n * n + 1
            elif not next_to(group) & empty & ~region:
                inside |= group
                continue
            touch[key] = touch.get(key, 0) | (next_to(group) & region)
        return touch, inside

    def joins(cells: int, a: int, b: int, lo: int, hi: int) -> bool:
        """Are things ``a`` and ``b`` joined through ``cells`` and the owner's stones?"""
        stones = cells | own
        start = (1 << a) if a < n * n else stones & (lo if a == n * n else hi)
        reach = flood(start, stones)
        return bool(reach >> b & 1) if b < n * n else bool(reach & (lo if b == n * n else hi))

    def holds(a: int, b: int, carrier: int, lo: int, hi: int) -> list[int]:
        """Every inclusion-minimal set of ``carrier`` cells joining ``a`` and ``b``."""
        cells = [c for c in range(n * n) if carrier >> c & 1]
        found: list[int] = []
        for many in range(len(cells) + 1):
            for subset in combinations(cells, many):
                part = sum(1 << c for c in subset)
                if any(f & part == f for f in found):
                    continue
                if joins(part, a, b, lo, hi):
                    found.append(part)
        return found

    def cut_apart(
        region: int, chosen: tuple[tuple[int, int, int], ...], theirs: dict[int, int], inside: int
    ) -> bool:
        """However the owner holds the ``chosen`` connections, does no path of the
        opponent through the rest of ``region`` (and its inside groups) join two of its
        things?"""
        for taken in product(*(holds(a, b, c, lo, hi) for a, b, c in chosen)):
            held = 0
            for cells in taken:
                held |= cells
            usable = (region & ~held) | inside
            for first, second in combinations(theirs.values(), 2):
                if flood(first & usable, usable) & second & usable:
                    return False
        return True

    lo, hi = (line_cells(k) for k in own_lines)
    olo, ohi = (line_cells(k) for k in opp_lines)
    result = 0
    rest = empty
    while rest:
        start = rest & -rest
        region = flood(start, empty)
        rest &= ~region
        theirs = things(region, opp, olo, ohi)
        mine = things(region, own, lo, hi)
        if theirs is None or mine is None:
            continue
        if any(
            len(theirs[0]) <= 1 or cut_apart(region, chosen, theirs[0], theirs[1])
            for chosen in _trees(set(mine[0]), region, connections)
        ):
            result |= region
    return result


def _trees(
    things: set[int], region: int, connections: list[tuple[int, int, int]]
) -> Iterator[tuple[tuple[int, int, int], ...]]:
    """Every set of ``connections``, carriers inside ``region`` and pairwise disjoint,
    that joins all of ``things`` (every subset of the right size tried)."""
    usable = [
        (a, b, c) for a, b, c in connections if a in things and b in things and not c & ~region
    ]
    for chosen in combinations(usable, max(len(things) - 1, 0)):
        carriers = [c for _, _, c in chosen]
        if any(x & y for x, y in combinations(carriers, 2)):
            continue
        parent = {t: t for t in things}
        for a, b, _ in chosen:
            parent[_root(parent, a)] = _root(parent, b)
        if len({_root(parent, t) for t in things}) <= 1:
            yield chosen


def _root(parent: dict[int, int], x: int) -> int:
    while parent[x] != x:
        x = parent[x]
    return x
