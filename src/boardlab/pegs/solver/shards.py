"""Solver layer: the level pass in shards, in process or on a cluster, in memory or on disk.

The same figures as :func:`boardlab.pegs.solver.levels.analyse`, computed so that no
process ever holds a whole level: each level is split into ``shards`` by a hash of the
canonical form (:func:`boardlab.pegs.solver.kernel_shards.shard_of`).

- Forward: a task expands one shard of level ``k + 1`` (deduplicating its own children)
  and routes each child to its shard; a task per shard of level ``k`` merges what was
  routed to it (sorted, distinct).
- Backward: a task takes one shard of the winning positions of level ``k - 1`` with
  their 128-bit weights ``W = paths x orbit size`` and pushes each weight to every
  parent's canonical form, routed by shard; a task per shard of level ``k`` adds up the
  weights that reached its positions (the positions with a non-zero sum are winning).
  Summing pushes is the pull of ``count_parents`` read backwards, so ``W`` is the same.

This module plans the passes level by level; the tasks are in
:mod:`boardlab.pegs.solver.shards_tasks`, where their results are kept (memory or a
work folder, and which levels a stopped run may trust) in
:mod:`boardlab.pegs.solver.shards_store`. An engine (:class:`boardlab.core.tasks.Engine`)
runs the tasks: :class:`boardlab.core.tasks.LocalEngine` in this process (the kernels
use its cores), or :class:`boardlab.cluster.ray_engine.RayEngine` on a Ray cluster, where a
task's results stay in the object store and are handed to the next tasks by reference.
With a work folder a level larger than memory still runs, and a stopped run resumes
from its last finished level (a half-written level is done again).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import ResourceLimitError
from boardlab.core.limits import Budget
from boardlab.core.memory import format_size, peak_resident_memory
from boardlab.core.tasks import Engine
from boardlab.pegs.cells import Jump
from boardlab.pegs.solver import shards_store as store
from boardlab.pegs.solver.games import shortest_line
from boardlab.pegs.solver.levels import (
    BYTES_PER_CHILD,
    Analysis,
    LevelCount,
    Progress,
    moves_per_position,
)
from boardlab.pegs.solver.shards_games import ShardedGames
from boardlab.pegs.solver.shards_store import Handle
from boardlab.pegs.solver.shards_tasks import (
    canonical,
    read_shard,
    route,
    routed_files,
    submit_pushes,
    task_expand,
    task_goal,
    task_head,
    task_merge,
    task_push,
    task_sum,
)
from boardlab.pegs.solver.tables import Problem

__all__ = ["DEFAULT_SHARDS", "ShardedRun", "level_passes"]

U64 = npt.NDArray[np.uint64]

DEFAULT_SHARDS = 16


@dataclass
class ShardedRun:
    """How a partitioned pass runs: the engine, the number of shards, the work folder
    (None: results in memory), the memory budget in bytes (None: not checked) and the
    work folder's disk budget (None: the free disk)."""

    engine: Engine
    shards: int = DEFAULT_SHARDS
    workdir: Path | None = None
    memory: int | None = None
    disk: store.DiskBudget | None = None


def _check_room(run: ShardedRun, level_size: int, pegs: int, moves: float) -> None:
    """Stop before a level that would not fit: memory per task, disk for the folder."""
    need = int(level_size * moves * BYTES_PER_CHILD)
    machines = len(getattr(run.engine, "nodes", ())) if run.engine.local_files else 0
    disk_need = need // 3 // max(machines, 1)  # each machine holds its shards' share
    if run.memory is not None:
        per_task = need // run.shards * max(run.engine.workers, 1)
        held = 0 if run.workdir is not None else need
        if per_task + held > run.memory:
            raise ResourceLimitError(
                f"positions with {pegs} pegs need about {format_size(per_task + held)} of memory, "
                f"over the memory budget of {format_size(run.memory)}",
                resource="memory",
            )
    if run.workdir is not None:
        free = shutil.disk_usage(run.workdir).free
        room = store.disk_room(run.workdir, run.disk)
        if disk_need > room:
            left = f"only {format_size(free)} free"
            if run.disk is not None and room < free:
                left = (
                    f"only {format_size(max(room, 0))} left of the disk budget of "
                    f"{format_size(run.disk.limit)}"
                )
            raise ResourceLimitError(
                f"positions with {pegs} pegs need about {format_size(disk_need)} in "
                f"{run.workdir}, {left}",
                resource="disk",
            )


