"""Solver layer: numba kernels of the game count: paths from the start, and dead ends.

The forward pass of the game count carries, for every reachable class ``C``, the
weight ``T(C)``: the lines of play from the start into any board of ``C`` (the paths
into one board times the class's orbit size). Every board of a parent class ``P`` has
as many paths from the start (the group fixes the start) and as many jumps into ``C``,
so ``T(C) = sum of T(P) over the jumps from P's canonical board into C``
(:func:`count_children`; :func:`add_checked` adds the pushes of the pass in shards),
and ``T(start) = 1``. A position with no jump left ends a
game: the games are the sum of ``T`` over the dead ends (:func:`dead_ends`,
:func:`sum_where`). Weights are 128-bit pairs (``lo``, ``hi``); a sum that would pass
2^128 is reported, never wrapped. ``tests/pegs/test_games.py`` checks them against
the pure-Python twins of :mod:`boardlab.pegs._solver_reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from boardlab.core.jit import jit, jit_parallel
from boardlab.pegs._kernel import (
    build_index,
    canon_moved,
    find,
    images_of,
    index_bits,
    jump_images,
    jump_offsets,
)

__all__ = ["add_checked", "count_children", "dead_ends", "sum_where"]

U64 = npt.NDArray[np.uint64]
B1 = npt.NDArray[np.bool_]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_BLOCK = 4096


@jit_parallel
def count_children(
    parents: U64,
    lo: U64,
    hi: U64,
    level: U64,
    mf: U64,
    mo: U64,
    mt: U64,
    table: U64,
    nbits: int,
) -> tuple[U64, U64, bool]:
    """``(lo, hi, overflow)``: the weights ``T`` of the sorted ``level`` (canonical forms
    one peg below ``parents``), each the sum of the parents' 128-bit weights over their
    jumps into it; ``overflow`` when a sum passed 2^128 (the weights are then wrong).

    The children are found in ``level`` in parallel, the sums done in one serial pass.
    A child not in ``level`` is skipped (a caller passes the whole level below).
    """
    bits = index_bits(level.size, nbits)
    index = build_index(level, nbits, bits)
    shift = np.uint64(max(nbits - bits, 0))
    n = parents.size
    nj = mf.size
    jimg = jump_images(mf, mo, mt, table)
    holes = mf | mo | mt
    full = mf | mo
    offsets = jump_offsets(parents, holes, full)
    hits = np.empty(offsets[n], np.int32)
    nblocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(nblocks):
        images = np.empty(table.shape[0], np.uint64)
        for i in range(blk * _BLOCK, min(n, (blk + 1) * _BLOCK)):
            p = parents[i]
            images_of(p, table, images)
            k = offsets[i]
            for j in range(nj):
                if (p & holes[j]) == full[j]:
                    hits[k] = find(level, index, shift, canon_moved(images, jimg, j))
                    k += 1
    lo_out = np.zeros(level.size, np.uint64)
    hi_out = np.zeros(level.size, np.uint64)
    overflow = False
    for i in range(n):
        add_lo = lo[i]
        add_hi = hi[i]
        for k in range(offsets[i], offsets[i + 1]):
            at = hits[k]
            if at < 0:
                continue
            low = lo_out[at] + add_lo
            carry = _ONE if low < add_lo else _ZERO
            lo_out[at] = low
            high = hi_out[at] + add_hi
            if high < add_hi:
                overflow = True
            top = high + carry
            if top < high:
                overflow = True
            hi_out[at] = top
    return lo_out, hi_out, overflow


@jit_parallel
def dead_ends(level: U64, mf: U64, mo: U64, mt: U64) -> B1:
    """Which positions of ``level`` have no jump left."""
    holes = mf | mo | mt
    full = mf | mo
    out = np.empty(level.size, np.bool_)
    for i in prange(level.size):
        p = level[i]
        dead = True
        for j in range(holes.size):
            if (p & holes[j]) == full[j]:
                dead = False
                break
        out[i] = dead
    return out


@jit
def sum_where(lo: U64, hi: U64, mask: B1) -> tuple[np.uint64, np.uint64, int]:
    """The sum of the 128-bit weights where ``mask`` is set, as three 64-bit words
    ``(low, high, top)`` (a sum of many 128-bit weights may pass 2^128)."""
    s_lo = _ZERO
    s_hi = _ZERO
    s_top = 0
    for i in range(lo.size):
        if not mask[i]:
            continue
        low = s_lo + lo[i]
        carry = _ONE if low < lo[i] else _ZERO
        s_lo = low
        high = s_hi + hi[i]
        if high < hi[i]:
            s_top += 1
        top = high + carry
        if top < high:
            s_top += 1
        s_hi = top
    return s_lo, s_hi, s_top


@jit
def add_checked(level: U64, keys: U64, lo: U64, hi: U64) -> tuple[U64, U64, bool]:
    """``(lo, hi, overflow)``: the 128-bit sums of the weights pushed to each position of
    the sorted ``level`` (pushes to forms not in ``level`` dropped); ``overflow`` when a
    sum passed 2^128."""
    out_lo = np.zeros(level.size, np.uint64)
    out_hi = np.zeros(level.size, np.uint64)
    overflow = False
    at = np.searchsorted(level, keys)
    for i in range(keys.size):
        k = at[i]
        if k < level.size and level[k] == keys[i]:
            low = out_lo[k] + lo[i]
            carry = _ONE if low < lo[i] else _ZERO
            out_lo[k] = low
            high = out_hi[k] + hi[i]
            if high < hi[i]:
                overflow = True
            top = high + carry
            if top < high:
                overflow = True
            out_hi[k] = top
    return out_lo, out_hi, overflow
