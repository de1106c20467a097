"""Board layer: inferior moves of a Hex position (vulnerable and dominated cells), for both rooms.

On the cell sets of :mod:`boardlab.hex.cellsets` (one word up to 8x8, two up to 11x11,
three for the engine's 13x13: numba compiles one version per width from this one
source), from the dead cells of the ring table and the captured pairs of
:mod:`boardlab.hex.connections`: the mover's vulnerable cells (:func:`drop_vulnerable`)
and the dominated moves (:func:`drop_dominated`, :func:`dominators`). The prover leaves
them out of the moves worth trying (:mod:`boardlab.hex.prover.verdicts`); the engine
leaves them out of a tree node's children once the node is analysed
(:mod:`boardlab.hex.engine.kernel`).

Every function here is plain Python that numba compiles (``.py_func`` is its twin).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_borrow
from boardlab.hex.cellsets import (
    Cells,
    cut,
    every,
    has,
    is_empty,
    join,
    lowest,
    minus,
    nothing,
    only,
    put_row,
    row,
)
from boardlab.hex.connections import fill_captured, fill_pairs, ring_code, stones

__all__ = ["dominators", "drop_dominated", "drop_vulnerable", "pruned_moves"]

Rows = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]
I8 = npt.NDArray[np.int8]

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2


@jit_borrow
def _killed(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, c: int, fill: bool
) -> Cells:
    """The first killer of ``player``'s stone on ``c``: an empty neighbour whose opponent
    stone leaves it dead (with ``fill``, once the opponent's captured pairs are filled
    in), with the cells filled; no cell if there is none."""
    bc = only(black, c)
    for j in range(6):
        k = ring[c, j]
        if k < 0 or has(black, k) or has(white, k):
            continue
        bk = only(black, k)
        if player == _BLACK:
            b, w = join(black, bc), join(white, bk)
        else:
            b, w = join(black, bk), join(white, bc)
        fb, fw = fill_pairs(n, ring, table, b, w, 3 - player) if fill else (b, w)
        if table[ring_code(ring, c, fb, fw)]:
            return join(bk, minus(join(fb, fw), join(b, w)))
    return nothing(black)


@jit
def drop_vulnerable(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, moves: Cells
) -> tuple[Cells, Cells]:
    """``(moves, keep)``: the moves without the mover's vulnerable cells, and the cells a
    proof must keep empty for them.

    A cell is vulnerable when one opponent stone on a neighbour (its killer) would leave
    it dead, at once or once the opponent's captured pairs are filled in after it
    (:func:`boardlab.hex.connections.fill_pairs`; a fill-in keeps the value). Such a move
    is never needed: after it the opponent may kill it, and whatever the mover then wins
    it also wins by playing its next move at once (the opponent's extra stones only
    hurt). Following that argument from any winning vulnerable move ends at a winning
    move that is not vulnerable (each step adds opponent stones, which keep dead cells
    dead and captured pairs captured), so all of them can be dropped, one cell being
    kept if every move is vulnerable. A proof of the position must keep the killers and
    the fills they rely on empty, hence they are returned.
    """
    kept = nothing(moves)
    keep = nothing(moves)
    for c in range(n * n):
        if not has(moves, c):
            continue
        killed = _killed(n, ring, table, black, white, player, c, False)
        if is_empty(killed):
            killed = _killed(n, ring, table, black, white, player, c, True)
        if is_empty(killed):
            kept = join(kept, only(moves, c))
        else:
            keep = join(keep, killed)
    if is_empty(kept) and not is_empty(moves):
        kept = only(moves, lowest(moves))
    return kept, keep


@jit
def drop_dominated(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, moves: Cells
) -> Cells:
    """The moves without those another kept move dominates.

    Move ``d`` dominates move ``c`` when the mover's stone on ``d`` makes ``c`` fillable
    by the mover: ``c`` is dead, or filled when the mover's captured pairs are filled in
    one after the other (:func:`boardlab.hex.connections.fill_pairs`). Then the position
    after ``d`` is as good as with the mover on ``d``, ``c`` and the other fills, which
    is at least as good as after ``c`` alone. Moves are looked at in cell order as
    dominators, and a move not dropped yet drops the moves it dominates, so every dropped
    move leads through a chain of dominations to a kept one (a chain only points to
    moves kept at the time, so it cannot close on itself). No cell joins the proof: the
    cells outside it go to the loser, the mover, and fills and dead cells stay so however
    the empty cells around them are filled; if the loser already holds ``d``, ``c`` is
    fillable outright, a move that changes nothing.
    """
    dropped = nothing(moves)
    for d in range(n * n):
        if not has(moves, d) or has(dropped, d):
            continue
        within = minus(moves, join(dropped, only(moves, d)))
        dropped = join(dropped, _fillable_after(n, ring, table, black, white, player, d, within))
    return minus(moves, dropped)


@jit_borrow
def _fillable_after(
    n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int, d: int, within: Cells
) -> Cells:
    """The empty cells of ``within`` (``d`` left out) that ``player``'s stone on ``d``
    makes fillable by ``player``: dead, or filled when ``player``'s captured pairs are
    filled in one after the other. ``d`` dominates each of them (see
    :func:`drop_dominated`)."""
    bd = only(black, d)
    if player == _BLACK:
        fb, fw = fill_pairs(n, ring, table, join(black, bd), white, _BLACK)
    else:
        fb, fw = fill_pairs(n, ring, table, black, join(white, bd), _WHITE)
    within = minus(within, join(join(black, white), bd))
    made = cut(join(fb, fw), within)
    for c in range(n * n):
        if has(within, c) and not has(made, c) and table[ring_code(ring, c, fb, fw)]:
            made = join(made, only(black, c))
    return made


@jit
def dominators(n: int, ring: I64, table: B1, black: Cells, white: Cells, player: int) -> Rows:
    """For each empty cell ``c`` (a row of words), the empty cells ``d`` that dominate it
    for ``player`` (``d``'s stone makes ``c`` fillable, see :func:`drop_dominated`): a
    move on ``c`` is no better than one on ``d``, so ``c`` loses when ``d`` does and
    ``d`` wins when ``c`` does."""
    out = np.zeros((n * n, len(black)), np.uint64)
    everything = every(black, 64 * len(black))
    for d in range(n * n):
        if has(black, d) or has(white, d):
            continue
        made = _fillable_after(n, ring, table, black, white, player, d, everything)
        bd = only(black, d)
        for c in range(n * n):
            if has(made, c):
                put_row(out, c, join(row(out, c, black), bd))
    return out


@jit
def pruned_moves(
    n: int, ring: I64, table: B1, board: I8, player: int, moves: Rows, like: Cells
) -> Cells:
    """The cells of ``moves`` (one row of words: a must-play set on ``board``) left once
    the vulnerable and dominated moves of ``player`` (the side to move) are dropped, on
    ``board`` with its captured pairs filled in; sets as wide as ``like``. At least one
    cell of a set that had one is left (see :func:`drop_vulnerable`, :func:`drop_dominated`)."""
    black, white = stones(n, board, like)
    black, white = fill_captured(n, ring, table, black, white)
    kept = cut(row(moves, 0, like), minus(every(like, n * n), join(black, white)))
    if is_empty(kept):
        return kept
    kept, _ = drop_vulnerable(n, ring, table, black, white, player, kept)
    return drop_dominated(n, ring, table, black, white, player, kept)
