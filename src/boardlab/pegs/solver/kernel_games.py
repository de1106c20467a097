"""Solver layer: numba kernels of the game count: paths from the start, and dead ends.

The forward pass of the game count carries, for every reachable class ``C``, the
weight ``T(C)``: the lines of play from the start into any board of ``C`` (the paths
into one board times the class's orbit size). Every board of a parent class ``P`` has
as many paths from the start (the group fixes the start) and as many jumps into ``C``,
so ``T(C) = sum of T(P) over the jumps from P's canonical board into C``, and
``T(start) = 1``. In one process the sums are made while the children are
deduplicated (:func:`sort_unique_counted`: each child carries its parent's weight
through the bucket pass); in shards, pushed children are added up by
:func:`add_checked`. A position with no jump left ends a
game: the games are the sum of ``T`` over the dead ends (:func:`dead_ends`,
:func:`sum_where`). Weights are 128-bit pairs (``lo``, ``hi``); a sum that would pass
2^128 is reported, never wrapped. ``tests/pegs/test_games.py`` checks them against
the pure-Python twins of :mod:`boardlab.pegs.solver.reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from boardlab.core.jit import jit, jit_inline, jit_parallel
from boardlab.pegs.solver.kernel import (
    BUCKET_BITS,
    PARTS,
    bucket_plan,
    bucket_starts,
    locate,
    part_firsts,
    popcount,
)

__all__ = [
    "add_checked",
    "dead_ends",
    "sort_unique_counted",
    "sort_unique_counted_in",
    "sum_where",
]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)


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
    at = locate(level, keys)
    for i in range(keys.size):
        if at[i] >= 0:
            overflow |= _add_weight(out_lo, out_hi, at[i], lo[i], hi[i])
    return out_lo, out_hi, overflow


@jit_inline
def _sum128(
    lo: np.uint64, hi: np.uint64, add_lo: np.uint64, add_hi: np.uint64
) -> tuple[np.uint64, np.uint64, bool]:
    """``(lo, hi) + (add_lo, add_hi)`` in 128 bits: the low word, the high word, and
    whether the sum passed 2^128."""
    low = lo + add_lo
    carry = _ONE if low < add_lo else _ZERO
    high = hi + add_hi
    top = high + carry
    return low, top, bool(high < add_hi or top < high)


@jit
def _add_weight(acc_lo: U64, acc_hi: U64, at: int, add_lo: np.uint64, add_hi: np.uint64) -> bool:
    """``acc[at] += add`` in 128 bits; True when the sum passed 2^128."""
    acc_lo[at], acc_hi[at], wrapped = _sum128(acc_lo[at], acc_hi[at], add_lo, add_hi)
    return wrapped


@jit
def _add_pair(acc: U64, at: int, add_lo: np.uint64, add_hi: np.uint64) -> bool:
    """``acc[at], acc[at + 1] += add`` (low word, high word side by side) in 128 bits;
    True when the sum passed 2^128."""
    acc[at], acc[at + 1], wrapped = _sum128(acc[at], acc[at + 1], add_lo, add_hi)
    return wrapped


@jit
def _dense(size: int, words: int) -> bool:
    """Whether a bucket of ``size`` values goes through the bitmap (else it is sorted)."""
    return words > 0 and size * 16 >= words


@jit
def _count_bucket(
    spread: U64, wlo: U64, whi: U64, wide: bool, lo: int, hi: int, bitmap: U64
) -> int:
    """The distinct values of one bucket; a sorted bucket is left sorted, its weights
    with it (the high words only when ``wide``)."""
    words = bitmap.size
    if _dense(hi - lo, words):
        mask = np.uint64(words * 64 - 1)
        for r in range(lo, hi):
            v = spread[r] & mask
            bitmap[v >> np.uint64(6)] |= _ONE << (v & np.uint64(63))
        count = 0
        for k in range(words):
            x = bitmap[k]
            if x != _ZERO:
                bitmap[k] = _ZERO
                count += popcount(x)
        return count
    order = np.argsort(spread[lo:hi], kind="mergesort")
    spread[lo:hi] = spread[lo:hi][order]
    wlo[lo:hi] = wlo[lo:hi][order]
    if wide:
        whi[lo:hi] = whi[lo:hi][order]
    count = 1
    for r in range(lo + 1, hi):
        if spread[r] != spread[r - 1]:
            count += 1
    return count


@jit
def _emit_bucket(
    spread: U64,
    wlo: U64,
    whi: U64,
    wide: bool,
    lo: int,
    hi: int,
    bitmap: U64,
    acc: U64,
    out: U64,
    out_lo: U64,
    out_hi: U64,
    w: int,
    base: np.uint64,
) -> tuple[int, bool]:
    """Write one bucket's distinct values (sorted) and the sums of their weights from
    ``out[w]`` on; return the next write position and the overflow. A dense bucket
    sums in ``acc`` (the low and high words of each low value side by side); without
    ``wide`` the weights' high words are zero and ``whi`` is not read."""
    words = bitmap.size
    overflow = False
    if _dense(hi - lo, words):
        mask = np.uint64(words * 64 - 1)
        for r in range(lo, hi):
            v = spread[r] & mask
            bitmap[v >> np.uint64(6)] |= _ONE << (v & np.uint64(63))
            overflow |= _add_pair(acc, 2 * int(v), wlo[r], whi[r] if wide else _ZERO)
        for k in range(words):
            x = bitmap[k]
            if x != _ZERO:
                bitmap[k] = _ZERO
                while x != _ZERO:
                    v = 2 * (64 * k + popcount((x & (_ZERO - x)) - _ONE))
                    out[w] = base | np.uint64(v >> 1)
                    out_lo[w] = acc[v]
                    out_hi[w] = acc[v + 1]
                    acc[v] = _ZERO
                    acc[v + 1] = _ZERO
                    w += 1
                    x &= x - _ONE
        return w, overflow
    for r in range(lo, hi):
        if r == lo or spread[r] != spread[r - 1]:
            out[w] = spread[r]
            w += 1
        overflow |= _add_weight(out_lo, out_hi, w - 1, wlo[r], whi[r] if wide else _ZERO)
    return w, overflow


