"""Engine layer: the batch loop that grows a search tree, on one thread or several.

:meth:`boardlab.hex.engine.search.MctsEngine._run` hands :func:`grow` a step (one call
of the kernel :func:`boardlab.hex.engine.kernel.mcts_iterate` for a number of
iterations, on one thread's random state and node slab) and a :class:`Share`: the
playouts a node limit allows and the free nodes of the tree, which the threads growing
one tree take from under a lock, a batch of playouts or a slab of nodes at a time, so
that inside the kernel no thread waits for another.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Budget

__all__ = ["Share", "grow"]


class Share:
    """What the threads growing one tree share: the playouts still allowed (None: no
    node limit), those done, and the tree's free nodes from ``start`` to ``end``, handed
    out in slabs of ``slab`` nodes."""

    def __init__(self, playouts: int | None, start: int, end: int, slab: int) -> None:
        self._lock = threading.Lock()
        self._left = playouts
        self.done = 0
        self._next = start
        self._end = end
        self._slab = slab
        #: Nodes used in slabs already given back (the others are counted by their holders).
        self.spent = 0

    def claim(self, want: int) -> int:
        """Up to ``want`` playouts to run now (fewer when the node limit is near)."""
        with self._lock:
            if self._left is None:
                return want
            got = min(want, self._left)
            self._left -= got
            return got

    def report(self, ran: int, claimed: int) -> int:
        """Count ``ran`` playouts done of ``claimed`` (the rest go back); returns the total."""
        with self._lock:
            self.done += ran
            if self._left is not None:
                self._left += claimed - ran
            return self.done

    def slab(self, used: npt.NDArray[np.int32]) -> bool:
        """Give the thread whose slab is ``used`` (next free node, end, short, start) a
        fresh one if any node is free (counting the nodes it used of the old one);
        False, ``used`` untouched, when none is left."""
        with self._lock:
            if self._next >= self._end:
                return False
            self.spent += int(used[0] - used[3])
            start = self._next
            self._next = min(self._end, start + self._slab)
            used[0], used[1], used[2], used[3] = start, self._next, 0, start
            return True

    def nodes(self, slabs: list[npt.NDArray[np.int32]]) -> int:
        """Nodes used in the slabs given back and in ``slabs``, the ones held now."""
        return self.spent + sum(int(used[0] - used[3]) for used in slabs)


Step = Callable[[int], int]
"""Runs up to that many iterations of the kernel; returns how many ran."""


def grow(
    step: Step,
    share: Share,
    budget: Budget,
    proved: Callable[[], bool],
    used: npt.NDArray[np.int32],
    first_batch: Callable[[], None] | None = None,
) -> int:
    """Run ``step`` in batches until the share's playouts are done, the root is
    ``proved``, the budget's time runs out (a batch never starts that would not end in
    it) or the caller cancels; ``first_batch`` is called after the first. Batches start
    at one iteration and grow to about 20 ms. ``used`` is the thread's node slab (see
    :meth:`Share.slab`), replaced between batches when it ran short. Returns this
    thread's playouts."""
    deadline = budget.deadline()
    done = 0
    batch = 1
    while True:
        claimed = share.claim(batch)
        if claimed <= 0:
            break
        t0 = time.perf_counter()
        ran = step(claimed)
        t1 = time.perf_counter()
        done += ran
        total = share.report(ran, claimed)
        if used[2]:
            share.slab(used)
        if first_batch is not None:
            first_batch()
            first_batch = None
        if proved() or ran < claimed:
            break
        if budget.exhausted(total):
            break  # the limit is reached, or the caller cancelled the search
        if deadline is not None:
            remaining = deadline - t1
            per = (t1 - t0) / max(ran, 1)
            if remaining <= 0 or per > remaining:
                break
            # batches of at most 20 ms and half the time left, growing at most 4x
            target = min(0.02, remaining * 0.5)
            batch = max(1, min(int(target / max(per, 1e-7)), batch * 4))
        else:
            batch = min(batch * 2, 4096)
    return done
