"""Prover layer: the verdict of one position of the exact solver, with its proof and moves (numba).

:func:`analyse` reduces the position (captured pairs filled, dead cells:
:mod:`boardlab.hex.prover.inferior`), runs the bounded H-search of
:mod:`boardlab.hex.prover.hsearch` for each player and turns it into a verdict for the
side to move: a won position (a full or semi virtual connection between its edges), a
lost one (the opponent's edge-to-edge connections leave no cell that is in all of their
carriers), or the *must-play* set of moves worth trying, less the inferior ones.

Every function here is plain Python that numba compiles; ``analyse.py_func`` is the
pure-Python twin the tests compare with on small boards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.board import dead_ring_table, ring_neighbours
from boardlab.hex.prover.hsearch import hsearch, joined, neighbour_masks
from boardlab.hex.prover.inferior import dead_cells, drop_dominated, drop_vulnerable, fill_captured

__all__ = ["LOSS", "OPEN", "WIN", "analyse", "warm"]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]
U2 = npt.NDArray[np.uint64]  # a connection table, rows of two words

WIN = 1
LOSS = -1
OPEN = 0

_ONE = np.uint64(1)
_ZERO = np.uint64(0)
#: Bits in one mask word.
_WORD_BITS = 64


@jit
def analyse(
    n: int,
    nbr: U64,
    lines: U64,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    kf: int,
    ks: int,
    max_work: int,
    seed: U2,
    thorough: bool,
    mover_seed: U2,
) -> tuple[int, np.uint64, np.uint64, np.uint64, np.uint64, U2, U2]:
    """``(verdict, moves, black, white, proof, vcs, theirs)`` for ``player`` (1 or 2) to
    move.

    The position is first reduced: captured pairs filled (:func:`fill_captured`), the
    returned ``black`` and ``white`` are the reduced stones (same winner). Then
    ``verdict`` is WIN (the mover has an edge-to-edge full or semi connection), LOSS
    (the opponent has a full one, or semi ones whose carriers share no cell) or OPEN,
    with ``moves`` the cells worth trying: inside every opponent connection's carrier,
    dead cells left out (unless nothing else is left).

    ``proof`` is a set of empty cells of the given position that the verdict rests on:
    the verdict stays true when every other empty cell goes to the loser (for OPEN: every
    move left out stays losing). It holds the filled-in and dead cells and the carriers
    of the connections used.

    A ``thorough`` analysis searches both players' connections and returns in ``vcs`` the
    mover's connection table and in ``theirs`` the opponent's (see :func:`hsearch`; both
    only for OPEN), for the analyses of the positions after its moves: they pass ``vcs``
    as ``seed``, which starts the search of the player who just moved (the opponent of
    ``player`` there), and ``theirs`` as ``mover_seed``, which starts the search of the
    side to move there, less the connections the new stone broke (measured on seven 7x7
    openings: 14,405 analysed positions in 159 s without ``mover_seed``, 15,440 in 112 s
    with it). A table with no rows stands for none. A light one (not ``thorough``: a
    first estimate for a position just reached) skips the mover's own search, so it
    never finds a WIN by a connection: after a move inside the must-play region the side
    to move seldom has one, and the search would cost as much as the rest (measured in
    ``docs/benchmarks/hex.md``).
    """
    cells = n * n
    board = (_ONE << np.uint64(cells)) - _ONE if cells < _WORD_BITS else ~_ZERO
    given = black | white
    black, white = fill_captured(n, ring, table, black, white)
    empty = board & ~(black | white)
    dead = dead_cells(n, ring, table, black, white)
    base = (black | white) & ~given | dead
    none = np.empty((0, 2), np.uint64)
    if player == 1:
        own, opp, lo, hi, olo, ohi = black, white, lines[0], lines[1], lines[2], lines[3]
    else:
        own, opp, lo, hi, olo, ohi = white, black, lines[2], lines[3], lines[0], lines[1]
    if joined(nbr, own | dead, lo, hi):
        return WIN, _ZERO, black, white, base, none, none
    if joined(nbr, opp | dead, olo, ohi):
        return LOSS, _ZERO, black, white, base, none, none
    f, s, proof, mine = False, False, _ZERO, none
    if thorough:
        f, s, _, proof, mine = hsearch(
            n, nbr, own | dead, opp, lo, hi, kf, ks, max_work, True, mover_seed, True
        )
    if f or s:
        return WIN, _ZERO, black, white, base | proof, none, none
    f, s, carrier, proof, theirs = hsearch(
        n, nbr, opp | dead, own, olo, ohi, kf, ks, max_work, False, seed, True
    )
    if f:
        return LOSS, _ZERO, black, white, base | proof, mine, none
    moves = empty & ~dead
    if s:
        moves &= carrier
        if moves == _ZERO:
            return LOSS, _ZERO, black, white, base | proof, mine, none
    if moves == _ZERO:
        moves = empty
    moves, killers = drop_vulnerable(n, ring, table, black, white, player, moves)
    moves = drop_dominated(n, ring, table, black, white, player, moves)
    return OPEN, moves, black, white, base | proof | killers, mine, theirs


def warm() -> Any:
    """Compile the kernels (one tiny call)."""
    nbr, lines = neighbour_masks(2)
    table = dead_ring_table()
    ring = ring_neighbours(2)
    none = np.empty((0, 2), np.uint64)
    return analyse(
        2, nbr, lines, ring, table, np.uint64(0), np.uint64(0), 1, 2, 2, 10, none, True, none
    )
