"""Benchmark: the exact Hex solver against OpenSpiel's alpha-beta, and opening tables.

OpenSpiel's ``minimax.alpha_beta_search`` (no transposition table, no Hex knowledge)
is the peer: it, the DFPN solver and the older alpha-beta solver solve the same random
4x4 positions, the values must agree, and the table gives the times. Then every opening
of the n x n board is classified with a time limit per opening, one row per opening
(result, analysed positions, seconds), and the set of winning openings is printed.

    nice -n 19 .venv/bin/python benchmarks/bench_hex_solver.py --sizes 3,4,5,6
    nice -n 19 .venv/bin/python benchmarks/bench_hex_solver.py --skip-peer --sizes 7 \
        --unique --per-opening 300

With ``--mohex PATH`` (or ``$MOHEX``; MoHex 2.0 built outside the repository, see
``bench_hex_mohex.py``) MoHex's DFPN is the peer in the same run: each opening is also
solved by its ``dfpn-solve-state`` in a fresh process (so no opening profits from
another's table, as ours do not), and ``--find-winning N`` times ``boardlab hex solve``
(every first move of the empty N x N board, proven) against MoHex's
``dfpn-solver-find-winning`` (the winning first moves among those its inferior-cell
analysis keeps). The ratios are boardlab's seconds over MoHex's.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from boardlab.cluster.process_engine import ProcessEngine
from boardlab.core.limits import Limit
from boardlab.hex.board import rotated, vertex, vertex_index
from boardlab.hex.prover.solver import solve, solve_alphabeta
from boardlab.hex.prover.store import recorded_totals
from boardlab.hex.rules import BLACK, Cell, Position, random_open_position


def openspiel_value(position: Position) -> tuple[int, float]:
    """Winner by OpenSpiel's alpha-beta (its board is our transpose) and the seconds."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("hex", {"board_size": position.size})
    state = game.new_initial_state()
    for index in position.indices:
        cell = Cell.of_index(index, position.size).transposed()
        state.apply_action(cell.row * position.size + cell.col)
    started = time.perf_counter()
    value, _ = minimax.alpha_beta_search(game, state=state, maximizing_player_id=0)
    return (BLACK if value > 0 else 2), time.perf_counter() - started


# Published 7x7 opening values (Hayward et al., "Solving 7x7 Hex", 2003; the proof-tree
# table on R. Hayward's web page), for the first player, who owns north and south there:
# a1 a2 a3 a5 b1 b2 lose, a4 a6 a7 b3 win. That board is the transpose of ours (player 1
# joins the columns here), so their cell "xy" is our cell "yx" in letters and numbers.
PUBLISHED_7X7_THEIRS = {"a1": 0, "a2": 0, "a3": 0, "a4": 1, "a5": 0, "a6": 1, "a7": 1}
PUBLISHED_7X7_THEIRS |= {"b1": 0, "b2": 0, "b3": 1}


def published_7x7() -> dict[int, bool]:
    """Our opening index -> does player 1 win, for the published cells and their rotations."""
    table: dict[int, bool] = {}
    for name, wins in PUBLISHED_7X7_THEIRS.items():
        ours = vertex_index(name, 7)
        table[ours] = table[rotated(ours, 7)] = bool(wins)
    return table


def mohex_vertex(index: int, size: int) -> str:
    """MoHex's name of our cell (its black joins rows: our transpose)."""
    return vertex(index, size)


