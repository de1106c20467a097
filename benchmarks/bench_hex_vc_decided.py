"""Benchmark: how many of the positions boardlab's DFPN leaves open MoHex's connections decide.

The prover's strength past 7x7 lies in the positions its analysis settles at once: a
position whose side to move has an edge-to-edge semi connection is won, one whose
opponent has a full connection is lost. This script proves one case of a Benzene suite
with boardlab's DFPN (``Dfpn.prove`` from the case's position, no region fill at the
root), draws a seeded sample of the positions it analysed and left open, and asks MoHex
2.0 about each of them in one process (``bench_hex_knowledge.mohex_verdicts``:
``vc-build``, then a semi connection between the mover's edges or a full one between the
opponent's; MoHex builds its connections after its own fill-in). Each sampled position
is also analysed again by a fresh boardlab search, with no connection table handed down
from a parent. It prints the share MoHex decides (won, lost) with its 95 % interval, the
share the fresh analysis decides, and both programs' seconds for the sample.
With ``--mohex-setting`` MoHex is asked again after GTP commands that switch parts of
its knowledge off (its ``param_player_vc`` and ``param_player_ice`` settings), one row
each, on the same sample: which part decides what. (``bench_hex_knowledge.py`` asks the
same of a 7x7 opening's proof tree, position by position and connection by connection.)
With ``--handed-fill`` each sampled position is analysed once more by boardlab with the
cells a MoHex command fills (``compute-fillin``: its inferior-cell engine alone;
``vc-build``: that and the fills its connections and decompositions add) played as
stones first: how much of MoHex's lead is its fill-in and how much its connections on
the same board.

    MOHEX=/path/to/mohex python benchmarks/bench_hex_vc_decided.py \\
        --suite benzene/regression/dfpn-puzzle.tst --case 162 --sample 300 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from bench_hex_knowledge import mohex_verdicts, numbered_answers, position_commands
from bench_hex_mohex import wilson
from bench_hex_suite import position_of, read_suite
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex, vertex_names
from boardlab.hex.prover.classify import OutOfBudgetError
from boardlab.hex.prover.dfpn import MAX_CELLS, Dfpn
from boardlab.hex.rules import BLACK, WHITE, Position
from boardlab.peers.mohex import MOHEX_ABSENT, fill_in_cells, mohex_binary
from hex_intrusion import Rule, analyse_with_rule

#: (black, white, side to move: 1 black, 2 white)
Open = tuple[int, int, int]


def open_positions(position: Position, seconds: float) -> list[Open]:
    """The positions boardlab's DFPN analysed and left open while proving ``position``
    (in the frame each was stored in: a position or its 180-degree rotation)."""
    n = position.size
    black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
    search = Dfpn(n, Limit(time=seconds).start())
    player = 1 if position.to_move == BLACK else 2
    with contextlib.suppress(OutOfBudgetError):
        search.prove(black, white, player)
    return sorted(key for key, node in search.info.items() if node.verdict == 0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, required=True, help="a Benzene .tst file")
    parser.add_argument("--case", type=int, required=True, help="the case's number")
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    parser.add_argument("--time", type=float, default=60.0, help="boardlab's seconds (60)")
    parser.add_argument("--sample", type=int, default=300, help="open positions asked (300)")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed (1)")
    parser.add_argument(
        "--mohex-setting",
        action="append",
        default=[],
        metavar="GTP",
        help="MoHex is also asked after these GTP commands (';' between several), e.g. "
        "'param_player_vc use_non_edge_patterns 0': one more row on the same sample, beside "
        "MoHex as built (repeatable)",
    )
    parser.add_argument(
        "--intrusion",
        type=int,
        default=0,
        metavar="K",
        help="also analyse each position with the intrusion rule (hex_intrusion.py) for "
        "pairs whose semi connections share at most K cells (0: not asked)",
    )
    parser.add_argument(
        "--show",
        type=int,
        default=0,
        metavar="K",
        help="print K of the positions MoHex as built decides and not after the first "
        "--mohex-setting (without one: and boardlab's analysis does not): the stones, "
        "MoHex's deciding connection (its key and carrier) and the positions boardlab's DFPN "
        "analyses to prove the same",
    )
    parser.add_argument(
        "--handed-fill",
        action="append",
        default=[],
        metavar="GTP",
        help="also analyse each position afresh with the cells this MoHex command fills "
        "(compute-fillin or vc-build, for the side to move) played as stones; GTP settings "
        "may come first, ';' between them, e.g. 'param_player_vc use_patterns 0; vc-build' "
        "(repeatable: one row each)",
    )
    parser.add_argument(
        "--show-fills",
        type=int,
        default=0,
        metavar="K",
        help="with --handed-fill: print K of the positions boardlab decides only with "
        "MoHex's fills, both programs' fills named (per --handed-fill row)",
    )
    parser.add_argument("--rounds", type=int, default=1, help="the intrusion rule's rounds (1)")
    parser.add_argument(
        "--replies", type=int, default=60, help="replies the rule tries to an intrusion (60)"
    )
    args = parser.parse_args(argv)
    if args.sample < 1 or args.time <= 0 or min(args.show, args.show_fills) < 0:
        print(
            "--sample must be at least 1, --time positive, --show and --show-fills at least 0",
            file=sys.stderr,
        )
        return 2
    handed = [parsed for row in args.handed_fill if (parsed := handed_fill(row)) is not None]
    if len(handed) < len(args.handed_fill):
        print("--handed-fill: its last part must be compute-fillin or vc-build", file=sys.stderr)
        return 2
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(MOHEX_ABSENT, file=sys.stderr)
        return 2
    try:
        cases = [case for case in read_suite(args.suite) if case.number == args.case]
        if not cases:
            print(f"{args.suite}: no case {args.case}", file=sys.stderr)
            return 2
        position = position_of(cases[0], args.suite.parent)
    except (BoardlabError, OSError) as exc:
        print(f"{args.suite}: {exc}", file=sys.stderr)
        return 2
    n = position.size
    if n * n > MAX_CELLS:
        print(f"case {args.case} is {n}x{n}; this measure takes boards up to 8x8", file=sys.stderr)
        return 2
    Dfpn(3, Limit(time=5).start()).prove(0, 0, 1)  # load the kernels before any clock
    started = time.perf_counter()
    found = open_positions(position, args.time)
    print(
        f"case {args.case} ({n}x{n}): boardlab's DFPN left {len(found)} analysed positions "
        f"open ({time.perf_counter() - started:.1f} s)"
    )
    sample = random.Random(args.seed).sample(found, min(args.sample, len(found)))
    without: list[str] = []
    for row in args.mohex_setting:
        settings = tuple(part.strip() for part in row.split(";") if part.strip())
        row_verdicts = mohex_verdicts(binary, sample, True, n, settings)
        without = without or row_verdicts
        tally = Counter(row_verdicts)
        decided = tally["win"] + tally["loss"]
        print(
            f"MoHex after {'; '.join(settings)}: decides {decided}/{len(sample)} "
            f"({tally['win']} won, {tally['loss']} lost)"
        )
    clock = time.perf_counter()
    verdicts = mohex_verdicts(binary, sample, True, n)
    tally = Counter(verdicts)
    theirs_seconds = time.perf_counter() - clock
    fresh = Dfpn(n, Limit().start())
    fresh.depth = fresh.region_depth + 1  # no region fill: the DFPN's own analysis
    clock = time.perf_counter()
    ours = [fresh.analyse(*key)[0] != 0 for key in sample]
    ours_decided = sum(ours)
    ours_seconds = time.perf_counter() - clock
    asked = len(sample)
    decided = tally["win"] + tally["loss"]
    low, high = wilson(decided, asked)
    print(
        f"MoHex decides {decided}/{asked} ({100 * decided / max(asked, 1):.1f} %, 95 % "
        f"[{100 * low:.1f}, {100 * high:.1f}]): {tally['win']} won, {tally['loss']} lost; "
        f"{theirs_seconds:.1f} s"
    )
    low, high = wilson(ours_decided, asked)
    print(
        f"boardlab analysing each afresh decides {ours_decided}/{asked} "
        f"({100 * ours_decided / max(asked, 1):.1f} %, 95 % [{100 * low:.1f}, "
        f"{100 * high:.1f}]); {ours_seconds:.1f} s"
    )
    for settings, command in handed:
        report_handed_fill(binary, sample, verdicts, n, settings, command, args.show_fills)
    if args.intrusion:
        report_intrusion(sample, verdicts, n, Rule(args.intrusion, args.replies), args.rounds)
    if args.show:
        if not without:  # boardlab's analysis afresh stands in for the setting
            without = ["win" if decided else "open" for decided in ours]
        shown = [
            (key, theirs)
            for key, theirs, other in zip(sample, verdicts, without, strict=True)
            if theirs != "open" and other == "open"
        ]
        print(f"{len(shown)} such positions; the first {min(args.show, len(shown))}:")
        for key, theirs in shown[: args.show]:
            show_position(binary, key, theirs, n, args.time)
    return 0


def show_position(binary: str, key: Open, verdict: str, n: int, seconds: float) -> None:
    """One position MoHex decides: its stones (HexGui's cells), MoHex's first semi
    connection between the mover's edges (or full one between the opponent's), and what
    boardlab's DFPN analyses to prove it from nothing within ``seconds``."""
    black, white, player = key
    cells = range(n * n)
    stones = {
        who: [vertex(c, n) for c in cells if bits >> c & 1]
        for who, bits in ((1, black), (2, white))
    }
    mover = "b" if player == 1 else "w"
    who = mover if verdict == "win" else ("w" if player == 1 else "b")
    edges = {"b": "north south", "w": "west east"}[who]
    kind = "semi" if verdict == "win" else "full"
    script = [f"boardsize {n} {n}", *position_commands(black, white, n)]
    script += [f"vc-build {who}", f"1 vc-between-cells-{kind} {who} {edges}", "quit"]
    out = subprocess.run(
        [binary], input="\n".join(script) + "\n", capture_output=True, text=True, check=False
    ).stdout
    found = re.search(r"^=1\s*(.*?)(?=\n\n)", out, re.S | re.M)
    first = re.search(r"\[([^\]]*)\]\s*\[([^\]]*)\]\s*(\S*)", found[1] if found else "")
    carrier = first[1].split() if first else []
    key_cell = first[3] if first and first[3] else "-"
    search = Dfpn(n, Limit(time=seconds).start())
    with contextlib.suppress(OutOfBudgetError):
        search.prove(black, white, player)
    print(
        f"  black {' '.join(stones[1]) or '-'}; white {' '.join(stones[2]) or '-'}; "
        f"{'black' if player == 1 else 'white'} to move: MoHex {verdict} "
        f"({'the mover' if verdict == 'win' else 'the opponent'}'s {kind} connection, "
        f"key {key_cell}, carrier {len(carrier)} cells); boardlab's DFPN analyses "
        f"{search.analysed} positions"
    )


