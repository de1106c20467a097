"""Prover layer: captured pairs of cells at any distance, found by a group-aware dead test (numba).

**Bypassed cells.** An empty cell ``c`` is *bypassed* for a player when no minimal
winning path of that player runs through it. Take the player's *things* next to ``c``:
its groups touching ``c`` and its edges ``c`` lies on (a group touching an edge counts as
that edge as well). The test asks for one *hub* among them such that

- every empty neighbour of ``c`` touches the hub (is next to its stones, or on one of
  its edges), and
- every other thing is a group that touches no edge the hub does not touch, and whose
  empty neighbours other than ``c`` all touch the hub.

Then a path ``... e, t, c, f ...`` through ``c`` (``t`` another thing or absent, ``e``
and ``f`` empty cells or edges) goes ``e, hub, f`` instead, through stones only: it
drops ``c`` and takes no new empty cell, so ``c`` was in no minimal winning path. An
empty neighbour of ``c`` off the player's edges whose other neighbours are all the
opponent's stones is a dead end: no path goes on from it, so it is left out; so is a
group off the player's edges whose empty neighbours but ``c`` are all such dead ends (their
other neighbours the group's or the opponent's). Things on a same edge act as one: a path
through ``c`` from one to the other can start or end at that edge from the other instead.
With no thing next to ``c``, a path through it goes from one empty neighbour to another,
so ``c`` is bypassed when those all touch each other. A
cell bypassed for both players is dead: its colour never decides the game (the winner
is the player with a winning path, and neither needs ``c``). Stones added anywhere keep
it dead.

**Captured pairs.** Two empty cells ``x`` and ``y``, touching or not, are captured by a
player when that player's stone on either leaves the other dead (bypassed for both).
Whatever the opponent plays in the pair, the captor answers in the other cell and the
opponent's stone is dead, so filling the pair with the captor's stones does not change
the winner (Henderson and Hayward's captured-cell fill-in;
:func:`boardlab.hex.connections.fill_captured` finds the touching pairs of the ring
patterns). Seen with groups, the test finds pairs the ring of six cannot: two cells each
joining the same two groups of the captor, with a stone of the opponent between them whose
other empty neighbours the captor's reply takes away (a bridge across a dead end).

Only cells with at most :data:`MOST_OPEN` empty neighbours besides the partner (at most
one more in all) are tried, and a partner ``y`` of ``x`` is an empty cell next to ``x`` or
next to a group that touches ``x``: the others cannot change ``x``'s test.
:func:`fill_far_pairs` fills the pairs one at a time, each found on the board the earlier
ones left, until none is left; its ``.py_func`` is the plain-Python twin the tests compare
with brute force.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

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
    row,
    size,
    spread,
)

__all__ = ["MOST_OPEN", "MOST_THINGS", "bypassed", "fill_far_pairs", "is_dead"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

#: The most empty neighbours (the partner not counted) a cell of a pair may have.
MOST_OPEN = 3
#: A cell has six neighbours, so at most six groups and two edges are next to it.
MOST_THINGS = 8


@jit_borrow
def _leads_nowhere(nbr: Rows, own: Cells, opp: Cells, lines: Cells, e: int, behind: Cells) -> bool:
    """Whether no path of the owner goes on from the empty cell ``e`` but into ``behind``:
    ``e`` is off the owner's edges and its every neighbour outside ``behind`` is the
    opponent's (a dead end)."""
    beyond = minus(row(nbr, e, own), behind)
    return not has(lines, e) and is_empty(minus(beyond, opp))


@jit_borrow
def _dead_end(nbr: Rows, own: Cells, opp: Cells, lines: Cells, group: Cells, cell: int) -> bool:
    """Whether no path of the owner goes on from ``group`` but back to ``cell``: it touches
    none of the owner's edges (the caller checks) and each of its empty neighbours but
    ``cell`` is a dead end past the group and ``cell`` (:func:`_leads_nowhere`)."""
    behind = join(group, only(own, cell))
    free = minus(spread(nbr, group), join(join(own, opp), only(own, cell)))
    while not is_empty(free):
        e = lowest(free)
        free = minus(free, only(own, e))
        if not _leads_nowhere(nbr, own, opp, lines, e, behind):
            return False
    return True


