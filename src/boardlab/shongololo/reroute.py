"""Solver layer: local search that reroutes short pieces of the spine.

A move cuts the spine between two of its blocks ``a = spine[i]`` and ``b = spine[j]``
(a few blocks apart), and looks for another induced path from ``a`` to ``b`` by a
randomised depth-first search that touches no other spine block. The new spine is
scored exactly (its best leaves, by matching) and kept when it eats at least as much
(equal moves let the search drift across plateaus). Together with the suffix search of
:mod:`~boardlab.shongololo.solver` it works on the middle of the run, where the
constructions lose most: at the end faces, where rows are joined.

Every spine it returns is an induced path from ``1 1 1`` (checked by
:func:`~boardlab.shongololo.leaves.check_spine` in the tests and replayed by the judge
in the solver). Deterministic for a seed and a number of rounds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from boardlab.shongololo.blocks import Box
from boardlab.shongololo.leaves import parity_table

__all__ = ["Rerouter"]

#: Shortest and longest piece of spine cut out by one move (in spine steps).
MIN_CUT = 2
MAX_CUT = 10
#: How many blocks longer than the piece it replaces a new path may be.
DETOUR = 6
#: Depth-first nodes spent looking for replacement paths per move.
PATH_NODES = 1000
#: Replacement paths scored per move.
PATHS = 8


class Rerouter:
    """Improves a spine by rerouting short pieces; keeps the eaten count of the best."""

    def __init__(
        self, box: Box, spine: Sequence[int], nbr: npt.NDArray[np.int64], seed: int
    ) -> None:
        from boardlab.shongololo._kernel import leaves_kernel

        self.box = box
        self.nbr = nbr
        self._near = [[int(o) for o in row if o >= 0] for row in nbr]
        self._parity = parity_table(box)
        self._leaves = leaves_kernel
        self.rng = random.Random(seed)
        self.spine = list(spine)
        self.eaten = self.score(self.spine)
        self.best = list(self.spine)
        self.best_eaten = self.eaten
        #: chance of accepting a move that loses one block (0: only equal or better)
        self.slack = 0.0

    def score(self, spine: Sequence[int]) -> int:
        """Blocks eaten by ``spine`` with its best leaves."""
        flags = np.zeros(self.box.volume, np.int8)
        flags[np.asarray(spine, np.int64)] = 1
        return len(spine) + int(self._leaves(self.nbr, self._parity, flags).sum())

    def run(self, rounds: int, stop: Callable[[], bool] | None = None) -> int:
        """Try ``rounds`` moves (fewer when ``stop()`` says so); return the eaten count."""
        for _ in range(rounds):
            if stop is not None and stop():
                break
            self.step()
        return self.eaten

    def step(self) -> bool:
        """One move; True when the spine changed."""
        length = len(self.spine)
        if length < 2 * MIN_CUT:
            return False
        cut = self.rng.randint(MIN_CUT, min(MAX_CUT, length - MIN_CUT))
        i = self.rng.randrange(0, length - cut)
        j = i + cut
        paths = self._paths(i, j)
        best: list[int] | None = None
        best_count = self.eaten - (1 if self.rng.random() < self.slack else 0)
        for path in paths:
            spine = self.spine[: i + 1] + path + self.spine[j:]
            count = self.score(spine)
            if count >= best_count and spine != self.spine:
                best, best_count = spine, count
        if best is None:
            return False
        self.spine, self.eaten = best, best_count
        if best_count > self.best_eaten:
            self.best, self.best_eaten = list(best), best_count
        return True

    def _paths(self, i: int, j: int) -> list[list[int]]:
        """A few induced paths from ``spine[i]`` to ``spine[j]`` avoiding the rest."""
        near = self._near
        a, b = self.spine[i], self.spine[j]
        kept = self.spine[: i + 1] + self.spine[j:]
        on = set(kept)
        touch: dict[int, int] = {}
        for c in kept:
            for o in near[c]:
                touch[o] = touch.get(o, 0) + 1
        near_b = set(near[b])
        max_len = (j - i - 1) + DETOUR
        found: list[list[int]] = []
        nodes = 0
        path: list[int] = []
        in_path: set[int] = set()
        rng = self.rng

        def allowed(c: int, last: int) -> bool:
            if c in on or c in in_path:
                return False
            # touches among the kept spine: only ``a`` when first, and ``b`` at the end
            spine_touch = touch.get(c, 0)
            expected = (1 if last == a else 0) + (1 if c in near_b else 0)
            if spine_touch != expected:
                return False
            if last != a and a in near[c]:
                return False
            # induced: no path block but ``last`` may touch c
            return all(o == last or o not in in_path for o in near[c])

        def dfs(last: int) -> None:
            nonlocal nodes
            if nodes >= PATH_NODES or len(found) >= PATHS:
                return
            options = [c for c in near[last] if allowed(c, last)]
            rng.shuffle(options)
            for c in options:
                nodes += 1
                if c in near_b:
                    if path or last == a:
                        found.append([*path, c])
                    continue
                if len(path) + 1 >= max_len:
                    continue
                path.append(c)
                in_path.add(c)
                dfs(c)
                path.pop()
                in_path.discard(c)
                if nodes >= PATH_NODES or len(found) >= PATHS:
                    return

        dfs(a)
        return found
