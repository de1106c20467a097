"""Benchmark: the English central game, boardlab against a single-threaded C baseline.

Compiles ``benchmarks/c/pegs_english.c`` with the system ``cc -O2`` into
``benchmarks/_build/``, runs it, then runs boardlab's level pass on the same problem,
prints both times and the ratio, and checks every published English figure (the C
program's games and solutions too). The full analysis is the same work on both sides:
reachable positions, every game and the shortest one, winning positions, solutions;
boardlab adds the orbit sizes (boards) and the minimum-move proof. Also times
boardlab's one-solution search (after warm-up).

    .venv/bin/python benchmarks/bench_pegs_english.py [--forward-only] [--solve-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
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


def compile_baseline() -> Path:
    build = HERE / "_build"
    build.mkdir(exist_ok=True)
    binary = build / "pegs_english"
    subprocess.run(["cc", "-O2", "-o", str(binary), str(HERE / "c" / "pegs_english.c")], check=True)
    return binary


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_c(binary: Path, forward: bool) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and output of the C baseline."""
    began, cpu = time.perf_counter(), _child_cpu()
    out = subprocess.run(
        [str(binary), *(["forward"] if forward else [])], capture_output=True, text=True, check=True
    ).stdout
    return time.perf_counter() - began, _child_cpu() - cpu, out


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
    """The 1-minute load average (other jobs share this machine's 2 cores)."""
    return f"{os.getloadavg()[0]:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--forward-only", action="store_true", help="only the enumeration")
    parser.add_argument("--solve-only", action="store_true", help="only the one-solution search")
    args = parser.parse_args()
    failures = 0
    print(f"load average at the start: {load()}")
    median, best, nodes = bench_solve()
    print(
        f"one solution (in-process, after warm-up, 20 runs): median {median * 1000:.1f} ms, "
        f"best {best * 1000:.1f} ms, {nodes} nodes (target < 50 ms)"
    )
    if args.solve_only:
        return 0
    from boardlab.core.limits import Limit
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import analyse, make_problem, min_moves
    from boardlab.pegs.solver.levels import enumerate_levels

    binary = compile_baseline()
    problem = make_problem(named_board("english"))
    small = make_problem(named_board("triangle-5"))
    enumerate_levels(small, Limit().start())  # warm-up: every kernel loaded (or compiled)
    min_moves(small, analysis=analyse(small))
    c_forward, c_forward_cpu, c_out = run_c(binary, forward=True)
    began, cpu = time.perf_counter(), time.process_time()
    levels = enumerate_levels(problem, Limit().start())
    ours_forward = time.perf_counter() - began
    ours_forward_cpu = time.process_time() - cpu
    classes = sum(level.size for level in levels.values())
    del levels
    print(f"C forward: {c_out.strip()}")
    rows = [
        ("forward enumeration (32 levels, symmetry)", c_forward, ours_forward,
         c_forward_cpu, ours_forward_cpu)
    ]  # fmt: skip
    if not args.forward_only:
        c_full, c_full_cpu, c_out = run_c(binary, forward=False)
        print("C full: " + " | ".join(c_out.strip().splitlines()))
        began, cpu = time.perf_counter(), time.process_time()
        found = analyse(problem)
        moves = min_moves(problem, analysis=found)
        ours_full = time.perf_counter() - began
        ours_full_cpu = time.process_time() - cpu
        rows.append(("full analysis (C: forward+games+count; boardlab: +orbits+18-move proof)",
                     c_full, ours_full, c_full_cpu, ours_full_cpu))  # fmt: skip
        for name in ("games", "solutions"):  # the C program's figures, checked too
            ok = str(FIGURES[name]) in c_out
            failures += not ok
            print(f"  C {name:<10} {'ok' if ok else 'FAIL: not ' + str(FIGURES[name])}")
        got = {
            "classes": found.classes,
            "boards": found.boards,
            "win_classes": found.win_classes,
            "win_boards": found.win_boards,
            "solutions": found.solutions,
            "games": None if found.games is None else found.games.total,
            "shortest_game": None if found.games is None else found.games.shortest_jumps,
            "min_moves": moves.moves,
        }
        for name, expected in FIGURES.items():
            ok = got[name] == expected
            failures += not ok
            print(f"  {name:<12} {got[name]!s:>20}  expected {expected}  {'ok' if ok else 'FAIL'}")
        print(
            f"  boardlab: analysis {found.seconds:.1f} s, minimum-move pass {moves.seconds:.1f} s"
        )
    else:
        ok = classes == FIGURES["classes"]
        failures += not ok
        print(f"  classes {classes} expected {FIGURES['classes']} {'ok' if ok else 'FAIL'}")
    print(
        f"\n{'task':<68} {'C wall':>7} {'ours wall':>9} {'ratio':>6} {'C cpu':>7} {'ours cpu':>8}"
    )
    for name, c_time, ours, c_cpu, ours_cpu in rows:
        print(
            f"{name:<68} {c_time:>7.2f} {ours:>9.2f} {ours / c_time:>6.2f} "
            f"{c_cpu:>7.2f} {ours_cpu:>8.2f}"
        )
    from boardlab.core.memory import peak_resident_memory

    peak = peak_resident_memory() / 2**20
    print(f"boardlab peak memory: {peak:.0f} MB (goal: full ratio <= 0.15, < 2048 MB)")
    print(f"load average at the end: {load()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
