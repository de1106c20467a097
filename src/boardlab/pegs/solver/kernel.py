"""Solver layer: numba kernels of the peg-solitaire solver, on ``uint64`` bitsets.

A position is a ``uint64`` whose bit ``i`` is set when hole ``i`` holds a peg (boards
of up to 64 holes). Jumps come as three mask arrays ``mf``, ``mo``, ``mt`` (the bit of
the hole jumped from, over and to). A symmetry group comes as chunk tables: ``table[s,
b, v]`` is the image under symmetry ``s`` of the chunk value ``v`` placed at chunk ``b``
(chunks of up to 11 bits: 3 lookups an image on the English board); an image is the
OR of a few table lookups and the canonical form is the smallest image. Symmetries
permute holes, so they commute with XOR: the images of a child ``p ^ m`` are those of
``p`` XOR those of the jump's three holes (:func:`jump_images`). The level kernels
take a parent's images once and get each child's canonical form with one XOR and one
comparison per symmetry (:func:`canon_moved`).

Path counts are 128-bit pairs (``lo``, ``hi``) of ``uint64``: they pass 2^64 on
large boards and numba would wrap silently. ``tests/pegs/test_solver_kernel.py``
checks every kernel against its pure-Python twin in :mod:`boardlab.pegs.solver.reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from boardlab.core.bits import popcount, trailing_zeros
from boardlab.core.jit import jit, jit_inline, jit_parallel

__all__ = [
    "BUCKET_BITS",
    "PARTS",
    "bucket_plan",
    "bucket_starts",
    "canon",
    "chain_min",
    "count_parents",
    "dfs_run",
    "expand",
    "expand_at",
    "level_index",
    "locate",
    "orbit_sizes",
    "part_firsts",
    "popcount",
    "sort_unique",
]

#: Up to this many low hash bits, buckets are marked in a bitmap; beyond it every bucket is sorted.
BUCKET_BITS = 20

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BYTE = np.uint64(255)
PARTS = 64
_INDEX_BITS = 16
_FIND_BITS = 20
_LEVEL_FIND_BITS = 16
_WORD = 64


@jit
def image(x: np.uint64, table: U64, s: int) -> np.uint64:
    """The image of ``x`` under symmetry ``s``."""
    mask = np.uint64(table.shape[2] - 1)
    width = np.uint64(popcount(mask))
    y = _ZERO
    shift = _ZERO
    for b in range(table.shape[1]):
        y |= table[s, b, (x >> shift) & mask]
        shift += width
    return y


@jit
def canon(x: np.uint64, table: U64) -> np.uint64:
    """The canonical form of ``x``: its smallest image under the group."""
    mask = np.uint64(table.shape[2] - 1)
    width = np.uint64(popcount(mask))
    best = _ALL
    for s in range(table.shape[0]):
        y = _ZERO
        shift = _ZERO
        for b in range(table.shape[1]):
            y |= table[s, b, (x >> shift) & mask]
            shift += width
        if y < best:
            best = y
    return best


@jit
def jump_images(mf: U64, mo: U64, mt: U64, table: U64) -> U64:
    """``out[j, s]``: the image under symmetry ``s`` of the three holes of jump ``j``.

    Symmetries permute holes, so they commute with XOR: the image of a child
    ``p ^ m`` is the image of ``p`` XOR the image of ``m``. A child's canonical form
    then costs one XOR and one comparison per symmetry instead of table lookups."""
    nsym = table.shape[0]
    out = np.empty((mf.size, nsym), np.uint64)
    for j in range(mf.size):
        for s in range(nsym):
            out[j, s] = image(mf[j] | mo[j] | mt[j], table, s)
    return out


@jit
def images_of(x: np.uint64, table: U64, out: U64) -> None:
    """Every image of ``x`` into ``out`` (one per symmetry)."""
    for s in range(table.shape[0]):
        out[s] = image(x, table, s)


@jit
def canon_moved(images: U64, jimg: U64, j: int) -> np.uint64:
    """The canonical form of the position ``images`` stands for, after jump ``j``."""
    best = _ALL
    for s in range(images.size):
        y = images[s] ^ jimg[j, s]
        if y < best:
            best = y
    return best


_BLOCK = 4096


@jit
def jump_words(holes: U64, pattern: U64) -> tuple[U64, U64]:
    """``(holes, pattern)`` padded to a whole number of 64-jump words for
    :func:`jump_word` (a padding jump never matches: no holes, a non-zero pattern)."""
    size = (holes.size + _WORD - 1) // _WORD * _WORD
    hp = np.zeros(size, np.uint64)
    fp = np.ones(size, np.uint64)
    hp[: holes.size] = holes
    fp[: holes.size] = pattern
    return hp, fp


@jit_inline
def jump_word(p: np.uint64, hp: U64, fp: U64, w: int) -> np.uint64:
    """Bit ``b`` set when jump ``64 w + b`` matches ``p`` (``p & holes == pattern``; the
    arrays from :func:`jump_words`). Without a branch a jump the loop vectorises: a
    test and a branch a jump mispredicted about every tenth jump, and took half of
    the expansion's time."""
    m = _ZERO
    base = w * _WORD
    for b in range(_WORD):
        m |= np.uint64((p & hp[base + b]) == fp[base + b]) << np.uint64(b)
    return m


