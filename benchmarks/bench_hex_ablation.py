"""Benchmark: one Hex engine setting against another (self-play), to keep only what pays.

Two ``SolvingEngine`` settings play each seeded two-stone opening twice, each black once,
at equal time (``--time``, seconds a move; one process, so the two engines never think
at the same time) or equal playouts (``--playouts``, machine-independent and
reproducible). Settings are ``name=value`` lists of ``SolvingEngine`` keyword arguments.
The win rate of ``--a`` is printed with its 95 % Wilson interval; the strength claims
themselves come from ``bench_hex_mohex.py`` against MoHex.

    .venv/bin/python benchmarks/bench_hex_ablation.py --playouts 10000 --pairs 20 \\
        --a must_play=1,reuse=1 --b must_play=0,reuse=0 [--sgf DIR] [--a-scale F]

``--a-scale F`` gives A F times B's time (or playouts) a move: what more search is worth.

``--balanced N`` plays N of the openings from one black stone that MoHex 2.0 rates
between 35 % and 65 % for black (the ratings ``bench_hex_mohex.py --balanced`` keeps in
``benchmarks/results/hex-mohex/first-stones-NxN-20000.json``, or ``--stones FILE``): from
two random stones black wins both games of most openings, which pulls every score
towards one half. ``--jobs K`` plays K games at once in worker processes (for
``--playouts`` runs: each game is then on a core of its own; the games and the result
are those of one process).

``--sgf DIR`` keeps every game as HexGui SGF (``game-NN-A-black.sgf``, players named by
their settings), which ``benchmarks/verify_hex_games.py DIR`` replays.
"""

from __future__ import annotations

import argparse
import inspect
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench_hex_mohex import rated_balanced, wilson
from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import GameRecord
from boardlab.hex.player import SolvingEngine, warm_up
from boardlab.hex.rules import BLACK, WHITE, Position, color_name, move_name


def setting(text: str) -> dict[str, str]:
    """``must_play=1,reuse=0`` -> keyword arguments (as text; see :func:`engine`)."""
    found: dict[str, str] = {}
    for part in filter(None, text.split(",")):
        name, _, value = part.partition("=")
        found[name.strip()] = value.strip()
    return found


def engine(options: dict[str, str], seed: int) -> SolvingEngine:
    """An engine with ``options``: numbers, except ``patterns`` (a weights file).

    :raises BoardlabError: for a name that is no engine setting, or a value that is no
        number where one is wanted (the engine itself checks the numbers' ranges).
    """
    kinds: dict[str, type] = {
        "must_play": int,
        "reuse": int,
        "expand_threshold": int,
        "max_nodes": int,
        "solver_empties": int,
        "solver_cells": int,
        "solver_share": float,
        "knowledge_visits": int,
        "connections": int,
        "fill_in": int,
        "edge_templates": int,
        "patterns": str,
        "net_visits": int,
        "network": str,
        "threads": int,
        "shared_tree": int,
        "inferior": int,
        "light_knowledge": int,
        "reuse_visits": int,
        "hot_visits": int,
    }
    known = set(inspect.signature(SolvingEngine).parameters) - {"seed"}
    kwargs: dict[str, Any] = {}  # each value of the type ``kinds`` names
    for name, text in options.items():
        if name not in known:
            names = ", ".join(sorted(known))
            raise BoardlabError(f"no engine setting {name!r} (settings: {names})")
        try:
            kwargs[name] = kinds.get(name, float)(text)
        except ValueError:
            raise BoardlabError(f"engine setting {name}={text!r} is not a number") from None
    return SolvingEngine(seed=seed, **kwargs)


RATED = Path(__file__).resolve().parent / "results" / "hex-mohex"


def balanced_stones(path: Path, size: int) -> list[int]:
    """The cells of the first stones ``path`` (MoHex's kept ratings, see
    :func:`bench_hex_mohex.rated_balanced`) rates balanced for black.

    :raises BoardlabError: for a missing or unreadable file, or a bad cell name in it.
    """
    try:
        return [vertex_index(name, size) for name in rated_balanced(path)]
    except ParseError as exc:
        raise BoardlabError(f"{path}: {exc}") from None


@dataclass(frozen=True)
class Game:
    """One game of the match: its opening cells, A's colour and both engines' seeds."""

    number: int
    opening: tuple[int, ...]
    a_black: bool
    seed: int


@dataclass(frozen=True)
class Match:
    """What every game of the run shares."""

    size: int
    a_opts: dict[str, str]
    b_opts: dict[str, str]
    a_limit: Limit
    limit: Limit


def play(match: Match, game: Game) -> tuple[int, tuple[str, ...]]:
    """Play one game: (the winner, every move as a HexGui vertex, the opening's too)."""
    warm_up()
    a, b = engine(match.a_opts, game.seed), engine(match.b_opts, game.seed + 1)
    players = {BLACK: a if game.a_black else b, WHITE: b if game.a_black else a}
    p = Position(match.size)
    for cell in game.opening:
        p.push_index(cell)
    while p.winner is None:
        mover = players[p.to_move]
        p.push(mover.search(p, match.a_limit if mover is a else match.limit).cell)
    return p.winner, tuple(move_name(move) for move in p.history)