def level_passes(
    problem: Problem,
    run: ShardedRun,
    budget: Budget,
    progress: Progress | None,
    keep_winning: bool,
    kept: dict[int, list[Handle]],
    games: bool = True,
) -> Analysis:
    """The forward and backward passes; every level's shards of winning positions (with
    their weights) are left in ``kept``. With ``games`` the forward pass also counts the
    lines of play from the start (every level down to one peg, for the dead ends;
    :mod:`boardlab.pegs.solver.shards_games`) and traces a shortest game.

    :raises LimitExceededError: when the time budget runs out;
    :raises ResourceLimitError: (a ``LimitExceededError``) before a level that would not
        fit in the run's memory or in its work folder's disk.
    """
    from boardlab.pegs.solver import kernel

    began = time.perf_counter()
    shards = run.shards
    # the tasks' masks and table, in the engine's shared store once (handles on a cluster)
    masks, table = run.engine.share(problem.masks), run.engine.share(problem.table)
    nbits = problem.board.size
    top, bottom = problem.start_pegs, problem.goal.pegs
    total = 2 * (top - bottom) or 1
    first = np.array([kernel.canon(np.uint64(problem.start), problem.table)], np.uint64)
    levels: dict[int, list[Handle]] = {top: route(first, shards)}
    sizes: dict[int, int] = {top: 1}
    sample = first
    lines = ShardedGames(problem, run.engine, shards, run.disk) if games else None
    for pegs in range(top - 1, bottom - 1 if lines is None else 0, -1):
        if pegs < bottom and sizes[pegs + 1] == 0:
            break  # no position below the goal's count has fewer pegs either
        budget.check(f"enumerating positions with {pegs} pegs")
        folder = store.level_folder(run.workdir, "level", pegs)
        done = store.finished(folder)
        if done is not None and folder is not None:
            levels[pegs] = store.shard_files(folder, shards, ".npy")
            sizes[pegs] = store.recorded(folder, partial(int, done["positions"]))
        else:
            _check_room(run, sizes[pegs + 1], pegs, moves_per_position(sample, problem))
            report = _shard_report(progress, top - pegs - 1, total, pegs)
            levels[pegs], sizes[pegs] = _forward(
                levels[pegs + 1], run, masks, table, nbits, folder, report
            )
            store.mark_done(folder, {"positions": sizes[pegs]})
        if lines is not None:
            budget.check(f"counting lines of play into positions with {pegs} pegs")
            lines.step(pegs, levels[pegs], run.workdir)
        if progress is not None:
            done_levels = min(top - pegs, total)
            progress(done_levels, total, f"positions with {pegs} pegs ({sizes[pegs]:,})")
        sample = _sample(levels[pegs], run)
    found_games = None
    if lines is not None:
        line = () if lines.tally.first is None else _trace(problem, run, levels, lines.tally.first)
        found_games = lines.tally.result(problem.board, line)
        for pegs in [p for p in levels if p < bottom]:
            del levels[pegs]
    counts: list[LevelCount] = []
    winning: dict[int, U64] = {}
    wins: list[Handle] = []
    solutions = 0
    for pegs in range(bottom, top + 1):
        budget.check(f"counting paths from positions with {pegs} pegs")
        folder = store.level_folder(run.workdir, "wins", pegs)
        done = store.finished(folder)
        if done is not None and folder is not None:
            wins = store.shard_files(folder, shards, ".npz")
            totals = store.recorded(folder, partial(_totals, done["counts"]))
        else:
            wins, totals = _backward(pegs, bottom, levels[pegs], wins, run, problem, folder)
            store.mark_done(folder, {"counts": [str(x) for x in totals]})
        classes, boards, win_classes, win_boards, weight, orbit = totals
        counts.append(LevelCount(pegs, classes, boards, win_classes, win_boards))
        if pegs == top:
            solutions = weight // orbit
        kept[pegs] = wins
        if keep_winning:
            winning[pegs] = _gather_keys(wins, run)
        if progress is not None:
            progress(top - bottom + pegs - bottom, total, f"paths from {pegs} pegs")
        if run.workdir is None:
            levels.pop(pegs)  # the level itself is no longer needed in memory
    counts.reverse()
    seconds = time.perf_counter() - began
    return Analysis(problem, tuple(counts), solutions, seconds, winning, games=found_games)


def _trace(
    problem: Problem, run: ShardedRun, levels: dict[int, list[Handle]], first: tuple[int, int]
) -> tuple[Jump, ...]:
    """A shortest game, walked back from ``first`` (its pegs and board) through the
    shards of the levels above (each shard fetched once)."""
    from boardlab.pegs.solver.kernel_shards import shard_of

    loaded: dict[tuple[int, int], U64] = {}

    def reachable(pegs: int, form: int) -> bool:
        j = int(shard_of(np.array([form], np.uint64), run.shards)[0])
        if (pegs, j) not in loaded:
            loaded[pegs, j] = np.asarray(read_shard(run.engine, levels[pegs][j], j))
        shard = loaded[pegs, j]
        at = int(np.searchsorted(shard, np.uint64(form)))
        return at < shard.size and int(shard[at]) == form

    return shortest_line(problem, first[0], first[1], reachable)


