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
and where the cache is. Run again, it only loads them (a second or two). With ``--jobs N``
the loads run in N processes side by side (0: one a core): the Hex engine's, the Hex
prover's and each other game's are separate tasks, so on two cores the whole compile
takes about the engine's share instead of the sum.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

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
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="load in N processes side by side (0: one per core; default 1)",
    )


#: One task of a parallel warm-up: ``(label, game, part, hex size)`` steps run in order
#: in one process; ``part`` is "engine" or "prover" for Hex's two halves, "" for a game's
#: whole warm-up.
Task = list[tuple[str, str, str, int]]


def _tasks(names: list[str], hex_sizes: list[int]) -> list[Task]:
    """The steps of ``names`` grouped into tasks for worker processes, the longest
    first: Hex's engine (3x3 and each size, one process, since the sizes share the
    engine's kernels) and its prover apart, every other game alone."""
    from boardlab.cli import load_game

    tasks: list[Task] = []
    for name in names:
        if load_game(name).warm_up is None:
            continue
        if name == "hex":
            engine = [("hex engine", name, "engine", 3)]
            engine += [(f"hex {n}x{n} engine", name, "engine", n) for n in hex_sizes]
            tasks[:0] = [engine, [("hex prover", name, "prover", 3)]]
        else:
            tasks.append([(name, name, "", 0)])
    return tasks


def _cache_shown() -> str:
    """Where the kernels are cached: ``NUMBA_CACHE_DIR`` when set, else boardlab's folder."""
    from boardlab.core.jit import kernel_cache_dir

    return os.environ.get("NUMBA_CACHE_DIR") or str(kernel_cache_dir())


def _run_task(task: Task) -> list[tuple[str, float]]:
    """Each step of ``task`` in this process: ``(label, seconds)``."""
    from boardlab.cli import load_game
    from boardlab.hex.engine.search import warm_up as warm_up_engine
    from boardlab.hex.player import warm_up_prover

    spent: list[tuple[str, float]] = []
    for label, name, part, size in task:
        started = time.perf_counter()
        if part == "engine":
            warm_up_engine(size)
        elif part == "prover":
            warm_up_prover()
        else:
            game = load_game(name)
            assert game.warm_up is not None
            game.warm_up()
        spent.append((label, time.perf_counter() - started))
    return spent


def _run_parallel(tasks: list[Task], jobs: int) -> float:
    """``tasks`` on ``jobs`` fresh processes, each step's line printed as its task ends;
    the wall-clock seconds."""
    started = time.perf_counter()
    workers = max(1, min(jobs, len(tasks)))
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        for done in as_completed([pool.submit(_run_task, task) for task in tasks]):
            for label, seconds in done.result():
                print(f"  {label} ... {seconds:.1f} s", flush=True)
    return time.perf_counter() - started


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
    if args.jobs < 0:
        raise BoardlabError(f"--jobs must be 0 (one per core) or more, not {args.jobs}")
    jobs = args.jobs or os.cpu_count() or 1
    if jobs > 1:
        tasks = _tasks(wanted, hex_sizes)
        steps_count = sum(len(task) for task in tasks)
        print(
            f"boardlab warm: loading (on a first run compiling) the kernels of {steps_count} "
            f"step(s) in {min(jobs, len(tasks))} processes"
        )
        wall = _run_parallel(tasks, jobs)
        print(f"done in {wall:.1f} s; kernel cache: {_cache_shown()}")
        return 0
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
    print(f"done in {total:.1f} s; kernel cache: {_cache_shown()}")
    return 0


_WARM = Verb("run", "load every game's kernels", _configure, _run)
GAME = Game(
    "warm", "compile (or load) every game's kernels once, ahead of timed play", (), default=_WARM
)