def handed_fill(row: str) -> tuple[tuple[str, ...], str] | None:
    """``(settings, command)`` of a ``--handed-fill`` value; None when its last part is
    not ``compute-fillin`` or ``vc-build``."""
    parts = [part.strip() for part in row.split(";") if part.strip()]
    if not parts or parts[-1] not in ("compute-fillin", "vc-build"):
        return None
    return tuple(parts[:-1]), parts[-1]


def mohex_fills(
    binary: str, sample: list[Open], n: int, settings: tuple[str, ...], command: str
) -> list[tuple[int, int]]:
    """The black and white cells MoHex's ``command`` (``compute-fillin`` or ``vc-build``,
    for the side to move, after the GTP ``settings``) fills in each position, all asked
    in one process."""
    script = [f"boardsize {n} {n}", *settings]
    for j, (black, white, player) in enumerate(sample):
        script += ["clear_board", *position_commands(black, white, n)]
        script.append(f"{j + 1} {command} {'b' if player == 1 else 'w'}")
    script.append("quit")
    answers = numbered_answers(binary, script)
    found = []
    for j in range(len(sample)):
        cells = fill_in_cells(answers.get(j + 1, ""), n)
        found.append(
            (
                sum(1 << c for c, colour in cells.items() if colour == BLACK),
                sum(1 << c for c, colour in cells.items() if colour == WHITE),
            )
        )
    return found


