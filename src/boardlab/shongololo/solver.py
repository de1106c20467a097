"""Solver layer: the most blocks eaten, by constructions, exact search and local search.

:class:`Solver` keeps the best legal run of three methods, within its time limit:

1. **construction** (every fruit): rows on the perfect code of the cross-section,
   chained at the end faces (:mod:`~boardlab.shongololo.constructions`), every axis
   order and pattern, with the exactly best leaves of each spine (matching);
2. **exact** (small fruits): branch and bound from the start
   (:mod:`~boardlab.shongololo.exact`), seeded with the best run so far; for at most
   :data:`EXACT_VOLUME` blocks it usually finishes and proves the optimum;
3. **local search** (the time left), in rounds: first a batch of reroute moves
   (:mod:`~boardlab.shongololo.reroute`: cut a short piece out of the spine, put in
   another induced path between its ends, keep it when the exact leaves eat at least
   as much), then one large-neighbourhood step that keeps a prefix of the best run (cut
   at a random spine block, near the end more often) and completes it by branch and
   bound under a node budget; improvements are kept and their leaves re-optimised by
   matching.

Every candidate is replayed by the judge before it is returned. Without a time limit
(``Limit(time=None, nodes=...)``) every phase is bounded by nodes or rounds and a run
is reproducible from its seed; with a time limit, how far the searches get depends on
the clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Budget, Limit
from boardlab.shongololo.blocks import Action, Box
from boardlab.shongololo.constructions import Layout, build_spine, layouts
from boardlab.shongololo.exact import exact_search, search_from
from boardlab.shongololo.judge import judge_actions
from boardlab.shongololo.leaves import neighbour_table, plan_actions, plan_of
from boardlab.shongololo.patterns import STRIP_LIMIT
from boardlab.shongololo.reroute import Rerouter
from boardlab.shongololo.rules import upper_bound

__all__ = ["DEFAULT_TIME", "EXACT_VOLUME", "Solution", "Solver", "solve"]

#: Seconds a solve may take when no limit is given.
DEFAULT_TIME = 10.0
#: Fruits up to this many blocks get the exact search first (it proves the optimum).
EXACT_VOLUME = 64
#: Fruits up to this many blocks get an anytime exact search after the construction.
ANYTIME_VOLUME = 1000

#: Without a time limit: node budget of the anytime exact search, rounds of local search.
UNTIMED_NODES = 2_000_000
UNTIMED_ROUNDS = 200
#: With less time left than this (seconds), wide cross-sections are not annealed.
TUNED_MIN_TIME = 2.0
#: Row orders of the construction rounds, in turn (see ``Layout.sweep`` in
#: :mod:`~boardlab.shongololo.constructions`).
SWEEPS = (0, -5, 5, -4, 4, 6, -6)
#: Reroute moves (:mod:`~boardlab.shongololo.reroute`) per round of local search.
REROUTE_MOVES = 100

Progress = Callable[[str, int], None]


@dataclass(frozen=True, slots=True)
class Solution:
    """A legal run and its evidence: count, bound, whether proven optimal, work done
    (``nodes``: the exact searches' branch-and-bound nodes), and the seed of the search."""

    box: Box
    actions: tuple[Action, ...]
    eaten: int
    bound: int
    proven: bool
    method: str
    nodes: int
    seconds: float
    seed: int

    @property
    def ratio(self) -> float:
        """Blocks eaten as a share of the proven upper bound."""
        return self.eaten / self.bound

    @property
    def density(self) -> float:
        """Blocks eaten as a share of the fruit."""
        return self.eaten / self.box.volume

    def as_dict(self) -> dict[str, Any]:
        """The run's counts and evidence as JSON-ready values (``--json`` and the web API).

        The evidence has the names every game uses: ``proven``, ``bound``, ``nodes``,
        ``seconds``; ``seed`` is the search's seed.
        """
        box = self.box
        return {
            "box": list(box.sides),
            "blocks": box.volume,
            "eaten": self.eaten,
            "moves": sum(action.kind == "M" for action in self.actions),
            "bound": self.bound,
            "ratio": round(self.ratio, 4),
            "density": round(self.density, 4),
            "proven": self.proven,
            "method": self.method,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
        }


class Solver:
    """Finds a long legal run for a fruit within ``limit`` (default 10 s), from ``seed``."""

    def __init__(
        self,
        limit: Limit | None = None,
        seed: int = 0,
        progress: Progress | None = None,
        *,
        construction_rounds: int = 40,
        local_rounds: int | None = None,
    ) -> None:
        self.limit = limit if limit is not None else Limit(time=DEFAULT_TIME)
        self.seed = seed
        self.progress = progress
        self.construction_rounds = construction_rounds
        self.local_rounds = local_rounds

    def _budget(self, box: Box) -> Budget:
        # keep time for the final replay by the judge (about 25 us a block)
        seconds = self.limit.time
        if seconds is not None:
            seconds = max(0.05, seconds - 3e-5 * box.volume)
        return Limit(time=seconds, nodes=self.limit.nodes).start()

    def solve(self, box: Box) -> Solution:
        """The best run found for ``box``.

        :raises BoardlabError: if a candidate ever fails the judge (a bug, never expected).
        """
        started = time.perf_counter()
        budget = self._budget(box)
        rng = random.Random(self.seed)
        nbr = neighbour_table(box)
        best: tuple[Action, ...] = ()
        best_count = -1
        method = "construction"
        nodes = 0
        proven = False

        def offer(run: tuple[Action, ...], how: str) -> None:
            nonlocal best, best_count, method
            count = sum(a.kind == "E" for a in run)
            if count > best_count:
                best, best_count, method = run, count, how
                if self.progress is not None:
                    self.progress(how, count)

        share_end = budget.elapsed + 0.4 * (budget.remaining or 0.0)
        best_plan = None
        for round_number in range(self.construction_rounds):
            sweep = SWEEPS[round_number % len(SWEEPS)]
            for layout in layouts(box):
                if best_plan is not None and budget.exhausted():
                    break  # out of time, or the caller cancelled the search
                if _too_slow(box, layout, budget.remaining):
                    continue
                order = replace(layout, sweep=sweep)
                plan = plan_of(box, build_spine(box, order, random.Random(rng.random())), nbr)
                if best_plan is None or plan.eaten > best_plan.eaten:
                    best_plan = plan
            out_of_share = budget.remaining is not None and budget.elapsed >= share_end
            if (out_of_share and round_number) or (best_plan and budget.exhausted()):
                break
        assert best_plan is not None
        offer(tuple(plan_actions(best_plan)), "construction")
        bound = upper_bound(box)
        if (
            best_count < bound
            and box.volume <= ANYTIME_VOLUME
            and (box.volume <= EXACT_VOLUME or not budget.exhausted())
        ):
            share = 0.8 if box.volume <= EXACT_VOLUME else 0.3
            remaining = budget.remaining
            floor = 0.5 if box.volume <= EXACT_VOLUME else 0.05
            seconds = None if remaining is None else max(floor, share * remaining)
            exact_nodes = self.limit.nodes
            if seconds is None and exact_nodes is None:
                exact_nodes = UNTIMED_NODES
            result = exact_search(box, Limit(time=seconds, nodes=exact_nodes), incumbent=best)
            nodes += result.nodes
            proven = result.proven
            offer(result.actions, "exact" if result.proven else "branch and bound")
        rounds = 0
        local_rounds = self.local_rounds
        if local_rounds is None:
            local_rounds = UNTIMED_ROUNDS if self.limit.time is None else 1 << 62
        rerouter: Rerouter | None = None
        while (
            not proven and best_count < bound and not budget.exhausted() and rounds < local_rounds
        ):
            rounds += 1
            if self.progress is not None:
                self.progress("local search", best_count)
            spine = [box.index(a.block) for a in best if a.kind == "M"]
            if rerouter is None or rerouter.best_eaten < best_count:
                rerouter = Rerouter(box, spine, nbr, rng.randrange(1 << 30))
            before = rerouter.best_eaten
            rerouter.run(REROUTE_MOVES, budget.exhausted)
            if rerouter.best_eaten > before:
                offer(tuple(plan_actions(plan_of(box, rerouter.best, nbr))), "local search")
            moves = [i for i, a in enumerate(best) if a.kind == "M"]
            back = min(len(moves) - 1, int(rng.expovariate(1 / 12.0)))
            prefix = best[: moves[len(moves) - 1 - back] + 1]
            remaining = budget.remaining
            limit = Limit(time=None if remaining is None else max(remaining, 1e-3), nodes=20_000)
            result = search_from(box, prefix, limit, incumbent=best, nbr=nbr)
            nodes += result.nodes
            if result.eaten > best_count:
                offer(result.actions, "local search")
                spine = [box.index(a.block) for a in best if a.kind == "M"]
                offer(tuple(plan_actions(plan_of(box, spine, nbr))), "local search")
            if back == len(moves) - 1 and result.proven:
                proven = True
        verdict = judge_actions(box, best)
        if not verdict.valid or verdict.eaten != best_count:
            raise BoardlabError(f"internal error: the judge rejects the run: {verdict.summary()}")
        return Solution(
            box,
            best,
            best_count,
            bound,
            proven or best_count == bound,
            method,
            nodes,
            time.perf_counter() - started,
            self.seed,
        )


def _too_slow(box: Box, layout: Layout, remaining: float | None) -> bool:
    """Skip annealed cross-sections (about 0.2-0.7 s each) when little time is left."""
    if layout.pattern != "tuned" or remaining is None or remaining >= TUNED_MIN_TIME:
        return False
    return min(box.sides[layout.axes[1]], box.sides[layout.axes[2]]) > STRIP_LIMIT


def solve(box: Box, seconds: float | None = DEFAULT_TIME, seed: int = 0) -> Solution:
    """Shorthand for ``Solver(Limit(time=seconds), seed).solve(box)``."""
    return Solver(Limit(time=seconds), seed).solve(box)
