"""Benchmark: whole IOI games, our program as player 1 from generated start positions.

Each game starts from :func:`boardlab.hex.hexlib.generate_start` (equal stones, player
1 to move and winning: certified by the exact solver up to 8x8, by an engine estimate
above) and is played through the HexLib API against an evaluator: our own engine
with the library's 20 s (``strong``), or OpenSpiel's MCTS bot (``--peer openspiel``,
calibrated to the same 20 s per game). The table gives wins and the slowest game; the
IOI limit is 40 s for the whole game.

    .venv/bin/python benchmarks/bench_hex_ioi.py --sizes 7,11,15,20 --games 2
"""

from __future__ import annotations

import argparse
import sys
import time

from boardlab.hex.hexlib import Evaluator, GameClock, HexLib, generate_start, play_ioi_game
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Position


class OpenSpielEvaluator(Evaluator):
    """OpenSpiel's MCTSBot as the library, its simulations sized to 20 s per game."""

    def __init__(self, seed: int, sims_per_second: float) -> None:
        super().__init__("random", seed=seed)
        self.sims_per_second = sims_per_second
        self.clock = GameClock(total=20.0)
        self.seed = seed

    def choose(self, position: Position) -> int:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import mcts

        started = time.perf_counter()
        n = position.size
        game = pyspiel.load_game("hex", {"board_size": n})
        state = game.new_initial_state()
        # replay the stones in HexGui orientation (transpose), alternating colours
        black = [position.cell(i).transposed() for i, v in enumerate(position.board) if v == 1]
        white = [position.cell(i).transposed() for i, v in enumerate(position.board) if v == 2]
        for b, w in zip(black, white, strict=False):
            state.apply_action(b.row * n + b.col)
            state.apply_action(w.row * n + w.col)
        for b in black[len(white) :]:
            state.apply_action(b.row * n + b.col)
        sims = max(10, int(self.sims_per_second * self.clock.move_time(position)))
        rng = np.random.RandomState(self.seed)
        self.seed += 1
        bot = mcts.MCTSBot(game, 2.0, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        action = bot.step(state)
        row, col = divmod(int(action), n)
        self.clock.charge(time.perf_counter() - started)
        return col * n + row  # transpose back


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="7,11,15,20")
    parser.add_argument("--games", type=int, default=2, help="games per size")
    parser.add_argument("--peer", choices=["boardlab", "openspiel"], default="boardlab")
    args = parser.parse_args()
    print(f"IOI games, evaluator: {args.peer} (20 s of the 40 s game), our side 20 s")
    print(f"{'size':>4} {'stones':>6} {'certified':>9} {'won':>5} {'max s':>7} {'max ours':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        won = 0
        worst = worst_ours = 0.0
        certified_count = 0
        stones = max(1, size * size // 10)
        for seed in range(args.games):
            position, certified = generate_start(size, stones, seed=100 * size + seed)
            certified_count += certified
            if args.peer == "openspiel":
                from bench_hex_openspiel import calibrate

                evaluator: Evaluator = OpenSpielEvaluator(seed, calibrate(size, 0.5))
            else:
                evaluator = Evaluator("strong", seed=seed)
            game = play_ioi_game(HexLib(position, evaluator), SolvingEngine(seed=seed))
            won += game.result == 2
            worst = max(worst, game.seconds)
            worst_ours = max(worst_ours, game.program_seconds)
        print(
            f"{size:>4} {stones:>6} {certified_count:>5}/{args.games:<3} {won:>2}/{args.games:<2} "
            f"{worst:>7.1f} {worst_ours:>8.1f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