def _shard_report(
    progress: Progress | None, done: int, total: int, pegs: int
) -> Callable[[int, int, int], None]:
    """A level's progress line: positions so far, shards merged, rate, this process's
    peak memory."""
    began = time.perf_counter()

    def report(merged: int, shards: int, positions: int) -> None:
        if progress is None:
            return
        rate = positions / max(time.perf_counter() - began, 1e-9)
        peak = peak_resident_memory()
        progress(
            done,
            total,
            f"positions with {pegs} pegs: {positions:,} in {merged}/{shards} shards, "
            f"{rate:,.0f}/s, {format_size(peak)}",
        )

    return report


def _forward(
    parents: list[Handle],
    run: ShardedRun,
    masks: tuple[U64, U64, U64],
    table: U64,
    nbits: int,
    folder: Path | None,
    report: Callable[[int, int, int], None],
) -> tuple[list[Handle], int]:
    shards = run.shards
    engine = run.engine
    routed: list[list[Handle]] = []
    for i, part in enumerate(parents):
        args = (part, masks, table, nbits, shards, routed_files(engine, folder, i, shards, ".npy"))
        got = engine.submit(task_expand, args, returns=shards, place=i)
        routed.append(got if shards > 1 else [got])
    merged: list[Handle] = []
    size_handles: list[Handle] = []
    for j in range(shards):
        out = None if folder is None else str(folder / f"shard-{j:04d}.npy")
        args = (nbits, out, *[r[j] for r in routed])
        level, size = engine.submit(task_merge, args, returns=2, place=j)
        merged.append(level)
        size_handles.append(size)
    total = 0
    for j, handle in enumerate(size_handles):  # in order: the progress of the level
        total += int(engine.fetch([handle])[0])
        report(j + 1, shards, total)
    return merged, total


def _backward(
    pegs: int,
    bottom: int,
    level: list[Handle],
    below: list[Handle],
    run: ShardedRun,
    problem: Problem,
    folder: Path | None,
) -> tuple[list[Handle], list[int]]:
    shards = run.shards
    engine = run.engine
    table = engine.share(problem.table)
    out = (lambda j: None) if folder is None else (lambda j: str(folder / f"shard-{j:04d}.npz"))
    results: list[tuple[Handle, Handle]] = []
    if pegs == bottom:
        goal = problem.goal.bits
        key = None if goal is None else canonical(goal, problem.table)
        for j in range(shards):
            args = (level[j], table, key, out(j))
            results.append(engine.submit(task_goal, args, returns=2, place=j))
    else:
        pushed = submit_pushes(engine, task_push, below, problem, shards, folder)
        for j in range(shards):
            args = (level[j], table, out(j), *[p[j] for p in pushed])
            results.append(engine.submit(task_sum, args, returns=2, place=j))
    counted = engine.fetch([r[1] for r in results])
    totals = [sum(c[k] for c in counted) for k in range(5)]
    orbits = [c[5] for c in counted if c[4]]
    totals.append(orbits[0] if orbits else 1)
    return [r[0] for r in results], totals


def _sample(level: list[Handle], run: ShardedRun) -> U64:
    """A few positions of a level, for the next level's estimate (read where each shard
    is: the driver reads no shard file of a machine that keeps its own)."""
    engine = run.engine
    for j, handle in enumerate(level):
        values: U64 = engine.fetch([engine.submit(task_head, (handle, 4096), place=j)])[0]
        if values.size:
            return values
    return np.zeros(0, np.uint64)


def _gather_keys(wins: list[Handle], run: ShardedRun) -> U64:
    keys = [read_shard(run.engine, w, j)[0] for j, w in enumerate(wins)]
    return np.sort(np.concatenate(keys)) if keys else np.zeros(0, np.uint64)


#: The counts a finished ``wins`` level records.
_TOTALS = 6


def _totals(values: object) -> list[int]:
    """The six counts a finished ``wins`` level records (classes, boards, winning classes,
    winning boards, weight, orbit).

    :raises ValueError: when the record holds anything else.
    """
    if not isinstance(values, list):
        raise ValueError("the counts are not a list")
    totals = [int(x) for x in values]
    if len(totals) != _TOTALS:
        raise ValueError(f"{len(totals)} counts, expected {_TOTALS}")
    return totals
