"""Benchmark: the partitioned peg solitaire pass on Ray against the in-process pass.

Runs the same problem (default: the English central game) in process, then on local
Ray clusters of each ``--workers`` count (shards in the object store), then on the
largest with the shards spilled to a work folder; checks that every figure is
identical and prints each wall time, its ratio to the in-process pass and the
efficiency per worker (``t(1 worker) / (n x t(n workers))``). Ray's start-up is timed
apart. Needs the cluster extra (``pip install 'boardlab[cluster]'``).

    .venv/bin/python benchmarks/bench_pegs_cluster.py [--board english] [--workers 1,2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="english")
    parser.add_argument("--start", help="a hole name: the single vacancy (default: the board's)")
    parser.add_argument("--goal", help="goal text (default: the board's centre, else ANY)")
    parser.add_argument("--workers", default="1,2", help="worker counts, e.g. 1,2")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--workdir", help="folder for the spilled run (default: a temporary one)")
    args = parser.parse_args()

    from boardlab.cluster.ray_engine import RayEngine, ray_available
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.formats import parse_goal, parse_start
    from boardlab.pegs.solver import analyse, make_problem
    from boardlab.pegs.solver.sharded import analyse_sharded
    from boardlab.pegs.solver.shards import ShardedRun

    if not ray_available():
        print("Ray is not installed: pip install 'boardlab[cluster]'", file=sys.stderr)
        return 2
    board = named_board(args.board)
    start = None if args.start is None else parse_start(board, args.start)
    goal = None if args.goal is None else parse_goal(board, args.goal)
    if goal is None and board.home is None:
        goal = parse_goal(board, "ANY")
    problem = make_problem(board, start, goal)
    small = named_board("triangle-5")
    analyse(make_problem(small, goal=parse_goal(small, "ANY")))  # compile or load kernels

    began = time.perf_counter()
    expected = analyse(problem)
    base = time.perf_counter() - began
    rows: list[tuple[str, float, float | None]] = [("in process", base, None)]
    print(f"{board.name}: {expected.classes:,} classes, {expected.solutions:,} solutions")
    print(f"in process: {base:.1f} s", flush=True)
    counts = [int(w) for w in args.workers.split(",")]
    one_worker: float | None = None
    for workers in counts:
        for spilled in (False, True) if workers == max(counts) else (False,):
            began = time.perf_counter()
            engine = RayEngine(workers=workers)
            started = time.perf_counter() - began
            with tempfile.TemporaryDirectory(dir=args.workdir) as folder:
                workdir = Path(folder) if spilled else None
                began = time.perf_counter()
                found = analyse_sharded(problem, ShardedRun(engine, args.shards, workdir))
                seconds = time.perf_counter() - began
            engine.close()
            if found.levels != expected.levels or found.solutions != expected.solutions:
                print(f"MISMATCH with {workers} workers", file=sys.stderr)
                return 1
            label = f"ray {workers} worker{'s' if workers > 1 else ''}" + (
                ", shards on disk" if spilled else ""
            )
            if workers == 1 and not spilled:
                one_worker = seconds
            rows.append((label, seconds, started))
            print(f"{label}: {seconds:.1f} s (+{started:.1f} s Ray start-up)", flush=True)
    print(f"\n{board.name}, {args.shards} shards; every figure identical to the in-process pass")
    print(f"{'run':<32} {'wall s':>8} {'/ in process':>13} {'efficiency':>11}")
    for label, seconds, _ in rows:
        workers = int(label.split()[1]) if label.startswith("ray") else 0
        efficiency = ""
        if workers and one_worker is not None:
            efficiency = f"{one_worker / (workers * seconds):.2f}"
        print(f"{label:<32} {seconds:>8.1f} {seconds / base:>13.2f} {efficiency:>11}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
