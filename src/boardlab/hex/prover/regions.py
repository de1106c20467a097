"""Prover layer: captured regions, small sets of empty cells one player fills before a search.

A set ``S`` of empty cells is *captured* by a player ``P`` when ``P``, answering inside
``S`` each time the opponent ``Q`` plays there (or not at all), can always make ``S``
end as good as if every cell of ``S`` were ``P``'s, whatever the rest of the board
becomes. The position is then worth the same with ``S`` filled by ``P`` (``P`` keeps
to its own winning strategy outside ``S`` and to the local one inside; the other way
round an extra stone never hurts), for either side to move and after any moves
outside ``S``; so a solver may fill ``S`` before searching, and ``Q``'s moves inside
``S`` are no better than its others. The captured pairs of the ring table are the
two-cell case; MoHex's combinatorial decompositions are larger ones. Regions are tested
on the position with the kernel's captured pairs filled: a move on such a pair by its
other player breaks the pair and maybe the region (a 5x5 case of
``tests/hex/test_regions.py``), so a solver judges those moves, like the region's own
cells, on the position as given (:class:`RegionFill` names the pairs).

What "as good as filled" means here, for a connected ``S``. Around ``S`` lie stones,
the board's edges and a few empty *exits* (cells next to ``S`` outside it). Groups
whose every liberty is in ``S`` (and that touch no edge) are *inside*: fixed stones of
the local game. Filled with ``P``, ``S`` joins everything of ``P`` around it into one
group. A final colouring of ``S`` does the same, whatever colours the exits get, when:

- one group of ``P`` (its cells of ``S`` and inside groups) touches every ``P`` group
  and ``P`` edge next to ``S``, and every exit not next to one of those (an exit next
  to one, if it ends ``P``, is in that group anyway);
- no group of ``Q`` (its cells of ``S`` and inside groups) touches two different
  things of ``Q``: a ``Q`` group or edge next to ``S``, or an exit, which counts as the
  ``Q`` groups next to it (it joins them when it ends ``Q``) or, next to none, as
  itself. Filled with ``P``, ``S`` joins nothing of ``Q``.

Then every connection between the cells outside ``S`` runs through ``S`` in the
colouring exactly when it does with ``S`` filled, so the winner is the same.

:func:`captured` plays the local game out (``Q`` first, ``P`` answering or passing)
with a budget of positions; :func:`candidate_regions` proposes the connected sets of at
most :data:`MAX_REGION` empty cells that at most :data:`MAX_CUT` empty cells cut off
from the rest; :func:`region_fill` fills the captured ones of a position, to a fixed
point with the shared kernel's captured pairs and dead cells, for a search's root and
the positions just below it (:meth:`boardlab.hex.prover.dfpn.Dfpn.fill_regions`). The
local games of one board's regions are built at once by the compiled
:func:`boardlab.hex.prover.localshape.local_shapes` (:func:`_local_game` is its plain
twin); each is played once per process (remembered by its shape) by the compiled
:func:`boardlab.hex.prover.localgame.keeps`; :func:`_plays_out` is its plain twin. The
brute-force check on small boards is ``tests/hex/test_regions.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.board import edge_lines, neighbours
from boardlab.hex.cellsets import (
    Cells,
    Rows,
    cut,
    is_empty,
    join,
    lowest,
    minus,
    only,
    put_row,
    row,
    size,
    spread,
)
from boardlab.hex.prover.localshape import local_shapes, shape_tables

__all__ = [
    "MAX_CUT",
    "MAX_REGION",
    "MAX_STATES",
    "RegionFill",
    "candidate_regions",
    "captured",
    "region_fill",
]

#: The most empty cells of a region tested.
MAX_REGION = 12
#: The most empty cells left out to cut a region off the others.
MAX_CUT = 2
#: The most positions of one region's local game before it counts as not captured.
MAX_STATES = 20_000
#: The fewest cells of a region tested (one cell alone is the ring table's business).
_SMALLEST = 2
#: Rounds of filling (captured regions, then the kernel's fill-in) at most.
MAX_ROUNDS = 4

_EMPTY, _BLACK, _WHITE = 0, 1, 2

I64 = npt.NDArray[np.int64]


class _OverBudgetError(Exception):
    """The local game took more positions than its budget."""


@dataclass(frozen=True)
class _Local:
    """One region's local game for ``player``: the region's nodes (its cells first,
    then the inside groups), their links, and what each touches around the region."""

    cells: int  # how many of the nodes are empty cells of the region
    inside: dict[int, int]  # per colour: the nodes of its inside groups
    links: tuple[int, ...]  # per node: the nodes next to it (bit ``i`` for node ``i``)
    own_touch: tuple[int, ...]  # per node: bits of the player's things it touches
    own_needed: int  # the bits one of the player's groups must touch
    rival_touch: tuple[int, ...]  # per node: bits of the opponent's things it touches


@dataclass(frozen=True)
class _Stones:
    """The groups of one board, shared by every region tested on it."""

    group: tuple[int, ...]  # per cell, then per edge line: its group's id
    colour_of: dict[int, int]  # per group id: its colour
    members: dict[int, tuple[int, ...]]  # per stone group: its cells
    liberties: dict[int, frozenset[int]]  # per stone group: its empty neighbours
    #: per colour (index 1 and 2), per cell: the groups and edge lines of that colour
    #: next to it (stone groups and edges apart)
    near: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...]


@lru_cache(maxsize=8)
def _stones(n: int, board: tuple[int, ...]) -> _Stones:
    """The groups of ``board`` (each an id: one of its cells, or ``n*n + k`` for an edge
    line ``k`` and the stones joined to it)."""
    size = n * n
    owner = (_BLACK, _BLACK, _WHITE, _WHITE)
    parent = list(range(size + 4))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    around = neighbours(n)
    edge_of: dict[int, tuple[int, ...]] = {}
    for k, line in enumerate(edge_lines(n)):
        for c in line:
            edge_of[c] = (*edge_of.get(c, ()), k)
            if board[c] == owner[k]:
                parent[find(c)] = find(size + k)
    for c in range(size):
        if board[c]:
            for d in around[c]:
                if board[d] == board[c]:
                    parent[find(c)] = find(d)
    group = tuple(find(x) for x in range(size + 4))
    colour_of = {group[size + k]: owner[k] for k in range(4)}
    members: dict[int, tuple[int, ...]] = {}
    liberties: dict[int, frozenset[int]] = {}
    for c in range(size):
        if board[c]:
            g = group[c]
            colour_of[g] = board[c]
            members[g] = (*members.get(g, ()), c)
            free = frozenset(d for d in around[c] if board[d] == _EMPTY)
            liberties[g] = liberties.get(g, frozenset()) | free
    near = tuple(
        tuple(
            (
                tuple(sorted({group[d] for d in around[c] if board[d] == colour})),
                tuple(group[size + k] for k in edge_of.get(c, ()) if owner[k] == colour),
            )
            for c in range(size)
        )
        if colour
        else ()
        for colour in (_EMPTY, _BLACK, _WHITE)
    )
    return _Stones(group, colour_of, members, liberties, near)


def _local_game(n: int, board: Sequence[int], region: Sequence[int], player: int) -> _Local:
    """The local game of ``region`` (a connected set of empty cells) for ``player``."""
    size = n * n
    around = neighbours(n)
    stones = _stones(n, tuple(board))
    group, colour_of = stones.group, stones.colour_of
    inside_set = set(region)
    edges = {group[size + k] for k in range(4)}

    def is_outside(g: int) -> bool:
        """Has the group a liberty outside the region, or an edge?"""
        return g in edges or not stones.liberties[g] <= inside_set

    def things(c: int, colour: int) -> set[int]:
        """The groups and edges of ``colour`` outside the region next to cell ``c``."""
        groups, lines = stones.near[colour][c]
        found = {g for g in groups if is_outside(g)}
        found.update(lines)
        return found

    inner = sorted(
        {group[d] for c in region for d in around[c] if board[d] and not is_outside(group[d])}
    )
    nodes = list(region) + inner
    index = {cell: i for i, cell in enumerate(region)}
    index.update({g: len(region) + i for i, g in enumerate(inner)})
    exits = sorted({d for c in region for d in around[c] if board[d] == _EMPTY} - inside_set)
    rival = 3 - player
    # the player's bits: its things next to the region, then the exits next to none of them
    own_things = sorted({g for c in region for g in things(c, player)})
    own_bit = {g: 1 << i for i, g in enumerate(own_things)}
    own_set = set(own_things)
    loose = [e for e in exits if not things(e, player) & own_set]
    own_bit.update({e: 1 << (len(own_things) + i) for i, e in enumerate(loose)})
    own_needed = (1 << (len(own_things) + len(loose))) - 1
    # the opponent's bits: its things next to the region or an exit, and the bare exits
    rival_things = sorted({g for c in list(region) + exits for g in things(c, rival)})
    rival_bit = {g: 1 << i for i, g in enumerate(rival_things)}
    bare = [e for e in exits if not things(e, rival)]
    rival_bit.update({e: 1 << (len(rival_things) + i) for i, e in enumerate(bare)})

    def rival_mask_of_exit(e: int) -> int:
        mapped = things(e, rival)
        if not mapped:
            return rival_bit[e]
        return sum(rival_bit[g] for g in mapped)

    inside = {_BLACK: 0, _WHITE: 0}
    links: list[int] = []
    own_touch: list[int] = []
    rival_touch: list[int] = []
    for node in nodes:
        cells = (node,) if node in inside_set else stones.members[node]
        if node not in inside_set:
            inside[colour_of[node]] |= 1 << index[node]
        linked: set[int] = set()
        own = rival_mask = 0
        for c in cells:
            for d in around[c]:
                if d in inside_set:
                    linked.add(index[d])
                elif board[d] and group[d] in index:
                    linked.add(index[group[d]])
            if node in inside_set:
                own |= sum(own_bit[g] for g in things(c, player))
                rival_mask |= sum(rival_bit[g] for g in things(c, rival))
                for d in around[c]:
                    if board[d] == _EMPTY and d not in inside_set:
                        own |= own_bit.get(d, 0)
                        rival_mask |= rival_mask_of_exit(d)
        linked.discard(index[node])
        links.append(sum(1 << i for i in linked))
        own_touch.append(own)
        rival_touch.append(rival_mask)
    return _Local(
        len(region), inside, tuple(links), tuple(own_touch), own_needed, tuple(rival_touch)
    )


def _local_games(
    n: int, board: Sequence[int], regions: Sequence[tuple[int, ...]], player: int
) -> list[_Local]:
    """The local games of ``regions`` (each a connected set of empty cells of ``board``,
    ascending) for ``player``: :func:`boardlab.hex.prover.localshape.local_shapes` for
    all at once, the plain :func:`_local_game` for one whose masks do not fit a word."""
    if not regions:
        return []
    cells = np.zeros((len(regions), max(len(region) for region in regions)), np.int64)
    for i, region in enumerate(regions):
        cells[i, : len(region)] = region
    lengths = np.array([len(region) for region in regions], np.int64)
    fits, nodes, inside, needed, links, own, rival = local_shapes(
        n, *shape_tables(n), np.array(board, np.int8), player, cells, lengths
    )
    games = []
    for i, region in enumerate(regions):
        if not fits[i]:
            games.append(_local_game(n, board, region, player))
            continue
        games.append(_local_of_row(i, len(region), nodes, inside, needed, links, own, rival))
    return games


def _local_of_row(
    i: int, cells: int, nodes: I64, inside: I64, needed: I64, links: I64, own: I64, rival: I64
) -> _Local:
    """Region ``i``'s local game (of ``cells`` cells) from the rows
    :func:`boardlab.hex.prover.localshape.local_shapes` returns."""
    m = int(nodes[i])
    return _Local(
        cells,
        {_BLACK: int(inside[i, 0]), _WHITE: int(inside[i, 1])},
        tuple(links[i, :m].tolist()),
        tuple(own[i, :m].tolist()),
        int(needed[i]),
        tuple(rival[i, :m].tolist()),
    )


def _groups_of(local: _Local, cells: int, colour: int) -> Iterator[int]:
    """The groups of ``colour`` as node sets: its inside groups and the region cells
    in ``cells``."""
    members = cells | local.inside[colour]
    while members:
        group = members & -members
        grown = group
        while True:
            reach = group
            rest = grown
            while rest:
                low = rest & -rest
                reach |= local.links[low.bit_length() - 1]
                rest ^= low
            reach &= members
            if reach == group:
                break
            grown = reach & ~group
            group = reach
        members &= ~group
        yield group


def _touched(touch: tuple[int, ...], group: int) -> int:
    """Everything the nodes of ``group`` touch."""
    found = 0
    while group:
        low = group & -group
        found |= touch[low.bit_length() - 1]
        group ^= low
    return found


def _joins_all(local: _Local, cells: int, player: int) -> bool:
    """Does one of ``player``'s groups touch every thing it must?"""
    if local.own_needed == 0:
        return True
    return any(
        _touched(local.own_touch, group) == local.own_needed
        for group in _groups_of(local, cells, player)
    )


