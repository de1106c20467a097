"""Benchmark: boardlab's Hex engine against MoHex 2.0 (Benzene), refereed move by move.

MoHex is not a Python package: build it outside the repository from its public source
(``cgao3/benzene-vanilla-cmake``: ``apt-get install -y libboost-all-dev libdb-dev
libdb++-dev cmake g++``, then ``cmake .. && make -j2 mohex`` in a build folder) and
give its path with ``--mohex PATH`` or ``$MOHEX``. Without it the script says so and
exits 2.

Two measures, both colour-balanced (each opening played twice, each engine black once):

- ``--ladder 100,300,1000,3000,10000``: MoHex limited to that many playouts a move
  (``param_mohex max_games``, ``max_time`` large) against boardlab at ``--time`` seconds
  a move; the budget at which boardlab scores 50 % is interpolated on a log scale.
- ``--match``: equal time, both engines ``--time`` seconds a move; with ``--threads k``
  both search with ``k`` threads (boardlab's shared tree, MoHex's ``num_threads``);
  the ladder always runs one thread each. MoHex's ``max_time`` bounds
  its search, not its move: at ``max_time 1`` it takes about 1.5 s of wall time a move
  here (its root analysis, and searches that run on past the limit), so every game line
  and the table give each side's mean wall seconds a searched move as the referee timed
  it, and ``--mohex-time`` sets MoHex's ``max_time`` apart from boardlab's ``--time``.
- ``--empty-black``: boardlab black from the empty board against MoHex at equal time,
  boardlab's seed varied from game to game.

Every game is refereed by :func:`boardlab.hex.judge.play_game` (it checks every move)
and written as HexGui SGF under ``--out`` with its true result and how it was decided.
A game ends by a connection, a genuine ``= resign``, or a proof: when a player fails
(MoHex refuses ``genmove`` in positions it has already won, and sometimes dies in
positions it has lost), MoHex's ``dfpn-solve-state`` in a fresh process decides the
position, confirmed by boardlab's own solver where that finishes in ``--check``
seconds; without a proof the game is void and counted apart. ``summary.json`` counts
connections, resignations, proofs and voids apart. ``benchmarks/verify_hex_games.py``
re-checks every kept game. Run from the repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_mohex.py --ladder 100,300 --games 10

``--combine RUN/summary.json ...`` prints several runs' games together (no MoHex needed).
``--part I/K`` plays the I-th of K shares of the openings (the openings numbered
I-1, I-1+K, ...; each game with the opening, name and seed it has in the whole run), and
of ``--empty-black``'s games the same way, so that one sample can be played by K
processes, one a processor, and combined.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import Player, Prover, play_game
from boardlab.hex.match import EnginePlayer, SolverProver
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import BLACK, WHITE, Cell
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import (
    MOHEX_ABSENT,
    UNBOUNDED_TIME,
    CheckedProver,
    MohexPlayer,
    MohexProver,
    mohex_binary,
    mohex_settings,
    start_mohex,
)

#: The searched moves a side, from a game's start, whose time is also averaged apart: the
#: open middle game, before either program has proven the result and moves at once.
EARLY_MOVES = 15
#: The two programs of a match, as the timings name them.
SIDES = ("boardlab", "mohex")
#: The score the ladder looks for.
EVEN = 0.5
#: z for a two-sided 95 % interval.
Z95 = 1.959964
#: Seconds MoHex's DFPN may take to decide a game a player failed in.
SOLVE_SECONDS = 120.0


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win rate (draws cannot happen in Hex)."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + Z95**2 / games
    centre = (rate + Z95**2 / (2 * games)) / denominator
    half = Z95 * math.sqrt(rate * (1 - rate) / games + Z95**2 / (4 * games**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def ladder_point(rates: Sequence[tuple[int, float]]) -> str:
    """The MoHex budget at which boardlab scores 50 %, interpolated on log(budget).

    >>> ladder_point([(100, 0.8), (300, 0.6), (1000, 0.2)])
    '~469 playouts'
    >>> ladder_point([(100, 0.3)])
    'below 100 playouts'
    """
    ordered = sorted(rates)
    if not ordered:
        return "no games"
    if ordered[0][1] < EVEN:
        return f"below {ordered[0][0]} playouts"
    for (low, low_rate), (high, high_rate) in itertools.pairwise(ordered):
        if low_rate >= EVEN > high_rate:
            share = (low_rate - EVEN) / (low_rate - high_rate)
            value = math.exp(math.log(low) + share * (math.log(high) - math.log(low)))
            return f"~{value:.0f} playouts"
    return f"at least {ordered[-1][0]} playouts"


class Forced:
    """A player that plays the given opening moves itself before thinking."""

    def __init__(self, player: Player, opening: Sequence[str]) -> None:
        self.player = player
        self.name = player.name
        self.opening = list(opening)
        self.ply = 0

    def new_game(self, size: int) -> None:
        self.ply = 0
        self.player.new_game(size)

    def play(self, color: int, vertex: str) -> None:
        self.ply += 1
        self.player.play(color, vertex)

    def genmove(self, color: int, seconds: float) -> str:
        self.ply += 1
        if self.ply <= len(self.opening):
            move = self.opening[self.ply - 1]
            self.player.play(color, move)
            return move
        return self.player.genmove(color, seconds)

    def close(self) -> None:
        self.player.close()


def first_stone_rates(binary: str, size: int, playouts: int) -> dict[str, float]:
    """Black's winning chance after each first stone of the empty board, as MoHex rates
    it: a ``reg_genmove white`` of ``playouts`` playouts, then ``mohex-values`` (white's
    value of each reply; black's chance is one less the value of the most visited
    reply, 0 or 1 where MoHex proves it; a stone MoHex decides without a search is left
    out, being no balanced opening). A stone and its half turn are rated once."""
    folder = tempfile.mkdtemp(prefix="boardlab-mohex-")
    try:
        return _rates(start_mohex(binary, folder, mohex_settings(UNBOUNDED_TIME, playouts)), size)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rates(process: GtpProcess, size: int) -> dict[str, float]:
    """:func:`first_stone_rates` asked of a running MoHex (closed at the end)."""
    rates: dict[str, float] = {}
    try:
        for row in range(size):
            for col in range(size):
                vertex = str(Cell(row, col))
                turned = str(Cell(size - 1 - row, size - 1 - col))
                if turned in rates:
                    rates[vertex] = rates[turned]
                    continue
                process.new_game(size)
                process.play(BLACK, vertex)
                reply = process.command("reg_genmove white", UNBOUNDED_TIME).strip().lower()
                if reply == "resign":
                    rates[vertex] = 1.0
                    continue
                try:
                    chance = white_chance(process.command("mohex-values"))
                except ProtocolError:  # no search: MoHex's connections decided it
                    continue
                if chance is not None:
                    rates[vertex] = 1.0 - chance
    finally:
        process.close()
    return rates


def white_chance(values: str) -> float | None:
    """White's chance in a ``mohex-values`` answer (``cell .523@1k``: the value in
    thousandths after the point, MoHex's rounded count after ``@``; ``W@n`` a proven
    win, ``L@n`` a proven loss, ``0`` unvisited): a proven win, else the value of the
    most visited reply; None when nothing was searched."""
    best: tuple[float, float] | None = None
    for value in values.lower().split()[1::2]:
        if value.startswith("w@"):
            return 1.0
        if not value.startswith("."):
            continue
        mean, _, count = value.partition("@")
        scale = {"k": 1e3, "m": 1e6}.get(count[-1:], 1.0)
        visits = float(count.rstrip("km")) * scale
        if best is None or visits > best[0]:
            best = (visits, int(mean[1:]) / 1000)
    return None if best is None else best[1]


#: The first stones of a balanced opening: MoHex rates them between these for black.
BALANCED = (0.35, 0.65)


def balanced_stones(binary: str, size: int, playouts: int, cache: Path) -> list[str]:
    """The first stones MoHex rates :data:`BALANCED` for black (rated once and kept in
    ``cache``, a JSON file of every stone's rate)."""
    if not cache.exists():
        print(f"rating every first stone with MoHex at {playouts} playouts", flush=True)
        rates = first_stone_rates(binary, size, playouts)
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(rates, indent=1) + "\n")
    return rated_balanced(cache)


