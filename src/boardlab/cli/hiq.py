"""Interface layer: ``boardlab hiq``, the Hi-Q contest program (Mid-Atlantic 1996)."""

from __future__ import annotations

import argparse

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_stdout

__all__ = ["GAME"]


def _configure_contest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", default="-", help="contest input file (default: stdin)")
    parser.add_argument(
        "--trace",
        action="store_true",
        help="print every jump of every game instead of the contest output",
    )


def _run_contest(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_source
    from boardlab.pegs import hiq
    from boardlab.pegs.formats import format_hiq_output, parse_hiq_input

    text, source = read_source(args.input)
    games = parse_hiq_input(text, source)
    if not args.trace:
        write_stdout(format_hiq_output(hiq.run(games)))
        return 0
    write_stdout("\n".join(hiq.trace(games)) + "\n")
    return 0


def _configure_table(parser: argparse.ArgumentParser) -> None:
    del parser


def _run_table(args: argparse.Namespace) -> int:
    del args
    from boardlab.pegs import hiq

    rows = ["vacancy  sum"]
    for vacancy in range(1, 34):
        total = hiq.run([[hole for hole in range(1, 34) if hole != vacancy]])[0]
        rows.append(f"{vacancy:>7}  {total}")
    write_stdout("\n".join(rows) + "\n")
    return 0


def _demo() -> list[str]:
    from boardlab.pegs import hiq
    from boardlab.pegs.formats import format_hiq_output, parse_hiq_input

    output = format_hiq_output(hiq.run(parse_hiq_input(hiq.SAMPLE_INPUT, "<sample>")))
    expected = "HI Q OUTPUT\n51\n0\n561\n98\nEND OF OUTPUT\n"
    verdict = "matches the statement" if output == expected else "DIFFERS from the statement"
    return [
        "the statement's sample input gives:",
        *output.splitlines(),
        f"byte for byte: {verdict}",
    ]


_CONTEST = Verb(
    "contest",
    "read the contest input (stdin or FILE), write the contest output",
    _configure_contest,
    _run_contest,
)
GAME = Game(
    "hiq",
    "Hi-Q (Mid-Atlantic 1996): jump by the largest target, then largest source",
    (Verb("table", "the final sum for every single-vacancy start", _configure_table, _run_table),),
    default=_CONTEST,
    demo=_demo,
)
