"""Benchmark: the exact Hex solver against OpenSpiel's alpha-beta on small positions.

OpenSpiel's ``minimax.alpha_beta_search`` (no transposition table, no Hex knowledge)
is the peer: both solve the same random 4x4 positions, the values must agree, and the
table gives the time ratio. Then every opening of the n x n board is classified with a
time limit per opening, and the table says how many were decided.

    .venv/bin/python benchmarks/bench_hex_solver.py --stones 5 --positions 10 --sizes 3,4,5
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from boardlab.core.limits import Limit
from boardlab.hex.rules import BLACK, Cell, Position
from boardlab.hex.solver import solve


def random_position(size: int, stones: int, rng: random.Random) -> Position:
    while True:
        p = Position(size)
        for _ in range(stones):
            p.push(rng.choice(p.legal_moves()))
            if p.winner is not None:
                break
        if p.winner is None:
            return p


def openspiel_value(position: Position) -> tuple[int, float]:
    """Winner by OpenSpiel's alpha-beta (its board is our transpose) and the seconds."""
    import pyspiel
    from open_spiel.python.algorithms import minimax

    game = pyspiel.load_game("hex", {"board_size": position.size})
    state = game.new_initial_state()
    for index in position.history:
        cell = Cell.of_index(index, position.size).transposed()
        state.apply_action(cell.row * position.size + cell.col)
    started = time.perf_counter()
    value, _ = minimax.alpha_beta_search(game, state=state, maximizing_player_id=0)
    return (BLACK if value > 0 else 2), time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stones", type=int, default=5)
    parser.add_argument("--positions", type=int, default=10)
    parser.add_argument("--sizes", default="3,4,5", help="boards whose openings to classify")
    parser.add_argument("--per-opening", type=float, default=10.0, help="seconds per opening")
    args = parser.parse_args()
    rng = random.Random(4)
    ours_total = theirs_total = 0.0
    for _ in range(args.positions):
        p = random_position(4, args.stones, rng)
        started = time.perf_counter()
        result = solve(p, all_moves=False)
        ours_total += time.perf_counter() - started
        winner, seconds = openspiel_value(p)
        theirs_total += seconds
        if winner != result.winner:
            print(f"DISAGREEMENT on {p!r}: boardlab {result.winner}, openspiel {winner}")
            return 1
    print(
        f"4x4 positions with {args.stones} random stones, {args.positions} positions, values agree"
    )
    print(f"{'solver':<34} {'seconds':>9}")
    print(f"{'boardlab (VC-pruned alpha-beta)':<34} {ours_total:>9.3f}")
    print(f"{'openspiel alpha_beta_search':<34} {theirs_total:>9.3f}")
    print(f"{'ratio (openspiel / boardlab)':<34} {theirs_total / max(ours_total, 1e-9):>9.0f}")
    print(f"\nopenings classified, {args.per_opening:g} s per opening")
    print(f"{'size':>4} {'decided':>8} {'of':>4} {'winning':>8} {'seconds':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        decided = winning = 0
        started = time.perf_counter()
        for index in range(size * size):
            p = Position(size)
            p.push(index)
            if p.winner is not None:
                decided += 1
                winning += 1
                continue
            result = solve(p, Limit(time=args.per_opening), all_moves=False)
            if result.winner is not None:
                decided += 1
                winning += result.winner == BLACK
        print(
            f"{size:>4} {decided:>8} {size * size:>4} {winning:>8} "
            f"{time.perf_counter() - started:>8.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