def rated_balanced(cache: Path) -> list[str]:
    """The stones (HexGui names, in name order) a kept rating file rates
    :data:`BALANCED` for black.

    :raises BoardlabError: for a missing or unreadable file, or a rating that is no number.
    """
    try:
        rates = json.loads(cache.read_text())
    except (OSError, ValueError) as exc:
        raise BoardlabError(f"{cache}: no first-stone ratings ({exc})") from None
    if not isinstance(rates, dict):
        raise BoardlabError(f"{cache}: not an object of first-stone ratings")
    for name, rate in rates.items():
        if not isinstance(rate, (int, float)):
            raise BoardlabError(f"{cache}: the rating of {name!r} is not a number")
    return sorted(v for v, rate in rates.items() if BALANCED[0] <= rate <= BALANCED[1])


def openings(size: int, count: int, rng: random.Random) -> list[list[str]]:
    """``count`` different two-move openings: a black and a white stone away from the edges."""
    inner = [Cell(row, col) for row in range(1, size - 1) for col in range(1, size - 1)]
    found: list[list[str]] = []
    while len(found) < count:
        first, second = rng.sample(inner, 2)
        pair = [str(first), str(second)]
        if pair not in found:
            found.append(pair)
    return found


@dataclass
class Tally:
    """Games of one setting: boardlab's wins over the decided games, how each was
    decided, and the void ones (by file name) apart."""

    label: str
    wins: int = 0
    games: int = 0
    decided: dict[str, int] = field(
        default_factory=lambda: {"connection": 0, "resignation": 0, "proof": 0}
    )
    void: list[str] = field(default_factory=list)
    budget: int | None = None  # MoHex's playouts a move on a ladder step
    #: each game's file name (``game``) and each side's wall seconds a searched move, in
    #: order (``boardlab``, ``mohex``); every time figure of the setting is derived from it
    timings: list[dict[str, Any]] = field(default_factory=list)
    on_save: Callable[[], None] | None = None

    def saved(self) -> None:
        """Tell the run a game was scored (it rewrites its summary)."""
        if self.on_save is not None:
            self.on_save()

    def add(self, winner: int | None, decided_by: str | None, ours: int, name: str) -> str:
        """Score game ``name`` (``winner`` None: void; ``decided_by`` a kind of
        :attr:`decided`, else not counted by kind); returns the winner's name."""
        if winner is None:
            self.void.append(name)
            return "nobody (void)"
        self.games += 1
        self.wins += winner == ours
        if decided_by in self.decided:
            self.decided[decided_by] += 1
        return "boardlab" if winner == ours else "mohex"

    def add_timing(self, game: str, boardlab: Sequence[float], mohex: Sequence[float]) -> None:
        """Keep game ``game``'s searched moves of each side, each move's wall seconds as
        the referee measured them, in order."""
        self.timings.append({"game": game, "boardlab": list(boardlab), "mohex": list(mohex)})

    def per_move(self, side: str, early: bool = False) -> float:
        """``side``'s mean wall seconds a searched move (0 before any); ``early``: over
        each game's first :data:`EARLY_MOVES` searched moves of that side."""
        took = [t for g in self.timings for t in (g[side][:EARLY_MOVES] if early else g[side])]
        return sum(took) / len(took) if took else 0.0

    def timing(self) -> str:
        """Each side's mean seconds a move, over whole games and their first moves."""
        return ", ".join(
            f"{side} {self.per_move(side):.2f} s (first {EARLY_MOVES}: "
            f"{self.per_move(side, early=True):.2f} s)"
            for side in SIDES
        )

    def as_dict(self) -> dict[str, object]:
        """The setting's counts as ``summary.json`` keeps them."""
        return {
            "label": self.label,
            "wins": self.wins,
            "games": self.games,
            "connections": self.decided["connection"],
            "resignations": self.decided["resignation"],
            "proofs": self.decided["proof"],
            "void": self.void,
            "seconds_a_move": {side: round(self.per_move(side), 3) for side in SIDES},
            "seconds_a_move_first": {
                side: round(self.per_move(side, early=True), 3) for side in SIDES
            },
            "timings": [
                {"game": g["game"], **{side: [round(t, 3) for t in g[side]] for side in SIDES}}
                for g in self.timings
            ],
        }

    def line(self) -> str:
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        how = ", ".join(f"{count} {kind}" for kind, count in self.decided.items() if count)
        void = f"; {len(self.void)} void" if self.void else ""
        timed = f"; a move: {self.timing()}" if any(g["boardlab"] for g in self.timings) else ""
        return (
            f"{self.label:<28} {self.wins:>3}/{self.games:<3} {100 * rate:5.1f} %"
            f"  [{100 * low:5.1f}, {100 * high:5.1f}]  ({how}{void}{timed})"
        )