@jit_parallel
def jump_offsets(positions: U64, holes: U64, pattern: U64) -> I64:
    """Where each position's entries start when it has one entry per jump ``j`` with
    ``positions[i] & holes[j] == pattern[j]`` (``pattern`` = ``mf | mo``: the jumps it
    can make; ``mt``: the jumps it can undo); the last offset is the total."""
    n = positions.size
    counts = np.zeros(n + 1, np.int64)
    for i in prange(n):
        p = positions[i]
        c = 0
        for j in range(holes.size):
            c += (p & holes[j]) == pattern[j]
        counts[i + 1] = c
    return np.cumsum(counts)


def expand(parents: U64, mf: U64, mo: U64, mt: U64, table: U64) -> U64:
    """The canonical form of every child of every parent, duplicates kept, unsorted.

    Plain Python around the parallel kernels, as :func:`expand_at` is: a cached
    (``cache=True``) kernel that calls a ``parallel=True`` one could be loaded from the
    cache in a later process as a broken object (a segmentation fault on the first call)."""
    return expand_at(parents, jump_offsets(parents, mf | mo | mt, mf | mo), mf, mo, mt, table)


def expand_at(parents: U64, offsets: I64, mf: U64, mo: U64, mt: U64, table: U64) -> U64:
    """:func:`expand` with the parents' :func:`jump_offsets` (``pattern`` = ``mf | mo``)
    already at hand: the children of parent ``i`` at ``offsets[i]:offsets[i + 1]``."""
    out = np.empty(offsets[parents.size], np.uint64)
    expand_into(parents, offsets, mf, mo, mt, table, out)
    return out


