"""Benchmark: boardlab's Hex prover against another checkout of itself on MoHex's suites.

Two source trees (``--before``, ``--after``: folders holding ``boardlab``, e.g. a frozen
checkout's ``src`` and this one's) each answer the same cases of a Benzene regression
file (read as :mod:`bench_hex_suite` reads it: the same positions and questions, the
same ``solve`` call) in a worker process of their own, kernels loaded before any clock;
the two are asked in turn, case by case, so that both see the same load of a shared
machine. Printed per case: each tree's answer, wall and CPU seconds and analysed positions
(``nodes``: the same count on both sides means the same search), and at the end the
totals and the ratio after / before.

    .venv/bin/python benchmarks/bench_hex_prover_ab.py --before /path/to/old/src \\
        --after src --suite /path/to/benzene/regression/dfpn-puzzle.tst --max-size 7 --noted 5
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent


def worker(suite: Path, seconds: float) -> int:
    """Answer case numbers read from stdin, one JSON line each (in the tree on the path)."""
    sys.path.insert(0, str(HERE))
    import time

    from bench_hex_suite import position_of, read_suite
    from boardlab.core.limits import Limit
    from boardlab.hex.prover.solver import solve
    from boardlab.hex.rules import BLACK, Position

    cases = {case.number: case for case in read_suite(suite)}
    solve(Position(3), Limit(time=5))  # load the kernels before any clock
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        case = cases[int(line)]
        position = position_of(case, suite.parent)
        find = case.command == "dfpn-solver-find-winning"
        started, cpu = time.perf_counter(), time.process_time()
        result = solve(position, Limit(time=seconds), all_moves=find, mustplay=find)
        spent, cpu = time.perf_counter() - started, time.process_time() - cpu
        winner = None if result.winner is None else ("black" if result.winner == BLACK else "white")
        moves = sorted(cell.vertex() for cell in result.winning_moves)
        answer = {"winner": winner, "moves": moves, "complete": result.complete}
        line = {"seconds": spent, "cpu": cpu, "nodes": result.nodes, **answer}
        print(json.dumps(line), flush=True)
    return 0


def _start(tree: Path, suite: Path, seconds: float) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = [sys.executable, __file__, "--worker", "--suite", str(suite), "--time", str(seconds)]
    process = subprocess.Popen(
        command, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout is not None
    json.loads(process.stdout.readline())  # ready
    return process


def _ask(process: subprocess.Popen[str], number: int) -> dict[str, object]:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(f"{number}\n")
    process.stdin.flush()
    answer: dict[str, object] = json.loads(process.stdout.readline())
    return answer


def _right(case: object, answer: dict[str, object]) -> bool | None:
    from bench_hex_suite import Case

    assert isinstance(case, Case)
    if answer["winner"] is None:
        return None
    if case.command == "dfpn-solve-state":
        return [answer["winner"]] == case.expected
    moves = answer["moves"]
    assert isinstance(moves, list)
    if not answer["complete"]:
        return None
    return set(case.expected) <= set(moves) and bool(moves) == bool(case.expected)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, required=True, help="a Benzene .tst file")
    parser.add_argument("--before", type=Path, help="the first tree (holds boardlab)")
    parser.add_argument("--after", type=Path, help="the second tree (holds boardlab)")
    parser.add_argument("--time", type=float, default=60.0, help="seconds a case (default 60)")
    parser.add_argument("--max-size", type=int, default=19, help="skip larger boards")
    parser.add_argument("--min-size", type=int, default=1, help="skip smaller boards")
    parser.add_argument("--noted", type=float, help="only cases the suite times at most this")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker(args.suite, args.time)
    for name in ("before", "after"):
        tree = getattr(args, name)
        if tree is None or not (tree / "boardlab" / "__init__.py").is_file():
            print(
                f"bench_hex_prover_ab: --{name} must name a folder holding boardlab",
                file=sys.stderr,
            )
            return 2
    sys.path.insert(0, str(HERE))
    from bench_hex_suite import position_of, read_suite

    try:
        cases = read_suite(args.suite)
    except OSError as exc:
        print(f"{args.suite}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    chosen = []
    for case in cases:
        size = position_of(case, args.suite.parent).size
        if not args.min_size <= size <= args.max_size:
            continue
        if args.noted is not None and (case.noted_seconds or 0.0) > args.noted:
            continue
        chosen.append(case)
    workers = [_start(args.before.resolve(), args.suite, args.time)]
    workers.append(_start(args.after.resolve(), args.suite, args.time))
    totals = [0.0, 0.0]
    cpu = [0.0, 0.0]
    right = [0, 0]
    same_nodes = 0
    for k, case in enumerate(chosen):
        order = (0, 1) if k % 2 == 0 else (1, 0)  # alternate who goes first
        answers: list[dict[str, object]] = [{}, {}]
        for side in order:
            answers[side] = _ask(workers[side], case.number)
        line = []
        for side in (0, 1):
            answer = answers[side]
            ok = _right(case, answer)
            seconds = float(str(answer["seconds"])) if ok is not None else args.time
            totals[side] += seconds
            cpu[side] += float(str(answer["cpu"]))
            right[side] += ok is True
            status = {True: "right", False: "WRONG", None: "unsolved"}[ok]
            line.append(
                f"{status} {float(str(answer['seconds'])):.2f} s "
                f"(CPU {float(str(answer['cpu'])):.2f} s) {answer['nodes']} nodes"
            )
        same_nodes += answers[0]["nodes"] == answers[1]["nodes"]
        print(f"  case {case.number}: before {line[0]}; after {line[1]}", flush=True)
    for process in workers:
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    ratio = totals[1] / totals[0] if totals[0] else float("nan")
    print(f"\n{args.suite.name}, {len(chosen)} cases, {args.time:g} s a case at most, in turn")
    print("| tree | right | seconds | CPU seconds |")
    print("|---|---|---|---|")
    print(f"| before ({args.before}) | {right[0]} | {totals[0]:.1f} | {cpu[0]:.1f} |")
    print(f"| after ({args.after}) | {right[1]} | {totals[1]:.1f} | {cpu[1]:.1f} |")
    cpu_ratio = cpu[1] / cpu[0] if cpu[0] else float("nan")
    print(
        f"after / before: {ratio:.3f} (CPU {cpu_ratio:.3f}); "
        f"the same analysed positions in {same_nodes} cases"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
