"""Prover layer: the verdict of one position of the exact solver, with its proof and moves (numba).

:func:`analyse` reduces the position (captured pairs filled; dead cells of the ring
table, or with ``regions`` the dead regions of :func:`boardlab.hex.prover.inferior.dead_regions`),
asks the shared :func:`boardlab.hex.connections.verdict` (the H-search of both players)
and leaves the inferior moves out of an open position's must-play set
(:mod:`boardlab.hex.prover.inferior`). One source for every board size: on one-word cell
sets up to 8x8 (the DFPN of :mod:`boardlab.hex.prover.dfpn`, with the incremental
H-search), on two words up to 11x11 (:mod:`boardlab.hex.prover.wide`, with the edge
templates); numba compiles one version per width.

Every function here is plain Python that numba compiles; ``analyse.py_func`` is the
pure-Python twin the tests compare with on small boards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.cellsets import Cells, cut, every, is_empty, join, minus, row, within
from boardlab.hex.connections import (
    LOSS,
    OPEN,
    WIN,
    dead_cells,
    fill_captured,
    knowledge,
    verdict,
)
from boardlab.hex.inferior import drop_dominated, drop_vulnerable
from boardlab.hex.prover.farpairs import fill_far_pairs
from boardlab.hex.prover.inferior import dead_regions
from boardlab.hex.prover.localfill import fill_local_games
from boardlab.hex.prover.vcfill import vc_captured

__all__ = ["LOSS", "OPEN", "WIN", "analyse", "warm"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

#: The words of the prover's sets past 8x8.
_WIDE = 2
_BLACK = 1
#: Rounds of connection-based fill-in an analysis makes at most (each then searches again).
VC_ROUNDS = 2


@jit
def analyse(
    n: int,
    nbr: Rows,
    lines: Rows,
    ring: I64,
    table: B1,
    black: Cells,
    white: Cells,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    seed: Rows,
    thorough: bool,
    mover_seed: Rows,
    templates: Rows,
    regions: bool,
    vcfill: bool,
    far_pairs: bool,
    local_games: bool,
) -> tuple[int, int, Cells, Cells, Cells, Cells, Rows, Rows]:
    """``(verdict, move, moves, black, white, proof, vcs, theirs)`` for ``player`` (1 or
    2) to move.

    The position is first reduced: captured pairs filled
    (:func:`boardlab.hex.connections.fill_captured`), the returned ``black`` and ``white``
    are the reduced stones (same winner). Then ``verdict`` is WIN (the mover has an
    edge-to-edge full or semi connection; ``move`` wins), LOSS (the opponent has a full
    one, or semi ones whose carriers share no cell) or OPEN, with ``moves`` the cells
    worth trying: inside every opponent connection's carrier, dead cells left out
    (unless nothing else is left), less the mover's vulnerable and dominated cells.

    ``proof`` is a set of empty cells of the given position that the verdict rests on:
    the verdict stays true when every other empty cell goes to the loser (for OPEN: every
    move left out stays losing). It holds the filled-in and dead cells, the carriers of
    the connections used and the killers of the vulnerable cells.

    With ``regions`` (the two-word search) the dead cells are the dead regions and a
    position settled by the opponent's semi connections rests on all their carriers;
    without, on those that narrow the must-play set. ``templates`` (rows of
    :func:`boardlab.hex.connections.edge_templates`, or none) seed both searches with the
    edge templates.

    A ``thorough`` analysis searches both players' connections and returns in ``vcs`` the
    mover's connection table and in ``theirs`` the opponent's (see
    :func:`boardlab.hex.hsearch.hsearch`; both only for OPEN), for the analyses of the
    positions after its moves: they pass ``vcs`` as ``seed``, which starts the search of
    the player who just moved (the opponent of ``player`` there), and ``theirs`` as
    ``mover_seed``, which starts the search of the side to move there, less the
    connections the new stone broke (measured on seven 7x7 openings: 14,405 analysed
    positions in 159 s without ``mover_seed``, 15,440 in 112 s with it). A table with no
    rows stands for none. A light one (not ``thorough``: a first estimate for a position
    just reached) skips the mover's own search, so it never finds a WIN by a connection:
    after a move inside the must-play region the side to move seldom has one, and the
    search would cost as much as the rest (measured in ``docs/benchmarks/hex.md``).

    With ``vcfill`` (and ``thorough``) an open position is reduced further by the regions
    a player captures through its connections (:mod:`boardlab.hex.prover.vcfill`, found
    from both searches' tables): they are filled, and the analysis
    runs again on the filled position, its searches started from the tables just found,
    :data:`VC_ROUNDS` times at most. The filled cells join the proof.

    With ``far_pairs`` the captured pairs of cells at any distance
    (:func:`boardlab.hex.prover.farpairs.fill_far_pairs`) and with ``local_games`` the
    regions of two or three cells their local game settles
    (:func:`boardlab.hex.prover.localfill.fill_local_games`, mixed colours too) are filled
    before anything else, each fill letting the others and the ring patterns' pairs fill
    more until none does (:func:`_fill_all_pairs`); like the captured pairs, those cells
    are part of the returned stones.
    """
    given = join(black, white)
    rounds = 0
    while True:
        black, white = fill_captured(n, ring, table, black, white)
        if far_pairs or local_games:
            black, white = _fill_all_pairs(
                n, nbr, lines, ring, table, black, white, far_pairs, local_games
            )
        if regions:
            edges = (
                row(lines, 0, black),
                row(lines, 1, black),
                row(lines, 2, black),
                row(lines, 3, black),
            )
            dead = dead_regions(n, ring, table, edges, black, white)
        else:
            dead = dead_cells(n, ring, table, black, white)
        found, move, moves, proof, mine, theirs = verdict(
            n, nbr, lines, templates, black, white, given, dead, player, kf, ks, max_work,
            thorough, seed, mover_seed, True, regions,
        )  # fmt: skip
        if found != OPEN or not vcfill or not thorough or rounds >= VC_ROUNDS:
            break
        rounds += 1
        fill_b, fill_w = _vc_regions(n, nbr, lines, black, white, dead, player, mine, theirs)
        if is_empty(fill_b) and is_empty(fill_w):
            break
        black, white = join(black, fill_b), join(white, fill_w)
        # the tables found start the searches again (the owner gained stones in each)
        seed, mover_seed = theirs, mine
    if found != OPEN:
        return found, move, moves, black, white, proof, mine, theirs
    moves, killers = drop_vulnerable(n, ring, table, black, white, player, moves)
    moves = drop_dominated(n, ring, table, black, white, player, moves)
    empty = minus(every(black, n * n), join(black, white))
    proof = join(proof, cut(killers, empty))
    return OPEN, -1, moves, black, white, proof, mine, theirs


@jit
def _fill_all_pairs(
    n: int,
    nbr: Rows,
    lines: Rows,
    ring: I64,
    table: B1,
    black: Cells,
    white: Cells,
    far_pairs: bool,
    local_games: bool,
) -> tuple[Cells, Cells]:
    """The position with the captured pairs of :func:`boardlab.hex.prover.farpairs.fill_far_pairs`
    (with ``far_pairs``) and the regions :func:`boardlab.hex.prover.localfill.fill_local_games`
    settles (with ``local_games``) filled, and the ring patterns' pairs those fills make,
    until none finds more (each may open the way to the others: on MoHex's puzzle
    11x11-henderson-03 the pair d9 e9 a local game fills leaves far pairs that take the
    proof from about 6,900 positions to 1,000)."""
    while True:
        more_black, more_white = black, white
        if far_pairs:
            more_black, more_white = fill_far_pairs(n, nbr, lines, more_black, more_white)
        if local_games:
            more_black, more_white = fill_local_games(n, nbr, lines, more_black, more_white)
        if within(more_black, black) and within(more_white, white):
            return black, white
        black, white = fill_captured(n, ring, table, more_black, more_white)


@jit
def _vc_regions(
    n: int,
    nbr: Rows,
    lines: Rows,
    black: Cells,
    white: Cells,
    dead: Cells,
    player: int,
    mine: Rows,
    theirs: Rows,
) -> tuple[Cells, Cells]:
    """The regions each player captures through its connections
    (:func:`boardlab.hex.prover.vcfill.vc_captured`), found from the two searches' tables
    (``mine`` the mover's, ``theirs`` the opponent's; both ran with the dead cells given to
    their owner): ``(black's, white's)``, a region both could fill going to the mover."""
    lb, hb = row(lines, 0, black), row(lines, 1, black)
    lw, hw = row(lines, 2, black), row(lines, 3, black)
    by_black = vc_captured(
        n, nbr, join(black, dead), white, lb, hb, lw, hw, mine if player == _BLACK else theirs
    )
    by_white = vc_captured(
        n, nbr, join(white, dead), black, lw, hw, lb, hb, theirs if player == _BLACK else mine
    )
    if player == _BLACK:
        return by_black, minus(by_white, by_black)
    return minus(by_black, by_white), by_white


def warm() -> Any:
    """Compile the kernels (one tiny call on one word and one on two)."""
    out = None
    for width in (1, _WIDE):
        k = knowledge(2, width)
        zero = tuple(np.uint64(0) for _ in range(width))
        none = np.empty((0, 2 * width), np.uint64)
        out = analyse(
            2, k.nbr, k.lines, k.ring, k.table, zero, zero, 1, 2, 2, 10, none, True, none,
            k.templates if width == _WIDE else np.empty((0, 1), np.uint64), width == _WIDE,
            True, True, True,
        )  # fmt: skip
    return out
