"""Benchmark: how often engine settings avoid the losing moves boardlab played against MoHex.

Each position of the suite (written by ``hex_blunders.py --json``) is one boardlab faced in
a game it lost to MoHex 2.0, where its move turned a position MoHex's DFPN could not prove
lost into one it proves lost. Every setting (``--setting LABEL:NAME=VALUE,...``, repeatable;
the settings are ``SolvingEngine`` keyword arguments as in ``bench_hex_ablation.py``, an
empty list the shipped engine) searches every position from ``--seeds`` seeds at
``--playouts`` a move (reproducible) or ``--time`` seconds. Its move is judged by MoHex's
``dfpn-solve-state`` (``--seconds``) on the position after it: *lost* (the game's blunder
again, or proven lost), *won* (proven won for the mover) or *open*. The share not lost is
printed for each setting with its 95 % Wilson interval.

The positions were picked because the shipped engine lost there once, so a fresh seed of
the shipped engine avoids some of the blunders too: the reference is the shipped setting
with the same seeds in the same run, never zero. ``--mohex-time T`` adds MoHex itself
(``max_time T``) as a setting, for the ceiling; ``--network-move NET`` the policy
network's first choice alone, without a search (``""``: the shipped network). Verdicts
are kept in ``--cache FILE`` (JSON), so settings that agree on a move pay for its proof
once and a rerun pays nothing.
``--walk FOLDER=OUTPUT`` reads the cases from a kept walk's printed lines instead
(``hex_blunders.py`` without ``--json``) and the games in FOLDER it walked.

MoHex is built outside the repository (see ``bench_hex_mohex.py``): ``--mohex PATH`` or
``$MOHEX``. Run from the repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/hex_blunder_suite.py SUITE.json \\
        --playouts 30000 --seeds 2 --setting base: --setting pw2:policy_weight=2
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bench_hex_ablation import engine, setting
from bench_hex_mohex import wilson
from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex, vertex_index
from boardlab.hex.engine.network import Network, load_network
from boardlab.hex.formats import parse_game_sgf
from boardlab.hex.judge import Prover, position_after
from boardlab.hex.learning.samples import position_planes
from boardlab.hex.player import warm_up
from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.mohex import MOHEX_ABSENT, MohexPlayer, MohexProver, mohex_binary

LOST, OPEN, WON = "lost", "open", "won"


@dataclass(frozen=True)
class Case:
    """One suite position: where it came from, the moves that lead to it, the blunder."""

    game: str
    size: int
    moves: tuple[str, ...]
    blunder: str
    kind: str

    @property
    def mover(self) -> int:
        return BLACK if len(self.moves) % 2 == 0 else WHITE


def read_suite(paths: Sequence[Path]) -> list[Case]:
    """The cases of ``hex_blunders.py --json`` files.

    :raises BoardlabError: for an unreadable file or a record without its fields.
    """
    cases: list[Case] = []
    for path in paths:
        try:
            records = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise BoardlabError(f"{path}: not a blunder suite: {exc}") from None
        if not isinstance(records, list):
            raise BoardlabError(f"{path}: not a blunder suite: no list of positions")
        for number, record in enumerate(records, 1):
            try:
                cases.append(
                    Case(
                        str(record["game"]),
                        int(record["size"]),
                        tuple(str(move) for move in record["moves"]),
                        str(record["blunder"]),
                        str(record.get("kind", "")),
                    )
                )
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                raise BoardlabError(f"{path}: position {number}: no {exc}") from None
            try:
                position_after(cases[-1].size, cases[-1].moves)
            except BoardlabError as exc:
                raise BoardlabError(f"{path}: position {number}: {exc}") from None
    return cases


WALK_LINE = re.compile(r"^(\S+\.sgf): move (\d+) (\S+) \((\w+), ([\w ]+)\)")


def cases_from_walk(folder: Path, output: Path) -> list[Case]:
    """The cases of a kept walk: its lines ``NAME.sgf: move N CELL (PHASE, KIND)`` and the
    games of ``folder`` they name (each blunder checked against its game).

    :raises BoardlabError: for a missing or unreadable game, or a move that is not the
        game's.
    """
    cases: list[Case] = []
    try:
        lines = output.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise BoardlabError(f"{output}: {exc}") from None
    for number, line in enumerate(lines, 1):
        found = WALK_LINE.match(line)
        if found is None:
            continue
        name, ply, move, _, kind = found.groups()
        path = folder / name
        try:
            game = parse_game_sgf(path.read_text(encoding="utf-8"), str(path))
        except OSError as exc:
            raise BoardlabError(f"{output}:{number}: {exc}") from None
        index = int(ply) - 1
        if not 0 <= index < len(game.moves) or game.moves[index] != move:
            raise BoardlabError(f"{output}:{number}: move {ply} of {path} is not {move}")
        cases.append(
            Case(f"{folder.name}/{name}", game.size, tuple(game.moves[:index]), move, kind)
        )
    return cases


def read_cases(suites: Sequence[Path], walks: Sequence[str]) -> list[Case]:
    """The cases of the suite files and of each kept walk ``FOLDER=OUTPUT``.

    :raises BoardlabError: as :func:`read_suite` and :func:`cases_from_walk`, or when
        there is no case at all.
    """
    cases = read_suite(suites)
    for item in walks:
        folder, _, output = item.partition("=")
        cases += cases_from_walk(Path(folder), Path(output))
    if not cases:
        raise BoardlabError("no positions: give suites or --walk")
    return cases


class Judge:
    """A move's verdict (lost, open, won for the mover), cached by position and move."""

    def __init__(self, prover: Prover, cache: Path | None) -> None:
        self.prover = prover
        self.cache = cache
        self.known: dict[str, str] = {}
        if cache is not None and cache.exists():
            self.known = json.loads(cache.read_text(encoding="utf-8"))

    def __call__(self, case: Case, move: str) -> str:
        if move == case.blunder:
            return LOST
        key = f"{case.size} {' '.join(case.moves)} {move}"
        if key not in self.known:
            verdict = self.prover(case.size, [*case.moves, move])
            if verdict is None:
                self.known[key] = OPEN
            else:
                self.known[key] = WON if verdict.winner == case.mover else LOST
            self.save()
        return self.known[key]

    def save(self) -> None:
        if self.cache is not None:
            part = self.cache.with_suffix(".part")
            part.write_text(json.dumps(self.known, indent=0) + "\n", encoding="utf-8")
            part.replace(self.cache)


