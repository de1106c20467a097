"""Benchmark: a whole Ioiwari game as a process, against the IOI limits (1 s, 32 MB).

Each configuration runs ``boardlab ioiwari play`` as a fresh process, one per start, as
player 1 against the perfect opponent through the judge (so the game is checked too),
and reports wall and CPU seconds of the process and its peak RSS (the kernel's VmHWM
of the running program):

* boardlab, table cached on disk (the default ``--solver auto`` finds it);
* boardlab, table built in the process by the numba kernel (``--solver table --no-cache``);
* peer: the pure-Python memoised negamax (``--solver memo``), which solves only the
  positions the game can reach.

Usage: .venv/bin/python benchmarks/bench_ioiwari_game.py [--games 10] [--seed 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from boardlab.ioiwari.judge import GameRecord, run_process_game, select_starts
from boardlab.ioiwari.rules import IOI
from boardlab.ioiwari.solver import PerfectPlayer, build_table
from boardlab.ioiwari.store import save_table, table_path
from boardlab.peers.ioiwari_channel import ProcessChannel

PLAY = [sys.executable, "-m", "boardlab", "ioiwari", "play"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    table = build_table(IOI)
    opponent = PerfectPlayer(table)
    starts = select_starts(IOI, str(args.games), args.seed)
    configs = [
        ("boardlab play, table cached on disk", [*PLAY]),
        (
            "boardlab play, table built by numba in-process",
            [*PLAY, "--solver", "table", "--no-cache"],
        ),
        ("peer: pure-Python memoised negamax", [*PLAY, "--solver", "memo"]),
    ]
    with tempfile.TemporaryDirectory() as cache:
        os.environ["BOARDLAB_CACHE_DIR"] = cache
        assert save_table(table, table_path(IOI, Path(cache)))
        # warm the OS file cache and numba's compiled-kernel cache once
        run_process_game(
            configs[1][1], starts[0], opponent.choose, time_limit=60.0, connect=ProcessChannel
        )
        results: dict[str, list[GameRecord]] = {}
        for name, command in configs:
            results[name] = [
                run_process_game(
                    command, start, opponent.choose, time_limit=60.0, connect=ProcessChannel
                )
                for start in starts
            ]
    peer = results[configs[2][0]]
    peer_cpu = statistics.median(r.cpu or 0.0 for r in peer)
    print(f"{len(starts)} games a configuration (seed {args.seed}), IOI limits: 1 s and 32 MB")
    print(
        f"{'configuration':<48} {'wins':>5} {'wall med':>9} {'wall max':>9} "
        f"{'CPU med':>8} {'CPU max':>8} {'RSS max':>8} {'CPU vs peer':>12} {'IOI ok':>7}"
    )
    for name, records in results.items():
        wins = sum(r.result == "win" for r in records)
        walls = [r.seconds for r in records]
        cpus = [r.cpu or 0.0 for r in records]
        rss = max(r.max_rss_kb or 0 for r in records) / 1024
        ok = max(cpus) <= 1.0 and rss <= 32
        ratio = statistics.median(cpus) / peer_cpu if peer_cpu else float("nan")
        print(
            f"{name:<48} {wins:>5} {statistics.median(walls):>8.3f}s {max(walls):>8.3f}s "
            f"{statistics.median(cpus):>7.3f}s {max(cpus):>7.3f}s {rss:>6.1f}MB "
            f"{ratio:>11.2f}x {'yes' if ok else 'NO':>7}"
        )


if __name__ == "__main__":
    main()