def public_settings(text: str) -> str:
    """A setting string as a kept game names it: a file's name without its folders
    (``network=/some/dir/NET.npz`` as ``network=NET.npz``), ``defaults`` for none, so
    that no game records the machine's paths."""
    if not text:
        return "defaults"
    parts = []
    for part in text.split(","):
        key, sep, value = part.partition("=")
        parts.append(f"{key}{sep}{Path(value).name}" if sep and "/" in value else part)
    return ",".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--time", type=float, default=0.0, help="seconds a move")
    parser.add_argument("--playouts", type=int, default=0, help="playouts a move")
    parser.add_argument("--pairs", type=int, default=20, help="openings (two games each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", default="", help="setting A, e.g. must_play=1")
    parser.add_argument("--b", default="", help="setting B, e.g. must_play=0")
    parser.add_argument("--sgf", type=Path, default=None, help="keep every game as SGF here")
    parser.add_argument(
        "--a-scale",
        type=float,
        default=1.0,
        help="A's time or playouts a move, as a multiple of B's (default 1: equal)",
    )
    parser.add_argument(
        "--balanced",
        type=int,
        default=0,
        help="openings (pairs) from one black stone MoHex rates 35-65 %% for black",
    )
    parser.add_argument(
        "--stones",
        type=Path,
        default=None,
        help="MoHex's first-stone ratings (default: the kept file for the board size)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games at once (processes)")
    args = parser.parse_args(argv)
    if args.sgf is not None:
        args.sgf.mkdir(parents=True, exist_ok=True)
    if (args.time > 0) == (args.playouts > 0):
        parser.error("give one of --time and --playouts")
    if args.a_scale <= 0:
        parser.error("--a-scale must be positive")
    limit = Limit(time=args.time) if args.time else Limit(nodes=args.playouts)
    a_limit = (
        Limit(time=args.time * args.a_scale)
        if args.time
        else Limit(nodes=max(1, round(args.playouts * args.a_scale)))
    )
    a_opts, b_opts = setting(args.a), setting(args.b)
    try:  # bad settings said in one line before any game
        engine(a_opts, 0), engine(b_opts, 0)
    except BoardlabError as exc:
        parser.error(str(exc))
    if not 0 <= args.balanced <= args.pairs:
        parser.error(f"--balanced must be 0 to {args.pairs} (the pairs), not {args.balanced}")
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    rng = random.Random(args.seed)
    n = args.size
    openings: list[tuple[int, ...]] = []
    if args.balanced:
        stones_file = args.stones or RATED / f"first-stones-{n}x{n}-20000.json"
        try:
            stones = balanced_stones(stones_file, n)
        except BoardlabError as exc:
            parser.error(str(exc))
        if len(stones) < args.balanced:
            parser.error(f"{stones_file}: only {len(stones)} first stones rated balanced")
        openings = [(cell,) for cell in rng.sample(stones, args.balanced)]
    inner = [r * n + c for r in range(1, n - 1) for c in range(1, n - 1)]
    while len(openings) < args.pairs:
        openings.append(tuple(rng.sample(inner, 2)))
    match = Match(n, a_opts, b_opts, a_limit, limit)
    schedule = [
        Game(2 * pair + (not a_black), opening, a_black, args.seed * 1000 + 2 * pair)
        for pair, opening in enumerate(openings)
        for a_black in (True, False)
    ]
    warm_up()
    wins = games = 0
    started = time.perf_counter()
    with ExitStack() as stack:
        play_all = stack.enter_context(ProcessPoolExecutor(args.jobs)).map if args.jobs > 1 else map
        results = play_all(play, [match] * len(schedule), schedule)
        for game, (winner, moves) in zip(schedule, results, strict=True):
            a_colour = BLACK if game.a_black else WHITE
            colour = color_name(a_colour)
            if args.sgf is not None:
                names = {BLACK: "", WHITE: ""}
                names[a_colour] = f"A {public_settings(args.a)}"
                names[BLACK + WHITE - a_colour] = f"B {public_settings(args.b)}"
                record = GameRecord(
                    n, names[BLACK], names[WHITE], winner, "connection",
                    f"{color_name(winner)} connected", moves, (0.0, 0.0),
                )  # fmt: skip
                path = args.sgf / f"game-{game.number:02d}-A-{colour}.sgf"
                path.write_text(format_game_sgf(record, "boardlab bench_hex_ablation"))
            games += 1
            wins += winner == a_colour
            who = "A" if winner == a_colour else "B"
            pair = game.number // 2
            print(f"  opening {pair:02d}, A {colour}: {who} wins in {len(moves)}", flush=True)
    low, high = wilson(wins, games)
    what = f"{args.time} s a move" if args.time else f"{args.playouts} playouts a move"
    if args.a_scale != 1:
        what += f", A {args.a_scale:g} times that"
    if args.balanced:
        what += f", {args.balanced} of {args.pairs} openings one balanced stone"
    print(f"\n{n}x{n}, {what}, {games} games, {time.perf_counter() - started:.0f} s")
    print(f"A ({args.a or 'defaults'}) against B ({args.b or 'defaults'})")
    print(
        f"A wins {wins}/{games} = {100 * wins / games:.1f} %  [{100 * low:.1f}, {100 * high:.1f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
