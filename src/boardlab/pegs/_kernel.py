"""Solver layer: numba kernels of the peg-solitaire solver, on ``uint64`` bitsets.

A position is a ``uint64`` whose bit ``i`` is set when hole ``i`` holds a peg (boards
of up to 64 holes). Jumps come as three mask arrays ``mf``, ``mo``, ``mt`` (the bit of
the hole jumped from, over and to). A symmetry group comes as byte tables: ``table[s,
b, v]`` is the image under symmetry ``s`` of byte value ``v`` placed at byte ``b``, so
an image is the OR of a few table lookups and the canonical form is the smallest image.

Path counts are 128-bit pairs (``lo``, ``hi``) of ``uint64``: they pass 2^64 on
large boards and numba would wrap silently. ``tests/pegs/test_solver_kernel.py``
checks every kernel against its pure-Python twin in :mod:`boardlab.pegs._solver_reference`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import prange

from boardlab.core.jit import jit, jit_parallel

__all__ = [
    "canon",
    "chain_min",
    "count_level",
    "dfs_run",
    "expand",
    "orbit_sizes",
    "popcount",
    "sort_unique",
]

U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
I16 = npt.NDArray[np.int16]

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
_BYTE = np.uint64(255)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S56 = np.uint64(56)
_PARTS = 64
_INDEX_BITS = 16


@jit
def popcount(x: np.uint64) -> int:
    """Number of set bits of ``x``."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _S56)


@jit
def image(x: np.uint64, table: U64, s: int) -> np.uint64:
    """The image of ``x`` under symmetry ``s``."""
    y = _ZERO
    for b in range(table.shape[1]):
        y |= table[s, b, (x >> np.uint64(8 * b)) & _BYTE]
    return y


@jit
def canon(x: np.uint64, table: U64) -> np.uint64:
    """The canonical form of ``x``: its smallest image under the group."""
    best = _ALL
    for s in range(table.shape[0]):
        y = image(x, table, s)
        if y < best:
            best = y
    return best


@jit_parallel
def expand(parents: U64, mf: U64, mo: U64, mt: U64, table: U64) -> U64:
    """The canonical form of every child of every parent, duplicates kept, unsorted."""
    n = parents.size
    nj = mf.size
    counts = np.zeros(n + 1, np.int64)
    for i in prange(n):
        p = parents[i]
        c = 0
        for j in range(nj):
            if (p & mf[j]) != _ZERO and (p & mo[j]) != _ZERO and (p & mt[j]) == _ZERO:
                c += 1
        counts[i + 1] = c
    offsets = np.cumsum(counts)
    out = np.empty(offsets[n], np.uint64)
    for i in prange(n):
        p = parents[i]
        k = offsets[i]
        for j in range(nj):
            if (p & mf[j]) != _ZERO and (p & mo[j]) != _ZERO and (p & mt[j]) == _ZERO:
                out[k] = canon(p ^ mf[j] ^ mo[j] ^ mt[j], table)
                k += 1
    return out


@jit_parallel
def sort_unique(values: U64, nbits: int) -> U64:
    """The distinct values, sorted (a bucket pass on the top bits, then parallel sorts)."""
    n = values.size
    shift = np.uint64(max(nbits - _INDEX_BITS, 0))
    bins = 1 << _INDEX_BITS
    hist = np.zeros(bins + 1, np.int64)
    for i in range(n):
        hist[int(values[i] >> shift) + 1] += 1
    starts = np.cumsum(hist)
    fill = starts[:bins].copy()
    spread = np.empty(n, np.uint64)
    for i in range(n):
        k = int(values[i] >> shift)
        spread[fill[k]] = values[i]
        fill[k] += 1
    bounds = np.zeros(_PARTS + 1, np.int64)
    part = 1
    for k in range(bins):
        while part < _PARTS and starts[k + 1] >= (n * part) // _PARTS:
            bounds[part] = starts[k + 1]
            part += 1
    while part <= _PARTS:
        bounds[part] = n
        part += 1
    kept = np.zeros(_PARTS + 1, np.int64)
    for q in prange(_PARTS):
        lo, hi = bounds[q], bounds[q + 1]
        if hi > lo:
            spread[lo:hi].sort()
            w = lo + 1
            for r in range(lo + 1, hi):
                if spread[r] != spread[w - 1]:
                    spread[w] = spread[r]
                    w += 1
            kept[q + 1] = w - lo
    offs = np.cumsum(kept)
    out = np.empty(offs[_PARTS], np.uint64)
    for q in prange(_PARTS):
        lo = bounds[q]
        for r in range(kept[q + 1]):
            out[offs[q] + r] = spread[lo + r]
    return out