def _joins_two(local: _Local, cells: int, rival: int) -> bool:
    """Does one of ``rival``'s groups touch two different things of its own?"""
    for group in _groups_of(local, cells, rival):
        touched = _touched(local.rival_touch, group)
        if touched & (touched - 1):
            return True
    return False


def captured(
    n: int, board: Sequence[int], region: Sequence[int], player: int, max_states: int = MAX_STATES
) -> bool:
    """Is ``region`` (a connected set of empty cells of ``board``) captured by ``player``?
    False also when the local game takes more than ``max_states`` positions."""
    return _held(_local_game(n, board, region, player), player, max_states)


def _held(local: _Local, player: int, max_states: int) -> bool:
    """Does ``player`` keep the region of ``local`` (remembered by its shape)?"""
    key = (
        local.cells, local.inside[_BLACK], local.inside[_WHITE], local.links, local.own_touch,
        local.own_needed, local.rival_touch, player, max_states,
    )  # fmt: skip
    answer = _KNOWN_GAMES.get(key)
    if answer is None:
        if len(_KNOWN_GAMES) >= _MAX_KNOWN_GAMES:
            _KNOWN_GAMES.clear()
        answer = _KNOWN_GAMES[key] = _played_out(local, player, max_states)
    return answer


#: Masks past this many bits go to the plain-Python local game (numba's are 64-bit).
_WORD_BITS = 62


