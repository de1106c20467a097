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
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench_hex_ablation import engine, setting
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, default=GAMES, help="a folder of kept games")
    parser.add_argument("--iterations", type=int, default=10_000, help="a position")
    parser.add_argument(
        "--settings", nargs="+", default=["expand_threshold=1", "expand_threshold=4"]
    )
    args = parser.parse_args(argv)
    found = positions(args.games)
    if not found:
        print(f"bench_hex_iterations: no games in {args.games}", file=sys.stderr)
        return 2
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
