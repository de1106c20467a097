"""Interface layer: ``boardlab warm``, every game's kernels compiled once, ahead of play.

boardlab's hot loops are numba kernels, compiled on their first use and then loaded from
numba's cache on disk (:func:`boardlab.core.jit.kernel_cache_dir`). On a fresh install
(or after an upgrade, which starts a new cache folder) the first use compiles them: for
the Hex engine minutes, spent wherever the kernels are first needed (a GTP
``boardsize``, a first ``hex move`` or ``hex ioi`` game), where a GTP controller or a
contest referee timing the program may give up first. ``boardlab warm`` pays that once,
ahead of time: it loads every game's kernels (those its demo uses, ``Game.warm_up``) and
the Hex engine's for the board sizes given (each cell-set width has its own; 11x11 and
13x13 by default, the sizes of GTP play and the web page), and says how long each took
and where the cache is. Run again, it only loads them (a second or two).
"""

from __future__ import annotations

import argparse
import time

from boardlab.cli._command import Game, Verb

__all__ = ["GAME"]

#: The Hex board sizes warmed by default: GTP's and the web page's 11x11, and 13x13.
DEFAULT_HEX_SIZES = (11, 13)


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "games", nargs="*", metavar="GAME", help="only these games (default: every one)"
    )
    parser.add_argument(
        "--hex-size",
        type=int,
        action="append",
        metavar="N",
        help="a Hex board size whose engine kernels to load (repeat for several; "
        "default 11 and 13)",
    )


def _steps(names: list[str], hex_sizes: list[int]) -> list[tuple[str, Game, int | None]]:
    """``(label, game, hex size or None)`` for each load to make, in order."""
    from boardlab.cli import load_game

    steps: list[tuple[str, Game, int | None]] = []
    for name in names:
        game = load_game(name)
        if game.warm_up is None:
            continue
        steps.append((name, game, None))
        if name == "hex":
            steps.extend((f"hex {size}x{size} engine", game, size) for size in hex_sizes)
    return steps


def _run(args: argparse.Namespace) -> int:
    from boardlab.cli import played_games
    from boardlab.core.errors import BoardlabError, UnknownNameError
    from boardlab.core.jit import kernel_cache_dir
    from boardlab.hex.rules import check_size

    names = played_games()
    wanted = list(args.games) or names
    unknown = [name for name in wanted if name not in names]
    if unknown:
        raise UnknownNameError(
            f"no kernels to warm for {', '.join(unknown)} (choose from {', '.join(names)})"
        )
    hex_sizes = list(args.hex_size or DEFAULT_HEX_SIZES)
    for size in hex_sizes:
        try:
            check_size(size)
        except BoardlabError as exc:
            raise BoardlabError(f"--hex-size: {exc}") from None
    steps = _steps(wanted, hex_sizes)
    print(f"boardlab warm: loading (on a first run compiling) the kernels of {len(steps)} step(s)")
    total = 0.0
    for label, game, size in steps:
        print(f"  {label} ...", end="", flush=True)
        started = time.perf_counter()
        if size is None:
            assert game.warm_up is not None
            game.warm_up()
        else:
            from boardlab.hex.player import warm_up

            warm_up(size)
        spent = time.perf_counter() - started
        total += spent
        print(f" {spent:.1f} s", flush=True)
    print(f"done in {total:.1f} s; kernel cache: {kernel_cache_dir()}")
    return 0


_WARM = Verb("run", "load every game's kernels", _configure, _run)
GAME = Game(
    "warm", "compile (or load) every game's kernels once, ahead of timed play", (), default=_WARM
)
