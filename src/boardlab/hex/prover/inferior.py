"""Prover layer: inferior cells of the solver's positions (dead, captured, vulnerable, dominated).

Boards of at most 64 cells: a set of cells is a ``uint64`` with cell ``(r, c)`` at bit
``r * n + c``. A cell's ring of six neighbours (:func:`boardlab.hex.board.ring_neighbours`)
is read as a ring code and looked up in :func:`boardlab.hex.board.dead_ring_table`, the
one definition of a dead cell; from it follow the captured pairs
(:func:`fill_captured`), the mover's vulnerable cells (:func:`drop_vulnerable`) and the
dominated moves (:func:`drop_dominated`, :func:`dominators`), which the verdicts
(:mod:`boardlab.hex.prover.verdicts`) leave out of the moves worth trying.

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = [
    "dead_cells",
    "dominators",
    "drop_dominated",
    "drop_vulnerable",
    "fill_captured",
    "fill_pairs",
    "ring_code",
]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

_ONE = np.uint64(1)
_ZERO = np.uint64(0)

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2


@jit
def ring_code(ring: I64, cell: int, black: np.uint64, white: np.uint64) -> int:
    code = 0
    for k in range(6):
        v = ring[cell, k]
        if v >= 0:
            b = _ONE << np.uint64(v)
            colour = 1 if black & b else (2 if white & b else 0)
        else:
            colour = -v
        code |= colour << (2 * k)
    return code


@jit
def dead_cells(n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64) -> np.uint64:
    """The empty cells whose ring code is dead in ``table`` (see :func:`dead_ring_table`)."""
    found = _ZERO
    for cell in range(n * n):
        b = _ONE << np.uint64(cell)
        if (black | white) & b:
            continue
        if table[ring_code(ring, cell, black, white)]:
            found |= b
    return found


@jit
def fill_captured(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """The position with every captured pair of cells filled by its captor.

    Two touching empty cells are captured by a colour when a stone of that colour on
    either one leaves the other dead: whatever the opponent plays in the pair, the
    captor answers in the other cell and the opponent's stone is dead. Filling such a
    pair with the captor's stones does not change who wins (Henderson and Hayward's
    captured-cell fill-in). Pairs are filled one at a time, each found on the board the
    earlier fills left, until none is left.
    """
    return fill_pairs(n, ring, table, black, white, 0)


@jit
def fill_pairs(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, only: int
) -> tuple[np.uint64, np.uint64]:
    """:func:`fill_captured` for the pairs of both colours (``only`` 0) or of player
    ``only`` alone."""
    changed = True
    while changed:
        changed = False
        for x in range(n * n):
            bx = _ONE << np.uint64(x)
            if (black | white) & bx:
                continue
            for k in range(6):
                y = ring[x, k]
                if y <= x:
                    continue
                by = _ONE << np.uint64(y)
                if (black | white) & by:
                    continue
                if (
                    only != _WHITE
                    and table[ring_code(ring, x, black | by, white)]
                    and table[ring_code(ring, y, black | bx, white)]
                ):
                    black |= bx | by
                    changed = True
                    break
                if (
                    only != _BLACK
                    and table[ring_code(ring, x, black, white | by)]
                    and table[ring_code(ring, y, black, white | bx)]
                ):
                    white |= bx | by
                    changed = True
                    break
    return black, white


@jit
def _killed(
    n: int,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    c: int,
    fill: bool,
) -> np.uint64:
    """The first killer of ``player``'s stone on ``c``: an empty neighbour whose opponent
    stone leaves it dead (with ``fill``, once the opponent's captured pairs are filled
    in), with the cells filled; no cell if there is none."""
    bc = _ONE << np.uint64(c)
    for j in range(6):
        k = ring[c, j]
        if k < 0:
            continue
        bk = _ONE << np.uint64(k)
        if (black | white) & bk:
            continue
        b, w = (black | bc, white | bk) if player == 1 else (black | bk, white | bc)
        if fill:
            fb, fw = fill_pairs(n, ring, table, b, w, 3 - player)
        else:
            fb, fw = b, w
        if table[ring_code(ring, c, fb, fw)]:
            return bk | ((fb | fw) & ~(b | w))
    return _ZERO


@jit
def drop_vulnerable(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int, moves: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """``(moves, keep)``: the moves without the mover's vulnerable cells, and the cells a
    proof must keep empty for them.

    A cell is vulnerable when one opponent stone on a neighbour (its killer) would leave
    it dead, at once or once the opponent's captured pairs are filled in after it
    (:func:`fill_pairs`; a fill-in keeps the value). Such a move is never needed: after
    it the opponent may kill it, and whatever the mover then wins it also wins by
    playing its next move at once (the opponent's extra stones only hurt). Following
    that argument from any winning vulnerable move ends at a winning move that is not
    vulnerable (each step adds opponent stones, which keep dead cells dead and captured
    pairs captured), so all of them can be dropped, one cell being kept if every move is
    vulnerable. A proof of the position must keep the killers and the fills they rely on
    empty, hence they are returned.
    """
    kept = _ZERO
    keep = _ZERO
    for c in range(n * n):
        bc = _ONE << np.uint64(c)
        if not moves & bc:
            continue
        killed = _killed(n, ring, table, black, white, player, c, False)
        if killed == _ZERO:
            killed = _killed(n, ring, table, black, white, player, c, True)
        if killed == _ZERO:
            kept |= bc
        else:
            keep |= killed
    if kept == _ZERO:
        kept = moves & (~moves + _ONE)  # the lowest move
    return kept, keep


@jit
def drop_dominated(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int, moves: np.uint64
) -> np.uint64:
    """The moves without those another kept move dominates.

    Move ``d`` dominates move ``c`` when the mover's stone on ``d`` makes ``c`` fillable
    by the mover: ``c`` is dead, or filled when the mover's captured pairs are filled in
    one after the other (:func:`fill_pairs`). Then the position after ``d`` is as good
    as with the mover on ``d``, ``c`` and the other fills, which is at least as good as
    after ``c`` alone. Moves are looked at in cell order as dominators, and a move not
    dropped yet drops the moves it dominates, so every dropped move leads through a
    chain of dominations to a kept one (a chain only points to moves kept at the time,
    so it cannot close on itself). No cell joins the proof: the cells outside it go to
    the loser, the mover, and fills and dead cells stay so however the empty cells
    around them are filled; if the loser already holds ``d``, ``c`` is fillable outright,
    a move that changes nothing.
    """
    dropped = _ZERO
    for d in range(n * n):
        bd = _ONE << np.uint64(d)
        if not moves & bd or dropped & bd:
            continue
        dropped |= _fillable_after(n, ring, table, black, white, player, d, moves & ~dropped & ~bd)
    return moves & ~dropped


@jit
def _fillable_after(
    n: int,
    ring: I64,
    table: B1,
    black: np.uint64,
    white: np.uint64,
    player: int,
    d: int,
    within: np.uint64,
) -> np.uint64:
    """The empty cells of ``within`` (``d`` left out) that ``player``'s stone on ``d``
    makes fillable by ``player``: dead, or filled when ``player``'s captured pairs are
    filled in one after the other (:func:`fill_pairs`). ``d`` dominates each of them
    (see :func:`drop_dominated`)."""
    bd = _ONE << np.uint64(d)
    if player == 1:
        fb, fw = fill_pairs(n, ring, table, black | bd, white, _BLACK)
    else:
        fb, fw = fill_pairs(n, ring, table, black, white | bd, _WHITE)
    within &= ~(black | white | bd)
    made = (fb | fw) & within
    for c in range(n * n):
        bc = _ONE << np.uint64(c)
        if within & bc and not made & bc and table[ring_code(ring, c, fb, fw)]:
            made |= bc
    return made


@jit
def dominators(
    n: int, ring: I64, table: B1, black: np.uint64, white: np.uint64, player: int
) -> U64:
    """For each empty cell ``c``, the empty cells ``d`` that dominate it for ``player``
    (``d``'s stone makes ``c`` fillable, see :func:`drop_dominated`): a move on ``c`` is
    no better than one on ``d``, so ``c`` loses when ``d`` does and ``d`` wins when ``c``
    does."""
    out = np.zeros(n * n, np.uint64)
    for d in range(n * n):
        bd = _ONE << np.uint64(d)
        if (black | white) & bd:
            continue
        made = _fillable_after(n, ring, table, black, white, player, d, ~_ZERO)
        for c in range(n * n):
            if made & (_ONE << np.uint64(c)):
                out[c] |= bd
    return out
