"""Makes training games for the Hex engine's move prior: MoHex 2.0 against itself.

MoHex (built outside the repository, ``--mohex PATH`` or ``$MOHEX``; see
``benchmarks/bench_hex_mohex.py``) plays both sides at ``--playouts`` a move, one
thread, from seeded two-stone openings (a black and a white stone off the edges, as the
benchmark's), every game refereed by :func:`boardlab.hex.judge.play_game` and written
as SGF (``PB``/``PW`` ``mohex-selfplay``) under ``--out``. The games are the data that
``scripts/hex_patterns.py --player mohex`` fits the prior to:

    MOHEX=/path/to/mohex .venv/bin/python scripts/hex_mohex_games.py --games 40 \\
        --playouts 3000 --seed 1 --out benchmarks/results/hex-mohex-selfplay
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import play_game
from boardlab.hex.match import SolverProver
from boardlab.hex.rules import Cell
from boardlab.peers.mohex import (
    MOHEX_ABSENT,
    CheckedProver,
    MohexPlayer,
    MohexProver,
    mohex_binary,
)

NAME = "mohex-selfplay"


class Opening:
    """A MoHex player whose first stone of the game is given."""

    def __init__(self, player: MohexPlayer, stone: str) -> None:
        self.player = player
        self.stone = stone
        self.name = NAME
        self.moved = False

    def new_game(self, size: int) -> None:
        self.moved = False
        self.player.new_game(size)

    def play(self, color: int, vertex: str) -> None:
        self.player.play(color, vertex)

    def genmove(self, color: int, seconds: float) -> str:
        if not self.moved:
            self.moved = True
            self.player.play(color, self.stone)
            return self.stone
        return self.player.genmove(color, seconds)

    def close(self) -> None:
        self.player.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--playouts", type=int, default=3000, help="MoHex's playouts a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after (0: no limit)")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/hex-mohex-selfplay"))
    args = parser.parse_args()
    args.mohex = mohex_binary(args.mohex)
    if args.mohex is None:
        print(f"hex_mohex_games: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    n = args.size
    inner = [str(Cell(r, c)) for r in range(1, n - 1) for c in range(1, n - 1)]
    prover = CheckedProver(MohexProver(args.mohex, 60.0), SolverProver(2.0))
    black_engine = MohexPlayer(args.mohex, 1.0, args.playouts)
    white_engine = MohexPlayer(args.mohex, 1.0, args.playouts)
    started = time.perf_counter()
    try:
        for number in range(args.games):
            if args.minutes and time.perf_counter() - started > 60 * args.minutes:
                print(f"stopped after {args.minutes} minutes", flush=True)
                break
            first, second = rng.sample(inner, 2)
            record = play_game(
                Opening(black_engine, first), Opening(white_engine, second), n, 1.0, prover
            )
            name = f"selfplay-{args.playouts}-s{args.seed}-{number:03d}.sgf"
            (args.out / name).write_text(format_game_sgf(record, "boardlab hex_mohex_games"))
            print(f"{name}: {record.reason}, {len(record.moves)} moves", flush=True)
    finally:
        black_engine.close()
        white_engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
