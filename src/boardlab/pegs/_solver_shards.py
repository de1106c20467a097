"""Solver layer: the level pass in shards, in process or on a cluster, in memory or on disk.

The same figures as :func:`boardlab.pegs._solver_levels.analyse`, computed so that no
process ever holds a whole level: each level is split into ``shards`` by a hash of the
canonical form (:func:`boardlab.pegs._kernel_shards.shard_of`).

- Forward: a task expands one shard of level ``k + 1`` (deduplicating its own children)
  and routes each child to its shard; a task per shard of level ``k`` merges what was
  routed to it (sorted, distinct).
- Backward: a task takes one shard of the winning positions of level ``k - 1`` with
  their 128-bit weights ``W = paths x orbit size`` and pushes each weight to every
  parent's canonical form, routed by shard; a task per shard of level ``k`` adds up the
  weights that reached its positions (the positions with a non-zero sum are winning).
  Summing pushes is the pull of ``count_parents`` read backwards, so ``W`` is the same.

An :class:`Engine` runs the tasks: :class:`LocalEngine` in this process (the kernels
use its cores), or :class:`boardlab.cluster.ray_engine.RayEngine` on a Ray cluster, where a
task's results stay in the object store and are handed to the next tasks by reference.
With a work folder every task writes its result as a ``.npy``/``.npz`` file (written
under a temporary name, then renamed) and hands on the file name, so a level larger
than memory still runs, and a level is trusted on a later run only when its
``done.json`` (written last) is there: a stopped run resumes from its last finished
level, and a half-written level is done again.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError, LimitExceededError
from boardlab.core.limits import Budget
from boardlab.core.memory import format_size
from boardlab.core.tasks import Engine
from boardlab.pegs._solver_levels import (
    BYTES_PER_CHILD,
    Analysis,
    LevelCount,
    Progress,
    moves_per_position,
)
from boardlab.pegs._solver_tables import Problem

__all__ = ["DEFAULT_SHARDS", "Engine", "LocalEngine", "ShardedRun"]

U64 = npt.NDArray[np.uint64]
#: A task's result as the next task receives it: an array, a tuple of arrays, a file
#: name in the work folder, or (on a cluster) a reference to any of these.
Handle = Any

DEFAULT_SHARDS = 16
_RUN_FILE = "run.json"
_DONE_FILE = "done.json"


class LocalEngine:
    """Every task at once in this process (its kernels use the process's cores)."""

    workers = 1

    def submit(self, fn: Callable[..., Any], args: Sequence[Any], returns: int = 1) -> Any:
        result = fn(*args)
        return list(result) if returns > 1 else result

    def fetch(self, handles: list[Any]) -> list[Any]:
        return handles

    def close(self) -> None:
        return None


# -- tasks (top-level functions: a cluster ships them to its workers) -------------------


def _load(source: Handle) -> Any:
    """A task's input: the value itself, or the file a task wrote it to."""
    if isinstance(source, str):
        if source.endswith(".npz"):
            with np.load(source) as data:
                return data["keys"], data["lo"], data["hi"]
        return np.load(source)
    return source


def _save(value: Any, path: str | None) -> Handle:
    """Keep a task's output: as is, or in the file ``path`` (written whole, then renamed)."""
    if path is None:
        return value
    temporary = f"{path}.part"
    with open(temporary, "wb") as out:
        if isinstance(value, tuple):
            keys, lo, hi = value
            np.savez(out, keys=keys, lo=lo, hi=hi)
        else:
            np.save(out, value)
    os.replace(temporary, path)
    return path


def _route(values: U64, shards: int, *extra: U64) -> list[Any]:
    """``values`` (and arrays aligned with them) split by shard, each part in order."""
    from boardlab.pegs._kernel_shards import shard_order

    order, starts = shard_order(values, shards)
    grouped = [a[order] for a in (values, *extra)]
    parts = [[g[starts[j] : starts[j + 1]] for j in range(shards)] for g in grouped]
    if not extra:
        return parts[0]
    return [tuple(p[j] for p in parts) for j in range(shards)]


def task_expand(
    parents: Handle,
    masks: tuple[U64, U64, U64],
    table: U64,
    nbits: int,
    shards: int,
    outs: list[str] | None,
) -> list[Handle] | Handle:
    """The distinct children of one shard, routed to their shards."""
    from boardlab.pegs import _kernel

    children = _kernel.sort_unique(_kernel.expand(_load(parents), *masks, table), nbits)
    routed = _route(children, shards)
    kept = [_save(part, None if outs is None else outs[j]) for j, part in enumerate(routed)]
    return kept if shards > 1 else kept[0]  # one result is returned as itself


def task_merge(nbits: int, out: str | None, *parts: Handle) -> tuple[Handle, int]:
    """One shard of a level: the distinct positions routed to it, sorted; and how many
    (each part is sorted and distinct: a merge)."""
    from boardlab.pegs._kernel_shards import merge_unique

    arrays = [_load(p) for p in parts]
    starts = np.cumsum([0] + [a.size for a in arrays]).astype(np.int64)
    merged = merge_unique(np.concatenate(arrays), starts)
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    return _save(merged, out), int(merged.size)


def task_goal(
    level: Handle, table: U64, goal: int | None, out: str | None
) -> tuple[Handle, tuple[int, ...]]:
    """The winning positions of the goal level's shard with their weights, and counts."""
    from boardlab.pegs import _kernel

    positions = _load(level)
    sizes = _kernel.orbit_sizes(positions, table)
    lo = np.zeros(positions.size, np.uint64)
    if goal is None:
        lo[:] = sizes
    else:
        at = int(np.searchsorted(positions, np.uint64(goal)))
        if at < positions.size and positions[at] == goal:
            lo[at] = sizes[at]
    hi = np.zeros(positions.size, np.uint64)
    return _finish(positions, sizes, lo, hi, out)


def _finish(
    positions: U64, sizes: npt.NDArray[np.int64], lo: U64, hi: U64, out: str | None
) -> tuple[Handle, tuple[int, ...]]:
    """Keep a shard's winning positions with their weights; its counts: positions,
    boards, winning positions, winning boards, the weight of its first winning
    position and that position's orbit size (on the start's level, one position: the
    number of solutions times the orbit)."""
    win = (lo | hi) != 0
    first = int(np.argmax(win)) if win.any() else -1
    weight = (int(hi[first]) << 64 | int(lo[first])) if first >= 0 else 0
    counts = (
        int(positions.size),
        int(sizes.sum()),
        int(win.sum()),
        int(sizes[win].sum()),
        weight,
        int(sizes[first]) if first >= 0 else 1,
    )
    return _save((positions[win], lo[win], hi[win]), out), counts


def task_push(
    wins: Handle, masks: tuple[U64, U64, U64], table: U64, shards: int, outs: list[str] | None
) -> list[Handle] | Handle:
    """Every weight of one shard of winning positions pushed to its parents, routed."""
    from boardlab.pegs._kernel_shards import parents_of

    return push_routed(parents_of, wins, masks, table, shards, outs)


def submit_pushes(
    engine: Engine,
    task: Callable[..., list[Handle] | Handle],
    parts: list[Handle],
    problem: Problem,
    shards: int,
    folder: Path | None,
) -> list[list[Handle]]:
    """One push ``task`` a shard of ``parts`` (:func:`task_push` or the forward one);
    ``pushed[i][j]`` is what part ``i`` sends to shard ``j`` (a file in ``folder`` if
    given)."""
    pushed: list[list[Handle]] = []
    for i, part in enumerate(parts):
        outs = None
        if folder is not None:
            outs = [str(folder / f"from-{i:04d}-to-{j:04d}.npz") for j in range(shards)]
        got = engine.submit(task, (part, problem.masks, problem.table, shards, outs), shards)
        pushed.append(got if shards > 1 else [got])
    return pushed


def push_routed(
    kernel: Callable[..., tuple[U64, U64, U64]],
    source: Handle,
    masks: tuple[U64, U64, U64],
    table: U64,
    shards: int,
    outs: list[str] | None,
) -> list[Handle] | Handle:
    """The 128-bit counts of one shard pushed by ``kernel`` (to the parents or the
    children of its positions), routed to their shards and kept (in ``outs`` on disk)."""
    keys, lo, hi = _load(source)
    pushed = kernel(keys, lo, hi, *masks, table)
    routed = _route(pushed[0], shards, pushed[1], pushed[2])
    kept = [_save(part, None if outs is None else outs[j]) for j, part in enumerate(routed)]
    return kept if shards > 1 else kept[0]  # one result is returned as itself


def task_sum(
    level: Handle, table: U64, out: str | None, *parts: Handle
) -> tuple[Handle, tuple[int, ...]]:
    """One shard of a level with the weights pushed to it: its winning positions and counts."""
    from boardlab.pegs import _kernel
    from boardlab.pegs._kernel_shards import add_weights

    positions = _load(level)
    loaded = [_load(p) for p in parts]
    keys = np.concatenate([p[0] for p in loaded])
    lo_in = np.concatenate([p[1] for p in loaded])
    hi_in = np.concatenate([p[2] for p in loaded])
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    lo, hi = add_weights(positions, keys, lo_in, hi_in)
    sizes = _kernel.orbit_sizes(positions, table)
    return _finish(positions, sizes, lo, hi, out)


# -- the run --------------------------------------------------------------------------


@dataclass
class ShardedRun:
    """How a partitioned pass runs: the engine, the number of shards, the work folder
    (None: results in memory) and the memory budget in bytes (None: not checked)."""

    engine: Engine
    shards: int = DEFAULT_SHARDS
    workdir: Path | None = None
    memory: int | None = None


def _fingerprint(problem: Problem, shards: int) -> dict[str, object]:
    return {
        "holes": problem.board.size,
        "jumps": [list(j) for j in problem.board.grid.jumps],
        "start": str(problem.start),
        "goal": None if problem.goal.bits is None else str(problem.goal.bits),
        "symmetries": len(problem.group),
        "shards": shards,
    }


def _prepare(workdir: Path, problem: Problem, shards: int) -> None:
    """Check the work folder: missing, not writable, or holding another run: one line."""
    if not workdir.is_dir():
        raise BoardlabError(f"work folder {workdir} does not exist")
    if not os.access(workdir, os.W_OK):
        raise BoardlabError(f"work folder {workdir} is not writable")
    mine = _fingerprint(problem, shards)
    record = workdir / _RUN_FILE
    if record.exists():
        try:
            theirs = json.loads(record.read_text())
        except (OSError, ValueError) as exc:
            raise BoardlabError(f"{record}: unreadable run record ({exc})") from None
        if theirs != mine:
            raise BoardlabError(
                f"work folder {workdir} holds another run (other board, start, goal or "
                "shard count); give an empty folder"
            )
    else:
        record.write_text(json.dumps(mine))


def _level_folder(run: ShardedRun, kind: str, pegs: int) -> Path | None:
    if run.workdir is None:
        return None
    folder = run.workdir / f"{kind}-{pegs:02d}"
    folder.mkdir(exist_ok=True)
    return folder


def _done(folder: Path | None) -> dict[str, Any] | None:
    if folder is None or not (folder / _DONE_FILE).exists():
        return None
    try:
        data: dict[str, Any] = json.loads((folder / _DONE_FILE).read_text())
    except (OSError, ValueError):
        return None
    return data


def _mark_done(folder: Path | None, data: dict[str, Any]) -> None:
    if folder is not None:
        temporary = folder / f"{_DONE_FILE}.part"
        temporary.write_text(json.dumps(data))
        os.replace(temporary, folder / _DONE_FILE)


def _check_room(run: ShardedRun, level_size: int, pegs: int, moves: float) -> None:
    """Stop before a level that would not fit: memory per task, disk for the folder."""
    need = int(level_size * moves * BYTES_PER_CHILD)
    if run.memory is not None:
        per_task = need // run.shards * max(run.engine.workers, 1)
        held = 0 if run.workdir is not None else need
        if per_task + held > run.memory:
            hint = "more shards (--shards)" if run.workdir is not None else "--workdir DIR"
            raise LimitExceededError(
                f"positions with {pegs} pegs need about {format_size(per_task + held)} of memory, "
                f"over the budget of {format_size(run.memory)}; give {hint} or more --memory"
            )
    if run.workdir is not None:
        free = shutil.disk_usage(run.workdir).free
        if need // 3 > free:
            raise LimitExceededError(
                f"positions with {pegs} pegs need about {format_size(need // 3)} in {run.workdir}, "
                f"only {format_size(free)} free"
            )


def _analyse(
    problem: Problem,
    run: ShardedRun,
    budget: Budget,
    progress: Progress | None,
    keep_winning: bool,
    kept: dict[int, list[Handle]],
) -> Analysis:
    """The forward and backward passes; every level's shards of winning positions (with
    their weights) are left in ``kept``."""
    from boardlab.pegs import _kernel

    began = time.perf_counter()
    shards = run.shards
    masks, table = problem.masks, problem.table
    nbits = problem.board.size
    top, bottom = problem.start_pegs, problem.goal.pegs
    total = 2 * (top - bottom) or 1
    first = np.array([_kernel.canon(np.uint64(problem.start), table)], np.uint64)
    levels: dict[int, list[Handle]] = {top: _route(first, shards)}
    sizes: dict[int, int] = {top: 1}
    sample = first
    for pegs in range(top - 1, bottom - 1, -1):
        budget.check(f"enumerating positions with {pegs} pegs")
        folder = _level_folder(run, "level", pegs)
        done = _done(folder)
        if done is not None and folder is not None:
            levels[pegs] = [str(folder / f"shard-{j:04d}.npy") for j in range(shards)]
            sizes[pegs] = int(done["positions"])
        else:
            _check_room(run, sizes[pegs + 1], pegs, moves_per_position(sample, problem))
            report = _shard_report(progress, top - pegs - 1, total, pegs)
            levels[pegs], sizes[pegs] = _forward(
                levels[pegs + 1], run, masks, table, nbits, folder, report
            )
            _mark_done(folder, {"positions": sizes[pegs]})
        if progress is not None:
            progress(top - pegs, total, f"positions with {pegs} pegs ({sizes[pegs]:,})")
        sample = _sample(levels[pegs], run)
    counts: list[LevelCount] = []
    winning: dict[int, U64] = {}
    wins: list[Handle] = []
    solutions = 0
    for pegs in range(bottom, top + 1):
        budget.check(f"counting paths from positions with {pegs} pegs")
        folder = _level_folder(run, "wins", pegs)
        done = _done(folder)
        if done is not None and folder is not None:
            wins = [str(folder / f"shard-{j:04d}.npz") for j in range(shards)]
            totals = [int(x) for x in done["counts"]]
        else:
            wins, totals = _backward(pegs, bottom, levels[pegs], wins, run, problem, folder)
            _mark_done(folder, {"counts": [str(x) for x in totals]})
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
    return Analysis(problem, tuple(counts), solutions, time.perf_counter() - began, winning)


def _shard_report(
    progress: Progress | None, done: int, total: int, pegs: int
) -> Callable[[int, int, int], None]:
    """A level's progress line: positions so far, shards merged, rate, this process's
    peak memory."""
    import resource

    began = time.perf_counter()

    def report(merged: int, shards: int, positions: int) -> None:
        if progress is None:
            return
        rate = positions / max(time.perf_counter() - began, 1e-9)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
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
        outs = None
        if folder is not None:
            outs = [str(folder / f"from-{i:04d}-to-{j:04d}.npy") for j in range(shards)]
        args = (part, masks, table, nbits, shards, outs)
        got = engine.submit(task_expand, args, returns=shards)
        routed.append(got if shards > 1 else [got])
    merged: list[Handle] = []
    size_handles: list[Handle] = []
    for j in range(shards):
        out = None if folder is None else str(folder / f"shard-{j:04d}.npy")
        level, size = engine.submit(task_merge, (nbits, out, *[r[j] for r in routed]), returns=2)
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
    table = problem.table
    out = (lambda j: None) if folder is None else (lambda j: str(folder / f"shard-{j:04d}.npz"))
    results: list[tuple[Handle, Handle]] = []
    if pegs == bottom:
        goal = problem.goal.bits
        key = None if goal is None else int(problem_canon(goal, table))
        for j in range(shards):
            results.append(engine.submit(task_goal, (level[j], table, key, out(j)), returns=2))
    else:
        pushed = submit_pushes(engine, task_push, below, problem, shards, folder)
        for j in range(shards):
            args = (level[j], table, out(j), *[p[j] for p in pushed])
            results.append(engine.submit(task_sum, args, returns=2))
    counted = engine.fetch([r[1] for r in results])
    totals = [sum(c[k] for c in counted) for k in range(5)]
    orbits = [c[5] for c in counted if c[4]]
    totals.append(orbits[0] if orbits else 1)
    return [r[0] for r in results], totals


def problem_canon(bits: int, table: U64) -> int:
    """The canonical form of a position (plain int)."""
    from boardlab.pegs import _kernel

    return int(_kernel.canon(np.uint64(bits), table))


def _sample(level: list[Handle], run: ShardedRun) -> U64:
    """A few positions of a level, for the next level's estimate."""
    for handle in level:
        value = run.engine.fetch([handle])[0]
        values = np.load(value, mmap_mode="r") if isinstance(value, str) else value
        if values.size:
            return np.array(values[:4096])
    return np.zeros(0, np.uint64)


def _gather_keys(wins: list[Handle], run: ShardedRun) -> U64:
    keys = [_load(w)[0] for w in run.engine.fetch(list(wins))]
    return np.sort(np.concatenate(keys)) if keys else np.zeros(0, np.uint64)
