"""Solver layer: numba kernels of the partitioned level pass (shards of canonical forms).

A level is split into shards by a hash of each canonical form (:func:`shard_of`), so a
shard's children can be routed to their own shards and every shard deduplicated on its
own. The backward pass is written the other way round from
:func:`boardlab.pegs.solver.kernel.count_parents`: each winning position *pushes* its weight
to the canonical form of every parent it has (:func:`parents_of`), the pushes are routed
to the parents' shards, and each shard adds up what reached its own positions
(:func:`add_weights`); :func:`children_of` pushes the other way, along the jumps made,
for the counts from the start. ``tests/pegs/test_shards.py`` and
``tests/pegs/test_finish.py`` check them against the in-process pass and the pure-Python
twins of :mod:`boardlab.pegs.solver.reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from boardlab.core.jit import jit, jit_parallel
from boardlab.pegs.solver.kernel import (
    canon_moved,
    images_of,
    jump_images,
    jump_offsets,
    locate,
)

__all__ = [
    "add_weights",
    "children_of",
    "group_by_shard",
    "group_weighted_by_shard",
    "merge_unique",
    "parents_of",
    "shard_of",
    "shard_order",
]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
#: Fibonacci hashing: the golden-ratio multiplier spreads canonical forms (whose low and
#: high bits are far from uniform) over the shards.
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_HASH_SHIFT = np.uint64(32)
_BLOCK = 4096


@jit
def _shard(value: np.uint64, count: np.uint64) -> int:
    """The shard of one canonical form among ``count``."""
    return int(((value * _GOLDEN) >> _HASH_SHIFT) % count)


@jit_parallel
def shard_of(values: U64, shards: int) -> I64:
    """The shard of each canonical form (``0 .. shards - 1``)."""
    out = np.empty(values.size, np.int64)
    count = np.uint64(shards)
    for i in prange(values.size):
        out[i] = _shard(values[i], count)
    return out


@jit
def _shard_starts(values: U64, count: np.uint64, shards: int) -> I64:
    """Where each shard's group starts when ``values`` are grouped by shard."""
    starts = np.zeros(shards + 1, np.int64)
    for i in range(values.size):
        starts[_shard(values[i], count) + 1] += 1
    for j in range(shards):
        starts[j + 1] += starts[j]
    return starts


@jit
def shard_order(values: U64, shards: int) -> tuple[I64, I64]:
    """The order that groups ``values`` by shard (stable: each shard's values keep their
    order) and where each shard's group starts (``shards + 1`` offsets); a counting sort."""
    count = np.uint64(shards)
    starts = _shard_starts(values, count, shards)
    fill = starts[:-1].copy()
    order = np.empty(values.size, np.int64)
    for i in range(values.size):
        j = _shard(values[i], count)
        order[fill[j]] = i
        fill[j] += 1
    return order, starts


@jit
def group_by_shard(values: U64, shards: int) -> tuple[U64, I64]:
    """``values`` grouped by shard, each group in their order, and where each group
    starts: :func:`shard_order` and the gather in one pass (the hash is computed twice,
    and the writes go to one stream a shard instead of reads all over the input)."""
    count = np.uint64(shards)
    starts = _shard_starts(values, count, shards)
    fill = starts[:-1].copy()
    out = np.empty_like(values)
    for i in range(values.size):
        j = _shard(values[i], count)
        out[fill[j]] = values[i]
        fill[j] += 1
    return out, starts


@jit
def group_weighted_by_shard(
    values: U64, lo: U64, hi: U64, shards: int
) -> tuple[U64, U64, U64, I64]:
    """:func:`group_by_shard` with each value's 128-bit weight (``lo``, ``hi``) beside it."""
    count = np.uint64(shards)
    starts = _shard_starts(values, count, shards)
    fill = starts[:-1].copy()
    out = np.empty_like(values)
    out_lo = np.empty_like(lo)
    out_hi = np.empty_like(hi)
    for i in range(values.size):
        j = _shard(values[i], count)
        k = fill[j]
        out[k] = values[i]
        out_lo[k] = lo[i]
        out_hi[k] = hi[i]
        fill[j] = k + 1
    return out, out_lo, out_hi, starts


