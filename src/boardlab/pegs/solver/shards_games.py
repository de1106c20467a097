"""Solver layer: the game count in shards (the lines of play from the start, partitioned).

:mod:`boardlab.pegs.solver.games` in shards, run level by level beside the sharded
forward pass: a task takes one shard of level ``k + 1`` with its weights ``T`` (the
lines of play from the start), pushes each along every jump to the child's canonical
form (:func:`boardlab.pegs.solver.kernel_shards.children_of`) and routes the pushes by shard;
a task per shard of level ``k`` adds up what reached its positions
(:func:`boardlab.pegs.solver.kernel_games.add_checked`) and counts its dead ends. In a work
folder each level's weights are kept in ``games-PP/`` with its dead ends in the
``done.json``, so a stopped run resumes here too.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.tasks import Engine
from boardlab.pegs.solver import shards_store as store
from boardlab.pegs.solver.finish import start_counts
from boardlab.pegs.solver.games import GameTally, level_ends
from boardlab.pegs.solver.shards_store import Handle
from boardlab.pegs.solver.shards_tasks import push_routed, route, submit_pushes
from boardlab.pegs.solver.tables import Problem

__all__ = ["ShardedGames", "task_count_games", "task_push_forward"]

U64 = npt.NDArray[np.uint64]


def task_push_forward(
    counts: Handle, masks: tuple[U64, U64, U64], table: U64, shards: int, outs: list[str] | None
) -> list[Handle] | Handle:
    """Every count of one shard pushed along every jump to the child, routed."""
    from boardlab.pegs.solver.kernel_shards import children_of

    return push_routed(children_of, counts, masks, table, shards, outs)


def task_count_games(
    level: Handle, masks: tuple[U64, U64, U64], out: str | None, *parts: Handle
) -> tuple[Handle, tuple[int, int, int | None]]:
    """One shard of a level with the lines of play pushed to it, and its dead ends
    (classes, games ending there, one of them or None).

    :raises ArithmeticError: when a count would pass 2^128.
    """
    from boardlab.pegs.solver.kernel_games import add_checked

    positions = store.load(level)
    loaded = [store.load(p) for p in parts]
    empty = np.zeros(0, np.uint64)
    keys = np.concatenate([empty, *(p[0] for p in loaded)])
    lo, hi, overflow = add_checked(
        positions,
        keys,
        np.concatenate([empty, *(p[1] for p in loaded)]),
        np.concatenate([empty, *(p[2] for p in loaded)]),
    )
    if overflow:
        raise ArithmeticError("a count of lines of play passed 2^128")
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    return store.save((positions, lo, hi), out), level_ends(masks, positions, lo, hi)


class ShardedGames:
    """The lines of play of one level at a time, in shards, with the dead ends tallied
    (the start's level at once, each level below by :meth:`step`)."""

    def __init__(self, problem: Problem, engine: Engine, shards: int) -> None:
        self.problem = problem
        self.engine = engine
        self.shards = shards
        keys, lo, hi = start_counts(problem)
        self.counts: list[Handle] = route(keys, shards, lo, hi)
        self.tally = GameTally()
        self.tally.add(problem.start_pegs, *level_ends(problem.masks, keys, lo, hi))

    def step(self, pegs: int, level: list[Handle], workdir: Any) -> None:
        """Count the lines of play into ``level`` (its shards; ``pegs`` pegs) and tally
        its dead ends; in ``workdir`` (None: in memory) a finished level is reused."""
        folder = store.level_folder(workdir, "games", pegs)
        done = store.finished(folder)
        if done is not None and folder is not None:
            self.counts = store.shard_files(folder, self.shards, ".npz")
            ends = [(int(c), int(g), None if e is None else int(e)) for c, g, e in done["ends"]]
        else:
            engine = self.engine
            masks = engine.share(self.problem.masks)
            pushed = submit_pushes(
                engine, task_push_forward, self.counts, self.problem, self.shards, folder
            )
            results = []
            for j in range(self.shards):
                out = None if folder is None else str(folder / f"shard-{j:04d}.npz")
                args = (level[j], masks, out, *[p[j] for p in pushed])
                results.append(engine.submit(task_count_games, args, returns=2))
            ends = list(engine.fetch([r[1] for r in results]))
            self.counts = [r[0] for r in results]
            saved = [[c, str(g), None if e is None else str(e)] for c, g, e in ends]
            store.mark_done(folder, {"ends": saved})
        for classes, games, example in ends:
            self.tally.add(pegs, classes, games, example)