def _played_out(local: _Local, player: int, max_states: int) -> bool:
    """:func:`_plays_out` by the compiled :func:`boardlab.hex.prover.localgame.keeps`
    (the plain one when a mask does not fit a word)."""
    from boardlab.hex.prover.localgame import keeps

    masks = (*local.links, *local.own_touch, *local.rival_touch, local.own_needed)
    if len(local.links) > _WORD_BITS or max(masks, default=0) >> _WORD_BITS:
        return _plays_out(local, player, max_states)
    got = keeps(
        np.array(local.links, np.int64),
        np.array(local.own_touch, np.int64),
        np.array(local.rival_touch, np.int64),
        local.own_needed,
        local.inside[player],
        local.inside[3 - player],
        local.cells,
        np.array(_busy_order(local), np.int64),
        max_states,
    )
    return got == 1  # not OVER_BUDGET: a game past its budget counts as not kept


#: Local games already played out (the same region around the same things recurs from
#: one position of a search to the next), cleared when it holds this many.
_MAX_KNOWN_GAMES = 50_000
_KNOWN_GAMES: dict[tuple[object, ...], bool] = {}


def _busy_order(local: _Local) -> list[int]:
    """The region's cells, the busiest first: most links and most things touched."""
    return sorted(
        range(local.cells),
        key=lambda i: (
            -(
                local.links[i].bit_count()
                + local.own_touch[i].bit_count()
                + local.rival_touch[i].bit_count()
            )
        ),
    )


