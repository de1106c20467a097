"""Solver layer: where the sharded level pass keeps its results, in memory or in a work folder.

A task's result reaches the next tasks as a :data:`Handle`: the value itself, or, with a
work folder, the name of the ``.npy`` / ``.npz`` file it was written to (written under
a temporary name, then renamed, so a file is never half there). Each level (or level of
path counts) has its own folder, ``level-PP/``, ``wins-PP/``, ``paths-PP/``, trusted on
a later run only when its ``done.json`` (written last) is there; ``run.json`` records
which problem and shard count the folder belongs to, so another run cannot resume it.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from boardlab.core.errors import BoardlabError
from boardlab.pegs.solver.tables import Problem

T = TypeVar("T")

__all__ = [
    "DiskBudget",
    "Handle",
    "disk_room",
    "finished",
    "level_folder",
    "load",
    "mark_done",
    "prepare_workdir",
    "save",
    "shard_files",
]

#: A task's result as the next task receives it: an array, a tuple of arrays, a file
#: name in the work folder, or (on a cluster) a reference to any of these.
Handle = Any

_RUN_FILE = "run.json"
_DONE_FILE = "done.json"


@dataclass(frozen=True)
class DiskBudget:
    """At most ``limit`` bytes of files under ``root`` (a work folder, or the folder
    that holds several, as the start table's)."""

    limit: int
    root: Path

    def room(self) -> int:
        """Bytes the folder may still take (negative: over the budget)."""
        return self.limit - folder_size(self.root)


def folder_size(root: Path) -> int:
    """Bytes of the files under ``root`` (a file removed meanwhile counts nothing)."""
    total = 0
    for folder, _, names in os.walk(root):
        for name in names:
            try:
                total += os.lstat(os.path.join(folder, name)).st_size
            except FileNotFoundError:
                continue
    return total


def disk_room(workdir: Path, budget: DiskBudget | None) -> int:
    """Bytes a work folder may still take: its disk's free space, less when ``budget``
    leaves less."""
    free = shutil.disk_usage(workdir).free
    return free if budget is None else min(free, budget.room())


def load(source: Handle, mapped: bool = False) -> Any:
    """A task's input: the value itself, or the file a task wrote it to (with ``mapped``,
    a ``.npy`` file mapped rather than read).

    :raises BoardlabError: for a file that is not a shard (damaged, cut short, empty).
    """
    if isinstance(source, str):
        try:
            if source.endswith(".npz"):
                with np.load(source) as data:
                    return data["keys"], data["lo"], data["hi"]
            return np.load(source, mmap_mode="r" if mapped else None)
        except (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise BoardlabError(
                f"{source}: a damaged shard ({exc}); delete its level's folder to count it again"
            ) from None
    return source


def save(value: Any, path: str | None) -> Handle:
    """Keep a task's output: as is, or in the file ``path`` (written whole, then renamed)."""
    if path is None:
        return value
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)  # on a node of its own
    temporary = f"{path}.part"
    with open(temporary, "wb") as out:
        if isinstance(value, tuple):
            keys, lo, hi = value
            np.savez(out, keys=keys, lo=lo, hi=hi)
        else:
            np.save(out, value)
    os.replace(temporary, path)
    return path


def _fingerprint(problem: Problem, shards: int) -> dict[str, object]:
    return {
        "holes": problem.board.size,
        "jumps": [list(j) for j in problem.board.grid.jumps],
        "start": str(problem.start),
        "goal": None if problem.goal.bits is None else str(problem.goal.bits),
        "symmetries": len(problem.group),
        "shards": shards,
    }


def prepare_workdir(workdir: Path, problem: Problem, shards: int) -> None:
    """Check the work folder (missing, not writable, or holding another run: one line)
    and record this run in it.

    :raises BoardlabError: when the folder cannot hold this run.
    """
    if not workdir.is_dir():
        raise BoardlabError(f"work folder {workdir} does not exist")
    if not os.access(workdir, os.W_OK):
        raise BoardlabError(f"work folder {workdir} is not writable")
    mine = _fingerprint(problem, shards)
    record = workdir / _RUN_FILE
    if record.exists():
        try:
            theirs = json.loads(record.read_text())
        except (OSError, ValueError, RecursionError) as exc:
            raise BoardlabError(f"{record}: unreadable run record ({exc})") from None
        if theirs != mine:
            raise BoardlabError(
                f"work folder {workdir} holds another run (other board, start, goal or "
                "shard count); give an empty folder"
            )
    else:
        record.write_text(json.dumps(mine))


def level_folder(workdir: Path | None, kind: str, pegs: int) -> Path | None:
    """The folder of one level's shards of ``kind`` (made if missing), None in memory.
    An unfinished folder (no ``done.json``: a stopped run's partial work) is emptied, so
    that its files neither take the disk the level is about to need nor mix with it."""
    if workdir is None:
        return None
    folder = workdir / f"{kind}-{pegs:02d}"
    folder.mkdir(exist_ok=True)
    if not (folder / _DONE_FILE).exists():
        for stale in folder.iterdir():
            if stale.is_file():
                stale.unlink()
    return folder


def shard_files(folder: Path, shards: int, suffix: str) -> list[Handle]:
    """The files of a finished level's shards, in shard order."""
    return [str(folder / f"shard-{j:04d}{suffix}") for j in range(shards)]


def finished(folder: Path | None) -> dict[str, Any] | None:
    """What a finished level recorded in its ``done.json``; None when it is not finished
    (or kept in memory)."""
    if folder is None or not (folder / _DONE_FILE).exists():
        return None
    try:
        data: dict[str, Any] = json.loads((folder / _DONE_FILE).read_text())
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def recorded(folder: Path, read: Callable[[], T]) -> T:
    """``read()`` of a finished level's record (its fields parsed).

    :raises BoardlabError: when the record does not hold what ``read`` needs, naming the
        file and how to recover.
    """
    try:
        return read()
    except (KeyError, ValueError, TypeError, IndexError) as exc:
        raise BoardlabError(
            f"{folder / _DONE_FILE}: a damaged record ({exc}); delete {folder} to count "
            "that level again"
        ) from None


def mark_done(folder: Path | None, data: dict[str, Any]) -> None:
    """Mark a level finished (its shards all written), recording ``data``."""
    if folder is not None:
        temporary = folder / f"{_DONE_FILE}.part"
        temporary.write_text(json.dumps(data))
        os.replace(temporary, folder / _DONE_FILE)