def report_handed_fill(
    binary: str,
    sample: list[Open],
    verdicts: list[str],
    n: int,
    settings: tuple[str, ...],
    command: str,
    shown: int = 0,
) -> None:
    """The row of boardlab's analysis afresh with MoHex's fills played first: what it
    decides, of the sample and of the positions MoHex as built decides; and the first
    ``shown`` positions it decides only so, with both programs' fills named."""
    fills = mohex_fills(binary, sample, n, settings, command)
    fresh = Dfpn(n, Limit().start())
    fresh.depth = fresh.region_depth + 1
    decided = of_mohex = cells = 0
    for (black, white, player), (more_black, more_white), theirs in zip(
        sample, fills, verdicts, strict=True
    ):
        cells += (more_black | more_white).bit_count()
        if fresh.analyse(black | more_black, white | more_white, player)[0] != 0:
            decided += 1
            of_mohex += theirs != "open"
            if shown > 0 and (as_is := fresh.analyse(black, white, player))[0] == 0:
                shown -= 1
                ours = (int(as_is[2]) & ~black, int(as_is[3]) & ~white)
                show_fills(n, (black, white, player), (more_black, more_white), ours)
    named = "; ".join((*settings, command))
    print(
        f"boardlab analysing each afresh with the cells MoHex's {named} fills played "
        f"decides {decided}/{len(sample)} ({of_mohex} of MoHex's "
        f"{sum(v != 'open' for v in verdicts)}); {cells} cells handed, "
        f"{cells / max(len(sample), 1):.1f} a position"
    )