def _plays_out(local: _Local, player: int, max_states: int) -> bool:
    """Does ``player`` keep the region of ``local`` (see :func:`captured`)?"""
    rival = 3 - player
    full = (1 << local.cells) - 1
    order = _busy_order(local)
    known: dict[tuple[int, int], bool] = {}
    joined: dict[int, bool] = {}
    crossed: dict[int, bool] = {}

    def joins_all(cells: int) -> bool:
        if cells not in joined:
            joined[cells] = _joins_all(local, cells, player)
        return joined[cells]

    def joins_two(cells: int) -> bool:
        if cells not in crossed:
            crossed[cells] = _joins_two(local, cells, rival)
        return crossed[cells]

    def holds(mine: int, theirs: int) -> bool:
        """With the opponent to move in the region, does the player keep it?"""
        key = (mine, theirs)
        if key in known:
            return known[key]
        free = full & ~mine & ~theirs
        if joins_two(theirs) or not joins_all(mine | free):
            return False
        if joins_all(mine) and not joins_two(theirs | free):
            return True
        if len(known) >= max_states:
            raise _OverBudgetError
        answer = True
        for i in order:
            if not free >> i & 1:
                continue
            after = theirs | 1 << i
            rest = free & ~(1 << i)
            near = [j for j in order if rest >> j & 1 and local.links[i] >> j & 1]
            far = [j for j in order if rest >> j & 1 and not local.links[i] >> j & 1]
            replies = [mine | 1 << j for j in near + far] + [mine]
            if not any(holds(reply, after) for reply in replies):
                answer = False
                break
        known[key] = answer
        return answer

    try:
        return holds(0, 0)
    except _OverBudgetError:
        return False


