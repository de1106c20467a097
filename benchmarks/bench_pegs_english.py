"""Benchmark: the English central game, boardlab's one command against a single-threaded C baseline.

Compiles ``benchmarks/c/pegs_english.c`` with the system ``cc -O3 -march=native`` into
``benchmarks/_build/``, then, pinned to one core (``taskset -c CORE``), runs the C
program and boardlab's one command as a user runs it, each in a fresh process with
one thread (``NUMBA_NUM_THREADS=1``), both with glibc's huge pages for ``malloc``
(``GLIBC_TUNABLES=glibc.malloc.hugetlb=1``, which boardlab's pegs commands set for
themselves; ``--no-huge-pages``: both without)::

    python -m boardlab pegs count english --min-moves --json

Both do the same work: reachable positions, every game and the shortest one, winning
positions, solutions and the fewest moves of a solution (a move: one peg's chain of
jumps); boardlab adds the orbit sizes (boards). The script checks every published
English figure in both outputs and prints the wall and CPU times, the ratio
(boardlab / C) and each program's peak memory. Also times boardlab's one-solution
search (in-process, after warm-up).

    .venv/bin/python benchmarks/bench_pegs_english.py [--core N] [--no-huge-pages]
        [--forward-only] [--solve-only]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIGURES = {
    "classes": 23_475_688,
    "boards": 187_636_299,
    "win_classes": 1_679_072,
    "win_boards": 13_428_122,
    "solutions": 40_861_647_040_079_968,
    "games": 577_116_156_815_309_849_672,
    "shortest_game": 6,
    "min_moves": 18,
}
#: The one command, after ``python -m boardlab``.
COMMAND = ["pegs", "count", "english", "--min-moves", "--json"]
C_FLAGS = ["-O3", "-march=native"]


def compile_baseline() -> Path:
    build = HERE / "_build"
    build.mkdir(exist_ok=True)
    binary = build / "pegs_english"
    source = HERE / "c" / "pegs_english.c"
    subprocess.run(["cc", *C_FLAGS, "-o", str(binary), str(source)], check=True)
    return binary


#: The environment both programs run in (``--no-huge-pages`` changes it; see ``main``).
ENV: dict[str, str] = {}


def run_pinned(command: list[str], core: int | None) -> tuple[float, float, float, str]:
    """``(wall s, CPU s, peak resident MB, stdout)`` of ``command`` in a fresh process,
    on ``core`` alone (taskset) when given, with one numba thread."""
    if core is not None and shutil.which("taskset"):
        command = ["taskset", "-c", str(core), *command]
    env = {**os.environ, **ENV, "NUMBA_NUM_THREADS": "1"}
    with tempfile.TemporaryFile("w+") as out:
        began = time.perf_counter()
        child = subprocess.Popen(command, stdout=out, env=env)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed with exit status {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, text


def bench_solve(repeats: int = 20) -> tuple[float, float, int]:
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import make_problem, solve

    problem = make_problem(named_board("english"))
    solve(problem)  # warm-up
    times = []
    nodes = 0
    for _ in range(repeats):
        began = time.perf_counter()
        result = solve(problem)
        times.append(time.perf_counter() - began)
        nodes = result.nodes
        assert result.solved and len(result.moves) == 31
    return statistics.median(times), min(times), nodes


def load() -> str:
    """The 1-minute load average (other jobs share this machine's cores)."""
    return f"{os.getloadavg()[0]:.2f}"


def figures_of(record: dict[str, object]) -> dict[str, object]:
    """The checked figures of ``count --min-moves --json``."""
    shortest = record.get("shortest_game")
    moves = record.get("minmoves")
    return {
        "classes": record["classes"],
        "boards": record["boards"],
        "win_classes": record["winning_classes"],
        "win_boards": record["winning_boards"],
        "solutions": int(str(record["solutions"])),
        "games": int(str(record["games"])) if "games" in record else None,
        "shortest_game": shortest["jumps"] if isinstance(shortest, dict) else None,
        "min_moves": moves["min_moves"] if isinstance(moves, dict) else None,
    }


def forward_only(binary: Path, core: int | None) -> int:
    """The enumeration alone: the C program's ``forward`` against boardlab's in process."""
    from boardlab.core.limits import Limit
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import make_problem
    from boardlab.pegs.solver.levels import enumerate_levels

    c_wall, c_cpu, _, c_out = run_pinned([str(binary), "forward"], core)
    print(f"C forward: {c_out.strip()}")
    problem = make_problem(named_board("english"))
    enumerate_levels(make_problem(named_board("triangle-5")), Limit().start())  # warm-up
    began, cpu = time.perf_counter(), time.process_time()
    levels = enumerate_levels(problem, Limit().start())
    wall, ours_cpu = time.perf_counter() - began, time.process_time() - cpu
    classes = sum(level.size for level in levels.values())
    ok = classes == FIGURES["classes"]
    print(f"  classes {classes} expected {FIGURES['classes']} {'ok' if ok else 'FAIL'}")
    print(f"forward: C {c_wall:.2f} s wall ({c_cpu:.2f} CPU), boardlab in process "
          f"{wall:.2f} s ({ours_cpu:.2f} CPU), ratio {wall / c_wall:.2f}")  # fmt: skip
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--core", type=int, default=0, help="the core both programs run on")
    parser.add_argument("--forward-only", action="store_true", help="only the enumeration")
    parser.add_argument("--solve-only", action="store_true", help="only the one-solution search")
    parser.add_argument(
        "--no-huge-pages",
        action="store_true",
        help="both programs with malloc's default pages (boardlab's pegs commands otherwise "
        "restart with glibc.malloc.hugetlb=1, and the C program is given the same)",
    )
    args = parser.parse_args()
    from boardlab.core.huge_pages import OPT_OUT, with_huge_pages

    tuned = None if args.no_huge_pages else with_huge_pages(os.environ)
    if tuned is None:
        ENV[OPT_OUT] = "0"
    else:
        ENV["GLIBC_TUNABLES"] = tuned["GLIBC_TUNABLES"]
    tunables = ENV.get("GLIBC_TUNABLES", os.environ.get("GLIBC_TUNABLES", ""))
    print(f"both programs with GLIBC_TUNABLES={tunables!r}")
    print(f"load average at the start: {load()}")
    median, best, nodes = bench_solve()
    print(
        f"one solution (in-process, after warm-up, 20 runs): median {median * 1000:.1f} ms, "
        f"best {best * 1000:.1f} ms, {nodes} nodes (target < 50 ms)"
    )
    if args.solve_only:
        return 0
    binary = compile_baseline()
    print(f"C baseline: cc {' '.join(C_FLAGS)}; one core: {args.core}; NUMBA_NUM_THREADS=1")
    if args.forward_only:
        return forward_only(binary, args.core)
    ours = [sys.executable, "-m", "boardlab", *COMMAND]
    # warm-up: the numba cache filled (a user's second run), then the timed runs
    run_pinned([sys.executable, "-m", "boardlab", "pegs", "count", "triangle-5",
                "--min-moves", "--json"], args.core)  # fmt: skip
    c_wall, c_cpu, c_mem, c_out = run_pinned([str(binary)], args.core)
    print("C: " + " | ".join(c_out.strip().splitlines()))
    print(f"load average between: {load()}")
    wall, cpu, mem, out = run_pinned(ours, args.core)
    record = json.loads(out)
    print(f"boardlab: {' '.join(['boardlab', *COMMAND])}: analysis {record['seconds']} s, "
          f"minimum-move pass {record['minmoves']['seconds']} s")  # fmt: skip
    failures = 0
    c_figures = {
        "games": f"games {FIGURES['games']}",
        "solutions": f"solutions {FIGURES['solutions']}",
        "min_moves": f"min moves {FIGURES['min_moves']}",
    }
    for name, line in c_figures.items():  # the C program's figures, checked too
        ok = line in c_out
        failures += not ok
        print(f"  C {name:<10} {'ok' if ok else 'FAIL: not ' + str(FIGURES[name])}")
    for name, got in figures_of(record).items():
        ok = got == FIGURES[name]
        failures += not ok
        print(f"  {name:<13} {got!s:>22}  expected {FIGURES[name]}  {'ok' if ok else 'FAIL'}")
    print(f"\n{'task':<58} {'C wall':>7} {'ours wall':>9} {'ratio':>6} {'C cpu':>7} "
          f"{'ours cpu':>8} {'ratio':>6}")  # fmt: skip
    task = "full analysis, one command each (one core, one thread)"
    print(f"{task:<58} {c_wall:>7.2f} {wall:>9.2f} {wall / c_wall:>6.3f} "
          f"{c_cpu:>7.2f} {cpu:>8.2f} {cpu / c_cpu:>6.3f}")  # fmt: skip
    print(f"peak memory: C {c_mem:.0f} MB, boardlab {mem:.0f} MB "
          "(goal: ratio <= 0.15, moonshot 0.10; < 2048 MB)")  # fmt: skip
    print(f"load average at the end: {load()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
