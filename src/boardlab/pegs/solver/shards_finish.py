"""Solver layer: solutions by finishing hole, partitioned (after the sharded passes).

:mod:`boardlab.pegs.solver.finish` in shards: a task takes one shard of level ``k + 1``
with the counts ``F`` from the start, pushes each along every jump to the child's
canonical form (:func:`boardlab.pegs.solver.kernel_shards.children_of`) and routes the pushes
by shard; a task per shard of level ``k`` adds up what reached its winning positions.
In a work folder each level's counts are kept in ``paths-PP/`` (trusted once its
``done.json`` is written), so a stopped run resumes here too.
"""

from __future__ import annotations

import os

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Budget
from boardlab.pegs.solver import shards_store as store
from boardlab.pegs.solver.finish import by_hole, start_counts
from boardlab.pegs.solver.levels import Progress
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.shards_games import task_push_forward
from boardlab.pegs.solver.shards_store import Handle
from boardlab.pegs.solver.shards_tasks import read_shard, route, submit_pushes
from boardlab.pegs.solver.tables import Problem

__all__ = ["finishes_sharded", "task_add"]

U64 = npt.NDArray[np.uint64]


def task_add(wins: Handle, out: str | None, *parts: Handle) -> Handle:
    """One shard of winning positions with the counts pushed to them."""
    from boardlab.pegs.solver.kernel_shards import add_weights

    keys = store.load(wins)[0]
    loaded = [store.load(p) for p in parts]
    lo, hi = add_weights(
        keys,
        np.concatenate([p[0] for p in loaded]),
        np.concatenate([p[1] for p in loaded]),
        np.concatenate([p[2] for p in loaded]),
    )
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    return store.save((keys, lo, hi), out)


def finishes_sharded(
    problem: Problem,
    run: ShardedRun,
    wins: dict[int, list[Handle]],
    budget: Budget,
    progress: Progress | None,
) -> dict[int, int]:
    """Solutions by the hole of the last peg (``wins``: every level's shards of winning
    positions, as the backward pass left them).

    :raises LimitExceededError: when the time budget runs out (finished levels kept).
    """
    shards, engine = run.shards, run.engine
    top, bottom = problem.start_pegs, problem.goal.pegs
    keys, lo, hi = start_counts(problem)
    counts: list[Handle] = route(keys, shards, lo, hi)
    for pegs in range(top - 1, bottom - 1, -1):
        budget.check(f"counting paths from the start to {pegs} pegs")
        folder = store.level_folder(run.workdir, "paths", pegs)
        if store.finished(folder) is not None and folder is not None:
            counts = store.shard_files(folder, shards, ".npz")
            continue
        pushed = submit_pushes(engine, task_push_forward, counts, problem, shards, folder)
        counts = []
        for j in range(shards):
            out = None if folder is None else str(folder / f"shard-{j:04d}.npz")
            args = (wins[pegs][j], out, *[p[j] for p in pushed])
            counts.append(engine.submit(task_add, args, place=j))
        engine.fetch(counts)  # every shard finished before the level is marked done
        store.mark_done(folder, {"pegs": pegs})
        if progress is not None:
            progress(top - pegs, top - bottom, f"paths from the start to {pegs} pegs")
    finishes: dict[int, int] = {}
    for keys, lo, hi in (read_shard(engine, h, j) for j, h in enumerate(counts)):
        for hole, n in by_hole(problem, keys, lo, hi).items():
            finishes[hole] = finishes.get(hole, 0) + n
    return dict(sorted(finishes.items()))
