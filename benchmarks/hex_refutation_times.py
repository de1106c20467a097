"""Benchmark: how soon boardlab's prover and MoHex's DFPN see that a losing move loses.

The positions are those of the blunder suite (``hex_blunder_suite.py``: a suite file of
``hex_blunders.py --json`` or ``--walk FOLDER=OUTPUT``), each with the move boardlab
played there against MoHex 2.0 and lost by. Both provers are given the position after
that move, the opponent to move, ``--seconds`` each (boardlab's ``solve`` with its first
winning move enough; MoHex's ``dfpn-solve-state`` in a fresh process with ``param_dfpn
timelimit``), and each proof's seconds are kept. The table gives, for each budget of
``--budgets``, how many of the moves each prover shows lost within it: a tree search
that analyses a node for about that long can prune the move there. ``--mohex-setting``
(GTP lines split by ``;``, repeatable) runs MoHex again with other settings, each a row
(``param_solver_vc use_non_edge_patterns 0`` takes its connection patterns away, say).
``--mohex-fillin`` adds a row of boardlab's prover on the position with MoHex's
``compute-fillin`` cells (its inferior-cell engine alone: captured, permanently inferior
and dead cells, no connections) played as stones first: what MoHex's fill-in would be
worth to boardlab's prover (the fill's own time, a few milliseconds in MoHex, is not
counted). ``--mohex-vc-fill`` adds one with the cells MoHex's ``vc-build`` fills (its
solver's board: the fill-in with connections and decompositions). A fill that changed
the winner would show as a disagreement.
A prover that calls the move won is printed as a disagreement (none is expected: the
move was proven lost before it entered the suite).

MoHex is built outside the repository (see ``bench_hex_mohex.py``): ``--mohex PATH`` or
``$MOHEX``. Run from the repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/hex_refutation_times.py \\
        --walk FOLDER=WALK.txt --seconds 2 --mohex-setting "param_solver_vc use_patterns 0"
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench_hex_fill_value import with_stones
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.judge import position_after
from boardlab.hex.player import warm_up
from boardlab.hex.prover.solver import solve
from boardlab.peers.mohex import (
    MOHEX_ABSENT,
    ask_on_position,
    fill_in_cells,
    mohex_binary,
    solved_winner,
)
from hex_blunder_suite import Case, read_cases

#: What a prover said of the position after the move: the seconds to a proof that the
#: move loses, or None (no proof in time), or a negative number when it says it wins.
Timing = float | None


def boardlab_time(case: Case, seconds: float, fills: dict[int, int] | None = None) -> Timing:
    """Seconds boardlab's prover takes to prove the case's move lost (see :data:`Timing`),
    with ``fills`` (cell: colour) played as stones first when given."""
    position = position_after(case.size, [*case.moves, case.blunder])
    if fills:
        position = with_stones(position, fills)
    started = time.perf_counter()
    result = solve(position, Limit(time=seconds), all_moves=False)
    spent = time.perf_counter() - started
    if result.winner is None:
        return None
    return spent if result.winner != case.mover else -1.0


def mohex_fillin(binary: str, case: Case, command: str = "compute-fillin") -> dict[int, int] | None:
    """The cells (cell: colour) MoHex's ``command`` (``compute-fillin`` or ``vc-build``)
    fills on the position after the case's move, for the side to move; None when MoHex
    dies or refuses."""
    moves = [*case.moves, case.blunder]
    found = ask_on_position(binary, case.size, moves, command, 60.0)
    return None if found is None else fill_in_cells(found[0], case.size)


def mohex_time(binary: str, case: Case, seconds: float, settings: Sequence[str]) -> Timing:
    """Seconds MoHex's ``dfpn-solve-state`` takes, in a fresh process, to prove the case's
    move lost (see :data:`Timing`); None also when MoHex dies or refuses."""
    settings = [f"param_dfpn timelimit {seconds}", *settings]
    moves = [*case.moves, case.blunder]
    found = ask_on_position(binary, case.size, moves, "dfpn-solve-state", seconds + 60.0, settings)
    winner = None if found is None else solved_winner(found[0])
    if found is None or winner is None:
        return None
    return found[1] if winner != case.mover else -1.0


def row(label: str, timings: list[Timing], budgets: Sequence[float]) -> str:
    """One table row: the moves proven lost within each budget, and disagreements."""
    cells = "  ".join(
        f"{sum(1 for t in timings if t is not None and 0 <= t <= b):>4}" for b in budgets
    )
    wrong = sum(1 for t in timings if t is not None and t < 0)
    return f"{label:<44} {cells}   of {len(timings)}" + (
        f"  ({wrong} called won: disagreement)" if wrong else ""
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="*", type=Path, help="hex_blunders.py --json files")
    parser.add_argument(
        "--walk", action="append", default=[], help="FOLDER=OUTPUT: a kept walk (repeatable)"
    )
    parser.add_argument("--seconds", type=float, default=2.0, help="each prover a position")
    parser.add_argument(
        "--budgets", default="0.1,0.3,1,2", help="budgets of the table (seconds, comma-split)"
    )
    parser.add_argument(
        "--mohex-setting",
        action="append",
        default=[],
        help="GTP lines (';'-split) for another MoHex row (repeatable)",
    )
    parser.add_argument(
        "--mohex-fillin",
        action="store_true",
        help="a row of boardlab's prover with MoHex's compute-fillin cells as stones",
    )
    parser.add_argument(
        "--mohex-vc-fill",
        action="store_true",
        help="a row of boardlab's prover with the cells MoHex's vc-build fills as stones",
    )
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--verbose", action="store_true", help="print every position's times")
    args = parser.parse_args(argv)
    binary = mohex_binary(args.mohex)
    if binary is None:
        print(f"hex_refutation_times: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    try:
        budgets = [float(text) for text in args.budgets.split(",")]
        if args.seconds <= 0 or any(b <= 0 for b in budgets):
            raise ValueError
    except ValueError:
        parser.error("--seconds and --budgets take positive seconds")
    try:
        cases = read_cases(args.suites, args.walk)
        for case in cases:
            position_after(case.size, [*case.moves, case.blunder])
    except BoardlabError as exc:
        print(f"hex_refutation_times: {exc}", file=sys.stderr)
        return 2
    warm_up(max(case.size for case in cases))
    mohex_rows = [("MoHex dfpn-solve-state", [])] + [
        (f"MoHex, {text}", [line.strip() for line in text.split(";") if line.strip()])
        for text in args.mohex_setting
    ]
    print(f"{len(cases)} losing moves, {args.seconds} s a prover a position", flush=True)
    ours: list[Timing] = []
    fill_rows: list[tuple[str, str, list[Timing]]] = [
        (label, command, [])
        for label, command, wanted in (
            ("boardlab solve on MoHex's compute-fillin", "compute-fillin", args.mohex_fillin),
            ("boardlab solve on MoHex's vc-build fill", "vc-build", args.mohex_vc_fill),
        )
        if wanted
    ]
    theirs: list[list[Timing]] = [[] for _ in mohex_rows]
    for case in cases:
        ours.append(boardlab_time(case, args.seconds))
        for _, command, filled in fill_rows:
            fills = mohex_fillin(binary, case, command)
            filled.append(None if fills is None else boardlab_time(case, args.seconds, fills))
        for timings, (_, settings) in zip(theirs, mohex_rows, strict=True):
            timings.append(mohex_time(binary, case, args.seconds, settings))
        if args.verbose:
            columns = [ours, *theirs, *(filled for _, _, filled in fill_rows)]
            shown = " ".join("-" if t[-1] is None else f"{t[-1]:.2f}" for t in columns)
            print(f"  {case.game} move {len(case.moves) + 1} {case.blunder}: {shown}", flush=True)
    print(f"{'proven lost within (s)':<44} " + "  ".join(f"{b:>4g}" for b in budgets))
    print(row("boardlab solve", ours, budgets))
    for label, _, filled in fill_rows:
        print(row(label, filled, budgets))
    for (label, _), timings in zip(mohex_rows, theirs, strict=True):
        print(row(label, timings, budgets))
    return 0


if __name__ == "__main__":
    sys.exit(main())
