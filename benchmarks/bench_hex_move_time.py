"""Benchmark: the wall time a move that boardlab's engine and MoHex 2.0 take at a nominal time.

A match "at equal time" gives both programs the same nominal seconds a move: boardlab's
``--time`` (``hex gtp --time``) and MoHex's ``param_mohex max_time``. This script asks
whether the two are the same thing: each program plays itself from ``--games`` first
stones (drawn by ``--seed``, one game each) for ``--plies`` moves at most, one thread,
and every ``genmove`` is timed by the caller as a referee times it. It prints each
program's mean, median, least and most seconds a move and the ratio of the means.

MoHex is not a Python package: build it outside the repository from its public source
(``cgao3/benzene-vanilla-cmake``) and give its path with ``--mohex PATH`` or ``$MOHEX``;
without it the script says so and exits 2. Run from the repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_move_time.py --size 11 --time 1
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence

from boardlab.core.errors import BoardlabError
from boardlab.hex.board import vertex
from boardlab.hex.judge import Player
from boardlab.hex.match import EnginePlayer
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.mohex import MOHEX_ABSENT, MohexPlayer, mohex_binary


def timed_self_play(
    player: Player, size: int, first: str, plies: int, seconds: float
) -> list[float]:
    """``player`` against itself from black's stone ``first``: the wall seconds of each
    ``genmove`` until ``plies`` moves are on the board, the game is over or it fails."""
    player.new_game(size)
    player.play(BLACK, first)
    spent: list[float] = []
    color = WHITE
    for _ in range(plies - 1):
        started = time.perf_counter()
        try:
            reply = player.genmove(color, seconds)
        except BoardlabError:
            break
        spent.append(time.perf_counter() - started)
        if reply.strip().lower() == "resign":
            break
        color = BLACK if color == WHITE else WHITE
    return spent


def summary(name: str, spent: Sequence[float]) -> str:
    """One line: ``name``'s moves and their mean, median, least and most seconds."""
    return (
        f"{name:<9} {len(spent):>4} moves  mean {statistics.mean(spent):.3f} s"
        f"  median {statistics.median(spent):.3f}  least {min(spent):.3f}"
        f"  most {max(spent):.3f}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--size", type=int, default=11, help="board size (default 11)")
    parser.add_argument(
        "--time", type=float, default=1.0, help="nominal seconds a move for both (default 1)"
    )
    parser.add_argument(
        "--mohex-time",
        type=float,
        default=None,
        help="MoHex's max_time instead of --time (does a lower setting bring its move down?)",
    )
    parser.add_argument("--games", type=int, default=3, help="self-play games each (default 3)")
    parser.add_argument("--plies", type=int, default=40, help="moves a game at most (default 40)")
    parser.add_argument("--seed", type=int, default=1, help="draws the first stones (default 1)")
    args = parser.parse_args(argv)
    if not 5 <= args.size <= 19:
        parser.error(f"--size must be 5 to 19, not {args.size}")
    theirs = args.time if args.mohex_time is None else args.mohex_time
    if min(args.time, theirs) <= 0 or args.games < 1 or args.plies < 2:
        parser.error("the times must be positive, --games at least 1 and --plies at least 2")
    binary = mohex_binary(args.mohex)
    if binary is None:
        print(f"bench_hex_move_time: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    stones = [vertex(rng.randrange(args.size * args.size), args.size) for _ in range(args.games)]
    print(
        f"{args.size}x{args.size}, boardlab {args.time} s a move, MoHex max_time {theirs},"
        f" first stones {stones}"
    )
    mohex = MohexPlayer(binary, theirs, None)
    ours = EnginePlayer(SolvingEngine(seed=args.seed))
    took: list[float] = []
    mine: list[float] = []
    try:
        for stone in stones:
            took += timed_self_play(mohex, args.size, stone, args.plies, theirs)
            mine += timed_self_play(ours, args.size, stone, args.plies, args.time)
    finally:
        mohex.close()
    if not took or not mine:
        print("bench_hex_move_time: a program made no move", file=sys.stderr)
        return 2
    print(summary("boardlab", mine))
    print(summary("mohex", took))
    ratio = statistics.mean(took) / statistics.mean(mine)
    print(f"MoHex's mean over boardlab's: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
