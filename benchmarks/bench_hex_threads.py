"""Benchmark: playouts a second of the Hex engine with 1, 2, ... threads growing one tree.

The middlegame positions of ``bench_hex_iterations.py`` (11x11, kept games against
MoHex) are searched by a fresh ``SolvingEngine`` (default settings) for ``--playouts``
playouts each, once per thread count; the script prints the playouts a wall-clock
second and the CPU microseconds a playout (all threads together: what sharing the tree
costs, whatever the machine's load), with the load average before and after.

    .venv/bin/python benchmarks/bench_hex_threads.py --threads 1 2 --playouts 20000
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench_hex_iterations import GAMES, positions
from boardlab.core.limits import Limit
from boardlab.hex.player import SolvingEngine, warm_up


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=GAMES, help="a folder of kept games")
    parser.add_argument("--playouts", type=int, default=20_000, help="a position")
    parser.add_argument("--positions", type=int, default=6, help="the first N positions")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--shared-tree", type=int, default=1, help="0: separate trees")
    args = parser.parse_args(argv)
    found = positions(args.games)[: args.positions]
    if not found:
        print(f"bench_hex_threads: no games in {args.games}", file=sys.stderr)
        return 2
    warm_up()
    print(f"{len(found)} positions from {args.games.name}, {args.playouts} playouts each")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for threads in args.threads:
        wall = cpu = 0.0
        total = 0
        for p in found:
            engine = SolvingEngine(
                seed=1, threads=threads, reuse=False, shared_tree=bool(args.shared_tree)
            )
            wall0, cpu0 = time.perf_counter(), time.process_time()
            total += engine.search(p, Limit(nodes=args.playouts)).playouts
            wall += time.perf_counter() - wall0
            cpu += time.process_time() - cpu0
        print(
            f"  {threads:2d} threads  {total / wall:9.0f} playouts/s  "
            f"{cpu / total * 1e6:6.1f} CPU us a playout  ({total} playouts, {wall:.1f} s)"
        )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
