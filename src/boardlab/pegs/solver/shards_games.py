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
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import ResourceLimitError
from boardlab.core.memory import format_size
from boardlab.core.tasks import Engine
from boardlab.pegs.solver import shards_store as store
from boardlab.pegs.solver.finish import start_counts
from boardlab.pegs.solver.games import GameTally, level_ends
from boardlab.pegs.solver.shards_store import DiskBudget, Handle
from boardlab.pegs.solver.shards_tasks import push_routed, route, submit_pushes, task_remove
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
    level: Handle,
    masks: tuple[U64, U64, U64],
    out: str | None,
    before: Handle | None,
    last: bool,
    *parts: Handle,
) -> tuple[Handle, tuple[int, int, int | None] | None]:
    """One shard of a level with the lines of play pushed to it added to what earlier
    waves brought (``before``: the shard's positions with their counts so far, or None),
    and, on the ``last`` wave, its dead ends (classes, games ending there, one of them or
    None).

    :raises ArithmeticError: when a count would pass 2^128.
    """
    from boardlab.pegs.solver.kernel_games import add_checked

    positions = store.load(level)
    loaded = [store.load(p) for p in parts]
    if before is not None:
        loaded.append(store.load(before))
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
    kept = store.save((positions, lo, hi), out)
    if isinstance(before, str) and before != out:
        os.remove(before)
    return kept, level_ends(masks, positions, lo, hi) if last else None


class ShardedGames:
    """The lines of play of one level at a time, in shards, with the dead ends tallied
    (the start's level at once, each level below by :meth:`step`)."""

    def __init__(
        self, problem: Problem, engine: Engine, shards: int, disk: DiskBudget | None = None
    ) -> None:
        self.problem = problem
        self.engine = engine
        self.shards = shards
        self.disk = disk
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
            ends = store.recorded(folder, partial(_ends, done["ends"]))
        else:
            above = self.counts
            ends = self._count(level, folder, pegs)
            saved = [[c, str(g), None if e is None else str(e)] for c, g, e in ends]
            store.mark_done(folder, {"ends": saved})
            # a resumed run needs only the last finished level's counts (every level's
            # dead ends stay in its done.json): the level above's files go (each removed
            # where it is, on an engine whose machines keep their own files)
            if self.engine.local_files:
                self.engine.fetch(
                    [self.engine.submit(task_remove, (h,), place=j) for j, h in enumerate(above)]
                )
            else:
                for handle in above:
                    task_remove(handle)
        for classes, games, example in ends:
            self.tally.add(pegs, classes, games, example)

    def _count(
        self, level: list[Handle], folder: Path | None, pegs: int
    ) -> list[tuple[int, int, int | None]]:
        """Push the last level's lines of play into ``level`` (``pegs`` pegs) and add them
        up, shard by shard. On disk the pushes go in waves of source shards, so that what
        waits on disk to be added stays within a part of the free space (or of what the
        disk budget leaves): the first wave is one shard, whose pushes measure the next
        waves (in memory: one wave).

        :raises ResourceLimitError: when the work folder has passed its disk budget
            after a wave (the level is done again on the next run).
        """
        engine = self.engine
        masks = engine.share(self.problem.masks)
        sources = self.counts
        sums: list[Handle | None] = [None] * self.shards
        ends: list[tuple[int, int, int | None]] = []
        done = 0
        on_disk = folder is not None and not engine.local_files  # else pushes in memory
        wave = 1 if on_disk else len(sources)
        while done < len(sources):
            part = sources[done : done + wave]
            pushed = submit_pushes(
                engine, task_push_forward, part, self.problem, self.shards, folder, done
            )
            if on_disk and folder is not None:
                pushed = [list(engine.fetch(list(p))) for p in pushed]
                written = sum(os.path.getsize(str(f)) for p in pushed for f in p)
                room = store.disk_room(folder, self.disk)
                if room < 0 and self.disk is not None:
                    raise ResourceLimitError(
                        f"counting the lines of play into positions with {pegs} pegs, the "
                        f"work folder passed its disk budget of {format_size(self.disk.limit)}",
                        resource="disk",
                    )
                wave = _wave_size(written / len(part), room)
            last = done + len(part) >= len(sources)
            results = []
            for j in range(self.shards):
                out = None
                if folder is not None:
                    out = str(folder / (f"shard-{j:04d}.npz" if last else f"sum-{j:04d}.npz"))
                args = (level[j], masks, out, sums[j], last, *[p[j] for p in pushed])
                results.append(engine.submit(task_count_games, args, returns=2, place=j))
            tallies = engine.fetch([r[1] for r in results])
            sums = [r[0] for r in results]
            done += len(part)
            if last:
                ends = [(int(c), int(g), None if e is None else int(e)) for c, g, e in tallies]
        self.counts = [s for s in sums if s is not None]
        return ends


def _wave_size(bytes_a_source: float, free: int) -> int:
    """Source shards a wave, so that their pushes take at most 40 % of the free disk."""
    return max(1, int(0.4 * free / max(bytes_a_source, 1.0)))


def _ends(saved: object) -> list[tuple[int, int, int | None]]:
    """The dead-end tallies a finished ``games`` level records.

    :raises ValueError: when the record holds anything else.
    """
    if not isinstance(saved, list):
        raise ValueError("the ends are not a list")
    return [(int(c), int(g), None if e is None else int(e)) for c, g, e in saved]
