"""Benchmark: the rates of a partitioned pegs run, read back from its work folder.

A run with ``--workdir`` leaves every level in ``level-PP/`` (forward pass),
``wins-PP/`` (backward pass) and ``paths-PP/`` (counts from the start), each with its
shards and a ``done.json`` written last. On one machine the tasks run one after
another: a forward level expands every parent shard, then merges shard after shard,
so the time from the previous level's ``done.json`` to the first shard is the
expansion, and the gaps between shard files are the merges. This script prints, per
level: the positions, the wall seconds, positions a second, the mean expansion
and merge seconds a shard, and the bytes on disk; then the totals. A level resumed by
a later run counts the pause between the runs, so give the folder of one unbroken run
(or read those levels with care).

    .venv/bin/python benchmarks/bench_pegs_workdir.py $RUNS/french-b4 [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path


@dataclass(frozen=True)
class Level:
    """One finished level folder of a work folder."""

    kind: str
    pegs: int
    positions: int | None
    seconds: float
    expand: float | None
    merge: float | None
    shards: int
    disk: int


def _finished(folder: Path) -> float:
    return (folder / "done.json").stat().st_mtime


def read_levels(workdir: Path) -> list[Level]:
    """Every finished level, in the order the run made them."""
    folders = [f for f in workdir.iterdir() if f.is_dir() and (f / "done.json").exists()]
    folders.sort(key=_finished)
    previous = (workdir / "run.json").stat().st_mtime
    levels = []
    for folder in folders:
        kind, pegs = folder.name.split("-")
        done = json.loads((folder / "done.json").read_text())
        shards = sorted(folder.glob("shard-*"))
        times = sorted(s.stat().st_mtime for s in shards)
        end = _finished(folder)
        positions = done.get("positions")
        if positions is None and "counts" in done:
            positions = int(done["counts"][0])
        expand = merge = None
        if kind == "level" and times:
            expand = times[0] - previous
            merge = (times[-1] - times[0]) / max(len(times) - 1, 1)
        disk = sum(s.stat().st_size for s in shards)
        levels.append(Level(kind, int(pegs), positions, end - previous, expand, merge,
                            len(shards), disk))  # fmt: skip
        previous = end
    return levels


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workdir", type=Path)
    parser.add_argument("--json", action="store_true", help="print the levels as JSON")
    args = parser.parse_args()
    if not (args.workdir / "run.json").exists():
        print(f"{args.workdir}: not a work folder (no run.json)", file=sys.stderr)
        return 2
    levels = read_levels(args.workdir)
    if args.json:
        print(json.dumps([asdict(level) for level in levels]))
        return 0
    print(f"{'level':>8} {'positions':>13} {'seconds':>8} {'per s':>11} "
          f"{'expand/shard':>12} {'merge/shard':>11} {'MB':>8}")  # fmt: skip
    for level in levels:
        rate = f"{level.positions / level.seconds:11,.0f}" if level.positions else f"{'':>11}"
        per_shard = (level.expand or 0) / max(level.shards, 1)
        expand = f"{per_shard:12.2f}" if level.expand is not None else f"{'':>12}"
        merge = f"{level.merge:11.2f}" if level.merge is not None else f"{'':>11}"
        positions = f"{level.positions:13,}" if level.positions is not None else f"{'':>13}"
        print(f"{level.kind + '-' + str(level.pegs):>8} {positions} {level.seconds:8.1f} "
              f"{rate} {expand} {merge} {level.disk / 1e6:8.1f}")  # fmt: skip
    for kind in ("level", "wins", "paths"):
        part = [x for x in levels if x.kind == kind]
        if part:
            seconds = sum(x.seconds for x in part)
            disk = sum(x.disk for x in part) / 1e9
            print(f"{kind}: {len(part)} levels, {seconds:,.0f} s, {disk:.2f} GB on disk")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
