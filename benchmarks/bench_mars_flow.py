"""Benchmark: Mars explorer on 128 x 128 maps with 999 vehicles (and fewer), boardlab vs peers.

For each map (seeded, reproducible) it measures, in the same run:

* ``boardlab mars FILE`` end to end in a fresh process (start-up, imports, parse, solve,
  output), the claim being under 1 s;
* boardlab's ``solve`` in process (chain cover by OR-tools max flow, else OR-tools min-cost
  flow), without the certificate;
* OR-tools ``SimpleMinCostFlow`` alone on the node-split network;
* networkx's ``network_simplex`` alone on the same network (the peer);

and prints a table with the ratios, plus the import times of numpy and OR-tools.
Run: ``.venv/bin/python benchmarks/bench_mars_flow.py [--quick | --full]`` (``--full`` adds
a 60% rocks map on which networkx needs about 45 s).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

from boardlab.mars.formats import parse_map
from boardlab.mars.solver import build_network, flow_networkx, flow_ortools, solve

T = TypeVar("T")


def make_map(width: int, height: int, vehicles: int, rough: float, rock: float, seed: int) -> str:
    rng = random.Random(seed)
    rows = []
    for _ in range(height):
        row = []
        for _ in range(width):
            r = rng.random()
            row.append(1 if r < rough else 2 if r < rough + rock else 0)
        rows.append(row)
    rows[0][0] = rows[-1][-1] = 0
    body = "".join(" ".join(map(str, row)) + "\n" for row in rows)
    return f"{vehicles}\n{width}\n{height}\n{body}"


def timed(func: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    """The best wall time of ``repeat`` calls, and the last result."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - started)
    return min(times), result


def cli_seconds(path: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "boardlab", "mars", str(path)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def import_seconds(statement: str, repeat: int = 3) -> float:
    code = f"import time; t = time.perf_counter(); {statement}; print(time.perf_counter() - t)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], check=True, capture_output=True, text=True
            ).stdout
        )
        for _ in range(repeat)
    ]
    return statistics.median(runs)


CASES = [
    # name, rough, rock, vehicles, seed
    ("open, 20% rocks", 0.0, 0.2, 999, 1),
    ("10% rough, 20% rocks", 0.1, 0.2, 999, 1),
    ("25% rough, 20% rocks", 0.25, 0.2, 999, 1),
    ("open, 60% rocks", 0.0, 0.6, 999, 2),
    ("10% rough, 20% rocks, 20 vehicles", 0.1, 0.2, 20, 1),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="two maps, one repeat")
    parser.add_argument("--full", action="store_true", help="add the 60%% rocks map (slow peer)")
    args = parser.parse_args()
    cases = CASES[1:2] + CASES[-1:] if args.quick else CASES if args.full else CASES[:3] + CASES[4:]
    repeat = 1 if args.quick else 3
    print(
        f"python {sys.version.split()[0]}; import numpy "
        f"{import_seconds('import numpy'):.3f} s, OR-tools flow modules "
        f"{import_seconds('from ortools.graph.python import min_cost_flow, max_flow'):.3f} s,"
        f" networkx {import_seconds('import networkx'):.3f} s (median of 3, fresh processes)"
    )
    header = (
        f"{'map (128 x 128)':<36} {'rocks':>6} {'method':>13} {'cli s':>6} {'solve s':>8} "
        f"{'ortools s':>9} {'nx s':>7} {'nx/ort':>7} {'nx/solve':>8}"
    )
    print(header)
    print("-" * len(header))
    with tempfile.TemporaryDirectory() as tmp:
        for name, rough, rock, vehicles, seed in cases:
            text = make_map(128, 128, vehicles, rough, rock, seed)
            mars = parse_map(text)
            path = Path(tmp) / "map.dat"
            path.write_text(text)
            solve_s, solution = timed(partial(solve, mars, certify=False), repeat)
            if not solution.reachable:
                print(f"{name:<36} unreachable transmitter, skipped")
                continue
            net = build_network(mars)
            ort_s, (ort_cost, _) = timed(partial(flow_ortools, net), repeat)
            nx_s, (nx_cost, _) = timed(partial(flow_networkx, net), 1)
            if not (-ort_cost == -nx_cost == solution.max_rocks):
                raise SystemExit(
                    f"disagreement on {name}: {ort_cost} {nx_cost} {solution.max_rocks}"
                )
            cli_s = cli_seconds(path, repeat)
            print(
                f"{name:<36} {solution.max_rocks:>6} {solution.method:>13} {cli_s:>6.3f} "
                f"{solve_s:>8.3f} {ort_s:>9.3f} {nx_s:>7.2f} {nx_s / ort_s:>7.1f} "
                f"{nx_s / solve_s:>8.1f}"
            )
    print(
        "cli = `python -m boardlab mars FILE > /dev/null` wall time, median; solve and "
        "ortools best of the repeats; nx one run; all three flows agree on the optimum."
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