def show_fills(n: int, key: Open, theirs: tuple[int, int], ours: tuple[int, int]) -> None:
    """One position boardlab decides only with MoHex's fills: its stones and both
    programs' fills (HexGui's cells)."""
    black, white, player = key
    mover = "black" if player == 1 else "white"
    print(
        f"  black {vertex_names(black, n)}; white {vertex_names(white, n)}; {mover} to move: "
        f"MoHex fills black {vertex_names(theirs[0], n)}, white {vertex_names(theirs[1], n)}; "
        f"boardlab fills black {vertex_names(ours[0], n)}, white {vertex_names(ours[1], n)}"
    )


def report_intrusion(
    sample: list[Open], verdicts: list[str], n: int, rule: Rule, rounds: int
) -> None:
    """The intrusion rule's row: what boardlab's analysis decides with it, of the sample
    and of the positions MoHex decides, against MoHex's verdicts, and its cost."""
    search = Dfpn(n, Limit().start())
    search.depth = search.region_depth + 1
    clock = time.perf_counter()
    decided = of_mohex = wrong = 0
    only_ours: list[tuple[Open, int]] = []
    for key, theirs in zip(sample, verdicts, strict=True):
        verdict = analyse_with_rule(search, *key, rule, rounds)
        if verdict == 0:
            continue
        decided += 1
        if theirs != "open":
            of_mohex += 1
            wrong += (verdict == 1) != (theirs == "win")
        else:
            only_ours.append((key, verdict))
    seconds = time.perf_counter() - clock
    # the verdicts MoHex does not give are checked by boardlab's DFPN, each afresh
    for key, verdict in only_ours:
        wrong += Dfpn(n, Limit(time=60).start()).prove(*key) != (verdict == 1)
    mohex_decided = sum(v != "open" for v in verdicts)
    print(
        f"boardlab with the intrusion rule (at most {rule.common} shared cells, "
        f"{rule.replies} replies, {rounds} round(s)) "
        f"decides {decided}/{len(sample)}, {of_mohex} of MoHex's {mohex_decided}, "
        f"{wrong} wrong (against MoHex's verdict, or a fresh DFPN's for the {len(only_ours)} "
        f"MoHex leaves open); {rule.found} connections added, "
        f"{rule.searches} H-searches, {seconds:.1f} s"
    )


if __name__ == "__main__":
    sys.exit(main())
