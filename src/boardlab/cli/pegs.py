"""Interface layer: ``boardlab pegs``, peg-solitaire boards: show, judge (and the solver verbs)."""

from __future__ import annotations

import argparse
import json

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_file_atomically, write_stdout
from boardlab.cli._pegs_args import add_board_arguments, read_board
from boardlab.cli._pegs_solver import VERBS as SOLVER_VERBS
from boardlab.cli._pegs_solver import demo_lines

__all__ = ["GAME"]


def _configure_show(parser: argparse.ArgumentParser) -> None:
    add_board_arguments(parser)
    parser.add_argument("--svg", metavar="FILE", help="also write an SVG picture to FILE")
    parser.add_argument(
        "--file", action="store_true", help="print the PEGGED board-file form instead"
    )


def _run_show(args: argparse.Namespace) -> int:
    from boardlab.pegs.formats import format_board_file
    from boardlab.render.pegs import diagram, svg_picture

    position = read_board(args.board, args.start)
    board = position.board
    if args.svg:
        write_file_atomically(args.svg, svg_picture(position))
    if args.file:
        write_stdout(format_board_file(position))
        return 0
    home = f", home {board.hole_name(board.home)}" if board.home is not None else ""
    header = (
        f"{board.name}: {board.size} holes, {len(board.symmetries())} symmetries, "
        f"{len(board.grid.jumps)} jumps{home}; {position.peg_count} pegs, "
        f"{len(position.legal_jumps())} legal jumps"
    )
    write_stdout(header + "\n" + diagram(position) + "\n")
    return 0


def _configure_judge(parser: argparse.ArgumentParser) -> None:
    add_board_arguments(parser)
    parser.add_argument(
        "moves",
        metavar="MOVES_FILE",
        help="one move per line: FROM TO, FROM-TO, or one peg's chain of jumps A-B-C ('-' = stdin)",
    )
    parser.add_argument("--walks", action="store_true", help="allow walks (PEGGED rules)")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def _run_judge(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_text
    from boardlab.pegs.judge import judge_text

    position = read_board(args.board, args.start)
    verdict = judge_text(position, read_text(args.moves), walks=args.walks)
    if args.json:
        record = verdict.as_dict()
        write_stdout(json.dumps(record) + "\n")
    else:
        write_stdout(verdict.summary() + "\n")
    return 0 if verdict.valid else 1


def _demo() -> list[str]:
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.judge import judge_text
    from boardlab.pegs.rules import Position
    from boardlab.render.pegs import diagram

    lines = []
    for name in ("english", "french", "wiegleb", "asymmetric", "diamond", "triangle-5"):
        board = named_board(name)
        lines.append(
            f"{name:<11} {board.size:>3} holes, symmetry group of order {len(board.symmetries())}"
        )
    start = Position("english")
    lines.extend(diagram(start).splitlines())
    moves = "5-17\n12-10\n3-11\n18-6\n"
    verdict = judge_text(start, moves)
    lines.append(f"judge of '{moves.strip().replace(chr(10), ' ')}': {verdict.summary()}")
    bad = judge_text(start, "5-17\n4-6\n")
    lines.append(f"judge of '5-17 4-6': {bad.summary()}")
    lines.extend(demo_lines())
    return lines


GAME = Game(
    "pegs",
    "peg solitaire on every classic board and on any board file",
    (
        Verb(
            "show",
            "draw a board and its start (--svg FILE for a picture)",
            _configure_show,
            _run_show,
        ),
        Verb(
            "judge",
            "check a move list: exit 0 valid, 1 invalid, 2 bad input",
            _configure_judge,
            _run_judge,
        ),
        *SOLVER_VERBS,
    ),
    demo=_demo,
)