@jit_borrow
def bypassed(
    nbr: Rows,
    own: Cells,
    opp: Cells,
    low: Cells,
    high: Cells,
    cell: int,
    stones: Rows,
    reach: Rows,
    edges: I64,
) -> bool:
    """Whether the empty ``cell`` is in no minimal winning path of the owner of ``own``,
    whose edges are the lines ``low`` and ``high`` (see the module). ``stones``,
    ``reach`` (:data:`MOST_THINGS` rows of the sets' width) and ``edges`` (as many
    entries) are scratch space."""
    around = row(nbr, cell, own)
    empty = minus(around, join(own, opp))
    lines = join(low, high)
    rest = empty
    while not is_empty(rest):
        e = lowest(rest)
        rest = minus(rest, only(own, e))
        if _leads_nowhere(nbr, own, opp, lines, e, only(own, cell)):
            empty = minus(empty, only(own, e))  # a dead end: no path goes on from it
    count = 0
    rest = cut(around, own)
    while not is_empty(rest):
        d = lowest(rest)
        group = flood(nbr, only(own, d), own)
        rest = minus(rest, group)
        flags = (1 if meets(group, low) else 0) | (2 if meets(group, high) else 0)
        if flags == 0 and _dead_end(nbr, own, opp, lines, group, cell):
            continue
        put_row(stones, count, group)
        edges[count] = flags
        count += 1
    for k in range(2):
        line = low if k == 0 else high
        if not has(line, cell):
            continue
        merged = False
        for t in range(count):
            if edges[t] >> k & 1:
                merged = True
        if not merged:
            put_row(stones, count, nothing(own))
            edges[count] = 1 << k
            count += 1
    # things on a same edge act as one: a path through the cell from one to the other
    # can start (or end) at that edge from the other instead
    t = 0
    while t < count:
        u = t + 1
        while u < count:
            if edges[t] & edges[u]:
                put_row(stones, t, join(row(stones, t, own), row(stones, u, own)))
                edges[t] |= edges[u]
                count -= 1
                put_row(stones, u, row(stones, count, own))
                edges[u] = edges[count]
                u = t + 1
            else:
                u += 1
        t += 1
    if count == 0:
        # a path through the cell enters from one empty neighbour and leaves by another:
        # when they all touch each other it goes straight from one to the other
        rest = empty
        while not is_empty(rest):
            e = lowest(rest)
            rest = minus(rest, only(own, e))
            if not is_empty(minus(rest, row(nbr, e, own))):
                return False
        return True
    for t in range(count):
        near = spread(nbr, row(stones, t, own))
        if edges[t] & 1:
            near = join(near, low)
        if edges[t] & 2:
            near = join(near, high)
        put_row(reach, t, near)
    free = minus(every(own, nbr.shape[0]), join(own, opp))  # nbr: a row a cell
    for h in range(count):
        hub = row(reach, h, own)
        if not is_empty(minus(empty, hub)):
            continue
        good = True
        for t in range(count):
            if t == h:
                continue
            group = row(stones, t, own)
            if edges[t] & ~edges[h] or is_empty(group):
                good = False
                break
            outside = minus(cut(spread(nbr, group), free), only(own, cell))
            if not is_empty(minus(outside, hub)):
                good = False
                break
        if good:
            return True
    return False


@jit_borrow
def _dead(
    nbr: Rows, lines: Rows, black: Cells, white: Cells, cell: int, stones: Rows, reach: Rows,
    edges: I64,
) -> bool:  # fmt: skip
    """Whether the empty ``cell`` is bypassed for both players (``lines``: black's two
    edge lines, then white's; the rest scratch space, see :func:`bypassed`)."""
    return bypassed(
        nbr, black, white, row(lines, 0, black), row(lines, 1, black), cell, stones, reach, edges
    ) and bypassed(
        nbr, white, black, row(lines, 2, black), row(lines, 3, black), cell, stones, reach, edges
    )


@jit
def is_dead(nbr: Rows, lines: Rows, black: Cells, white: Cells, cell: int) -> bool:
    """Whether the empty ``cell`` is bypassed for both players, so dead (``lines``:
    black's two edge lines, then white's)."""
    stones = np.zeros((MOST_THINGS, len(black)), np.uint64)
    reach = np.zeros((MOST_THINGS, len(black)), np.uint64)
    edges = np.zeros(MOST_THINGS, np.int64)
    return _dead(nbr, lines, black, white, cell, stones, reach, edges)


@jit_borrow
def _open(nbr: Rows, stones: Cells, cell: int) -> int:
    """The number of empty neighbours of ``cell``."""
    return size(minus(row(nbr, cell, stones), stones))


@jit
def fill_far_pairs(
    n: int, nbr: Rows, lines: Rows, black: Cells, white: Cells
) -> tuple[Cells, Cells]:
    """The position with every captured pair of either colour filled by its captor (see
    the module): ``(black, white)``."""
    scratch = np.zeros((MOST_THINGS, len(black)), np.uint64)
    reach = np.zeros((MOST_THINGS, len(black)), np.uint64)
    edges = np.zeros(MOST_THINGS, np.int64)
    changed = True
    while changed:
        changed = False
        for x in range(n * n):
            # the board as the fills so far left it (a pass goes on after a fill)
            stones = join(black, white)
            if has(stones, x) or _open(nbr, stones, x) > MOST_OPEN + 1:
                continue
            free = minus(every(black, n * n), stones)
            around = row(nbr, x, black)
            near = around
            rest = cut(around, stones)
            while not is_empty(rest):
                d = lowest(rest)
                mine = black if has(black, d) else white
                group = flood(nbr, only(black, d), mine)
                near = join(near, spread(nbr, group))
                rest = minus(rest, group)
            partners = minus(cut(near, free), only(black, x))
            while not is_empty(partners):
                y = lowest(partners)
                partners = minus(partners, only(black, y))
                if _open(nbr, stones, y) > MOST_OPEN + 1:
                    continue
                bx, by = only(black, x), only(black, y)
                if _dead(nbr, lines, join(black, by), white, x, scratch, reach, edges) and _dead(
                    nbr, lines, join(black, bx), white, y, scratch, reach, edges
                ):
                    black = join(black, join(bx, by))
                    changed = True
                    break
                if _dead(nbr, lines, black, join(white, by), x, scratch, reach, edges) and _dead(
                    nbr, lines, black, join(white, bx), y, scratch, reach, edges
                ):
                    white = join(white, join(bx, by))
                    changed = True
                    break
    return black, white