def sort_unique_counted(
    values: U64, offsets: I64, plo: U64, phi: U64, nbits: int
) -> tuple[U64, U64, U64, bool]:
    """``(level, lo, hi, overflow)``: the distinct children, sorted (as
    :func:`boardlab.pegs.solver.kernel.sort_unique` gives them), each with the sum of its
    parents' 128-bit weights over the jumps into it; ``overflow`` when a sum passed 2^128.

    ``values`` are the children as :func:`boardlab.pegs.solver.kernel.expand` writes them,
    the children of parent ``i`` at ``offsets[i]:offsets[i + 1]``. The same bucket pass
    as ``sort_unique``, each child carrying its parent's weight; then every part of
    buckets counts its distinct values, and adds the weights in a second look: a dense
    bucket through a bitmap and an accumulator indexed by the low bits, a sparse one
    sorted with its weights. Plain Python around the parallel kernel (see
    :mod:`boardlab.core.jit`).
    """
    spread = np.empty(values.size, np.uint64)
    wlo = np.empty(values.size, np.uint64)
    whi = np.empty(values.size, np.uint64)
    return sort_unique_counted_in(values, offsets, plo, phi, nbits, spread, wlo, whi, PARTS)


@jit_parallel
def sort_unique_counted_in(
    values: U64,
    offsets: I64,
    plo: U64,
    phi: U64,
    nbits: int,
    spread: U64,
    wlo: U64,
    whi: U64,
    groups: int,
) -> tuple[U64, U64, U64, bool]:
    """:func:`sort_unique_counted` with its work arrays given (``spread``, ``wlo`` and
    ``whi``, each at least as long as ``values``; their contents are overwritten): a
    pass that keeps them from level to level spares the system mapping fresh memory for
    every level. ``groups``: the threads (``numba.get_num_threads()``; each zeroes one
    accumulator).

    The weights travel with the children in the bucket pass (read in the parents'
    order, one after another) rather than as parent indices: summing them through the
    indices read the parents' weights in no order, a cache miss a child, and took two
    thirds of the deduplication's time on the largest English levels."""
    n = values.size
    low, bins, chunks = bucket_plan(n, nbits)
    shift = np.uint64(low)
    fill, starts = bucket_starts(values, shift, bins, chunks)
    wide = bool(phi.any())  # else the high words are all zero: neither written nor read
    for c in prange(chunks):
        first_child = n * c // chunks
        parent = max(int(np.searchsorted(offsets, first_child, side="right")) - 1, 0)
        for i in range(first_child, n * (c + 1) // chunks):
            while offsets[parent + 1] <= i:
                parent += 1
            k = int(values[i] >> shift)
            at = fill[c, k]
            spread[at] = values[i]
            wlo[at] = plo[parent]
            if wide:
                whi[at] = phi[parent]
            fill[c, k] = at + 1
    first = part_firsts(starts, bins)
    words = (1 << low) >> 6 if low <= BUCKET_BITS else 0
    kept = np.zeros(PARTS + 1, np.int64)
    for q in prange(PARTS):
        bitmap = np.zeros(words, np.uint64)
        count = 0
        for k in range(first[q], first[q + 1]):
            if starts[k + 1] > starts[k]:
                count += _count_bucket(spread, wlo, whi, wide, starts[k], starts[k + 1], bitmap)
        kept[q + 1] = count
    offs = np.cumsum(kept)
    out = np.empty(offs[PARTS], np.uint64)
    out_lo = np.zeros(offs[PARTS], np.uint64)
    out_hi = np.zeros(offs[PARTS], np.uint64)
    flags = np.zeros(PARTS, np.bool_)
    # the parts in ``groups`` groups (one a thread), so that each thread zeroes its
    # accumulator once (a bucket's emit leaves it zero again) rather than once a part
    groups = max(1, min(groups, PARTS))
    for g in prange(groups):
        part, end = PARTS * g // groups, PARTS * (g + 1) // groups
        bitmap = np.zeros(words, np.uint64)
        acc = np.zeros(words * 128 if offs[end] > offs[part] else 0, np.uint64)
        for q in range(part, end):
            w = offs[q]
            for k in range(first[q], first[q + 1]):
                if starts[k + 1] > starts[k]:
                    w, wrapped = _emit_bucket(
                        spread, wlo, whi, wide, starts[k], starts[k + 1], bitmap, acc,
                        out, out_lo, out_hi, w, np.uint64(k) << shift,
                    )  # fmt: skip
                    flags[q] |= wrapped
    return out, out_lo, out_hi, bool(flags.any())
