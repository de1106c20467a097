"""Interface layer: ``boardlab demo``, every finished game on its built-in data."""

from __future__ import annotations

import argparse
import time

from boardlab.cli._command import Game, Verb

__all__ = ["GAME"]


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help="only these games (default: every finished one)"
    )


def _run(args: argparse.Namespace) -> int:
    from boardlab.cli import available_games, load_game

    names = [name for name in available_games() if name not in ("demo", "serve")]
    wanted = list(args.games) or names
    unknown = [name for name in wanted if name not in names]
    if unknown:
        from boardlab.core.errors import UnknownNameError

        raise UnknownNameError(f"no demo for {', '.join(unknown)} (choose from {', '.join(names)})")
    print("boardlab demo: every finished game on its built-in data\n")
    shown = 0
    for name in wanted:
        game = load_game(name)
        if game.demo is None:
            continue
        started = time.perf_counter()
        lines = game.demo()
        elapsed = time.perf_counter() - started
        print(f"== {name}: {game.help}  [{elapsed:.2f} s]")
        for line in lines:
            print(f"   {line}")
        print()
        shown += 1
    print(f"{shown} game(s) shown.")
    return 0


_DEMO = Verb("run", "run the demo", _configure, _run)
GAME = Game("demo", "run every finished game on its built-in data", (), default=_DEMO)
