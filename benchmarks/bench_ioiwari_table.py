"""Benchmark: the Ioiwari value table (numba kernel) against the pure-Python memoised solver.

Three timings of the same values, each wall and CPU seconds, best of --repeat:

* boardlab: the numba kernel fills all 279,936 codes (compiled code from numba's cache;
  the one-off compile is reported apart);
* peer, like for like: the pure-Python memoised negamax over all 279,936 codes;
* peer, as a contest program would use it: the memoised negamax over just the 37,654
  positions reachable from the 357 starts.

Every run checks that the kernel's values equal the peer's. Usage:
    .venv/bin/python benchmarks/bench_ioiwari_table.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from boardlab.ioiwari.rules import IOI
from boardlab.ioiwari.solver import MemoSolver, build_table, reference_table


def _best(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    wall, cpu = time.perf_counter(), time.process_time()
    from boardlab.ioiwari import _kernel  # noqa: F401  (numba import + cached compile)

    table = build_table(IOI)
    first = (time.perf_counter() - wall, time.process_time() - cpu)
    kernel = _best(lambda: build_table(IOI), args.repeat)

    reference = reference_table(IOI)
    if list(table.array()) != reference:
        raise SystemExit("the kernel and the reference disagree")
    full = _best(lambda: reference_table(IOI), 1)

    def starts_only() -> int:
        solver = MemoSolver(IOI)
        for start in IOI.starts():
            solver.value(start)
        return len(solver.memo)

    reached = starts_only()
    memo = _best(starts_only, args.repeat)

    rows = [
        ("boardlab numba kernel, all 279,936 codes", kernel),
        ("  (first call: numba import + load/compile + build)", first),
        ("peer pure-Python memo, all 279,936 codes", full),
        (f"peer pure-Python memo, {reached:,} positions of the 357 starts", memo),
    ]
    print(f"{'what':<62} {'wall s':>8} {'CPU s':>8} {'CPU ratio':>10}")
    for name, (w, c) in rows:
        ratio = c / kernel[1] if kernel[1] > 0 else float("nan")
        print(f"{name:<62} {w:>8.3f} {c:>8.3f} {ratio:>9.1f}x")
    print("values identical: yes (all 279,936 codes)")


if __name__ == "__main__":
    main()
