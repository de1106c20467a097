"""Benchmark: the exact Hex solver against OpenSpiel's alpha-beta, and opening tables.

OpenSpiel's ``minimax.alpha_beta_search`` (no transposition table, no Hex knowledge)
is the peer: it, the DFPN solver and the older alpha-beta solver solve the same random
4x4 positions, the values must agree, and the table gives the times. Then every opening
of the n x n board is classified with a time limit per opening, one row per opening
(result, analysed positions, seconds), and the set of winning openings is printed.

    nice -n 19 .venv/bin/python benchmarks/bench_hex_solver.py --sizes 3,4,5,6
    nice -n 19 .venv/bin/python benchmarks/bench_hex_solver.py --skip-peer --sizes 7 \
        --unique --per-opening 300
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from boardlab.core.limits import Limit
from boardlab.hex._solver_store import recorded_totals
from boardlab.hex.rules import BLACK, Cell, Position, random_open_position
from boardlab.hex.solver import solve, solve_alphabeta


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
        theirs = Cell.parse(name)
        ours = theirs.transposed().index(7)
        table[ours] = table[48 - ours] = bool(wins)
    return table


def classify_openings(
    size: int, per_opening: float, unique: bool, only: list[str], checkpoints: Path | None
) -> None:
    """Solve every opening (one player-1 stone, player 2 to move) and print a row each.

    With ``checkpoints`` (a folder) each opening's search is resumed from and saved to its
    own file there, and two more columns give the totals over all runs."""
    print(f"\n{size}x{size} openings, {per_opening:g} s each (player 2 to move after it)")
    extra = f" {'all runs':>9} {'seconds':>8}" if checkpoints else ""
    print(f"{'opening':>7} {'result':>16} {'nodes':>8} {'seconds':>8}{extra}")
    decided = winning = solved = 0
    wins: set[int] = set()
    losses: set[int] = set()
    started = time.perf_counter()
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
        result = solve(p, Limit(time=per_opening), all_moves=False, checkpoint=path)
        solved += 1
        if result.winner is None:
            text = "unknown"
        else:
            decided += 1
            opener_wins = result.winner == BLACK
            winning += opener_wins
            (wins if opener_wins else losses).add(index)
            text = "player 1 wins" if opener_wins else "player 1 loses"
        if checkpoints:
            total_seconds = before_seconds + result.seconds
            extra = f" {before + result.nodes:>9} {total_seconds:>8.1f}"
        print(f"{name:>7} {text:>16} {result.nodes:>8} {result.seconds:>8.2f}{extra}", flush=True)
    total = time.perf_counter() - started
    symmetric = all(size * size - 1 - i in wins for i in wins if size * size - 1 - i not in losses)
    names = " ".join(str(Cell.of_index(i, size)) for i in sorted(wins))
    which = "chosen openings" if only else "one of each 180-degree pair" if unique else "all cells"
    print(
        f"{size}x{size}: {decided} of {solved} solved openings decided ({which}), "
        f"{winning} winning, {total:.1f} s in all"
    )
    print(f"winning openings: {names or '-'}")
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
    args = parser.parse_args()
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
    if args.certify:
        certify_starts([int(x) for x in args.certify.split(",")], 4)
    for size in (int(s) for s in args.sizes.split(",") if s):
        only = [name for name in args.openings.split(",") if name]
        classify_openings(size, args.per_opening, args.unique, only, args.checkpoints)
    return 0


if __name__ == "__main__":
    sys.exit(main())