def engine(options: dict[str, str], seed: int) -> SolvingEngine:
    """boardlab's engine with ``options`` (``bench_hex_ablation.engine``, imported here:
    that script imports this one).

    :raises BoardlabError: for a setting the engine does not have or a bad value.
    """
    from bench_hex_ablation import engine as make_engine

    return make_engine(options, seed)


def play_series(
    label: str,
    mohex: MohexPlayer,
    args: argparse.Namespace,
    pairs: list[list[str]],
    out: Path,
    tally: Tally,
    prover: Prover,
) -> Tally:
    """Each opening twice, boardlab black once; every game kept as SGF."""
    for number, opening in enumerate(pairs):
        if not in_part(number, args.part):
            continue
        for ours_black in (True, False):
            seed = args.seed + 2 * number + (0 if ours_black else 1)
            options = {"threads": str(mohex.threads), **args.options}
            ours = EnginePlayer(engine(options, seed), name="boardlab")
            # Each forced move is played by the side whose turn it is.
            black = Forced(ours if ours_black else mohex, opening[:1])
            white = Forced(mohex if ours_black else ours, opening[1:])
            started = time.perf_counter()
            record = play_game(black, white, args.size, args.time, prover)
            name = f"{label.replace(' ', '-')}-{number:02d}-{'b' if ours_black else 'w'}.sgf"
            (out / name).write_text(format_game_sgf(record, "boardlab-bench"))
            ours_color = BLACK if ours_black else WHITE
            winner = tally.add(record.winner, record.decided_by, ours_color, name)
            seconds = time.perf_counter() - started
            game = Tally(name)
            for kept in (tally, game):
                kept.add_timing(
                    name,
                    searched_seconds(record.move_seconds, ours_color, len(opening)),
                    searched_seconds(record.move_seconds, 3 - ours_color, len(opening)),
                )
            tally.saved()
            print(
                f"  {name}: {winner} wins ({record.reason}, {len(record.moves)} moves,"
                f" {seconds:.0f} s; a move: {game.timing()})",
                flush=True,
            )
    return tally


