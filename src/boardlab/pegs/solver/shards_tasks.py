"""Solver layer: the tasks of the sharded level pass (top-level functions: an engine may
ship them to other processes or machines).

Each task takes :data:`~boardlab.pegs.solver.shards_store.Handle` values (arrays, or
files in the work folder) and returns its result the same way: expand one shard and
route the children to their shards (:func:`task_expand`), merge what reached a shard
(:func:`task_merge`), weigh the goal level (:func:`task_goal`), push a shard's weights
to the parents (:func:`task_push`) and add up what reached a shard (:func:`task_sum`).
A shard is chosen by a hash of the canonical form
(:func:`boardlab.pegs.solver.kernel_shards.shard_of`).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.tasks import Engine
from boardlab.pegs.solver import shards_store as store
from boardlab.pegs.solver.shards_store import Handle
from boardlab.pegs.solver.tables import Problem

__all__ = [
    "canonical",
    "push_routed",
    "read_shard",
    "route",
    "routed_files",
    "submit_pushes",
    "task_expand",
    "task_goal",
    "task_head",
    "task_merge",
    "task_push",
    "task_remove",
    "task_sum",
]

U64 = npt.NDArray[np.uint64]


def route(values: U64, shards: int, *extra: U64) -> list[Any]:
    """``values`` (and arrays aligned with them) split by shard, each part in order."""
    from boardlab.pegs.solver import kernel_shards

    grouped: tuple[U64, ...]
    if not extra:
        alone, starts = kernel_shards.group_by_shard(values, shards)
        grouped = (alone,)
    elif len(extra) == 2:  # noqa: PLR2004 (a 128-bit weight: its low and high words)
        keys, lo, hi, starts = kernel_shards.group_weighted_by_shard(values, *extra, shards)
        grouped = (keys, lo, hi)
    else:
        order, starts = kernel_shards.shard_order(values, shards)
        grouped = tuple(a[order] for a in (values, *extra))
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
    from boardlab.pegs.solver import kernel

    children = kernel.sort_unique(kernel.expand(store.load(parents), *masks, table), nbits)
    routed = route(children, shards)
    kept = [store.save(part, None if outs is None else outs[j]) for j, part in enumerate(routed)]
    return kept if shards > 1 else kept[0]  # one result is returned as itself


def task_merge(nbits: int, out: str | None, *parts: Handle) -> tuple[Handle, int]:
    """One shard of a level: the distinct positions routed to it, sorted; and how many
    (each part is sorted and distinct: a merge)."""
    from boardlab.pegs.solver.kernel_shards import merge_unique

    arrays = [store.load(p) for p in parts]
    starts = np.cumsum([0] + [a.size for a in arrays]).astype(np.int64)
    merged = merge_unique(np.concatenate(arrays), starts)
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    return store.save(merged, out), int(merged.size)


def task_goal(
    level: Handle, table: U64, goal: int | None, out: str | None
) -> tuple[Handle, tuple[int, ...]]:
    """The winning positions of the goal level's shard with their weights, and counts."""
    from boardlab.pegs.solver import kernel

    positions = store.load(level)
    sizes = kernel.orbit_sizes(positions, table)
    lo = np.zeros(positions.size, np.uint64)
    if goal is None:
        lo[:] = sizes
    else:
        at = int(np.searchsorted(positions, np.uint64(goal)))
        if at < positions.size and positions[at] == goal:
            lo[at] = sizes[at]
    hi = np.zeros(positions.size, np.uint64)
    return _keep_winning(positions, sizes, lo, hi, out)


def _keep_winning(
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
    return store.save((positions[win], lo[win], hi[win]), out), counts


def task_push(
    wins: Handle, masks: tuple[U64, U64, U64], table: U64, shards: int, outs: list[str] | None
) -> list[Handle] | Handle:
    """Every weight of one shard of winning positions pushed to its parents, routed."""
    from boardlab.pegs.solver.kernel_shards import parents_of

    return push_routed(parents_of, wins, masks, table, shards, outs)


def submit_pushes(
    engine: Engine,
    task: Callable[..., list[Handle] | Handle],
    parts: list[Handle],
    problem: Problem,
    shards: int,
    folder: Path | None,
    first: int = 0,
) -> list[list[Handle]]:
    """One push ``task`` a shard of ``parts`` (:func:`task_push` or the forward one;
    ``parts[i]`` is shard ``first + i``, and its task runs where that shard's files are);
    ``pushed[i][j]`` is what part ``i`` sends to shard ``j`` (a file in ``folder`` if
    given; an engine whose machines keep their own files gets None: what crosses
    machines goes through its store). The masks and the table go to the engine's
    shared store once."""
    masks, table = engine.share(problem.masks), engine.share(problem.table)
    pushed: list[list[Handle]] = []
    for i, part in enumerate(parts):
        outs = routed_files(engine, folder, i, shards, ".npz")
        got = engine.submit(task, (part, masks, table, shards, outs), shards, place=first + i)
        pushed.append(got if shards > 1 else [got])
    return pushed


def routed_files(
    engine: Engine, folder: Path | None, source: int, shards: int, suffix: str
) -> list[str] | None:
    """Where part ``source`` writes what it routes to each shard: files in ``folder``,
    or None (kept in memory, or in the store of an engine whose machines keep their own
    files: a routed part crosses machines)."""
    if folder is None or engine.local_files:
        return None
    return [str(folder / f"from-{source:04d}-to-{j:04d}{suffix}") for j in range(shards)]


def task_head(source: Handle, count: int) -> U64:
    """The first ``count`` positions of a shard (where its file is)."""
    values = store.load(source, mapped=True)
    return np.array(values[:count])


def task_remove(source: Handle) -> None:
    """Remove a shard's file (where it is); a value in memory is left to be freed."""
    if isinstance(source, str):
        Path(source).unlink(missing_ok=True)


def read_shard(engine: Engine, source: Handle, place: int) -> Any:
    """A shard's value in this process: a file read here, or, on an engine whose
    machines keep their own files, by a task on the shard's machine."""
    if engine.local_files:
        return engine.fetch([engine.submit(store.load, (source,), place=place)])[0]
    if not isinstance(source, (np.ndarray, str, tuple)):
        source = engine.fetch([source])[0]
    return store.load(source)


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
    keys, lo, hi = store.load(source)
    pushed = kernel(keys, lo, hi, *masks, table)
    routed = route(pushed[0], shards, pushed[1], pushed[2])
    kept = [store.save(part, None if outs is None else outs[j]) for j, part in enumerate(routed)]
    return kept if shards > 1 else kept[0]  # one result is returned as itself


def task_sum(
    level: Handle, table: U64, out: str | None, *parts: Handle
) -> tuple[Handle, tuple[int, ...]]:
    """One shard of a level with the weights pushed to it: its winning positions and counts."""
    from boardlab.pegs.solver import kernel
    from boardlab.pegs.solver.kernel_shards import add_weights

    positions = store.load(level)
    loaded = [store.load(p) for p in parts]
    keys = np.concatenate([p[0] for p in loaded])
    lo_in = np.concatenate([p[1] for p in loaded])
    hi_in = np.concatenate([p[2] for p in loaded])
    for p in parts:
        if isinstance(p, str):
            os.remove(p)
    lo, hi = add_weights(positions, keys, lo_in, hi_in)
    sizes = kernel.orbit_sizes(positions, table)
    return _keep_winning(positions, sizes, lo, hi, out)


def canonical(bits: int, table: U64) -> int:
    """The canonical form of a position (plain int)."""
    from boardlab.pegs.solver import kernel

    return int(kernel.canon(np.uint64(bits), table))