def mohex_dfpn(
    binary: str, size: int, black: list[int], command: str, seconds: float
) -> tuple[str, float, int]:
    """Run one MoHex DFPN ``command`` after black stones ``black`` in a fresh process.

    Returns ``(answer, seconds, mid calls)``: the GTP answer ("" past ``seconds``), the
    DFPN's own elapsed time summed over its searches (process start and pattern loading
    left out, as our start-up is), and its MID calls."""
    plays = "".join(f"play b {mohex_vertex(i, size)}\n" for i in black)
    script = f"boardsize {size} {size}\n{plays}{command}\nquit\n"
    with tempfile.TemporaryDirectory(prefix="bench-mohex-dfpn-") as folder:
        try:
            done = subprocess.run(
                [binary],
                input=script,
                capture_output=True,
                text=True,
                timeout=seconds + MOHEX_START,
                cwd=folder,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return "", seconds, 0
    answers = [a.strip() for a in done.stdout.split("\n\n") if a.strip().startswith("=")]
    answer = answers[-2][1:].strip() if len(answers) >= 2 else ""  # the last is quit's
    total = re.search(r"Total Elapsed Time: ([0-9.]+)", done.stderr)
    if total:
        elapsed = float(total.group(1))
    else:
        elapsed = sum(float(x) for x in re.findall(r"^Elapsed Time +([0-9.]+)", done.stderr, re.M))
    mids = sum(int(x) for x in re.findall(r"^MID calls +([0-9]+)", done.stderr, re.M))
    return answer, elapsed, mids


#: Seconds MoHex may take to start (it loads its pattern files) beyond its search time.
MOHEX_START = 30.0


def find_winning(binary: str | None, size: int, seconds: float, jobs: int = 1) -> None:
    """Every first move of the empty board by ``boardlab hex solve`` (on ``jobs``
    processes) and, with MoHex, its ``dfpn-solver-find-winning`` on the same board, with
    the ratio of the times."""
    print(f"\nempty {size}x{size} board, every first move ({seconds:g} s at most, {jobs} job(s))")
    engine = ProcessEngine(jobs) if jobs > 1 else None
    try:
        result = solve(Position(size), Limit(time=seconds), all_moves=True, engine=engine)
    finally:
        if engine is not None:
            engine.close()
    ours = " ".join(sorted(str(cell) for cell in result.winning_moves))
    state = "complete" if result.complete else "NOT complete"
    print(
        f"boardlab hex solve: {len(result.winning_moves)} winning, "
        f"{len(result.losing_moves)} losing ({state}), {result.nodes} analysed positions, "
        f"{result.seconds:.1f} s"
    )
    print(f"  winning: {ours or '-'}")
    if binary is None:
        return
    answer, elapsed, mids = mohex_dfpn(binary, size, [], "dfpn-solver-find-winning b", seconds)
    theirs = sorted(str(Cell.parse(v, size).transposed()) for v in answer.split())
    print(
        f"mohex dfpn-solver-find-winning: {len(theirs)} winning, {mids} MID calls, {elapsed:.1f} s"
    )
    print(f"  winning (our coordinates): {' '.join(theirs) or '-'}")
    missing = set(theirs) - set(ours.split())
    if result.complete and missing:
        print(f"  DISAGREEMENT: MoHex wins with {' '.join(sorted(missing))}")
    print(f"ratio (boardlab / mohex seconds): {result.seconds / max(elapsed, 1e-9):.1f}")


def classify_openings(
    size: int,
    per_opening: float,
    unique: bool,
    only: list[str],
    checkpoints: Path | None,
    mohex: str | None = None,
) -> None:
    """Solve every opening (one player-1 stone, player 2 to move) and print a row each.

    With ``checkpoints`` (a folder) each opening's search is resumed from and saved to its
    own file there, and two more columns give the totals over all runs."""
    print(f"\n{size}x{size} openings, {per_opening:g} s each (player 2 to move after it)")
    extra = f" {'all runs':>9} {'seconds':>8}" if checkpoints else ""
    if mohex:
        extra += f" {'mohex':>6} {'MIDs':>7} {'seconds':>8} {'ratio':>6}"
    print(f"{'opening':>7} {'result':>16} {'nodes':>8} {'seconds':>8}{extra}")
    ours_seconds = theirs_seconds = 0.0
    decided = winning = solved = 0
    wins: set[int] = set()
    losses: set[int] = set()
    started = time.perf_counter()
    ours_cpu = 0.0  # this process's CPU seconds in the solver (MoHex runs in its own)
    for index in range(size * size):
        mirror = size * size - 1 - index
        if unique and mirror < index:
            continue
        if only and str(Cell.of_index(index, size)) not in only:
            continue
        p = Position(size)
        p.push_index(index)
        name = str(Cell.of_index(index, size))
        path = checkpoints / f"hex{size}-{name}.npz" if checkpoints else None
        before, before_seconds = recorded_totals(path) if path else (0, 0.0)
        before_cpu = time.process_time()
        result = solve(p, Limit(time=per_opening), all_moves=False, checkpoint=path)
        ours_cpu += time.process_time() - before_cpu
        solved += 1
        if result.winner is None:
            text = "unknown"
        else:
            decided += 1
            opener_wins = result.winner == BLACK
            winning += opener_wins
            (wins if opener_wins else losses).add(index)
            text = "player 1 wins" if opener_wins else "player 1 loses"
        extra = ""
        if checkpoints:
            total_seconds = before_seconds + result.seconds
            extra = f" {before + result.nodes:>9} {total_seconds:>8.1f}"
        if mohex:
            answer, seconds, mids = mohex_dfpn(
                mohex, size, [index], "dfpn-solve-state w", per_opening
            )
            agree = {"black": BLACK, "white": 2}.get(answer.lower())
            if agree is not None and result.winner is not None and agree != result.winner:
                print(f"DISAGREEMENT on {name}: MoHex says {answer} wins")
            word = answer.lower() or "-"
            if answer and result.winner is not None:
                ours_seconds += result.seconds
                theirs_seconds += seconds
            ratio = result.seconds / max(seconds, 1e-9)
            extra += f" {word:>6} {mids:>7} {seconds:>8.2f} {ratio:>6.1f}"
        print(f"{name:>7} {text:>16} {result.nodes:>8} {result.seconds:>8.2f}{extra}", flush=True)
    total = time.perf_counter() - started
    symmetric = all(size * size - 1 - i in wins for i in wins if size * size - 1 - i not in losses)
    names = " ".join(str(Cell.of_index(i, size)) for i in sorted(wins))
    which = "chosen openings" if only else "one of each 180-degree pair" if unique else "all cells"
    print(
        f"{size}x{size}: {decided} of {solved} solved openings decided ({which}), "
        f"{winning} winning, {total:.1f} s in all, boardlab's CPU {ours_cpu:.1f} s"
    )
    print(f"winning openings: {names or '-'}")
    if mohex and theirs_seconds:
        print(
            f"openings both decided: boardlab {ours_seconds:.1f} s, MoHex {theirs_seconds:.1f} s, "
            f"ratio {ours_seconds / theirs_seconds:.1f}"
        )
    if size == 7:
        known = published_7x7()
        ours = {i: True for i in wins} | {i: False for i in losses}
        common = [i for i in ours if i in known]
        agree = sum(ours[i] == known[i] for i in common)
        print(f"agree with the published 7x7 values: {agree} of the {len(common)} also published")
    if not unique and not only:
        print(f"winning set invariant under the 180-degree rotation: {symmetric}")


def certify_starts(sizes: list[int], seeds: int) -> None:
    """How many IOI starts ``generate_start`` certifies with the exact solver."""
    from boardlab.hex.hexlib import generate_start

    print(f"\nIOI starts (size*size // 10 stones each), {seeds} seeds, 2 s per candidate")
    print(f"{'size':>4} {'stones':>6} {'certified':>9} {'seconds':>8}")
    for size in sizes:
        stones = size * size // 10
        started = time.perf_counter()
        certified = sum(generate_start(size, stones, seed=seed)[1] for seed in range(seeds))
        elapsed = time.perf_counter() - started
        print(f"{size:>4} {stones:>6} {certified:>5}/{seeds:<3} {elapsed:>8.1f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stones", type=int, default=5)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--sizes", default="3,4,5", help="boards whose openings to classify")
    parser.add_argument("--per-opening", type=float, default=10.0, help="seconds per opening")
    parser.add_argument(
        "--unique", action="store_true", help="solve one opening of each 180-degree pair"
    )
    parser.add_argument("--openings", default="", help="only these openings, e.g. d4,a1")
    parser.add_argument("--certify", default="", help="IOI start sizes to certify, e.g. 6,7,8")
    parser.add_argument("--skip-peer", action="store_true", help="skip the OpenSpiel part")
    parser.add_argument(
        "--checkpoints", type=Path, help="folder of per-opening checkpoints to resume and save"
    )
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument(
        "--find-winning", type=int, default=0, metavar="N", help="time every first move of N x N"
    )
    parser.add_argument(
        "--jobs",
        type=lambda text: [int(x) for x in text.split(",")],
        default=[1],
        help="processes for --find-winning, e.g. 1,2 (MoHex runs once, after the last)",
    )
    args = parser.parse_args()
    args.mohex = args.mohex or None  # MOHEX= (empty) means absent, as unset does
    if args.mohex and not Path(args.mohex).is_file():
        print(f"bench_hex_solver: no MoHex binary at {args.mohex}", file=sys.stderr)
        return 2
    if not args.mohex:
        print("MoHex 2.0 is absent (--mohex PATH or $MOHEX): its DFPN columns are left out")
    rng = random.Random(4)
    ours_total = theirs_total = 0.0
    old_total = 0.0
    for _ in range(0 if args.skip_peer else args.positions):
        p = random_open_position(4, args.stones, rng)
        started = time.perf_counter()
        result = solve(p, all_moves=False)
        ours_total += time.perf_counter() - started
        started = time.perf_counter()
        old = solve_alphabeta(p, all_moves=False)
        old_total += time.perf_counter() - started
        winner, seconds = openspiel_value(p)
        theirs_total += seconds
        if not winner == result.winner == old.winner:
            print(f"DISAGREEMENT on {p!r}: boardlab {result.winner}, openspiel {winner}")
            return 1
    if not args.skip_peer:
        print(
            f"4x4 positions with {args.stones} random stones, {args.positions} positions, "
            "values agree"
        )
        print(f"{'solver':<34} {'seconds':>9}")
        print(f"{'boardlab DFPN + H-search':<34} {ours_total:>9.3f}")
        print(f"{'boardlab alpha-beta (old)':<34} {old_total:>9.3f}")
        print(f"{'openspiel alpha_beta_search':<34} {theirs_total:>9.3f}")
        ratio = theirs_total / max(ours_total, 1e-9)
        print(f"{'ratio (openspiel / DFPN)':<34} {ratio:>9.0f}")
    solve(Position(3), all_moves=False)  # compile the kernels before anything is timed
    if args.certify:
        certify_starts([int(x) for x in args.certify.split(",")], 4)
    for size in (int(s) for s in args.sizes.split(",") if s):
        only = [name for name in args.openings.split(",") if name]
        classify_openings(size, args.per_opening, args.unique, only, args.checkpoints, args.mohex)
    if args.find_winning:
        for jobs in args.jobs:
            find_winning(
                args.mohex if jobs == args.jobs[-1] else None,
                args.find_winning,
                args.per_opening,
                jobs,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
