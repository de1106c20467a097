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
from pathlib import Path

from bench_hex_mohex import wilson
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import GameRecord
from boardlab.hex.player import SolvingEngine, warm_up
from boardlab.hex.rules import BLACK, WHITE, Position, color_name


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
    }
    known = set(inspect.signature(SolvingEngine).parameters) - {"seed"}
    kwargs: dict[str, object] = {}
    for name, text in options.items():
        if name not in known:
            names = ", ".join(sorted(known))
            raise BoardlabError(f"no engine setting {name!r} (settings: {names})")
        try:
            kwargs[name] = kinds.get(name, float)(text)
        except ValueError:
            raise BoardlabError(f"engine setting {name}={text!r} is not a number") from None
    return SolvingEngine(seed=seed, **kwargs)


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
    rng = random.Random(args.seed)
    n = args.size
    inner = [r * n + c for r in range(1, n - 1) for c in range(1, n - 1)]
    warm_up()
    wins = games = 0
    started = time.perf_counter()
    for pair in range(args.pairs):
        opening = rng.sample(inner, 2)
        for a_black in (True, False):
            seed = args.seed * 1000 + 2 * pair
            a, b = engine(a_opts, seed), engine(b_opts, seed + 1)
            players = {BLACK: a if a_black else b, WHITE: b if a_black else a}
            p = Position(n)
            for cell in opening:
                p.push_index(cell)
            while p.winner is None:
                mover = players[p.to_move]
                p.push(mover.search(p, a_limit if mover is a else limit).cell)
            a_colour = BLACK if a_black else WHITE
            colour = color_name(a_colour)
            if args.sgf is not None:
                names = {BLACK: "", WHITE: ""}
                names[a_colour] = f"A {args.a or 'defaults'}"
                names[BLACK + WHITE - a_colour] = f"B {args.b or 'defaults'}"
                record = GameRecord(
                    n, names[BLACK], names[WHITE], p.winner, "connection",
                    f"{color_name(p.winner)} connected",
                    tuple(cell.vertex() for cell in p.history), (0.0, 0.0),
                )  # fmt: skip
                path = args.sgf / f"game-{2 * pair + (not a_black):02d}-A-{colour}.sgf"
                path.write_text(format_game_sgf(record, "boardlab bench_hex_ablation"))
            games += 1
            wins += p.winner == a_colour
            who = "A" if p.winner == a_colour else "B"
            print(f"  opening {pair:02d}, A {colour}: {who} wins in {len(p.history)}", flush=True)
    low, high = wilson(wins, games)
    what = f"{args.time} s a move" if args.time else f"{args.playouts} playouts a move"
    if args.a_scale != 1:
        what += f", A {args.a_scale:g} times that"
    print(f"\n{n}x{n}, {what}, {games} games, {time.perf_counter() - started:.0f} s")
    print(f"A ({args.a or 'defaults'}) against B ({args.b or 'defaults'})")
    print(
        f"A wins {wins}/{games} = {100 * wins / games:.1f} %  [{100 * low:.1f}, {100 * high:.1f}]"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
