"""Solver layer: numba kernels for the leaves of a fixed spine and the exact search.

Cells are numbered as :meth:`Box.index` numbers them; ``nbr[cell, k]`` is the cell
across face ``k`` or -1 outside the fruit.

- :func:`leaves_kernel`: given the spine (an induced path), the largest set of leaves.
  A leaf candidate is a block touching exactly one spine block; leaves must not touch
  each other, so the best leaves are a maximum independent set of the candidates. The
  grid is bipartite (parity of x + y + z), so that set is the complement of a minimum
  vertex cover, found from a maximum matching (augmenting paths, then König).
  Pure-Python twin: :func:`boardlab.shongololo.leaves.reference_leaves`.
- :func:`exact_kernel`: resumable depth-first branch and bound over legal E/M runs.
  Pure-Python twin: :func:`boardlab.shongololo.exact.reference_optimum`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit

__all__ = ["exact_kernel", "leaves_kernel"]

I64 = npt.NDArray[np.int64]
#: Faces of a block: the most neighbours a cell has.
FACES = 6
I8 = npt.NDArray[np.int8]


@jit
def leaves_kernel(nbr: I64, parity: I8, spine: I8) -> I8:  # pragma: no cover - numba
    """Flags of a maximum set of leaves for the spine flagged in ``spine``."""
    n = nbr.shape[0]
    cand = np.zeros(n, np.int8)
    for c in range(n):
        if spine[c]:
            continue
        touching = 0
        for k in range(6):
            o = nbr[c, k]
            if o >= 0 and spine[o]:
                touching += 1
        if touching == 1:
            cand[c] = 1
    mate = np.full(n, -1, np.int64)
    # greedy start
    for c in range(n):
        if cand[c] and parity[c] == 0 and mate[c] < 0:
            for k in range(6):
                o = nbr[c, k]
                if o >= 0 and cand[o] and mate[o] < 0:
                    mate[c] = o
                    mate[o] = c
                    break
    seen = np.zeros(n, np.int64)
    # marks survive failed searches: what a failed search visited cannot reach a free
    # cell until the matching changes (the classic speed-up of augmenting paths)
    stamp = 1
    stack_cell = np.empty(n, np.int64)
    stack_k = np.empty(n, np.int64)
    for root in range(n):
        if not cand[root] or parity[root] != 0 or mate[root] >= 0:
            continue
        # iterative DFS for an augmenting path from the left cell ``root``
        top = 0
        stack_cell[0] = root
        stack_k[0] = 0
        seen[root] = stamp
        found = False
        while top >= 0 and not found:
            c = stack_cell[top]
            k = stack_k[top]
            if k >= FACES:
                top -= 1
                continue
            stack_k[top] = k + 1
            o = nbr[c, k]
            if o < 0 or not cand[o] or seen[o] == stamp:
                continue
            seen[o] = stamp
            if mate[o] < 0:
                # augment along the stack
                right = o
                for level in range(top, -1, -1):
                    left = stack_cell[level]
                    previous = mate[left]
                    mate[left] = right
                    mate[right] = left
                    right = previous
                found = True
                stamp += 1
            else:
                w = mate[o]
                if seen[w] != stamp:
                    seen[w] = stamp
                    top += 1
                    stack_cell[top] = w
                    stack_k[top] = 0
    # König: Z = cells reachable from free left cells by alternating paths
    reach = np.zeros(n, np.int8)
    queue = np.empty(n, np.int64)
    head = 0
    tail = 0
    for c in range(n):
        if cand[c] and parity[c] == 0 and mate[c] < 0:
            reach[c] = 1
            queue[tail] = c
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(6):
            o = nbr[c, k]
            if o < 0 or not cand[o] or reach[o] or o == mate[c]:
                continue
            reach[o] = 1
            w = mate[o]
            if w >= 0 and not reach[w]:
                reach[w] = 1
                queue[tail] = w
                tail += 1
    leaves = np.zeros(n, np.int8)
    for c in range(n):
        if not cand[c]:
            continue
        if parity[c] == 0:
            if reach[c]:
                leaves[c] = 1
        elif not reach[c]:
            leaves[c] = 1
    return leaves


@jit
def future_bound(
    nbr: I64, eaten: I8, cnt: I64, tip: np.int64, seen: I64, stamp: np.int64, queue: I64
) -> np.int64:  # pragma: no cover - numba
    """How many more blocks can still be eaten with the iShongololo at ``tip``.

    R = the blocks still edible (not eaten, touching no eaten block, or only ``tip``)
    that connect to ``tip`` through edible blocks; r(t) = neighbours of t in R. Any k
    future blocks t satisfy sum(r(t) - 1) <= |edges of R| - 1 (face count, see docs),
    so the k cheapest r values bound k.
    """
    head = 0
    tail = 0
    for k in range(6):
        c = nbr[tip, k]
        if c >= 0 and eaten[c] == 0 and cnt[c] == 1 and seen[c] != stamp:
            seen[c] = stamp
            queue[tail] = c
            tail += 1
    while head < tail:
        c = queue[head]
        head += 1
        for k in range(6):
            o = nbr[c, k]
            if o >= 0 and eaten[o] == 0 and cnt[o] == 0 and seen[o] != stamp:
                seen[o] = stamp
                queue[tail] = o
                tail += 1
    if tail == 0:
        return np.int64(0)
    hist = np.zeros(7, np.int64)
    twice_edges = 0
    for i in range(tail):
        c = queue[i]
        r = 0
        for k in range(6):
            o = nbr[c, k]
            if o >= 0 and seen[o] == stamp:
                r += 1
        hist[r] += 1
        twice_edges += r
    budget = twice_edges // 2 - 1
    taken = 0
    for r in range(7):
        cost = r - 1
        if hist[r] == 0:
            continue
        if cost <= 0:
            taken += hist[r]
            budget -= cost * hist[r]
            continue
        fit = max(0, budget // cost)
        if fit >= hist[r]:
            taken += hist[r]
            budget -= cost * hist[r]
        else:
            taken += fit
            break
    return np.int64(taken)


@jit
def exact_kernel(
    nbr: I64,
    root_ok: I8,
    st: I64,
    eaten: I8,
    cnt: I64,
    tips: I64,
    cands: I64,
    ncand: I64,
    opt: I64,
    mark: I64,
    ev: I64,
    best_ev: I64,
    seen: I64,
    queue: I64,
    budget: np.int64,
) -> np.int64:  # pragma: no cover - numba
    """Run the branch and bound for up to ``budget`` nodes; the whole state is in arrays.

    ``st`` holds [depth, count, evlen, best, bestlen, nodes, stamp]. Each frame (one per
    spine block) tries every (next block, leaves) choice among the edible neighbours of
    its tip; stopping eats all of them. Returns 1 when the search is complete.
    """
    depth = st[0]
    count = st[1]
    evlen = st[2]
    best = st[3]
    nodes = st[5]
    stamp = st[6]
    spent = 0
    while depth >= 0:
        if spent >= budget:
            st[0] = depth
            st[1] = count
            st[2] = evlen
            st[3] = best
            st[5] = nodes
            st[6] = stamp
            return np.int64(0)
        d = depth
        n = ncand[d]
        if opt[d] >= n << n:
            depth -= 1
            if depth >= 0:
                # undo the option the parent frame applied
                target = mark[depth]
                while evlen > target:
                    evlen -= 1
                    code = ev[evlen]
                    if code & 1 == 0:
                        c = code >> 1
                        eaten[c] = 0
                        count -= 1
                        for k in range(6):
                            o = nbr[c, k]
                            if o >= 0:
                                cnt[o] -= 1
            continue
        o_code = opt[d]
        opt[d] += 1
        m_idx = o_code >> n
        mask = (1 << n) - 1 - (o_code & ((1 << n) - 1))
        if (mask >> m_idx) & 1 == 0:
            continue
        m = cands[d, m_idx]
        if d == 0 and root_ok[m] == 0:
            continue
        mark[d] = evlen
        for i in range(n):
            if (mask >> i) & 1:
                c = cands[d, i]
                eaten[c] = 1
                count += 1
                for k in range(6):
                    o = nbr[c, k]
                    if o >= 0:
                        cnt[o] += 1
                ev[evlen] = c << 1
                evlen += 1
        ev[evlen] = (m << 1) | 1
        evlen += 1
        nodes += 1
        spent += 1
        stamp += 1
        bound = count + future_bound(nbr, eaten, cnt, m, seen, stamp, queue)
        if bound <= best:
            target = mark[d]
            while evlen > target:
                evlen -= 1
                code = ev[evlen]
                if code & 1 == 0:
                    c = code >> 1
                    eaten[c] = 0
                    count -= 1
                    for k in range(6):
                        o = nbr[c, k]
                        if o >= 0:
                            cnt[o] -= 1
            continue
        depth += 1
        tips[depth] = m
        k2 = 0
        for k in range(6):
            c = nbr[m, k]
            if c >= 0 and eaten[c] == 0 and cnt[c] == 1:
                cands[depth, k2] = c
                k2 += 1
        ncand[depth] = k2
        opt[depth] = 0
        if count + k2 > best:
            best = count + k2
            for i in range(evlen):
                best_ev[i] = ev[i]
            for i in range(k2):
                best_ev[evlen + i] = cands[depth, i] << 1
            st[4] = evlen + k2
    st[0] = depth
    st[1] = count
    st[2] = evlen
    st[3] = best
    st[5] = nodes
    st[6] = stamp
    return np.int64(1)