@jit
def merge_unique(values: U64, starts: I64) -> U64:
    """The distinct values of ``values``, sorted, when ``values`` is runs that are each
    sorted and distinct (run ``j`` is ``values[starts[j]:starts[j + 1]]``): runs are
    merged in pairs, round after round, so the work is linear in each round."""
    runs = starts.size - 1
    src = values.copy()
    dst = np.empty_like(src)
    begin = starts[:-1].copy()
    length = np.diff(starts)
    while runs > 1:
        kept = 0
        for p in range(0, runs, 2):
            a, na = begin[p], length[p]
            w = a
            if p + 1 < runs:
                b, nb = begin[p + 1], length[p + 1]
                i = j = 0
                while i < na or j < nb:
                    if j >= nb or (i < na and src[a + i] < src[b + j]):
                        x = src[a + i]
                        i += 1
                    elif i >= na or src[b + j] < src[a + i]:
                        x = src[b + j]
                        j += 1
                    else:  # equal: one copy
                        x = src[a + i]
                        i += 1
                        j += 1
                    if w == a or dst[w - 1] != x:
                        dst[w] = x
                        w += 1
            else:
                for i in range(na):
                    dst[w] = src[a + i]
                    w += 1
            begin[kept] = a
            length[kept] = w - a
            kept += 1
        runs = kept
        src, dst = dst, src
    if runs == 0:
        return np.zeros(0, np.uint64)
    return src[begin[0] : begin[0] + length[0]].copy()


@jit_parallel
def _push(
    wins: U64, lo: U64, hi: U64, holes: U64, pattern: U64, jimg: U64, table: U64
) -> tuple[U64, U64, U64]:
    """``(key, lo, hi)`` for every jump ``j`` with ``wins[i] & holes[j] == pattern[j]``:
    the canonical form after the jump (made or undone: both XOR its three holes) and the
    128-bit weight of ``wins[i]`` (duplicates kept)."""
    n = wins.size
    offsets = jump_offsets(wins, holes, pattern)
    keys = np.empty(offsets[n], np.uint64)
    out_lo = np.empty(offsets[n], np.uint64)
    out_hi = np.empty(offsets[n], np.uint64)
    nblocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(nblocks):
        images = np.empty(table.shape[0], np.uint64)
        for i in range(blk * _BLOCK, min(n, (blk + 1) * _BLOCK)):
            w = wins[i]
            images_of(w, table, images)
            k = offsets[i]
            for j in range(holes.size):
                if (w & holes[j]) == pattern[j]:
                    keys[k] = canon_moved(images, jimg, j)
                    out_lo[k] = lo[i]
                    out_hi[k] = hi[i]
                    k += 1
    return keys, out_lo, out_hi


def parents_of(
    wins: U64, lo: U64, hi: U64, mf: U64, mo: U64, mt: U64, table: U64
) -> tuple[U64, U64, U64]:
    """``(parent, lo, hi)`` for every jump undone from every winning position: the
    parent's canonical form and the child's 128-bit weight (duplicates kept).

    Plain Python around the parallel :func:`_push`, as :func:`children_of` is: a cached
    kernel that calls a ``parallel=True`` one may be loaded by a later process as a
    broken object (see :mod:`boardlab.core.jit`)."""
    return _push(wins, lo, hi, mf | mo | mt, mt, jump_images(mf, mo, mt, table), table)


def children_of(
    wins: U64, lo: U64, hi: U64, mf: U64, mo: U64, mt: U64, table: U64
) -> tuple[U64, U64, U64]:
    """``(child, lo, hi)`` for every jump made from every position: the child's
    canonical form and the parent's 128-bit weight (duplicates kept); the forward pass
    of path counts from the start (:mod:`boardlab.pegs.solver.finish`) pushes these."""
    return _push(wins, lo, hi, mf | mo | mt, mf | mo, jump_images(mf, mo, mt, table), table)


@jit
def add_weights(level: U64, keys: U64, lo: U64, hi: U64) -> tuple[U64, U64]:
    """The 128-bit sums of the weights pushed to each position of the sorted ``level``
    (pushes to forms not in ``level``, unreachable parents, are dropped)."""
    out_lo = np.zeros(level.size, np.uint64)
    out_hi = np.zeros(level.size, np.uint64)
    at = locate(level, keys)
    for i in range(keys.size):
        k = at[i]
        if k >= 0:
            s = out_lo[k] + lo[i]
            carry = _ONE if s < lo[i] else _ZERO
            out_lo[k] = s
            out_hi[k] += hi[i] + carry
    return out_lo, out_hi