@jit
def build_index(level: U64, nbits: int) -> I64:
    """``index[k]``: the first entry of the sorted ``level`` whose top bits are >= ``k``."""
    shift = np.uint64(max(nbits - _INDEX_BITS, 0))
    bins = 1 << _INDEX_BITS
    index = np.zeros(bins + 1, np.int64)
    for i in range(level.size):
        index[int(level[i] >> shift) + 1] += 1
    return np.cumsum(index)


@jit
def find(level: U64, index: I64, shift: np.uint64, x: np.uint64) -> int:
    """The place of ``x`` in the sorted ``level``, or -1."""
    k = int(x >> shift)
    lo = index[k]
    hi = index[k + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if level[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    if lo < index[k + 1] and level[lo] == x:
        return int(lo)
    return -1


@jit_parallel
def count_level(
    level: U64,
    mf: U64,
    mo: U64,
    mt: U64,
    table: U64,
    below: U64,
    below_lo: U64,
    below_hi: U64,
    nbits: int,
) -> tuple[U64, U64]:
    """Paths to the goal from each position of ``level`` (128-bit), from those one peg below."""
    index = build_index(below, nbits)
    shift = np.uint64(max(nbits - _INDEX_BITS, 0))
    n = level.size
    lo_out = np.zeros(n, np.uint64)
    hi_out = np.zeros(n, np.uint64)
    for i in prange(n):
        p = level[i]
        lo = _ZERO
        hi = _ZERO
        for j in range(mf.size):
            if (p & mf[j]) != _ZERO and (p & mo[j]) != _ZERO and (p & mt[j]) == _ZERO:
                at = find(below, index, shift, canon(p ^ mf[j] ^ mo[j] ^ mt[j], table))
                if at >= 0:
                    add = below_lo[at]
                    lo += add
                    carry = _ONE if lo < add else _ZERO
                    hi += below_hi[at] + carry
        lo_out[i] = lo
        hi_out[i] = hi
    return lo_out, hi_out


@jit_parallel
def orbit_sizes(level: U64, table: U64) -> I64:
    """How many distinct boards each canonical position stands for."""
    n = level.size
    nsym = table.shape[0]
    out = np.zeros(n, np.int64)
    for i in prange(n):
        images = np.empty(nsym, np.uint64)
        distinct = 0
        for s in range(nsym):
            y = image(level[i], table, s)
            new = True
            for t in range(distinct):
                if images[t] == y:
                    new = False
                    break
            if new:
                images[distinct] = y
                distinct += 1
        out[i] = distinct
    return out


@jit_parallel
def chain_min(
    level: U64,
    mf: U64,
    mo: U64,
    mt: U64,
    by_from: I64,
    to_cell: I64,
    table: U64,
    wins: U64,
    dist: I16,
    nbits: int,
) -> I16:
    """Fewest moves to the goal from each position of ``level`` (a move = one peg's chain).

    ``wins`` is every position on a winning path (sorted) and ``dist`` their known
    distances (positions with fewer pegs than ``level`` filled in); -1 = unreachable.
    ``by_from[c]`` lists the jump indices leaving cell ``c`` (-1 padded).
    """
    index = build_index(wins, nbits)
    shift = np.uint64(max(nbits - _INDEX_BITS, 0))
    n = level.size
    out = np.full(n, -1, np.int16)
    depth_max = 65
    for i in prange(n):
        stack_pos = np.empty(depth_max, np.uint64)
        stack_cell = np.empty(depth_max, np.int64)
        stack_k = np.empty(depth_max, np.int64)
        best = -1
        p = level[i]
        # depth 0: any jump starts a chain
        for j in range(mf.size):
            if (p & mf[j]) == _ZERO or (p & mo[j]) == _ZERO or (p & mt[j]) != _ZERO:
                continue
            q = p ^ mf[j] ^ mo[j] ^ mt[j]
            at = find(wins, index, shift, canon(q, table))
            if at < 0:
                continue
            if dist[at] >= 0 and (best < 0 or dist[at] + 1 < best):
                best = dist[at] + 1
            top = 0
            stack_pos[0] = q
            stack_cell[0] = to_cell[j]
            stack_k[0] = 0
            while top >= 0:
                r = stack_pos[top]
                cell = stack_cell[top]
                k = stack_k[top]
                if k >= by_from.shape[1] or by_from[cell, k] < 0:
                    top -= 1
                    continue
                stack_k[top] = k + 1
                jj = by_from[cell, k]
                if (r & mo[jj]) == _ZERO or (r & mt[jj]) != _ZERO:
                    continue
                s = r ^ mf[jj] ^ mo[jj] ^ mt[jj]
                at2 = find(wins, index, shift, canon(s, table))
                if at2 < 0:
                    continue
                if dist[at2] >= 0 and (best < 0 or dist[at2] + 1 < best):
                    best = dist[at2] + 1
                top += 1
                stack_pos[top] = s
                stack_cell[top] = to_cell[jj]
                stack_k[top] = 0
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