@jit_parallel
def expand_into(
    parents: U64, offsets: I64, mf: U64, mo: U64, mt: U64, table: U64, out: U64
) -> None:
    """:func:`expand_at` into ``out`` (at least ``offsets[-1]`` long; a buffer kept from
    level to level spares the system mapping fresh memory for every level)."""
    n = parents.size
    jimg = jump_images(mf, mo, mt, table)
    hp, fp = jump_words(mf | mo | mt, mf | mo)
    nblocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(nblocks):
        images = np.empty(table.shape[0], np.uint64)
        for i in range(blk * _BLOCK, min(n, (blk + 1) * _BLOCK)):
            p = parents[i]
            images_of(p, table, images)
            k = offsets[i]
            for w in range(hp.size // _WORD):
                m = jump_word(p, hp, fp, w)
                while m != _ZERO:
                    out[k] = canon_moved(images, jimg, w * _WORD + trailing_zeros(m))
                    k += 1
                    m &= m - _ONE


@jit
def _lowest_bit_index(x: np.uint64) -> int:
    """The index of the lowest set bit of ``x`` (``x`` non-zero)."""
    return trailing_zeros(x)


@jit
def _unique_bucket(spread: U64, lo: int, hi: int, w: int, bitmap: U64, base: np.uint64) -> int:
    """Write the distinct values of ``spread[lo:hi]`` (one bucket: equal top bits
    ``base``), sorted, from ``spread[w]`` on; return the new write position.

    A dense bucket goes through ``bitmap`` (one bit per low value, left all zero
    again), a sparse one is sorted in place."""
    words = bitmap.size
    if words > 0 and (hi - lo) * 16 >= words:
        mask = np.uint64(words * 64 - 1)
        for r in range(lo, hi):
            v = spread[r] & mask
            bitmap[v >> np.uint64(6)] |= _ONE << (v & np.uint64(63))
        for k in range(words):
            x = bitmap[k]
            if x != _ZERO:
                bitmap[k] = _ZERO
                while x != _ZERO:
                    spread[w] = base | np.uint64(64 * k + _lowest_bit_index(x))
                    w += 1
                    x &= x - _ONE
        return w
    spread[lo:hi].sort()
    spread[w] = spread[lo]
    w += 1
    for r in range(lo + 1, hi):
        if spread[r] != spread[w - 1]:
            spread[w] = spread[r]
            w += 1
    return w


@jit
def bucket_plan(n: int, nbits: int) -> tuple[int, int, int]:
    """``(low, bins, chunks)`` of the bucket pass over ``n`` values of ``nbits`` bits:
    the buckets are the top bits (at most 16, fewer for small inputs: few buckets, small
    fixed cost), ``low`` bits are left in each, and the values are read in ``chunks``."""
    top = min(_INDEX_BITS, max(nbits, 1))
    while top > 1 and (1 << top) > 4 * n:
        top -= 1
    return max(nbits - top, 0), 1 << top, 8 if n >= 1 << 16 else 1


@jit_parallel
def bucket_starts(values: U64, shift: np.uint64, bins: int, chunks: int) -> tuple[I64, I64]:
    """``(fill, starts)``: where each chunk's values of bucket ``k`` go when scattered
    (``fill[c, k]``, the next free slot) and where each bucket starts (``starts[k]``,
    ``starts[bins]`` the end), from per-chunk histograms of the values' top bits."""
    n = values.size
    hist = np.zeros((chunks, bins), np.int64)
    for c in prange(chunks):
        for i in range(n * c // chunks, n * (c + 1) // chunks):
            hist[c, int(values[i] >> shift)] += 1
    fill = np.empty((chunks, bins), np.int64)
    starts = np.empty(bins + 1, np.int64)
    at = 0
    for k in range(bins):
        starts[k] = at
        for c in range(chunks):
            fill[c, k] = at
            at += hist[c, k]
    starts[bins] = n
    return fill, starts


@jit
def part_firsts(starts: I64, bins: int) -> I64:
    """The first bucket of each of the ``PARTS`` parts the buckets are cut into (about
    the same number of values a part; ``first[PARTS]`` is ``bins``)."""
    n = starts[bins]
    first = np.zeros(PARTS + 1, np.int64)
    part = 1
    for k in range(bins):
        while part < PARTS and starts[k + 1] >= (n * part) // PARTS:
            first[part] = k + 1
            part += 1
    while part <= PARTS:
        first[part] = bins
        part += 1
    return first


@jit_parallel
def sort_unique(values: U64, nbits: int) -> U64:
    """The distinct values, sorted.

    A parallel bucket pass on the top 16 bits (fewer for small inputs; per-chunk
    histograms, then a scatter),
    then each bucket deduplicated on its own, in 64 parallel parts: through a bitmap of
    its low bits when they are at most 20 and the bucket is dense, else by sorting."""
    n = values.size
    low, bins, chunks = bucket_plan(n, nbits)
    shift = np.uint64(low)
    fill, starts = bucket_starts(values, shift, bins, chunks)
    spread = np.empty(n, np.uint64)
    for c in prange(chunks):
        for i in range(n * c // chunks, n * (c + 1) // chunks):
            k = int(values[i] >> shift)
            spread[fill[c, k]] = values[i]
            fill[c, k] += 1
    first = part_firsts(starts, bins)
    words = (1 << low) >> 6 if low <= BUCKET_BITS else 0  # 0: sort every bucket
    kept = np.zeros(PARTS + 1, np.int64)
    for q in prange(PARTS):
        bitmap = np.zeros(words, np.uint64)
        w = starts[first[q]]
        for k in range(first[q], first[q + 1]):
            lo, hi = starts[k], starts[k + 1]
            if hi > lo:
                w = _unique_bucket(spread, lo, hi, w, bitmap, np.uint64(k) << shift)
        kept[q + 1] = w - starts[first[q]]
    offs = np.cumsum(kept)
    out = np.empty(offs[PARTS], np.uint64)
    for q in prange(PARTS):
        lo = starts[first[q]]
        for r in range(kept[q + 1]):
            out[offs[q] + r] = spread[lo + r]
    return out


@jit
def build_index(level: U64, nbits: int, bits: int) -> I64:
    """``index[k]``: the first entry of the sorted ``level`` whose top ``bits`` bits (of
    ``nbits``) are >= ``k``; :func:`find` searches between two neighbouring entries."""
    shift = np.uint64(max(nbits - bits, 0))
    index = np.zeros((1 << bits) + 1, np.int64)
    for i in range(level.size):
        index[int(level[i] >> shift) + 1] += 1
    return np.cumsum(index)


@jit
def index_bits(size: int, nbits: int) -> int:
    """Index bits for a sorted array of ``size`` values of ``nbits`` bits: about one
    entry a bucket, at most ``2^20`` buckets (a small array gets a small index: fresh
    large arrays cost page faults)."""
    bits = 1
    while (1 << bits) < size and bits < _FIND_BITS:
        bits += 1
    return min(bits, max(nbits, 1))


@jit
def find(level: U64, index: I64, shift: np.uint64, x: np.uint64) -> int:
    """The place of ``x`` in the sorted ``level``, or -1.

    A search without a branch a step (the halving picks its side by a conditional move):
    the comparisons of a search go either way at random, and a mispredicted branch a
    step cost more than the loads."""
    k = int(x >> shift)
    base = index[k]
    n = index[k + 1] - base
    if n == 0:
        return -1
    while n > 1:
        half = n >> 1
        base = base + half if level[base + half] <= x else base
        n -= half
    if level[base] == x:
        return int(base)
    return -1


@jit_parallel
def count_parents(
    wins: U64,
    win_lo: U64,
    win_hi: U64,
    level: U64,
    mf: U64,
    mo: U64,
    mt: U64,
    table: U64,
    nbits: int,
) -> tuple[U64, U64]:
    """Weighted path counts of ``level`` from the winning positions one peg below.

    ``wins`` (sorted canonical forms) carry 128-bit weights ``W = paths x orbit size``
    (the paths to the goal from every board of the class). Every jump undone from each
    of them gives a parent; when its canonical form is in ``level`` the weight is added
    to it. Counting pairs (board, jump) both ways shows the sum is again the weight of
    the parent class: ``W(P) = sum of W(C) over undone jumps from C's form into P``.
    The parents are found in parallel, the sums done in one serial pass.
    """
    bits = index_bits(level.size, nbits)
    index = build_index(level, nbits, bits)
    shift = np.uint64(max(nbits - bits, 0))
    nw = wins.size
    jimg = jump_images(mf, mo, mt, table)
    holes = mf | mo | mt
    offsets = jump_offsets(wins, holes, mt)
    hp, fp = jump_words(holes, mt)
    hits = np.empty(offsets[nw], np.int32)  # place of each parent in level, or -1
    nblocks = (nw + _BLOCK - 1) // _BLOCK
    for blk in prange(nblocks):
        images = np.empty(table.shape[0], np.uint64)
        for i in range(blk * _BLOCK, min(nw, (blk + 1) * _BLOCK)):
            x = wins[i]
            images_of(x, table, images)
            k = offsets[i]
            for word in range(hp.size // _WORD):
                m = jump_word(x, hp, fp, word)
                while m != _ZERO:
                    j = word * _WORD + trailing_zeros(m)
                    hits[k] = find(level, index, shift, canon_moved(images, jimg, j))
                    k += 1
                    m &= m - _ONE
    lo_out = np.zeros(level.size, np.uint64)
    hi_out = np.zeros(level.size, np.uint64)
    for i in range(nw):
        add = win_lo[i]
        for k in range(offsets[i], offsets[i + 1]):
            at = hits[k]
            if at >= 0:
                lo = lo_out[at] + add
                carry = _ONE if lo < add else _ZERO
                lo_out[at] = lo
                hi_out[at] += win_hi[i] + carry
    return lo_out, hi_out


@jit_parallel
def orbit_sizes(level: U64, table: U64) -> I64:
    """How many distinct boards each position stands for: the group's order divided by
    the number of symmetries that fix the position (orbit-stabiliser)."""
    n = level.size
    nsym = table.shape[0]
    out = np.zeros(n, np.int64)
    for i in prange(n):
        x = level[i]
        fixed = 0
        for s in range(nsym):
            fixed += image(x, table, s) == x
        out[i] = nsym // fixed
    return out


@jit
def find_level(
    wins: U64, starts: I64, index: I64, shift: np.uint64, pegs: int, x: np.uint64
) -> int:
    """The place of ``x`` among the positions with ``pegs`` pegs of ``wins`` (levels
    one after another, level ``k`` from ``starts[k]``, its index ``index[k]``), or -1."""
    lo = starts[pegs]
    at = find(wins[lo : starts[pegs + 1]], index[pegs], shift, x)
    return at + lo if at >= 0 else -1


def level_index(levels: list[U64], nbits: int) -> tuple[U64, I64, I64]:
    """``(wins, starts, index)`` for :func:`find_level`: ``levels[k]`` holds the sorted
    positions with ``k`` pegs (plain Python: it calls the kernel once a level)."""
    starts = np.zeros(len(levels) + 1, np.int64)
    starts[1:] = np.cumsum([level.size for level in levels])
    index = np.stack([build_index(level, nbits, _LEVEL_FIND_BITS) for level in levels])
    return np.concatenate(levels), starts, index


@jit
def locate(level: U64, keys: U64) -> I64:
    """The place of each of ``keys`` in the sorted ``level``, or -1: through an index of
    the level's top bits (:func:`build_index`, :func:`find`), a short search a key
    where a binary search over a large level misses the cache at nearly every step."""
    out = np.full(keys.size, -1, np.int64)
    n = level.size
    if n == 0:
        return out
    top = level[n - 1]
    nbits = 1
    while nbits < _WORD and (top >> np.uint64(nbits)) != _ZERO:
        nbits += 1
    bits = index_bits(n, nbits)
    index = build_index(level, nbits, bits)
    shift = np.uint64(max(nbits - bits, 0))
    for i in range(keys.size):
        if keys[i] <= top:  # a larger key is in no bucket of the index
            out[i] = find(level, index, shift, keys[i])
    return out


@jit_parallel
def chain_min(
    level: U64,
    pegs: int,
    mf: U64,
    mo: U64,
    mt: U64,
    by_from: I64,
    to_cell: I64,
    table: U64,
    wins: U64,
    starts: I64,
    index: I64,
    dist: I16,
    nbits: int,
) -> I16:
    """Fewest moves to the goal from each position of ``level`` (``pegs`` pegs each; a
    move = one peg's chain of jumps).

    ``wins``, ``starts``, ``index`` hold every position on a winning path, level by
    level (see :func:`level_index`), and ``dist`` their known distances (positions with
    fewer pegs than ``level`` filled in); -1 = unreachable. ``by_from[c]`` lists the
    jump indices leaving cell ``c`` (-1 padded). A chain is followed only through
    winning positions (nothing after a losing one wins).
    """
    shift = np.uint64(max(nbits - _LEVEL_FIND_BITS, 0))
    jimg = jump_images(mf, mo, mt, table)
    holes = mf | mo | mt
    full = mf | mo
    hp, fp = jump_words(holes, full)
    nsym = table.shape[0]
    n = level.size
    out = np.full(n, -1, np.int16)
    depth_max = pegs + 1
    nblocks = (n + _BLOCK - 1) // _BLOCK
    for blk in prange(nblocks):
        stack_pos = np.empty(depth_max, np.uint64)
        stack_img = np.empty((depth_max, nsym), np.uint64)
        stack_cell = np.empty(depth_max, np.int64)
        stack_k = np.empty(depth_max, np.int64)
        for i in range(blk * _BLOCK, min(n, (blk + 1) * _BLOCK)):
            best = -1
            p = level[i]
            images_of(p, table, stack_img[0])
            for word in range(hp.size // _WORD):  # any jump starts a chain
                m = jump_word(p, hp, fp, word)
                while m != _ZERO:
                    j = word * _WORD + trailing_zeros(m)
                    m &= m - _ONE
                    key = canon_moved(stack_img[0], jimg, j)
                    at = find_level(wins, starts, index, shift, pegs - 1, key)
                    if at < 0:
                        continue
                    if dist[at] >= 0 and (best < 0 or dist[at] + 1 < best):
                        best = dist[at] + 1
                    top = 1  # stack entry d holds a position with pegs - d pegs
                    stack_pos[1] = p ^ holes[j]
                    for s in range(nsym):
                        stack_img[1, s] = stack_img[0, s] ^ jimg[j, s]
                    stack_cell[1] = to_cell[j]
                    stack_k[1] = 0
                    while top >= 1:  # the same peg jumps on
                        r = stack_pos[top]
                        cell = stack_cell[top]
                        k = stack_k[top]
                        if k >= by_from.shape[1] or by_from[cell, k] < 0:
                            top -= 1
                            continue
                        stack_k[top] = k + 1
                        jj = by_from[cell, k]
                        if (r & holes[jj]) != full[jj]:
                            continue
                        key = canon_moved(stack_img[top], jimg, jj)
                        at2 = find_level(wins, starts, index, shift, pegs - top - 1, key)
                        if at2 < 0:
                            continue
                        if dist[at2] >= 0 and (best < 0 or dist[at2] + 1 < best):
                            best = dist[at2] + 1
                        stack_pos[top + 1] = r ^ holes[jj]
                        for s in range(nsym):
                            stack_img[top + 1, s] = stack_img[top, s] ^ jimg[jj, s]
                        stack_cell[top + 1] = to_cell[jj]
                        stack_k[top + 1] = 0
                        top += 1
            out[i] = best
    return out


@jit
def _tt_has(tt: U64, key: np.uint64) -> bool:
    mask = np.uint64(tt.size - 1)
    h = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    slot = h & mask
    while True:
        v = tt[slot]
        if v == _ZERO:
            return False
        if v == key:
            return True
        slot = (slot + _ONE) & mask


@jit
def _tt_add(tt: U64, key: np.uint64, used: I64) -> None:
    if used[0] * 4 >= tt.size * 3:
        return
    mask = np.uint64(tt.size - 1)
    h = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    slot = h & mask
    while True:
        v = tt[slot]
        if v == _ZERO:
            tt[slot] = key
            used[0] += 1
            return
        if v == key:
            return
        slot = (slot + _ONE) & mask


@jit
def _pagoda(x: np.uint64, ptable: I64, k: int) -> int:
    total = 0
    for b in range(ptable.shape[1]):
        total += ptable[k, b, (x >> np.uint64(8 * b)) & _BYTE]
    return total


@jit
def dfs_run(
    state: I64,
    stack_pos: U64,
    stack_j: I64,
    mf: U64,
    mo: U64,
    mt: U64,
    table: U64,
    tt: U64,
    used: I64,
    goal: np.uint64,
    goal_any: bool,
    goal_pegs: int,
    ptable: I64,
    pgoal: I64,
    budget: int,
) -> tuple[int, int]:
    """Run the depth-first search for up to ``budget`` nodes; resumable.

    ``state[0]`` is the current depth; ``stack_j[d]`` the next jump to try at depth
    ``d`` and, once a child is entered, ``stack_j[d] - 1`` is the jump played there.
    Returns ``(status, nodes)``: 0 = budget spent, 1 = goal reached (the path is
    ``stack_j[0..state[0]-1] - 1``), 2 = search exhausted (no solution).
    Dead positions (every child failed) go into the table ``tt`` by canonical form;
    a child whose pagoda value falls below the goal's is cut.
    """
    depth = state[0]
    nodes = 0
    nj = mf.size
    npag = ptable.shape[0]
    while nodes < budget:
        if depth < 0:
            state[0] = depth
            return 2, nodes
        p = stack_pos[depth]
        j = stack_j[depth]
        entered = False
        while j < nj:
            if (p & mf[j]) == _ZERO or (p & mo[j]) == _ZERO or (p & mt[j]) != _ZERO:
                j += 1
                continue
            c = p ^ mf[j] ^ mo[j] ^ mt[j]
            j += 1
            nodes += 1
            if popcount(c) == goal_pegs:
                if goal_any or c == goal:
                    stack_j[depth] = j
                    state[0] = depth + 1
                    stack_pos[depth + 1] = c
                    return 1, nodes
                continue
            cut = False
            for k in range(npag):
                if _pagoda(c, ptable, k) < pgoal[k]:
                    cut = True
                    break
            if cut:
                continue
            if _tt_has(tt, canon(c, table)):
                continue
            stack_j[depth] = j
            depth += 1
            stack_pos[depth] = c
            stack_j[depth] = 0
            entered = True
            break
        if not entered:
            _tt_add(tt, canon(p, table), used)
            depth -= 1
    state[0] = depth
    return 0, nodes
