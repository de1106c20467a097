"""Interface layer: ``boardlab demo``, every finished game on its built-in data.

Each game's kernels are loaded first (compiled, on a fresh install: ``Game.warm_up``),
so the time a demo shows and the time limits of its solvers go to the work itself.
"""

from __future__ import annotations

import argparse
import time

from boardlab.cli._command import Game, Verb

__all__ = ["GAME"]

#: Kernels loaded in less than this many seconds (from numba's cache) go unmentioned.
_NOTED_LOAD = 0.5


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help="only these games (default: every finished one)"
    )


def _run(args: argparse.Namespace) -> int:
    from boardlab.cli import load_game, played_games

    names = played_games()
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
        if game.warm_up is not None:
            game.warm_up()
        loaded = time.perf_counter() - started
        started = time.perf_counter()
        lines = game.demo()
        elapsed = time.perf_counter() - started
        note = f", after {loaded:.2f} s loading its kernels" if loaded >= _NOTED_LOAD else ""
        print(f"== {name}: {game.help}  [{elapsed:.2f} s{note}]")
        for line in lines:
            print(f"   {line}")
        print()
        shown += 1
    print(f"{shown} game(s) shown.")
    return 0


_DEMO = Verb("run", "run the demo", _configure, _run)
GAME = Game("demo", "run every finished game on its built-in data", (), default=_DEMO)
