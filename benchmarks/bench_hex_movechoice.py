"""Benchmark: Benzene's move-choice suites, boardlab and MoHex 2.0 at the same time a move.

MoHex's public repository ships regression suites of positions with the moves accepted
in each (``regression/endgame.tst``, ``midgame.tst``, ``opening.tst``: a ``loadsgf``
line, a ``genmove COLOUR`` or ``reg_genmove COLOUR`` line and ``#? [a1|b2]``, a ``*``
after it marking a test Benzene expects to fail). This script reads such files from the
path given (never committed), asks boardlab's engine (``--time`` seconds a move, one
thread, seeded) and MoHex (the same ``max_time``, unbounded playouts, one thread) for a
move in each position, and prints each answer, the pass counts per file, and both totals.
The SGF files (HexGui's, setup in the second node) are read by
:func:`boardlab.hex.formats.parse_sgf`; moves are compared as HexGui vertices.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_movechoice.py \\
        --time 2 BENZENE/regression/endgame.tst BENZENE/regression/midgame.tst \\
        BENZENE/regression/opening.tst

Without MoHex (``--skip-peer``) only boardlab is measured. The suites' accepted moves are
not every winning move: ``--prove SECONDS`` has MoHex's DFPN judge each answer (of both
programs) not accepted, and a second count takes the ones it proves winning as passed too
(``wins``; ``open`` when it cannot tell in time).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from bench_hex_ablation import engine, setting
from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.formats import parse_sgf
from boardlab.hex.player import warm_up
from boardlab.hex.rules import BLACK, WHITE, Position
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, mohex_binary, solved_winner, start_mohex

COMMAND = re.compile(r"^\s*(\d+\s+)?(reg_)?genmove\s+(black|white|b|w)\s*$", re.IGNORECASE)
EXPECTED = re.compile(r"^#\?\s*\[([^\]]*)\](\*?)")


@dataclass(frozen=True)
class Case:
    """One test: the SGF file, the side to move, the accepted moves."""

    suite: str
    sgf: Path
    colour: int
    accepted: frozenset[str]
    expected_to_fail: bool


def cases(path: Path) -> Iterator[Case]:
    """The tests of one ``.tst`` file, in order (SGF paths relative to the file)."""
    sgf: Path | None = None
    colour: int | None = None
    for line in path.read_text().splitlines():
        if line.startswith("loadsgf"):
            sgf = path.parent / line.split()[1]
            colour = None
        elif (match := COMMAND.match(line)) is not None:
            colour = BLACK if match[3].lower().startswith("b") else WHITE
        elif (match := EXPECTED.match(line)) is not None and sgf is not None and colour:
            accepted = frozenset(m.strip().lower() for m in match[1].split("|") if m.strip())
            yield Case(path.name, sgf, colour, accepted, bool(match[2]))
            colour = None


def position_of(case: Case) -> Position:
    """The test's position with the side to move the test names."""
    position = parse_sgf(case.sgf.read_text(), str(case.sgf))
    if position.to_move == case.colour:
        return position
    return Position.from_stones(
        position.size, position.stones(BLACK), position.stones(WHITE), case.colour
    )


def boardlab_move(
    case: Case, seconds: float, seed: int, options: dict[str, str] | None = None
) -> str:
    """boardlab's answer: a fresh engine (with ``options``, as ``bench_hex_ablation.py``
    reads its settings), ``seconds`` a move."""
    player = engine(options or {}, seed)
    return player.search(position_of(case), Limit(time=seconds)).cell.vertex()


class Mohex:
    """MoHex over GTP: ``loadsgf`` then ``reg_genmove`` at ``seconds`` a move."""

    def __init__(self, binary: str, seconds: float) -> None:
        self.binary = binary
        self.seconds = seconds
        self.folder = tempfile.mkdtemp(prefix="boardlab-mohex-suite-")
        self.process = self._start()

    def _start(self) -> GtpProcess:
        process = GtpProcess([self.binary], timeout=60.0, grace=15.0, cwd=self.folder)
        for line in (
            "param_mohex num_threads 1",
            f"param_mohex max_time {self.seconds}",
            "param_mohex max_games 100000000",
        ):
            process.command(line)
        return process

    def move(self, case: Case) -> str:
        colour = "black" if case.colour == BLACK else "white"
        try:
            self.process.command(f"loadsgf {case.sgf.resolve()}")
            return self.process.command(f"reg_genmove {colour}", self.seconds + 15.0).lower()
        except ProtocolError as exc:
            self.process.close()
            self.process = self._start()
            return f"(failed: {exc})"

    def close(self) -> None:
        self.process.close()
        shutil.rmtree(self.folder, ignore_errors=True)