def engine_move(options: dict[str, str], seed: int, case: Case, limit: Limit) -> str:
    position = position_after(case.size, case.moves)
    return engine(options, seed).search(position, limit).cell.vertex()


def network_move(net: Network, case: Case) -> str:
    """The network's most probable move in the case's position, without a search."""
    board = np.array(position_after(case.size, case.moves).board, np.int8)
    last = vertex_index(case.moves[-1], case.size) if case.moves else -1
    planes, _ = position_planes(board, case.size, case.mover, last)
    logits = net.logits(planes, case.size, case.mover)[: case.size * case.size]
    logits[board != 0] = -np.inf
    return vertex(int(np.argmax(logits)), case.size)


def is_cell(vertex: str, size: int) -> bool:
    """Whether ``vertex`` names a cell (MoHex may answer ``resign`` instead)."""
    try:
        vertex_index(vertex, size)
    except BoardlabError:
        return False
    return True


def mohex_move(player: MohexPlayer, case: Case) -> str | None:
    """MoHex's move in the case's position (None when it refuses or dies)."""
    try:
        player.new_game(case.size)
        for number, move in enumerate(case.moves):
            player.play(BLACK if number % 2 == 0 else WHITE, move)
        return player.genmove(case.mover, player.seconds * 10 + 10).strip().lower()
    except ProtocolError:
        return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="*", type=Path, help="hex_blunders.py --json files")
    parser.add_argument(
        "--walk", action="append", default=[], help="FOLDER=OUTPUT: a kept walk (repeatable)"
    )
    parser.add_argument(
        "--setting",
        action="append",
        default=[],
        help="LABEL:NAME=VALUE,... (repeatable; 'base:' is the shipped engine)",
    )
    parser.add_argument("--playouts", type=int, default=30000)
    parser.add_argument("--time", type=float, default=0.0, help="seconds a move instead")
    parser.add_argument("--seeds", type=int, default=2, help="searches a position a setting")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--seconds", type=float, default=10.0, help="MoHex's DFPN a verdict")
    parser.add_argument("--mohex-time", type=float, default=0.0, help="add MoHex at max_time T")
    parser.add_argument("--network-move", help="add the network's first choice (NET, '' shipped)")
    parser.add_argument("--cache", type=Path, help="verdicts kept here (JSON)")
    parser.add_argument("--verbose", action="store_true", help="print every move and verdict")
    args = parser.parse_args(argv)
    binary = mohex_binary(args.mohex)
    if binary is None:
        print(f"hex_blunder_suite: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    try:
        cases = read_cases(args.suites, args.walk)
        net = None if args.network_move is None else load_network(args.network_move)
        settings = [
            (label, setting(text))
            for label, _, text in (
                item.partition(":") for item in args.setting or default_settings(args)
            )
        ]
        for _, options in settings:
            engine(options, 0)
    except BoardlabError as exc:
        print(f"hex_blunder_suite: {exc}", file=sys.stderr)
        return 2
    limit = Limit(time=args.time) if args.time else Limit(nodes=args.playouts)
    judge = Judge(MohexProver(binary, args.seconds), args.cache)
    warm_up()
    searches = (
        f", {args.seeds} seeds a setting, "
        + (f"{args.time} s a move" if args.time else f"{args.playouts} playouts a move")
        if settings
        else ""
    )
    print(
        f"{len(cases)} positions{searches}, verdicts by MoHex's DFPN at {args.seconds} s",
        flush=True,
    )
    for label, options in settings:
        counts = {LOST: 0, OPEN: 0, WON: 0}
        by_size: dict[int, int] = {}
        for case in cases:
            for k in range(args.seeds):
                move = engine_move(options, args.seed + k, case, limit)
                verdict = judge(case, move)
                counts[verdict] += 1
                by_size[case.size] = by_size.get(case.size, 0) + (verdict != LOST)
                if args.verbose:
                    print(f"  {label} {case.game} seed {args.seed + k}: {move} {verdict}")
        sizes = ", ".join(
            f"{n}x{n} {kept}/{sum(c.size == n for c in cases) * args.seeds}"
            for n, kept in sorted(by_size.items())
        )
        print(f"{row_text(label, counts, len(cases) * args.seeds)}; {sizes}", flush=True)
    if net is not None:
        counts = {LOST: 0, OPEN: 0, WON: 0}
        for case in cases:
            move = network_move(net, case)
            verdict = judge(case, move)
            counts[verdict] += 1
            if args.verbose:
                print(f"  network {case.game}: {move} {verdict}")
        name = f"network {args.network_move or 'shipped'}, no search"
        print(row_text(name, counts, len(cases)), flush=True)
    if args.mohex_time > 0:
        player = MohexPlayer(binary, args.mohex_time, None)
        counts = {LOST: 0, OPEN: 0, WON: 0}
        try:
            for case in cases:
                answer = mohex_move(player, case)
                verdict = (
                    LOST
                    if answer is None or not is_cell(answer, case.size)
                    else judge(case, answer)
                )
                counts[verdict] += 1
                if args.verbose:
                    print(f"  mohex {case.game}: {answer} {verdict}")
        finally:
            player.close()
        print(row_text(f"MoHex max_time {args.mohex_time}", counts, len(cases)), flush=True)
    return 0


def default_settings(args: argparse.Namespace) -> list[str]:
    """The shipped engine, unless only MoHex or the network were asked for."""
    return [] if args.network_move is not None or args.mohex_time > 0 else ["base:"]


def row_text(label: str, counts: dict[str, int], total: int) -> str:
    kept = counts[OPEN] + counts[WON]
    low, high = wilson(kept, total)
    return (
        f"{label:<28} not lost {kept:>3}/{total:<3} {100 * kept / total:5.1f} %"
        f"  [{100 * low:5.1f}, {100 * high:5.1f}]  (won {counts[WON]}, open {counts[OPEN]},"
        f" lost {counts[LOST]})"
    )


if __name__ == "__main__":
    sys.exit(main())