def searched_seconds(move_seconds: Sequence[float], color: int, forced: int) -> list[float]:
    """The wall seconds of the moves ``color`` (black 1, white 2) searched, in order, from
    a game's seconds a move (black's first) whose first ``forced`` moves were the
    opening's (played without a search)."""
    first = 0 if color == BLACK else 1
    return [t for i, t in enumerate(move_seconds) if i % 2 == first and i >= forced]


def empty_black(
    mohex: MohexPlayer, args: argparse.Namespace, out: Path, tally: Tally, prover: Prover
) -> Tally:
    """boardlab black from the empty board, its seed varied from game to game."""
    for number in range(args.games):
        if not in_part(number, args.part):
            continue
        ours = EnginePlayer(engine(args.options, args.seed + number), name="boardlab")
        record = play_game(ours, mohex, args.size, args.time, prover)
        name = f"empty-black-{number:02d}.sgf"
        (out / name).write_text(format_game_sgf(record, "boardlab-bench"))
        winner = tally.add(record.winner, record.decided_by, BLACK, name)
        tally.saved()
        print(f"  {name}: {winner} wins ({record.reason}, {len(record.moves)} moves)", flush=True)
    return tally


def report(tallies: list[Tally], rates: list[tuple[int, float]], size: int, seconds: float) -> None:
    """Print the win rates with their intervals and the ladder point."""
    print(f"\n{size}x{size}, boardlab {seconds} s a move; win rate with 95 % interval")
    for tally in tallies:
        print(tally.line())
    if rates:
        print(f"ladder point (boardlab scores 50 %): {ladder_point(rates)}")