class MohexJudge:
    """Whether a move not among the accepted ones wins all the same: MoHex's
    ``dfpn-solve-state`` on the position after it, ``seconds`` at most (``param_dfpn
    timelimit``); True, False, or None when it cannot tell in time."""

    def __init__(self, binary: str, seconds: float) -> None:
        self.binary = binary
        self.seconds = seconds
        self.folder = tempfile.mkdtemp(prefix="boardlab-mohex-judge-")
        self.process: GtpProcess | None = None

    def wins(self, case: Case, move: str) -> bool | None:
        colour = "black" if case.colour == BLACK else "white"
        try:
            if self.process is None:
                limit = f"param_dfpn timelimit {self.seconds}"
                self.process = start_mohex(self.binary, self.folder, [limit])
            self.process.command(f"loadsgf {case.sgf.resolve()}")
            self.process.command(f"play {colour} {move}")
            answer = self.process.command("dfpn-solve-state", self.seconds + 30.0)
        except ProtocolError:
            if self.process is not None:
                self.process.close()
            self.process = None
            return None
        winner = solved_winner(answer)
        return None if winner is None else winner == case.colour

    def close(self) -> None:
        if self.process is not None:
            self.process.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def verdict(case: Case, move: str, judge: MohexJudge | None) -> tuple[str, int]:
    """How an answer scores: ``ok`` (accepted), ``wins`` (not accepted, but MoHex's DFPN
    proves it winning), ``FAIL`` (it proves it losing, or there is no judge), ``open``
    (the judge cannot tell); with 1 for the first two and 0 for the others."""
    if move in case.accepted:
        return "ok", 1
    if judge is None or move.startswith("("):
        return "FAIL", 0
    wins = judge.wins(case, move)
    if wins is None:
        return "open", 0
    return ("wins", 1) if wins else ("FAIL", 0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("suites", nargs="+", type=Path, help="Benzene .tst files")
    parser.add_argument("--time", type=float, default=2.0, help="seconds a move (both)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--skip-peer", action="store_true", help="measure boardlab only")
    parser.add_argument(
        "--setting",
        default="",
        help="boardlab's engine settings, e.g. solver_cells=121 (see bench_hex_ablation.py)",
    )
    parser.add_argument(
        "--prove",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="also count a move not accepted that MoHex's DFPN proves winning in SECONDS",
    )
    args = parser.parse_args(argv)
    if args.prove < 0:
        parser.error(f"--prove must be 0 (off) or more seconds, not {args.prove}")
    options = setting(args.setting)
    try:  # bad settings said in one line before anything runs
        engine(options, 0)
    except BoardlabError as exc:
        parser.error(str(exc))
    args.mohex = mohex_binary(args.mohex)
    if (not args.skip_peer or args.prove) and args.mohex is None:
        print(f"bench_hex_movechoice: {MOHEX_ABSENT} (or --skip-peer)", file=sys.stderr)
        return 2
    try:
        tests = [case for suite in args.suites for case in cases(suite)]
    except OSError as exc:
        print(f"bench_hex_movechoice: {exc}", file=sys.stderr)
        return 2
    warm_up()
    mohex = None if args.skip_peer else Mohex(args.mohex, args.time)
    judge = MohexJudge(args.mohex, args.prove) if args.prove else None
    totals: dict[str, list[int]] = {}
    try:
        for number, case in enumerate(tests):
            try:
                ours = boardlab_move(case, args.time, args.seed + number, options)
            except BoardlabError as exc:
                ours = f"(failed: {exc})"
            theirs = mohex.move(case) if mohex is not None else "-"
            counts = totals.setdefault(case.suite, [0, 0, 0, 0, 0])
            counts[0] += 1
            counts[1] += ours in case.accepted
            counts[2] += theirs in case.accepted
            our_word, our_score = verdict(case, ours, judge)
            their_word, their_score = (
                verdict(case, theirs, judge) if mohex is not None else ("-", 0)
            )
            counts[3] += our_score
            counts[4] += their_score
            accepted = "|".join(sorted(case.accepted))
            print(
                f"{case.suite:<12} {case.sgf.name:<42} {'*' if case.expected_to_fail else ' '} "
                f"[{accepted}] boardlab {ours} {our_word}  mohex {theirs} {their_word}",
                flush=True,
            )
    finally:
        if mohex is not None:
            mohex.close()
        if judge is not None:
            judge.close()
    print(f"\n{args.time} s a move, one thread each")
    rows = list(totals.items())
    rows.append(("all", [sum(column) for column in zip(*totals.values(), strict=True)]))
    for suite, (count, ours_ok, theirs_ok, ours_won, theirs_won) in rows:
        peer = "-" if args.skip_peer else str(theirs_ok)
        line = f"{suite:<14} {count:>3} tests  boardlab {ours_ok:>3}  mohex {peer:>3}"
        if judge is not None:
            peer_won = "-" if args.skip_peer else str(theirs_won)
            line += f"    with proven wins: boardlab {ours_won:>3}  mohex {peer_won:>3}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
