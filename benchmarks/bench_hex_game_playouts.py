"""Benchmark: the playouts the Hex engine runs a move in whole games, setting by setting.

A search in a game is not a search of a fresh position: the engine keeps the subtree of
its last search (copied under the new root), and its tree grows from move to move. This
script replays the first ``--games`` kept games of a folder (SGF, as the matches keep
them) move by move; for each setting (``name=value`` keyword arguments of
``SolvingEngine``, as in ``bench_hex_ablation.py``) two engines of that setting, one a
colour, search every position at ``--time`` seconds as in a match (each keeps its tree
from its own last search), and the recorded move is played whatever they chose, so
every setting sees the same positions. It prints, setting by setting, the playouts a
searched move (mean and median), the CPU seconds a move (all threads), the CPU
microseconds a playout, and the time of the move spent outside the tree growth (the
root's checks, the copy of the kept tree).

    .venv/bin/python benchmarks/bench_hex_game_playouts.py --time 1 \\
        --settings threads=1 threads=2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from bench_hex_ablation import engine, setting
from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.limits import Limit
from boardlab.hex.engine import search as _search
from boardlab.hex.formats import parse_sgf
from boardlab.hex.player import warm_up
from boardlab.hex.rules import Move, Position

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "benchmarks" / "results" / "hex-mohex" / "20261206-204526-11x11"


def games(folder: Path, count: int) -> list[tuple[int, list[Move]]]:
    """The board size and moves of the first ``count`` games (SGF) in ``folder``.

    :raises BoardlabError: for a game that cannot be read.
    """
    found = []
    for path in sorted(folder.glob("*.sgf"))[:count]:
        try:
            game = parse_sgf(path.read_text(), str(path))
        except (OSError, ParseError) as exc:
            raise BoardlabError(f"{path}: {exc}") from None
        found.append((game.size, list(game.history)))
    return found


def replay(
    options: dict[str, str], size: int, moves: list[Move], seconds: float
) -> list[tuple[int, float, float]]:
    """(playouts, CPU seconds, seconds outside the tree growth) of each searched move
    of one game, two engines of ``options`` playing its recorded moves."""
    grown = [0.0]
    names = vars(_search)  # the search module's own names: its ``grow`` is timed
    real_grow = names["grow"]

    def timed_grow(*args: object, **kwargs: object) -> int:
        started = time.perf_counter()
        try:
            return int(real_grow(*args, **kwargs))
        finally:
            if threading.current_thread() is threading.main_thread():
                grown[0] += time.perf_counter() - started

    players = [engine(options, 1), engine(options, 2)]
    rows = []
    p = Position(size)
    names["grow"] = timed_grow
    try:
        for number, cell in enumerate(moves):
            if p.winner is not None:
                break
            grown[0] = 0.0
            wall0, cpu0 = time.perf_counter(), time.process_time()
            result = players[number % 2].search(p, Limit(time=seconds))
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
            if result.playouts > 0 and result.verdict == 0:
                # the helper threads' growth overlaps the calling thread's: it alone counts
                rows.append((result.playouts, cpu, max(0.0, wall - grown[0])))
            p.play(cell)
    finally:
        names["grow"] = real_grow
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="the first N games of the folder")
    parser.add_argument("--folder", type=Path, default=GAMES, help="a folder of kept games")
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move")
    parser.add_argument("--settings", nargs="+", default=["threads=1"], help="name=value,...")
    args = parser.parse_args(argv)
    try:
        found = games(args.folder, args.games)
        settings = [setting(text) for text in args.settings]
        for options in settings:
            engine(options, 1)
    except BoardlabError as exc:
        print(f"bench_hex_game_playouts: {exc}", file=sys.stderr)
        return 2
    if not found:
        print(f"bench_hex_game_playouts: no games in {args.folder}", file=sys.stderr)
        return 2
    warm_up()
    print(f"{len(found)} games from {args.folder.name}, {args.time} s a move")
    base = 0.0
    for text, options in zip(args.settings, settings, strict=True):
        rows = [row for size, moves in found for row in replay(options, size, moves, args.time)]
        if not rows:
            print(f"  {text:28s} no move searched (every one proven or forced)", flush=True)
            continue
        playouts = [row[0] for row in rows]
        mean = statistics.fmean(playouts)
        cpu = sum(row[1] for row in rows)
        outside = statistics.fmean(row[2] for row in rows)
        base = base or mean
        print(
            f"  {text:28s} {mean:8.0f} playouts a move (median {statistics.median(playouts):.0f}, "
            f"{mean / base:.2f}x the first)  {cpu / len(rows):.2f} CPU s a move  "
            f"{cpu / sum(playouts) * 1e6:5.1f} CPU us a playout  "
            f"{outside * 1000:5.1f} ms outside the growth  ({len(rows)} moves)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