def combine(paths: Sequence[Path]) -> int:
    """The table and ladder of several runs' ``summary.json`` together (same settings)."""
    tallies: dict[str, Tally] = {}
    budgets: dict[str, int] = {}
    size, seconds = 0, 0.0
    for path in paths:
        data = json.loads(path.read_text())
        size, seconds = data["size"], data["time"]
        for entry in data["settings"]:
            tally = tallies.setdefault(entry["label"], Tally(entry["label"]))
            tally.wins += entry["wins"]
            tally.games += entry["games"]
            for kind in ("connection", "resignation", "proof"):
                tally.decided[kind] += entry.get(kind + "s", 0)
            tally.void.extend(entry.get("void", []))
            for game in entry.get("timings", []):
                tally.add_timing(game["game"], game["boardlab"], game["mohex"])
            words = entry["label"].split()
            if words[0] == "mohex" and words[-1] == "playouts":
                budgets[entry["label"]] = int(words[1])
    rates = [
        (budgets[label], tally.wins / tally.games)
        for label, tally in tallies.items()
        if label in budgets and tally.games
    ]
    ordered = sorted(tallies.values(), key=lambda t: budgets.get(t.label, 1 << 62))
    report(ordered, rates, size, seconds)
    return 0


def part_of(text: str) -> tuple[int, int]:
    """``(i, k)``, the share ``i`` counted from 0, for ``--part I/K``.

    :raises argparse.ArgumentTypeError: for anything but ``I/K`` with 1 <= I <= K.
    """
    first, slash, second = text.partition("/")
    if slash and first.strip().isdigit() and second.strip().isdigit():
        share, shares = int(first), int(second)
        if 1 <= share <= shares:
            return share - 1, shares
    raise argparse.ArgumentTypeError(f"expected I/K with 1 <= I <= K, not {text!r}")


