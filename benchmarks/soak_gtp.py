"""Soak test: a thousand Hex games of boardlab against itself over GTP, one process pair.

Claim: ``boardlab hex match`` plays a long match against ``boardlab hex gtp`` (the GTP
engine run as its subprocess peer) without a restart and without growing: every game is
played and none is void (no player failed), the same GTP process answers from the first
game to the last, and the resident memory of both processes is flat after the warm-up
(the first sixth of the games): the median of the last tenth of the samples at most 10 %
above the median of the tenth that follows the warm-up. Both processes' memory and
threads are recorded each tenth of the games (each 100 of 1,000), with psutil: the size
then and its floor, the least seen since the last record (looked at every 50 ms), which
the verdict judges (a size caught in the middle of a search swings by a tenth).

The games are short on purpose: a small board (5 x 5) and a small budget a move (0.02 s
for both engines), so that many games pass in little time. The games are counted as
the match writes each one (as SGF, into a temporary folder).

Run: ``.venv/bin/python benchmarks/soak_gtp.py [--games 1000] [--size 5] [--time 0.02]
[--out benchmarks/results/soak/gtp-1000.json]``. Exit status 0 when the verdict is a
pass, 1 when it fails, 2 for bad options.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil

import soak_verdict as sv

#: How often the match's folder is looked at (seconds).
POLL = 0.05
#: Seconds each engine may take to answer at its start (compiling on a cold cache).
START_TIMEOUT = 300.0


@dataclass(slots=True)
class Record:
    """Both processes after ``games`` games: their resident size now and its floor (the
    least seen since the last record, looked at every 50 ms), their threads."""

    games: int
    seconds: float
    match_rss: int
    match_floor: int
    match_threads: int
    gtp_pid: int
    gtp_rss: int
    gtp_floor: int
    gtp_threads: int


def options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=1000, help="games of the match (1000)")
    parser.add_argument("--size", type=int, default=5, help="board size (5)")
    parser.add_argument("--time", type=float, default=0.02, help="seconds a move (0.02)")
    parser.add_argument(
        "--every", type=int, default=None, help="games between samples (a tenth of them)"
    )
    parser.add_argument("--out", type=Path, default=None, help="write the records as JSON there")
    args = parser.parse_args(argv)
    if args.games < 1 or not 2 <= args.size <= 11 or not args.time > 0:
        parser.error("--games must be at least 1, --size 2 to 11, --time over 0")
    if args.every is not None and args.every < 1:
        parser.error("--every must be at least 1")
    return args


def sample_points(games: int, every: int) -> list[int]:
    """The game counts after which both processes are sampled: the first game, each
    ``every`` games, and the last but one (the last ends the match and its processes).

    >>> sample_points(1000, 100)
    [1, 100, 200, 300, 400, 500, 600, 700, 800, 900, 999]
    >>> sample_points(3, 1)
    [1, 2]
    """
    points = {1, *range(every, games, every), max(1, games - 1)}
    return sorted(points)


def gtp_child(match: psutil.Process) -> psutil.Process | None:
    """The GTP engine the match started (its one child running ``hex gtp``)."""
    for child in match.children():
        try:
            if "gtp" in child.cmdline():
                return child
        except psutil.Error:
            continue
    return None


def judge(
    records: Sequence[Record],
    games: int,
    played: int,
    void: int,
    status: int,
    pids: set[int],
) -> list[sv.Check]:
    """The checks of a match: its samples, the games asked for and played, the void ones,
    the match's exit status and the GTP process ids seen."""
    return [
        sv.Check(
            "every game played, none void",
            status == 0 and played == games and void == 0,
            f"{played} of {games} games, {void} void, the match's exit status {status}",
        ),
        sv.Check(
            "one GTP process from the first game to the last (no restart)",
            len(pids) == 1 and bool(records) and records[-1].games >= games - 1,
            f"GTP process ids seen: {sorted(pids)}",
        ),
        sv.flat_memory(
            "the match's memory flat (boardlab's engine; its floor)",
            [r.match_floor for r in records],
        ),
        sv.flat_memory("the GTP engine's memory flat (its floor)", [r.gtp_floor for r in records]),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = options(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    every = args.every or max(1, args.games // 10)
    with tempfile.TemporaryDirectory(prefix="soak-gtp-") as folder:
        return soak(args, every, Path(folder))


def soak(args: argparse.Namespace, every: int, folder: Path) -> int:
    engine = [sys.executable, "-m", "boardlab", "hex"]
    command = [
        *engine, "match", "--size", str(args.size), "--games", str(args.games),
        "--time", str(args.time), "--timeout", str(START_TIMEOUT),
        "--sgf", str(folder / "games"), "--",
        *engine, "gtp", "--size", str(args.size), "--time", str(args.time),
    ]  # fmt: skip
    print(
        f"soak_gtp: {args.games} games of {args.size}x{args.size}, {args.time:g} s a move, "
        f"a sample each {every} games",
        flush=True,
    )
    points = sample_points(args.games, every)
    records: list[Record] = []
    pids: set[int] = set()
    started = time.monotonic()
    floors: dict[str, int] = {}
    with (folder / "out.txt").open("w+") as out, (folder / "err.txt").open("w+") as err:
        match = subprocess.Popen(command, stdout=out, stderr=err)
        watched = psutil.Process(match.pid)
        try:
            while match.poll() is None:
                time.sleep(POLL)
                child = gtp_child(watched)
                if child is None:
                    continue
                pids.add(child.pid)
                try:
                    for name, process in (("match", watched), ("gtp", child)):
                        size = process.memory_info().rss
                        floors[name] = min(floors.get(name, size), size)
                except psutil.Error:
                    continue  # the match ended meanwhile
                played = len(list((folder / "games").glob("*.sgf")))
                if points and played >= points[0]:
                    while points and played >= points[0]:
                        points.pop(0)
                    try:
                        records.append(record(played, started, watched, child, floors))
                    except psutil.Error:
                        continue
                    floors = {}
                    last = records[-1]
                    print(
                        f"  {last.games:6d} games  {last.seconds:7.1f} s  match "
                        f"{last.match_floor / 2**20:6.1f} to {last.match_rss / 2**20:6.1f} MiB  "
                        f"gtp {last.gtp_floor / 2**20:6.1f} to {last.gtp_rss / 2**20:6.1f} MiB",
                        flush=True,
                    )
        finally:
            if match.poll() is None:
                match.kill()
            status = match.wait()
        out.seek(0)
        text = out.read()
        err.seek(0)
        errors = err.read()
    played = len(list((folder / "games").glob("*.sgf")))
    found = re.search(r"void \(no proof\)\s+(\d+)", text)
    void = int(found.group(1)) if found else 0
    checks = judge(records, args.games, played, void, status, pids)
    print(sv.report(f"soak_gtp: {played} games in {time.monotonic() - started:.0f} s", checks))
    if status != 0:
        print(f"the match's errors: {errors.strip()[-1000:]}")
    if args.out is not None:
        sv.save(
            args.out,
            args,
            records,
            checks,
            played=played,
            void=void,
            status=status,
            gtp_pids=sorted(pids),
            table=text.splitlines()[:8],
        )
        print(f"records written to {args.out}")
    return 0 if sv.verdict(checks) else 1


def record(
    played: int,
    started: float,
    match: psutil.Process,
    gtp: psutil.Process,
    floors: dict[str, int],
) -> Record:
    """Both processes now, with the floors of their sizes since the last record."""
    match_rss = match.memory_info().rss
    gtp_rss = gtp.memory_info().rss
    return Record(
        games=played,
        seconds=round(time.monotonic() - started, 1),
        match_rss=match_rss,
        match_floor=min(floors.get("match", match_rss), match_rss),
        match_threads=match.num_threads(),
        gtp_pid=gtp.pid,
        gtp_rss=gtp_rss,
        gtp_floor=min(floors.get("gtp", gtp_rss), gtp_rss),
        gtp_threads=gtp.num_threads(),
    )


if __name__ == "__main__":
    sys.exit(main())
