"""Solver layer: the exact search for small fruits (branch and bound over legal runs).

A run is decided spine block by spine block: at its current block the iShongololo
chooses which edible neighbours to eat (any subset) and which of them to move into
next, or it stops after eating all of them (stopping never gains from leaving one).
Once it leaves a block, that block's uneaten neighbours can never be eaten, so the
state is just the eaten set and the current block. A node is cut when the blocks eaten
so far plus :func:`~boardlab.shongololo._kernel.future_bound` cannot beat the best run
found. The first move is restricted by the symmetries of the fruit that fix ``1 1 1``
(swapping equal sides). The search is resumable: the kernel runs a slice of nodes, the
wrapper checks the clock and calls it again.

The pure-Python twin :func:`reference_optimum` runs the same search recursively and
must agree on the optimum and on the node count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Limit
from boardlab.shongololo.blocks import Action, Box
from boardlab.shongololo.leaves import neighbour_table

__all__ = ["ExactResult", "exact_search", "reference_optimum", "root_moves", "search_from"]

_SLICE = 200_000
#: A side of one block offers no first move along its axis.
MIN_SIDE_TO_ENTER = 2


@dataclass(frozen=True, slots=True)
class ExactResult:
    """The best run found, whether it is proven optimal, and the work done: ``nodes``,
    the branch-and-bound nodes searched; ``bound``, the proven most blocks a run eats
    (for :func:`search_from`, a completion of its prefix): ``eaten`` when proven, None
    when the search stopped first."""

    box: Box
    eaten: int
    actions: tuple[Action, ...]
    proven: bool
    nodes: int
    seconds: float

    @property
    def bound(self) -> int | None:
        """The proven most blocks: ``eaten`` when proven, else None."""
        return self.eaten if self.proven else None


def root_moves(box: Box) -> list[int]:
    """The first moves worth trying: one per class of equal sides (cells next to 1 1 1)."""
    allowed: list[int] = []
    seen_sides: set[int] = set()
    for axis, side in enumerate(box.sides):
        if side < MIN_SIDE_TO_ENTER or side in seen_sides:
            continue
        seen_sides.add(side)
        allowed.append((1, box.length, box.length * box.width)[axis])
    return allowed


def exact_search(
    box: Box,
    limit: Limit | None = None,
    incumbent: tuple[Action, ...] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExactResult:
    """The most blocks any legal run eats, by branch and bound (numba kernel).

    ``incumbent``: a legal run to beat (its count prunes from the start); it is returned
    when nothing better exists. ``progress(nodes, best)`` is called between slices.
    The result is proven optimal when the search finished inside ``limit``.
    """
    start = (Action("E", box.block(0)), Action("M", box.block(0)))
    return search_from(box, start, limit, incumbent, progress, symmetric=True)


def search_from(
    box: Box,
    prefix: Sequence[Action],
    limit: Limit | None = None,
    incumbent: tuple[Action, ...] | None = None,
    progress: Callable[[int, int], None] | None = None,
    *,
    symmetric: bool = False,
    nbr: npt.NDArray[np.int64] | None = None,
) -> ExactResult:
    """The best completion of the legal run ``prefix`` (which ends with a move).

    With ``symmetric`` (only for the bare start ``E 1 1 1``, ``M 1 1 1``) the first
    move is restricted to one per class of equal sides. ``proven`` means no completion
    of ``prefix`` beats the result.
    """
    from boardlab.shongololo._kernel import exact_kernel

    started = time.perf_counter()
    budget = (limit or Limit()).start()
    size = box.volume
    if nbr is None:
        nbr = neighbour_table(box)
    root_ok = np.ones(size, np.int8)
    if symmetric:
        root_ok[:] = 0
        root_ok[root_moves(box)] = 1
    eaten = np.zeros(size, np.int8)
    cnt = np.zeros(size, np.int64)
    tips = np.zeros(size + 1, np.int64)
    cands = np.zeros((size + 1, 6), np.int64)
    ncand = np.zeros(size + 1, np.int64)
    opt = np.zeros(size + 1, np.int64)
    mark = np.zeros(size + 1, np.int64)
    ev = np.zeros(2 * size + 4, np.int64)
    best_ev = np.zeros(2 * size + 4, np.int64)
    seen = np.zeros(size, np.int64)
    queue = np.zeros(size, np.int64)
    count = 0
    tip = 0
    for i, action in enumerate(prefix):
        cell = box.index(action.block)
        if action.kind == "E":
            eaten[cell] = 1
            count += 1
            for o in nbr[cell]:
                if o >= 0:
                    cnt[o] += 1
            ev[i] = cell << 1
        else:
            tip = cell
            ev[i] = (cell << 1) | 1
    evlen = len(prefix)
    roots = [int(o) for o in nbr[tip] if o >= 0 and not eaten[o] and cnt[o] == 1]
    tips[0] = tip
    ncand[0] = len(roots)
    cands[0, : len(roots)] = roots
    best = count + len(roots)
    best_ev[:evlen] = ev[:evlen]
    best_ev[evlen : evlen + len(roots)] = [c << 1 for c in roots]
    best_len = evlen + len(roots)
    best_run: tuple[Action, ...] | None = None
    if incumbent is not None and sum(a.kind == "E" for a in incumbent) >= best:
        best = sum(a.kind == "E" for a in incumbent)
        best_run = tuple(incumbent)
    # st = [depth, count, evlen, best, bestlen, nodes, stamp]
    st = np.array([0, count, evlen, best, best_len, 0, 0], np.int64)
    done = False
    slice_nodes = 1_000
    while True:
        if budget.limit.nodes is not None:
            slice_nodes = max(1, min(slice_nodes, budget.limit.nodes - int(st[5])))
        slice_started = time.perf_counter()
        done = bool(
            exact_kernel(
                nbr,
                root_ok,
                st,
                eaten,
                cnt,
                tips,
                cands,
                ncand,
                opt,
                mark,
                ev,
                best_ev,
                seen,
                queue,
                np.int64(slice_nodes),
            )
        )
        if progress is not None:
            progress(int(st[5]), int(st[3]))
        if done or budget.exhausted(int(st[5])):
            break
        # aim at slices of about 0.05 s so the clock is checked often enough
        spent = time.perf_counter() - slice_started
        slice_nodes = int(min(_SLICE, max(100, slice_nodes * 0.05 / max(spent, 1e-4))))
    if int(st[3]) > best or best_run is None:
        codes = [int(c) for c in best_ev[: int(st[4])]]
        best_run = tuple(Action("M" if code & 1 else "E", box.block(code >> 1)) for code in codes)
    eaten_count = sum(a.kind == "E" for a in best_run)
    return ExactResult(box, eaten_count, best_run, done, int(st[5]), time.perf_counter() - started)


def reference_optimum(box: Box) -> tuple[int, int]:
    """Pure-Python twin of the kernel: ``(optimum, nodes)`` with the same order and cuts."""
    size = box.volume
    nbr = [[int(o) for o in row if o >= 0] for row in neighbour_table(box)]
    allowed = set(root_moves(box))
    eaten = [False] * size
    cnt = [0] * size

    def eat(c: int, delta: int) -> None:
        eaten[c] = delta > 0
        for o in nbr[c]:
            cnt[o] += delta

    def bound(tip: int) -> int:
        region = [c for c in nbr[tip] if not eaten[c] and cnt[c] == 1]
        inside = set(region)
        todo = list(region)
        while todo:
            c = todo.pop()
            for o in nbr[c]:
                if o not in inside and not eaten[o] and cnt[o] == 0:
                    inside.add(o)
                    todo.append(o)
        if not inside:
            return 0
        r_values = sorted(sum(o in inside for o in nbr[c]) for c in inside)
        budget = sum(r_values) // 2 - 1
        taken = 0
        for r in r_values:
            if r - 1 > budget:
                break
            budget -= r - 1
            taken += 1
        return taken

    best = 0
    nodes = 0

    def frame(tip: int, count: int, depth: int) -> None:
        nonlocal best, nodes
        cands = [c for c in nbr[tip] if not eaten[c] and cnt[c] == 1]
        n = len(cands)
        best = max(best, count + n)
        for code in range(n << n):
            m_idx = code >> n
            mask = (1 << n) - 1 - (code & ((1 << n) - 1))
            if not (mask >> m_idx) & 1:
                continue
            m = cands[m_idx]
            if depth == 0 and m not in allowed:
                continue
            chosen = [cands[i] for i in range(n) if (mask >> i) & 1]
            for c in chosen:
                eat(c, 1)
            nodes += 1
            if count + len(chosen) + bound(m) > best:
                frame(m, count + len(chosen), depth + 1)
            for c in chosen:
                eat(c, -1)

    eat(0, 1)
    frame(0, 1, 0)
    return best, nodes
