"""Plays boardlab's Hex engine against itself and stores every position for training.

A run is seeded and resumable: game ``k`` depends only on the run's settings and ``k``,
a stopped run started again with the same command goes on from its last finished game,
and the same seed gives the same games (see :mod:`boardlab.hex.learning.selfplay`; the
store's format is in :mod:`boardlab.hex.learning.store` and ``docs/hex.md``). At the end
it prints what the folder holds and its checksum.

    PYTHONPATH=src .venv/bin/python scripts/hex_selfplay.py --size 11 --games 1000 \\
        --playouts 400 --seed 1 --out /work/data/hex-selfplay/run-1
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from boardlab.core.errors import BoardlabError
from boardlab.hex.learning.selfplay import SelfPlay, run
from boardlab.hex.learning.store import GameRecord, Store, summarise
from boardlab.hex.player import warm_up


def sizes(text: str) -> tuple[int, ...]:
    """``11`` or ``9-13`` or ``9,11,13``."""
    try:
        if "-" in text:
            lo, hi = (int(part) for part in text.split("-", 1))
            return tuple(range(lo, hi + 1))
        return tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not board sizes: {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=sizes, default=(11,), help="11, 9-13 or 9,11,13")
    parser.add_argument("--games", type=int, required=True, help="games the run should hold")
    parser.add_argument("--playouts", type=int, default=400, help="playouts a search")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sample-plies", type=int, default=4, help="moves drawn from visits")
    parser.add_argument("--label-nodes", type=int, default=2000, help="prover nodes a position")
    parser.add_argument("--label-misses", type=int, default=2)
    parser.add_argument(
        "--deep-playouts", type=int, default=0, help="playouts of the moves kept as targets"
    )
    parser.add_argument("--deep-share", type=float, default=0.25, help="share of deep moves")
    parser.add_argument("--network", default="", help="the engine's network (default: shipped)")
    parser.add_argument("--out", type=Path, required=True, help="the run's folder")
    parser.add_argument("--quiet", action="store_true", help="one line a game, no bar")
    args = parser.parse_args(argv)
    try:
        settings = SelfPlay(
            sizes=args.size,
            playouts=args.playouts,
            seed=args.seed,
            sample_plies=args.sample_plies,
            label_nodes=args.label_nodes,
            label_misses=args.label_misses,
            network=args.network,
            deep_playouts=args.deep_playouts,
            deep_share=args.deep_share,
        )
        done = Store(args.out, settings.settings()).games  # another run's folder is refused here
        warm_up()
        began = time.perf_counter()
        made = [0, 0]  # games, positions played in this session

        def count(game: GameRecord, store: Store) -> None:
            made[0] += 1
            made[1] += len(game.plies)
            rate = 60 * made[1] / (time.perf_counter() - began)
            if args.quiet:
                print(
                    f"game {game.number} ({game.size}x{game.size}, {len(game.plies)} moves, "
                    f"{'BW'[game.winner - 1]} won): {store.games} in the run, "
                    f"{rate:.0f} positions a minute",
                    flush=True,
                )
            else:
                progress.update(task, completed=store.games, rate=f"{rate:.0f}")

        if args.quiet:
            store = run(args.out, settings, args.games, count)
        else:
            with Progress(
                TextColumn("self-play"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[rate]} positions/min"),
                TimeElapsedColumn(),
            ) as progress:
                task = progress.add_task("games", total=args.games, completed=done, rate="-")
                store = run(args.out, settings, args.games, count)
        summary = summarise(store.folder)
    except BoardlabError as exc:
        print(f"hex_selfplay: {exc}", file=sys.stderr)
        return 2
    print(f"{args.out}: {summary.line()}")
    print(f"checksum sha256 {summary.checksum}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