def in_part(number: int, part: tuple[int, int]) -> bool:
    """Is opening (or empty-board game) ``number`` in ``part``, ``(i, k)`` of
    :func:`part_of`: every k-th from the i-th, counted from 0?"""
    share, shares = part
    return number % shares == share


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (default 1)")
    parser.add_argument(
        "--mohex-time",
        type=float,
        default=None,
        help="MoHex's max_time a move in the match (default: --time). MoHex overruns it: at "
        "max_time 1 it takes about 1.5 s of wall time a move on 11x11 and 13x13, so equal "
        "wall time wants boardlab's --time at MoHex's measured time (each side's mean is "
        "printed)",
    )
    parser.add_argument("--games", type=int, default=20, help="games per setting (even)")
    parser.add_argument("--ladder", default="", help="MoHex playout budgets, e.g. 100,300,1000")
    parser.add_argument("--match", action="store_true", help="equal-time match")
    parser.add_argument("--empty-black", action="store_true", help="boardlab black, empty board")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads for both programs in the equal-time match (default 1)",
    )
    parser.add_argument(
        "--check",
        type=float,
        default=10.0,
        help="seconds boardlab's solver may take to confirm MoHex's proof (default 10)",
    )
    parser.add_argument(
        "--balanced",
        type=int,
        default=0,
        help="openings (pairs of games) from one black stone MoHex rates 35-65 %% for black",
    )
    parser.add_argument(
        "--rate-playouts",
        type=int,
        default=20000,
        help="MoHex's playouts a first stone when rating them (default 20000; kept in --out)",
    )
    parser.add_argument(
        "--setting",
        default="",
        help="boardlab's engine settings, e.g. network=NET.npz (see bench_hex_ablation.py)",
    )
    parser.add_argument(
        "--part",
        type=part_of,
        default=(0, 1),
        metavar="I/K",
        help="play the I-th of K shares of the openings and of the empty-board games "
        "(every K-th from the I-th), each game as in the whole run; --combine the K runs "
        "(default 1/1)",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/hex-mohex"))
    parser.add_argument(
        "--combine",
        nargs="+",
        type=Path,
        metavar="SUMMARY",
        help="print the table and ladder of earlier runs' summary.json files together",
    )
    args = parser.parse_args(argv)
    if args.mohex_time is None:
        args.mohex_time = args.time
    if min(args.time, args.mohex_time) <= 0:
        parser.error(
            f"--time and --mohex-time must be positive, not {args.time} and {args.mohex_time}"
        )
    if args.threads < 1:
        parser.error(f"--threads must be at least 1, not {args.threads}")
    count = max(1, args.games // 2)  # the openings, each played twice
    if not 0 <= args.balanced <= count:
        parser.error(f"--balanced must be 0 to {count} (the openings), not {args.balanced}")
    if args.combine:
        return combine(args.combine)
    from bench_hex_ablation import setting

    args.options = setting(args.setting)
    try:  # bad settings said in one line before anything runs
        engine(args.options, 0)
    except BoardlabError as exc:
        parser.error(str(exc))
    args.mohex = mohex_binary(args.mohex)
    if args.mohex is None:
        print(f"bench_hex_mohex: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    stamp = time.strftime("%Y%m%d-%H%M%S")
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"{stamp}-{args.size}x{args.size}"
    for again in itertools.count(2):  # two runs started in the same second keep apart
        try:
            out.mkdir()
            break
        except FileExistsError:
            out = args.out / f"{stamp}-{args.size}x{args.size}-{again}"
    rng = random.Random(args.seed)
    pairs: list[list[str]] = []
    if args.balanced:
        cache = args.out / f"first-stones-{args.size}x{args.size}-{args.rate_playouts}.json"
        try:
            stones = balanced_stones(args.mohex, args.size, args.rate_playouts, cache)
        except BoardlabError as exc:
            parser.error(str(exc))
        if len(stones) < args.balanced:
            parser.error(f"MoHex rates only {len(stones)} first stones balanced ({cache})")
        pairs = [[stone] for stone in rng.sample(stones, args.balanced)]
        print(f"{args.balanced} openings from one stone rated 35-65 % for black: {pairs}")
    pairs += openings(args.size, count - args.balanced, rng)
    prover = CheckedProver(MohexProver(args.mohex, SOLVE_SECONDS), SolverProver(args.check))
    tallies: list[Tally] = []

    def rates() -> list[tuple[int, float]]:
        return [(t.budget, t.wins / t.games) for t in tallies if t.budget and t.games]

    def save() -> None:
        """Rewrite summary.json after every game, so a run cut off keeps what it scored."""
        summary = {
            "size": args.size,
            "time": args.time,
            "mohex_time": args.mohex_time,
            "settings": [t.as_dict() for t in tallies],
            "ladder_point": ladder_point(rates()) if rates() else None,
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")

    def tally(label: str, budget: int | None = None) -> Tally:
        tallies.append(Tally(label, budget=budget, on_save=save))
        return tallies[-1]

    try:
        for budget in [int(x) for x in args.ladder.split(",") if x.strip()]:
            print(
                f"MoHex at {budget} playouts a move, boardlab at {args.time} s a move", flush=True
            )
            label = f"mohex {budget} playouts"
            mohex = MohexPlayer(args.mohex, args.time, budget)
            try:
                play_series(label, mohex, args, pairs, out, tally(label, budget), prover)
            finally:
                mohex.close()
        if args.match:
            threads = f" {args.threads} threads" if args.threads > 1 else ""
            theirs = args.mohex_time
            if theirs == args.time:
                print(f"equal time: both {args.time} s a move{threads}", flush=True)
                label = f"equal time {args.time} s{threads}"
            else:
                print(
                    f"boardlab {args.time} s a move, MoHex max_time {theirs}{threads}", flush=True
                )
                label = f"{args.time} s v max_time {theirs}{threads}"
            mohex = MohexPlayer(args.mohex, theirs, None, args.threads)
            try:
                play_series(label, mohex, args, pairs, out, tally(label), prover)
            finally:
                mohex.close()
        if args.empty_black:
            mohex = MohexPlayer(args.mohex, args.time, None)
            try:
                empty_black(mohex, args, out, tally("empty board, boardlab black"), prover)
            finally:
                mohex.close()
    except BoardlabError as exc:
        print(f"bench_hex_mohex: {exc}", file=sys.stderr)
        return 2
    report(tallies, rates(), args.size, args.time)
    save()
    print(f"games and summary in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