def candidate_regions(
    n: int, board: Sequence[int], max_cells: int = MAX_REGION, max_cut: int = MAX_CUT
) -> list[tuple[int, ...]]:
    """The connected sets of 2 to ``max_cells`` empty cells that leaving out at most
    ``max_cut`` other empty cells separates from the rest of the empty cells (smallest
    first, each once). Found by :func:`_cut_parts` on cell sets (numba);
    :func:`candidate_regions_reference` is the plain one the tests compare with."""
    cells, lengths, _ = _candidate_arrays(n, board, max_cells, max_cut)
    return [
        tuple(line[:length]) for line, length in zip(cells.tolist(), lengths.tolist(), strict=True)
    ]


def _candidate_arrays(
    n: int, board: Sequence[int], max_cells: int = MAX_REGION, max_cut: int = MAX_CUT
) -> tuple[I64, I64, list[int]]:
    """:func:`candidate_regions` as arrays, in the same order: each region's cells
    (ascending, a row each, padded with zeros), their counts, and the regions as cell
    bits (Python integers)."""
    from boardlab.hex import connections as vc

    width = 2
    cells = np.flatnonzero(np.array(board[: n * n], np.int8) == _EMPTY)
    empty = np.zeros(width * 64, np.bool_)
    empty[cells] = True
    words = np.packbits(empty, bitorder="little").view(np.uint64)
    parts, count = _cut_parts(
        vc.knowledge(n, width).nbr, tuple(words), cells.astype(np.int64), max_cells, max_cut
    )
    if count == 0:
        return np.zeros((0, 1), np.int64), np.zeros(0, np.int64), []
    rows = parts[:count]
    # each set once: sorted by its words, then the repeats dropped
    rows = rows[np.lexsort(rows.T[::-1])]
    keep = np.ones(len(rows), np.bool_)
    keep[1:] = (rows[1:] != rows[:-1]).any(axis=1)
    rows = rows[keep]
    bits = np.unpackbits(rows.view(np.uint8), axis=1, bitorder="little").astype(np.bool_)
    lengths = bits.sum(axis=1).astype(np.int64)
    which, where = np.nonzero(bits)  # row by row, each row's cells ascending
    column = np.arange(len(which)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    table = np.zeros((len(rows), int(lengths.max())), np.int64)
    table[which, column] = where
    # smallest first, then by the cells in turn (as tuples compare)
    order = np.lexsort((*table.T[::-1], lengths))
    table, lengths = table[order], lengths[order]
    as_ints = [low | high << 64 for low, high in rows[order].tolist()]
    return table, lengths, as_ints


#: A cut of two cells: the largest :func:`_cut_parts` makes.
_TWO_CELL_CUT = 2
#: The most parts :func:`_cut_parts` hands back (far more than a board of 121 cells has).
_MAX_PARTS = 1 << 16


@jit
def _cut_parts(
    nbr: Rows, empty: Cells, cells: I64, max_cells: int, max_cut: int
) -> tuple[Rows, int]:
    """Every component of 2 to ``max_cells`` cells of ``empty`` less each set of at most
    ``max_cut`` (0 to 2) of its ``cells``, repeats included: ``(rows, how many)``. With a
    cut only the components next to it are flooded: one next to neither cut cell is a
    component of ``empty`` less a smaller cut, found there."""
    width = len(empty)
    out = np.zeros((_MAX_PARTS, width), np.uint64)
    found = 0
    count = len(cells)
    for first in range(-1, count):
        if first >= 0 and max_cut < 1:
            break
        second = -1  # the cut: none, one cell (first), two cells (first, second)
        while True:
            allowed = empty
            if first >= 0:
                allowed = minus(allowed, only(empty, cells[first]))
            if second >= 0:
                allowed = minus(allowed, only(empty, cells[second]))
            # with a cut, only the parts next to it are new (the others are parts of
            # the empty cells less a smaller cut), and a flood stops past max_cells
            rest = allowed
            if first >= 0:
                near = row(nbr, cells[first], empty)
                if second >= 0:
                    near = join(near, row(nbr, cells[second], empty))
                rest = cut(allowed, near)
            while not is_empty(rest):
                part = _flood_at_most(nbr, only(empty, lowest(rest)), allowed, max_cells)
                rest = minus(rest, part)
                k = size(part)
                if _SMALLEST <= k <= max_cells and found < _MAX_PARTS:
                    put_row(out, found, part)
                    found += 1
            if first < 0 or max_cut < _TWO_CELL_CUT:
                break
            second = first + 1 if second < 0 else second + 1
            if second >= count:
                break
    return out, found


@jit_borrow
def _flood_at_most(nbr: Rows, start: Cells, allowed: Cells, most: int) -> Cells:
    """:func:`boardlab.hex.cellsets.flood`, stopped once it holds more than ``most``
    cells (then some of them)."""
    group = start
    while True:
        grown = join(group, cut(spread(nbr, group), allowed))
        if grown == group or size(grown) > most:
            return grown
        group = grown


def candidate_regions_reference(
    n: int, board: Sequence[int], max_cells: int = MAX_REGION, max_cut: int = MAX_CUT
) -> list[tuple[int, ...]]:
    """:func:`candidate_regions` by flood fills over every cut, in plain Python."""
    around = neighbours(n)
    empty = [c for c in range(n * n) if board[c] == _EMPTY]
    found: set[tuple[int, ...]] = set()
    for cut_size in range(max_cut + 1):
        for removed in combinations(empty, cut_size):
            seen = set(removed)
            for start in empty:
                if start in seen:
                    continue
                seen.add(start)
                part, i = [start], 0
                while i < len(part):
                    for d in around[part[i]]:
                        if board[d] == _EMPTY and d not in seen:
                            seen.add(d)
                            part.append(d)
                    i += 1
                if _SMALLEST <= len(part) <= max_cells:
                    found.add(tuple(sorted(part)))
    return sorted(found, key=lambda part: (len(part), part))


#: Regions looked at between two looks at the clock in :func:`_held_regions`.
_CLOCK_EVERY = 32


def _held_regions(
    n: int,
    board: Sequence[int],
    player: int,
    taken: int,
    out_of_time: Callable[[], bool] | None,
) -> tuple[int, bool]:
    """``(cells, stopped)``: the cells of the candidate regions of ``board`` that
    ``player`` keeps, taken smallest first, each only if it shares no cell with ``taken``
    or an earlier one (the regions :func:`candidate_regions` proposes, each settled as
    :func:`_held` settles it), and whether ``out_of_time()`` turned true before the last
    (then the cells of those before)."""
    table, lengths, as_ints = _candidate_arrays(n, board)
    if not as_ints:
        return 0, False
    fits, nodes, inside, needed, links, own, rival = local_shapes(
        n, *shape_tables(n), np.array(board, np.int8), player, table, lengths
    )
    # each game's shape as one row of numbers (nothing past its nodes), its bytes the
    # key of the games already played out
    used = np.arange(links.shape[1]) < nodes[:, None]
    shapes = np.concatenate(
        (lengths[:, None], nodes[:, None], inside, needed[:, None],
         links * used, own * used, rival * used),
        axis=1,
    )  # fmt: skip
    blob = np.ascontiguousarray(shapes).tobytes()
    step = shapes.shape[1] * shapes.itemsize
    fitting = fits.tolist()
    held = 0
    for i, cells in enumerate(as_ints):
        if out_of_time is not None and i % _CLOCK_EVERY == 0 and out_of_time():
            return held, True
        if cells & (taken | held):
            continue
        if not fitting[i]:
            region = table[i, : lengths[i]].tolist()
            kept = _held(_local_game(n, board, region, player), player, MAX_STATES)
        else:
            key = (blob[i * step : (i + 1) * step], player, MAX_STATES)
            known = _KNOWN_SHAPES.get(key)
            if known is None:
                local = _local_of_row(i, int(lengths[i]), nodes, inside, needed, links, own, rival)
                if len(_KNOWN_SHAPES) >= _MAX_KNOWN_GAMES:
                    _KNOWN_SHAPES.clear()
                known = _KNOWN_SHAPES[key] = _played_out(local, player, MAX_STATES)
            kept = known
        if kept:
            held |= cells
    return held, False


#: Local games already played out, as :data:`_KNOWN_GAMES`, by the bytes of a game's
#: shape row (:func:`_held_regions`).
_KNOWN_SHAPES: dict[tuple[bytes, int, int], bool] = {}


@dataclass(frozen=True)
class RegionFill:
    """The captured regions :func:`region_fill` found: the cells each captor fills, and
    the cells of the captured pairs the regions were found with (a move there by the
    pair's other player breaks the pair, and maybe a region with it, so a move on one of
    these cells is judged on the position as it was, not the filled one)."""

    black: int = 0
    white: int = 0
    pairs: int = 0

    @property
    def cells(self) -> int:
        """Every cell of the regions."""
        return self.black | self.white


def region_fill(
    n: int, black: int, white: int, out_of_time: Callable[[], bool] | None = None
) -> RegionFill:
    """The captured regions of the position with these stones, each to be filled by its
    captor; found after the shared kernel's captured pairs and dead cells, to a fixed
    point (at most :data:`MAX_ROUNDS` rounds). When ``out_of_time()`` turns true, the
    regions found so far."""
    from boardlab.hex import connections as vc
    from boardlab.hex.prover.inferior import dead_regions

    knowledge = vc.knowledge(n)
    low, high, left, right = (vc.words_of(vc.cells_of(row)) for row in knowledge.lines[:4])
    edges = (low, high, left, right)
    fill = {_BLACK: 0, _WHITE: 0}
    pairs = 0
    for _ in range(MAX_ROUNDS):
        b, w = vc.fill_captured(
            n,
            knowledge.ring,
            knowledge.table,
            vc.words_of(black | fill[_BLACK]),
            vc.words_of(white | fill[_WHITE]),
        )
        stones_b, stones_w = vc.cells_of(b), vc.cells_of(w)
        round_pairs = (stones_b | stones_w) & ~(black | white | fill[_BLACK] | fill[_WHITE])
        dead = vc.cells_of(
            dead_regions(
                n, knowledge.ring, knowledge.table, edges,
                vc.words_of(stones_b), vc.words_of(stones_w),
            )
        )  # fmt: skip
        grown = False
        filled = [
            _BLACK if stones_b >> c & 1 else _WHITE if stones_w >> c & 1 else _EMPTY
            for c in range(n * n)
        ]
        for player in (_BLACK, _WHITE):
            # a dead cell's colour never matters: the captor's here
            board = [player if dead >> c & 1 else v for c, v in enumerate(filled)]
            held, stopped = _held_regions(n, board, player, fill[player], out_of_time)
            if stopped:
                fill[player] |= held
                return RegionFill(fill[_BLACK], fill[_WHITE], pairs | round_pairs)
            if held:
                fill[player] |= held
                grown = True
            if grown:
                pairs |= round_pairs
                break
        if not grown:
            break
    return RegionFill(fill[_BLACK], fill[_WHITE], pairs if fill[_BLACK] | fill[_WHITE] else 0)
