"""Prover layer: fill-in of small regions whose local game settles them, mixed colours too (numba).

**The rule.** Take a region ``R`` of two or three empty cells next to each other and a
filling ``F`` of it (each cell black or white). For a player ``P``, the *links* of a
filling are what its cells of ``P``'s colour join around ``R``: the region's *nodes*
are ``P``'s groups next to it, ``P``'s two edges and the empty cells next to it, and a
group of touching ``P`` cells in ``R`` links every pair of nodes it touches. A filling
``X`` *serves* ``P`` at least as well as ``F`` when every pair of nodes that one group
of ``F``'s ``P`` cells links is joined in ``X`` too: by one group of ``X``'s ``P`` cells,
by touching outside ``R`` (an empty node next to the other node), or through a chain of
such steps whose inner nodes are stones or edges (never an empty cell, whose colour is
not known).

If each player, answering every move the other makes inside ``R`` with a move inside
``R``, can end with a filling that serves it at least as well as ``F``, then ``F`` can
be filled in without changing the winner, whoever is to move. The player who wins with
``F`` filled plays that game's winning strategy outside ``R`` and answers inside it: a
winning path of that game crosses ``R`` in runs, each entering at one node and leaving at
another that one group of ``F``'s cells links, and the final filling joins the same two
nodes (through its own cells, a cell outside ``R`` the path holds anyway, or stones),
so the path survives; a move the strategy does not need inside ``R`` only adds a stone
of its own. With ``F`` all of one colour this is the captured set of Henderson and
Hayward; with mixed colours it is their *mutual fill-in*. MoHex 2.0 finds such fills
from a file of patterns; here each candidate region's local game is settled directly,
so no pattern list is needed: the opponent moving first takes every cell but one at
worst, and more cells of one's own only join more, so each cell of a pair, or two cells
of three, held alone must serve the player at least as well (the tests hold this
shortcut to the local game played out move by move).

On MoHex's 11x11 puzzle ``11x11-henderson-03`` black fills c9 while white fills d9 and
e9 (the one filling the regions of three cells find there): white taking c9 is answered
at d9, which joins black's c10 group to d8 as c9 would; black taking c9, d9 or e9 is
answered in the pair's other cell, and black's stone then joins nothing new.

Only regions whose every cell has at most :data:`MOST_OPEN` empty neighbours outside the
region, :data:`MOST_AROUND` in all, are tried (on an open board the rule seldom holds
and the tries cost).
:func:`fill_local_games` fills one region at a time, each found on the board the earlier
ones left, until none is left; ``.py_func`` is its plain-Python twin, which the tests
hold to minimax on small boards.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.cellsets import (
    Cells,
    cut,
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
    row,
    size,
    spread,
)

__all__ = ["MOST_OPEN", "MOST_REGION", "fill_local_games", "settles"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

#: The most cells a region has.
MOST_REGION = 3
#: The most empty neighbours outside the region a region cell may have.
MOST_OPEN = 2
#: A region of two cells.
_PAIR = 2
#: The most empty cells next to a region.
MOST_AROUND = 4
#: Nodes around a region: two edges, at most six groups a cell, MOST_OPEN empty cells a cell.
MOST_NODES = 2 + 6 * MOST_REGION + MOST_OPEN * MOST_REGION


@jit_borrow
def _bits(mask: int, i: int) -> bool:
    return (mask >> i) & 1 == 1


@jit_borrow
def _nodes(
    nbr: Rows,
    own: Cells,
    opp: Cells,
    low: Cells,
    high: Cells,
    cells: I64,
    k: int,
    region: Cells,
    touch: Rows,
    adjacent: I64,
    base: I64,
    spot: I64,
) -> tuple[int, int]:
    """The owner's nodes around ``region`` (its cells ``cells[:k]``): ``(count,
    stones)``, ``stones`` the mask of the stone and edge nodes, or ``(-1, 0)`` when an
    owner's group already joins both edges. Fills ``adjacent[i]`` (the nodes cell ``i``
    of the region touches) and ``base[u]`` (the nodes ``u`` touches outside the region);
    ``touch`` (rows of cells next to each node) and ``spot`` (an empty node's cell) are
    scratch space."""
    put_row(touch, 0, low)  # node 0: the owner's first edge, its line's cells touch it
    put_row(touch, 1, high)
    count = 2
    around = minus(spread(nbr, region), region)
    rest = cut(around, own)
    while not is_empty(rest):
        d = lowest(rest)
        group = flood(nbr, only(own, d), own)
        rest = minus(rest, group)
        near = spread(nbr, group)
        on_low, on_high = meets(group, low), meets(group, high)
        if on_low and on_high:
            return -1, 0
        if on_low:
            put_row(touch, 0, join(row(touch, 0, own), near))
        elif on_high:
            put_row(touch, 1, join(row(touch, 1, own), near))
        else:
            put_row(touch, count, near)
            count += 1
    stones = (1 << count) - 1
    first_empty = count
    empty = minus(around, join(own, opp))
    while not is_empty(empty):
        e = lowest(empty)
        empty = minus(empty, only(own, e))
        put_row(touch, count, row(nbr, e, own))
        spot[count] = e
        count += 1
    for u in range(count):
        base[u] = 0
    for u in range(first_empty, count):
        e = spot[u]
        for v in range(count):
            if v != u and has(row(touch, v, own), e):
                base[u] |= 1 << v
                base[v] |= 1 << u
    for i in range(k):
        mask = 0
        for u in range(count):
            if has(row(touch, u, own), cells[i]):
                mask |= 1 << u
        adjacent[i] = mask
    return count, stones


@jit_borrow
def _component(mask: int, start: int, inner: I64, k: int) -> int:
    """The cells of ``mask`` (region indices) joined to ``start`` through ``mask``."""
    comp = 1 << start
    while True:
        grown = comp
        for i in range(k):
            if _bits(comp, i):
                grown |= inner[i] & mask
        if grown == comp:
            return comp
        comp = grown


@jit_borrow
def _joined(i: int, adjacent: I64, base: I64, count: int, stones: int, rel: I64) -> None:
    """``rel[u]``: the nodes joined to node ``u`` when the owner holds region cell ``i``
    alone (see the module): touching outside the region, through the cell, and chains of
    these through stones and edges."""
    touched = adjacent[i]
    for u in range(count):
        rel[u] = base[u] | (1 << u)
        if _bits(touched, u):
            rel[u] |= touched
    for s in range(count):
        if _bits(stones, s):
            for u in range(count):
                if _bits(rel[u], s):
                    rel[u] |= rel[s]


@jit_borrow
def _served(f: int, k: int, inner: I64, adjacent: I64, count: int, rel: I64) -> bool:
    """Whether every pair of nodes one group of the owner's cells ``f`` links is joined
    in ``rel`` (from :func:`_joined`)."""
    rest = f
    while rest:
        i = 0
        while not _bits(rest, i):
            i += 1
        comp = _component(f, i, inner, k)
        rest &= ~comp
        touched = 0
        for j in range(k):
            if _bits(comp, j):
                touched |= adjacent[j]
        for u in range(count):
            if _bits(touched, u) and touched & ~rel[u]:
                return False
    return True


@jit_borrow
def _guarantees(
    nbr: Rows, own: Cells, opp: Cells, low: Cells, high: Cells, cells: I64, k: int,
    region: Cells, touch: Rows, adjacent: I64, base: I64, inner: I64, rel: I64, out: B1,
) -> bool:  # fmt: skip
    """``out[f]``, for each ``f`` where it is True on entry: whether the owner, answering
    in the region each move the opponent makes there, ends with a filling that serves it
    at least as well as owner cells ``f`` (see the module). The opponent moving first
    takes all the region's cells but one at worst (one of two, two of three), and more
    cells of the owner's only join more, so that holds when every cell of a pair, or
    all but one of three, held alone serves the owner at least as well as ``f``: of
    three, the opponent takes the one that does not first and the owner answers on one
    of the others. False when no ``f`` is kept (or
    the owner has already won: nothing is filled then); ``rel`` is scratch space."""
    count, stones = _nodes(
        nbr, own, opp, low, high, cells, k, region, touch, adjacent, base, rel[0]
    )  # ``rel[0]`` holds the empty nodes' cells until _joined needs it
    if count < 0:
        return False
    for i in range(k):
        _joined(i, adjacent, base, count, stones, rel[i])
    some = False
    for f in range(1 << k):
        if not out[f]:
            continue
        worse = 0
        for i in range(k):
            if not _served(f, k, inner, adjacent, count, rel[i]):
                worse += 1
        out[f] = worse <= k - 2
        some = some or out[f]
    return some


@jit_borrow
def _settle(
    nbr: Rows, lines: Rows, black: Cells, white: Cells, cells: I64, k: int, region: Cells,
    touch: Rows, adjacent: I64, base: I64, inner: I64, rel: I64, by_black: B1, by_white: B1,
) -> int:  # fmt: skip
    """A filling of the region ``cells[:k]`` (the set ``region``) both players' answers
    keep (the mask of its black cells), or -1."""
    for i in range(k):
        inner[i] = 0
        for j in range(k):
            if j != i and has(row(nbr, cells[i], black), cells[j]):
                inner[i] |= 1 << j
    full = (1 << k) - 1
    for f in range(full + 1):
        by_black[f] = True
    if not _guarantees(
        nbr, black, white, row(lines, 0, black), row(lines, 1, black), cells, k, region, touch,
        adjacent, base, inner, rel, by_black,
    ):  # fmt: skip
        return -1
    for f in range(full + 1):
        by_white[full & ~f] = by_black[f]  # white's cells of each filling black keeps
    if not _guarantees(
        nbr, white, black, row(lines, 2, black), row(lines, 3, black), cells, k, region, touch,
        adjacent, base, inner, rel, by_white,
    ):  # fmt: skip
        return -1
    for f in range(full + 1):
        if by_black[f] and by_white[full & ~f]:
            return f
    return -1


@jit_borrow
def _closed(nbr: Rows, stones: Cells, region: Cells, cells: I64, k: int) -> bool:
    """Whether each cell of the region has at most :data:`MOST_OPEN` empty neighbours
    outside it, and the region :data:`MOST_AROUND` in all."""
    taken = join(stones, region)
    around = minus(region, region)
    for i in range(k):
        near = minus(row(nbr, cells[i], stones), taken)
        if size(near) > MOST_OPEN:
            return False
        around = join(around, near)
    return size(around) <= MOST_AROUND


@jit
def _scratch(width: int) -> tuple[Rows, I64, I64, I64, I64, B1, B1]:
    """The scratch arrays of :func:`_settle`: ``touch``, ``adjacent``, ``base``,
    ``inner``, ``rel``, ``by_black`` and ``by_white``, for sets of ``width`` words."""
    return (
        np.zeros((MOST_NODES, width), np.uint64),
        np.zeros(MOST_NODES, np.int64),
        np.zeros(MOST_NODES, np.int64),
        np.zeros(MOST_REGION, np.int64),
        np.zeros((MOST_REGION, MOST_NODES), np.int64),
        np.zeros(1 << MOST_REGION, np.bool_),
        np.zeros(1 << MOST_REGION, np.bool_),
    )


@jit
def settles(n: int, nbr: Rows, lines: Rows, black: Cells, white: Cells, cells: I64) -> int:
    """The mask of black cells (bit ``i`` for ``cells[i]``) of a filling of the region
    ``cells`` (two or three touching empty cells) that keeps the winner by the rule of the
    module, or -1 when none does."""
    k = len(cells)
    region = nothing(black)
    for i in range(k):
        region = join(region, only(black, cells[i]))
    if not _closed(nbr, join(black, white), region, cells, k):
        return -1
    touch, adjacent, base, inner, rel, by_black, by_white = _scratch(len(black))
    return _settle(
        nbr, lines, black, white, cells, k, region, touch, adjacent, base, inner, rel,
        by_black, by_white,
    )  # fmt: skip


@jit
def fill_local_games(
    n: int, nbr: Rows, lines: Rows, black: Cells, white: Cells
) -> tuple[Cells, Cells]:
    """The position with every region of two or three cells that the rule of the module
    settles filled (see the module): ``(black, white)``."""
    touch, adjacent, base, inner, rel, by_black, by_white = _scratch(len(black))
    cells = np.zeros(MOST_REGION, np.int64)
    changed = True
    while changed:
        changed = False
        stones = join(black, white)
        tight = nothing(black)  # the empty cells a region may hold
        for x in range(n * n):
            if not has(stones, x) and (
                size(minus(row(nbr, x, black), stones)) <= MOST_OPEN + MOST_REGION - 1
            ):
                tight = join(tight, only(black, x))
        for x in range(n * n):
            if not has(tight, x) or has(stones, x):
                continue
            near_x = cut(row(nbr, x, black), tight)
            ys = near_x
            while not is_empty(ys) and not has(stones, x):
                y = lowest(ys)
                ys = minus(ys, only(black, y))
                for k in range(2, MOST_REGION + 1):
                    if y < x or has(stones, x) or has(stones, y):
                        break
                    if k == _PAIR:
                        zs = only(black, y)  # one pass with no third cell
                    else:
                        zs = cut(join(near_x, row(nbr, y, black)), tight)
                        zs = minus(zs, join(only(black, x), only(black, y)))
                    while not is_empty(zs):
                        z = lowest(zs)
                        zs = minus(zs, only(black, z))
                        twice = has(near_x, z) and z < y  # met as (x, z, y) already
                        if k == MOST_REGION and (z < x or twice or has(stones, z)):
                            continue
                        cells[0], cells[1], cells[2] = x, y, z
                        region = join(only(black, x), only(black, y))
                        if k == MOST_REGION:
                            region = join(region, only(black, z))
                        if not _closed(nbr, stones, region, cells, k):
                            continue
                        f = _settle(
                            nbr, lines, black, white, cells, k, region, touch, adjacent, base,
                            inner, rel, by_black, by_white,
                        )  # fmt: skip
                        if f < 0:
                            continue
                        for i in range(k):
                            if _bits(f, i):
                                black = join(black, only(black, cells[i]))
                            else:
                                white = join(white, only(black, cells[i]))
                        stones = join(black, white)
                        changed = True
                        break
    return black, white
