"""Benchmark: what one MCTS iteration of the Hex engine costs, setting by setting.

Middlegame positions are taken from kept games against MoHex (moves 12, 24 and 36 of
the first six games of a folder of ``benchmarks/results/hex-mohex/``); each setting
(``name=value`` keyword arguments of ``SolvingEngine``, as in ``bench_hex_ablation.py``)
searches each position for ``--iterations`` iterations, on one core, and the script
prints the microseconds an iteration. The network and the tree's connection analyses
are off in every setting unless a setting turns them on, so the figures are the tree,
the expansions and the playouts.

    .venv/bin/python benchmarks/bench_hex_iterations.py \\
        --settings expand_threshold=1 expand_threshold=4

``--parts N`` times the parts of an iteration instead (the must-play region, the
dead-cell tests and pattern scores of every empty cell, a playout), each called N times
a position inside one compiled loop.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import njit

from bench_hex_ablation import engine, setting
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.engine import kernel
from boardlab.hex.engine.kernel import F64, I8, I32
from boardlab.hex.engine.mustplay import must_play
from boardlab.hex.engine.search import pattern_weights, tables
from boardlab.hex.formats import parse_sgf
from boardlab.hex.player import warm_up
from boardlab.hex.rules import Position

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "benchmarks" / "results" / "hex-mohex" / "20261127-134218-11x11"
BASE = {"net_visits": "0", "knowledge_visits": str(10**9), "reuse": "0"}


def positions(folder: Path) -> list[Position]:
    """Moves 12, 24 and 36 of the first six games in ``folder`` (when the game is longer)."""
    found = []
    for path in sorted(folder.glob("*.sgf"))[:6]:
        game = parse_sgf(path.read_text(), str(path))
        moves = list(game.history)
        found += [
            Position.from_moves(game.size, moves[:k]) for k in (12, 24, 36) if k < len(moves) - 4
        ]
    return found


@njit(cache=False)
def _must_play_loop(
    board: I8, n: int, me: int, nbr: I32, links: I32, nlinks: I32, repeats: int
) -> None:
    cells = n * n
    allowed, work, used = (
        np.zeros(cells, np.int8),
        np.zeros(cells + 4, np.int32),
        np.zeros(cells, np.int32),
    )
    for _ in range(repeats):
        must_play(board, n, me, nbr, links, nlinks, allowed, work, used)


@njit(cache=False)
def _dead_cells_loop(board: I8, n: int, repeats: int) -> None:
    marks = np.zeros(n * n, np.int8)
    for _ in range(repeats):
        kernel.dead_cells(board, n, marks)


@njit(cache=False)
def _pattern_loop(
    board: I8, n: int, me: int, last: int, weights: F64, canon: I32, squares: I32, repeats: int
) -> None:
    empty = np.flatnonzero(board == 0).astype(np.int32)
    scored = np.zeros(n * n)
    for _ in range(repeats):
        kernel._pattern_prior(board, n, me, last, empty, weights, canon, squares, scored)


@njit(cache=False)
def _playout_loop(
    board: I8, n: int, me: int, last: int, nbr: I32, bridges: I32, nbridge: I32, repeats: int
) -> None:
    cells = n * n
    copy = board.copy()
    empties, where, stack = (
        np.zeros(cells, np.int32),
        np.zeros(cells, np.int32),
        np.zeros(cells, np.int32),
    )
    seen = np.zeros(cells, np.int8)
    state = np.array([12345], np.uint64)
    for _ in range(repeats):
        copy[:] = board
        kernel.playout(copy, n, me, last, nbr, bridges, nbridge, empties, where, state, stack, seen)


def parts(found: list[Position], repeats: int) -> None:
    """Print what the parts of an iteration cost on ``found``, looped inside numba: an
    expansion's must-play region, the dead-cell tests and the pattern scores of every
    empty cell, and a playout from the position, ``repeats`` times a position."""
    weights, canon = pattern_weights()

    def run(p: Position, name: str, times: int) -> None:
        n, me, last = p.size, p.to_move, p.indices[-1]
        tab, board = tables(n), np.array(p.board, np.int8)
        if name == "must-play region":
            _must_play_loop(board, n, me, tab.nbr, tab.links, tab.nlinks, times)
        elif name == "dead-cell tests":
            _dead_cells_loop(board, n, times)
        elif name == "pattern scores":
            _pattern_loop(board, n, me, last, weights, canon, tab.squares, times)
        else:
            _playout_loop(board, n, me, last, tab.nbr, tab.bridges, tab.nbridge, times)

    for name in ("must-play region", "dead-cell tests", "pattern scores", "playout"):
        run(found[0], name, 1)  # compiled before the clock starts
        began = time.perf_counter()
        for p in found:
            run(p, name, repeats)
        spent = time.perf_counter() - began
        print(f"  {name:30s} {spent / (len(found) * repeats) * 1e6:6.2f} us a call")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=GAMES, help="a folder of kept games")
    parser.add_argument("--iterations", type=int, default=10_000, help="a position")
    parser.add_argument(
        "--settings", nargs="+", default=["expand_threshold=1", "expand_threshold=4"]
    )
    parser.add_argument(
        "--parts", type=int, default=0, metavar="N", help="time the parts, N calls a position"
    )
    args = parser.parse_args(argv)
    found = positions(args.games)
    if not found:
        print(f"bench_hex_iterations: no games in {args.games}", file=sys.stderr)
        return 2
    if args.parts > 0:
        print(f"{len(found)} positions from {args.games.name}, {args.parts} calls each")
        parts(found, args.parts)
        return 0
    try:
        players = [engine({**BASE, **setting(text)}, 1) for text in args.settings]
    except (TypeError, ValueError, BoardlabError) as error:
        print(f"bench_hex_iterations: bad --settings: {error}", file=sys.stderr)
        return 2
    warm_up()
    print(f"{len(found)} positions from {args.games.name}, {args.iterations} iterations each")
    for text, player in zip(args.settings, players, strict=True):
        began = time.perf_counter()
        total = sum(player.search(p, Limit(nodes=args.iterations)).playouts for p in found)
        spent = time.perf_counter() - began
        print(f"  {text:30s} {spent / total * 1e6:6.1f} us an iteration ({total} iterations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
