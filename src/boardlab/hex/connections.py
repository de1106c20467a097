"""Board layer: virtual connections of a position on boards up to 13x13, for both rooms.

The knowledge of who is already won that the engine (its root and tree nodes) and the
prover (its DFPN at every size) share, in numba, on the cell sets of
:mod:`boardlab.hex.cellsets` (one ``uint64`` word up to 8x8, two up to 11x11, three
for the engine's 13x13; numba
compiles one version of each function per width). Here: the tables of a board
(:func:`knowledge`: neighbours, edge lines, rings, the dead-cell table and the edge
templates), the captured pairs and dead cells of the ring table (:func:`fill_captured`,
:func:`dead_cells`) and :func:`verdict`, which runs the H-search of
:mod:`boardlab.hex.hsearch` for both players on a reduced position and turns it into a
verdict for the side to move:

- WIN: the mover has an edge-to-edge full connection (any move keeps it) or a semi one
  (its key makes it full); the move returned wins;
- LOSS: the opponent has a full one, or semi ones whose carriers share no cell;
- OPEN: every move outside the returned must-play set (inside the carrier of each of
  the opponent's semi connections, dead cells left out) loses.

:func:`analyse` is the engine's question on an ``int8`` board; the prover's
(:func:`boardlab.hex.prover.verdicts.analyse`) adds its inferior cells on top of the same
:func:`verdict`. ``analyse.py_func`` is the plain-Python twin the tests compare with.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow, jit_inline
from boardlab.hex.board import (
    EDGE_TEMPLATES,
    dead_ring_table,
    edge_lines,
    neighbours,
    ring_neighbours,
)
from boardlab.hex.cellsets import (
    Cells,
    as_int,
    as_words,
    cut,
    every,
    has,
    is_empty,
    join,
    lowest,
    meets,
    minus,
    nothing,
    only,
    row,
)
from boardlab.hex.hsearch import hsearch, joined

__all__ = [
    "EDGE_PATTERN_FILE",
    "EDGE_TEMPLATES",
    "KEEP_FULL",
    "KEEP_SEMI",
    "LOSS",
    "MAX_SIZE",
    "MAX_WORK",
    "OPEN",
    "WIN",
    "Knowledge",
    "analyse",
    "cells_of",
    "dead_cells",
    "edge_patterns",
    "edge_templates",
    "fill_captured",
    "fill_pairs",
    "filled_board",
    "knowledge",
    "parse_edge_patterns",
    "ring_code",
    "verdict",
    "words_of",
]

Rows = npt.NDArray[np.uint64]
U2 = npt.NDArray[np.uint64]
I8 = npt.NDArray[np.int8]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]
Mask = tuple[np.uint64, np.uint64]

WIN = 1
LOSS = -1
OPEN = 0
#: The largest board whose cells (and its two edge nodes) fit three words.
MAX_SIZE = 13

#: Full and semi carriers kept per pair, and the AND-rule combinations tried per search.
KEEP_FULL = 12
KEEP_SEMI = 16
MAX_WORK = 200_000

_Z = np.uint64(0)
_BLACK, _WHITE = 1, 2
#: The edge lines from this one on are rows (player 2's); those before, columns.
_EDGE_ROWS = 2


def words_of(cells: int) -> Mask:
    """A set of cells (bit ``c`` for cell ``c``) as two words (the engine's width)."""
    return np.uint64(cells & (2**64 - 1)), np.uint64(cells >> 64)


def cells_of(words: Cells | npt.NDArray[np.uint64]) -> int:
    """A set's words (numba hands them back as Python ints) as one cell set."""
    return as_int(words)


@cache
def knowledge(n: int, width: int = 2) -> Knowledge:
    """The tables :func:`verdict` needs for an ``n x n`` board, sets of ``width`` words
    (cached): two for the engine up to 11x11 and the prover past 8x8, three for the
    engine's 12x12 and 13x13, one for the prover up to 8x8."""
    if not 1 <= n <= MAX_SIZE:
        raise ValueError(
            f"virtual connections are searched on boards up to {MAX_SIZE}x{MAX_SIZE}, not {n}x{n}"
        )
    if n * n > 64 * width:
        raise ValueError(f"a {n}x{n} board does not fit {width} words")
    nbr = np.zeros((n * n, width), np.uint64)
    for cell, around in enumerate(neighbours(n)):
        nbr[cell] = as_words(sum(1 << other for other in around), width)
    lines = np.zeros((4, width), np.uint64)
    for line, cells in enumerate(edge_lines(n)):
        lines[line] = as_words(sum(1 << cell for cell in cells), width)
    return Knowledge(n, nbr, lines, ring_neighbours(n), dead_ring_table(), edge_templates(n, width))


def _at_depth(n: int, edge: int, anchor: int, depth: int) -> bool:
    """Is cell ``anchor`` ``depth`` lines from ``edge`` (the order of the edge lines), so
    that a template of that depth anchored there ends on the edge's own line?"""
    row, col = divmod(anchor, n)
    across = col if edge < _EDGE_ROWS else row
    return across == (depth if edge % 2 == 0 else n - 1 - depth)


def _placed_any(n: int, edge: int, anchor: int, dr: int, dc: int) -> int:
    """The cell at offset ``(dr, dc)`` from ``anchor`` toward ``edge``, -1 off the board."""
    row, col = divmod(anchor, n)
    # rows and columns swapped for player 1's columns; turned half a turn toward line 0
    across, along = (col, row) if edge < _EDGE_ROWS else (row, col)
    sign = -1 if edge % 2 == 0 else 1
    a, b = across + sign * dr, along + sign * dc
    r, c = (b, a) if edge < _EDGE_ROWS else (a, b)
    if not (0 <= r < n and 0 <= c < n):
        return -1
    return r * n + c


#: The file of the edge patterns (``scripts/hex_edge_patterns.py`` makes it), in
#: ``boardlab.hex``'s data folder.
EDGE_PATTERN_FILE = "edge_patterns.json"
#: An entry of an edge table: depth, the owner's other stones and the carrier, as
#: offsets from the endpoint (see :data:`boardlab.hex.board.EDGE_TEMPLATES`).
EdgeEntry = tuple[int, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]


def parse_edge_patterns(text: str) -> tuple[EdgeEntry, ...]:
    """The entries of an edge-pattern file's text (JSON: ``patterns``, each with its
    ``depth``, ``stones`` and ``carrier``, as ``scripts/hex_edge_patterns.py`` writes).

    :raises ValueError: for text that is not such a file.
    """
    import json

    try:
        return tuple(
            (
                int(entry["depth"]),
                tuple((int(dr), int(dc)) for dr, dc in entry["stones"]),
                tuple((int(dr), int(dc)) for dr, dc in entry["carrier"]),
            )
            for entry in json.loads(text)["patterns"]
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not an edge-pattern file ({exc!r})") from None


@cache
def edge_patterns() -> tuple[EdgeEntry, ...]:
    """The edge patterns: connections from a cell to its edge that the H-search does not
    find by itself, most of them needing a second stone of the owner's (read from
    :data:`EDGE_PATTERN_FILE`)."""
    from importlib.resources import files

    return parse_edge_patterns(
        files("boardlab.hex").joinpath("data", EDGE_PATTERN_FILE).read_text()
    )


def _entries(templates: bool, patterns: bool) -> tuple[EdgeEntry, ...]:
    """The entries of an edge table: the one-stone templates, then the patterns."""
    found: tuple[EdgeEntry, ...] = ()
    if templates:
        found += tuple((depth, (), carrier) for depth, carrier in EDGE_TEMPLATES)
    if patterns:
        found += edge_patterns()
    return found


@cache
def edge_templates(n: int, width: int = 2, templates: bool = True, patterns: bool = False) -> Rows:
    """The one-stone :data:`EDGE_TEMPLATES` (with ``templates``) and the edge patterns
    (:func:`edge_patterns`, with ``patterns``) placed on an ``n x n`` board, sets of
    ``width`` words: rows ``2 * ((edge * n * n + anchor) * count + k)`` and the one after
    hold the carrier and the owner's other stones of the ``k``-th entry joining a stone on
    ``anchor`` to ``edge`` (0 and 1: player 1's columns 0 and ``n-1``, 2 and 3: player
    2's rows 0 and ``n-1``), no cell where it does not fit.
    """
    entries = _entries(templates, patterns)
    count = len(entries)
    table = np.zeros((2 * 4 * n * n * count, width), np.uint64)
    for edge in range(4):
        for anchor in range(n * n):
            for k, (depth, stones, carrier) in enumerate(entries):
                if not _at_depth(n, edge, anchor, depth):
                    continue
                cells = [_placed_any(n, edge, anchor, dr, dc) for dr, dc in carrier]
                own = [_placed_any(n, edge, anchor, dr, dc) for dr, dc in stones]
                if min(cells) < 0 or min(own, default=0) < 0:
                    continue
                row_ = 2 * ((edge * n * n + anchor) * count + k)
                table[row_] = as_words(sum(1 << cell for cell in cells), width)
                table[row_ + 1] = as_words(sum(1 << cell for cell in own), width)
    return table


class Knowledge:
    """An ``n x n`` board's neighbour sets, edge lines (column 0, column ``n-1``: player
    1's; row 0, row ``n-1``: player 2's), neighbour rings, dead-ring table and edge
    templates (:func:`edge_templates`), sets of one width."""

    __slots__ = ("lines", "n", "nbr", "ring", "table", "templates")

    def __init__(
        self, n: int, nbr: Rows, lines: Rows, ring: I64, table: B1, templates: Rows
    ) -> None:
        self.n, self.nbr, self.lines, self.ring, self.table = n, nbr, lines, ring, table
        self.templates = templates


@jit_inline
def ring_code(ring: I64, cell: int, black: Cells, white: Cells) -> int:
    """The code of ``cell``'s ring of six (:func:`boardlab.hex.board.dead_ring_table`)."""
    code = 0
    for k in range(6):
        v = ring[cell, k]
        if v >= 0:
            b = only(black, v)
            colour = 1 if meets(black, b) else (2 if meets(white, b) else 0)
        else:
            colour = -v
        code |= colour << (2 * k)
    return code


@jit_borrow
def dead_cells(n: int, ring: I64, table: B1, black: Cells, white: Cells) -> Cells:
    """The empty cells whose colour can never decide the game (see
    :func:`boardlab.hex.board.dead_ring_table`)."""
    found = nothing(black)
    taken = join(black, white)
    for cell in range(n * n):
        if not has(taken, cell) and table[ring_code(ring, cell, black, white)]:
            found = join(found, only(black, cell))
    return found


@jit_borrow
def fill_captured(n: int, ring: I64, table: B1, black: Cells, white: Cells) -> tuple[Cells, Cells]:
    """The position with every captured pair of cells filled by its captor.

    Two touching empty cells are captured by a colour when a stone of that colour on
    either one leaves the other dead: whatever the opponent plays in the pair, the
    captor answers in the other cell and the opponent's stone is dead. Filling such a
    pair with the captor's stones does not change who wins (Henderson and Hayward's
    captured-cell fill-in). Pairs are filled one at a time, each found on the board the
    earlier fills left, until none is left.
    """
    return fill_pairs(n, ring, table, black, white, 0)


#: The most empty cells a ring may hold, its partner in the pair included, for a cell of
#: a captured pair: the partner filled, a dead ring has at most two empty cells left
#: (:func:`boardlab.hex.board.dead_ring_table`; a test checks the table).
_MOST_OPEN = 3


@jit_inline
def _open_ring(ring: I64, cell: int, black: Cells, white: Cells) -> int:
    """The number of empty cells in ``cell``'s ring of six (edges are not cells)."""
    count = 0
    for k in range(6):
        v = ring[cell, k]
        if v >= 0 and not has(black, v) and not has(white, v):
            count += 1
    return count


@jit_borrow
def fill_pairs(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, owner: int
) -> tuple[Cells, Cells]:
    """:func:`fill_captured` for the pairs of both colours (``owner`` 0) or of player
    ``owner`` alone."""
    changed = True
    while changed:
        changed = False
        for x in range(n * n):
            if has(black, x) or has(white, x) or _open_ring(ring, x, black, white) > _MOST_OPEN:
                continue
            bx = only(black, x)
            for k in range(6):
                y = ring[x, k]
                if y <= x or has(black, y) or has(white, y):
                    continue
                if _open_ring(ring, y, black, white) > _MOST_OPEN:
                    continue
                by = only(black, y)
                if (
                    owner != _WHITE
                    and table[ring_code(ring, x, join(black, by), white)]
                    and table[ring_code(ring, y, join(black, bx), white)]
                ):
                    black = join(black, join(bx, by))
                    changed = True
                    break
                if (
                    owner != _BLACK
                    and table[ring_code(ring, x, black, join(white, by))]
                    and table[ring_code(ring, y, black, join(white, bx))]
                ):
                    white = join(white, join(bx, by))
                    changed = True
                    break
    return black, white


@jit
def verdict(
    n: int,
    nbr: Rows,
    lines: Rows,
    templates: Rows,
    black: Cells,
    white: Cells,
    given: Cells,
    dead: Cells,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    thorough: bool,
    seed: Rows,
    mover_seed: Rows,
    keep: bool,
    whole_union: bool,
) -> tuple[int, int, Cells, Cells, Rows, Rows]:
    """``(verdict, move, moves, proof, mine, theirs)`` for ``player`` (1 or 2) to move on
    the reduced position ``black``, ``white`` (the stones ``given`` and the captured
    pairs filled in) whose cells ``dead`` are dead.

    WIN comes with a winning ``move`` (-1 when the position is joined already and no
    cell is spare); LOSS and OPEN with ``move`` -1. ``moves`` is the must-play set for
    OPEN (every empty cell when the opponent threatens nothing, dead cells left out
    unless nothing else is left), else empty. ``proof`` is a set of empty cells the
    verdict rests on: the winner still wins when the loser gets every other empty cell
    (for OPEN every move outside ``moves`` still loses then): the filled-in and dead
    cells and the carriers of the connections used (the smallest full or semi one for a
    won or lost position; for a position settled by the opponent's semi connections the
    union of their carriers with ``whole_union``, else those of them that narrow the
    must-play set, see :func:`boardlab.hex.hsearch.hsearch`).

    A ``thorough`` analysis searches both players' connections, a light one only the
    opponent's (so it never finds a WIN by a connection). With ``keep`` the two searches
    hand back their connection tables, ``mine`` (the mover's) and ``theirs`` (the
    opponent's), for OPEN; ``seed`` starts the opponent's search and ``mover_seed`` the
    mover's (see :func:`boardlab.hex.hsearch.hsearch`). ``templates`` (or none) seed both
    with the edge templates.
    """
    width = len(black)
    empty = minus(every(black, n * n), join(black, white))
    base = join(minus(join(black, white), given), dead)
    none = np.empty((0, 2 * width), np.uint64)
    void = nothing(black)
    own, opp = (black, white) if player == _BLACK else (white, black)
    mine_edges = 0 if player == _BLACK else _EDGE_ROWS  # the mover's two edge lines
    their_edges = _EDGE_ROWS - mine_edges
    lo, hi = row(lines, mine_edges, black), row(lines, mine_edges + 1, black)
    olo, ohi = row(lines, their_edges, black), row(lines, their_edges + 1, black)
    filled_own = minus(own, given)
    if joined(nbr, join(own, dead), lo, hi):
        return WIN, lowest(join(filled_own, dead)), void, base, none, none
    if joined(nbr, join(opp, dead), olo, ohi):
        return LOSS, -1, void, base, none, none
    f, s, key, proof, mine = False, False, -1, void, none
    if thorough:
        f, s, _, key, proof, _, mine = hsearch(
            n, nbr, join(own, dead), opp, lo, hi, kf, ks, max_work, True, mover_seed, keep,
            templates, mine_edges,
        )  # fmt: skip
    if f or s:
        used = join(base, cut(proof, empty))
        if not f:
            return WIN, key, void, used, none, none
        spare = cut(proof, empty)
        if is_empty(spare):
            spare = join(filled_own, dead)
        return WIN, lowest(spare), void, used, none, none
    f, s, common, _, proof, union, theirs = hsearch(
        n, nbr, join(opp, dead), own, olo, ohi, kf, ks, max_work, False, seed, keep,
        templates, their_edges,
    )  # fmt: skip
    if f:
        return LOSS, -1, void, join(base, cut(proof, empty)), mine, none
    used = join(base, cut(union if whole_union else proof, empty))
    moves = minus(empty, dead)
    if s:
        moves = cut(moves, common)
        if is_empty(moves):
            return LOSS, -1, void, used, mine, none
    if is_empty(moves):
        moves = empty
    return OPEN, -1, moves, used, mine, theirs


@jit
def stones(n: int, board: I8, like: Cells) -> tuple[Cells, Cells]:
    """The black and the white stones of an ``int8`` board as cell sets of the width of
    ``like``."""
    black = nothing(like)
    white = nothing(like)
    for c in range(n * n):
        if board[c] == _BLACK:
            black = join(black, only(like, c))
        elif board[c] == _WHITE:
            white = join(white, only(like, c))
    return black, white


@jit
def analyse(
    n: int,
    nbr: U2,
    lines: U2,
    ring: I64,
    table: B1,
    templates: U2,
    board: I8,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    like: Cells,
    thorough: bool,
) -> tuple[int, int, U2]:
    """The engine's question: ``(verdict, move, moves)`` for ``player`` (1 or 2) to move
    on ``board`` (0 empty, 1 and 2 the players' stones, cell ``r * n + c``), on sets as
    wide as ``like`` (the width of the tables of ``knowledge(n, width)``); a light
    analysis (``thorough`` False) searches only the opponent's connections, so it finds
    no WIN by a connection of the mover's (see :func:`verdict`).

    The captured pairs are filled and the dead cells of the ring table found, then
    :func:`verdict` decides. WIN comes with a winning ``move``; LOSS and OPEN with
    ``move`` -1. ``moves`` is one row of two words: for OPEN the must-play set (every
    empty cell when the opponent threatens nothing), for WIN and LOSS empty.
    """
    given_b, given_w = stones(n, board, like)
    black, white = fill_captured(n, ring, table, given_b, given_w)
    dead = dead_cells(n, ring, table, black, white)
    none = np.empty((0, 2 * len(like)), np.uint64)
    found, move, moves, _, _, _ = verdict(
        n, nbr, lines, templates, black, white, join(given_b, given_w), dead, player,
        kf, ks, max_work, thorough, none, none, False, True,
    )  # fmt: skip
    out = np.zeros((1, len(like)), np.uint64)
    for word in range(len(like)):
        out[0, word] = moves[word]
    return found, move, out


@jit
def filled_board(n: int, ring: I64, table: B1, board: I8, player: int, like: Cells) -> I8:
    """``board`` (0 empty, 1 and 2 stones) with the captured pairs filled by their captors
    and the dead cells by the opponent of ``player`` (the side to move): the same winner
    (MoHex runs its playouts on such a reduced board); the cells left empty are the
    moves worth searching. Sets are as wide as ``like``."""
    black, white = stones(n, board, like)
    black, white = fill_captured(n, ring, table, black, white)
    dead = dead_cells(n, ring, table, black, white)
    out = board.copy()
    for c in range(n * n):
        if has(black, c):
            out[c] = _BLACK
        elif has(white, c):
            out[c] = _WHITE
        elif has(dead, c):
            out[c] = 3 - player
    return out
