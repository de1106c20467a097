"""Benchmark: the PEGGED solver against the greedy baseline on a fixed board set.

Boards: the statement's example, the two FAQ system-test boards, and seeded random
boards (``random_board_text``) up to 25 x 49 with 400 pegs. The solver runs with
``--time`` seconds per board (seed 0); the baseline is ``greedy_moves`` (first jump,
else walk the nearest peg into a jumping position). Both answers are judged. Prints
moves, walks, seconds and the ratio of moves (solver / baseline; lower is better).

    .venv/bin/python benchmarks/bench_pegged_baseline.py --time 10
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from boardlab.core.limits import Limit
from boardlab.pegs.judge import judge_moves
from boardlab.pegs.pegged import PeggedSolver, load_board
from boardlab.pegs.pegged.generate import random_board_text
from boardlab.pegs.pegged.greedy import greedy_moves

DATA = Path(__file__).resolve().parent.parent / "tests" / "pegged" / "data"
RANDOM = [(9, 15, 40, 1), (15, 29, 120, 2), (25, 49, 300, 3), (25, 49, 400, 4)]


def boards() -> list[tuple[str, str]]:
    """The fixed board set: (name, board-file text)."""
    named = [(name, (DATA / f"{name}.txt").read_text()) for name in ("example", "faq1", "faq2")]
    for rows, cols, pegs, seed in RANDOM:
        named.append((f"r{rows}x{cols}p{pegs}s{seed}", random_board_text(rows, cols, pegs, seed)))
    return named


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=10.0, help="solver seconds per board")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    # compile (or load from cache) the kernels outside the timings
    PeggedSolver(Limit(time=1.0), exact_holes=0).solve(
        load_board((DATA / "example.txt").read_text())
    )
    header = (
        f"{'board':<20} {'pegs':>5} {'bound':>6} | {'solver':>6} {'walks':>6} {'tie':>4} "
        f"{'sec':>6} | {'greedy':>6} {'walks':>6} {'sec':>6} | {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    total_solver = total_greedy = 0
    for name, text in boards():
        start = load_board(text, name)
        began = time.perf_counter()
        result = PeggedSolver(Limit(time=args.time), seed=args.seed).solve(start)
        solver_seconds = time.perf_counter() - began
        verdict = judge_moves(start, result.moves)
        assert verdict.solved, verdict.reason
        began = time.perf_counter()
        greedy = greedy_moves(start)
        greedy_seconds = time.perf_counter() - began
        assert greedy is not None
        baseline = judge_moves(start, greedy)
        assert baseline.solved, baseline.reason
        total_solver += verdict.moves
        total_greedy += baseline.moves
        print(
            f"{name:<20} {start.peg_count:>5} {result.bound:>6} | {verdict.moves:>6} "
            f"{verdict.walks:>6} {verdict.tiebreak:>4} {solver_seconds:>6.2f} | "
            f"{baseline.moves:>6} {baseline.walks:>6} {greedy_seconds:>6.2f} | "
            f"{verdict.moves / baseline.moves:>6.3f}"
        )
    print("-" * len(header))
    print(
        f"{'total moves':<20} {'':>5} {'':>6} | {total_solver:>6} {'':>6} {'':>4} {'':>6} | "
        f"{total_greedy:>6} {'':>6} {'':>6} | {total_solver / total_greedy:>6.3f}"
    )


if __name__ == "__main__":
    main()
