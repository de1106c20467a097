"""Interface layer: ``boardlab shongololo``, the Toxic iShongololo (IOI 1997).

Without a verb it is the contest program: L, W, H on stdin (or a file), the E/M lines
on stdout. ``solve`` reports the count against the proven bound, ``judge`` replays an
output, ``show`` draws a run layer by layer.
"""

from __future__ import annotations

import argparse
import json

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_files_atomically, write_stdout
from boardlab.cli._progress import ProgressLine
from boardlab.core.errors import BoardlabError

__all__ = ["GAME"]

#: The statement's sample input and its sample output (legal, "may not be optimal").
SAMPLE_INPUT = "2\n3\n2\n"
SAMPLE_OUTPUT = (
    "E 1 1 1\nM 1 1 1\nE 2 1 1\nE 1 1 2\nE 1 2 1\nM 1 2 1\nE 1 3 1\nM 1 3 1\n"
    "E 2 3 1\nE 1 3 2\nM 1 3 2\n"
)


def _add_search_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--time",
        type=float,
        metavar="S",
        help="seconds to search (default 10, or no time bound with --nodes)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        metavar="N",
        help="bound every search phase by N nodes: the run depends on the seed only",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="random seed (default 0)")


def _solve(box_text: str, args: argparse.Namespace) -> object:
    from boardlab.core.limits import Limit
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.solver import Solver

    box = Box.parse(box_text)
    bounded = args.time is not None or args.nodes is not None
    limit = Limit(time=args.time, nodes=args.nodes) if bounded else None
    what = f"shongololo {box.length}x{box.width}x{box.height}"
    with ProgressLine(what) as progress:

        def report(phase: str, best: int) -> None:
            progress.update(completed=best, description=f"{what}: {phase}, best {best} blocks")

        return Solver(limit, args.seed, report).solve(box)


# -- contest mode ----------------------------------------------------------------------------
def _configure_contest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", nargs="?", default="-", help="contest input file (default: stdin)")
    _add_search_arguments(parser)


def _run_contest(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_source
    from boardlab.shongololo.formats import format_actions, parse_input
    from boardlab.shongololo.solver import Solution

    text, source = read_source(args.input)
    box = parse_input(text, source)
    solution = _solve(str(box), args)
    assert isinstance(solution, Solution)
    write_stdout(format_actions(solution.actions))
    return 0


# -- solve ------------------------------------------------------------------------------------
def _configure_solve(parser: argparse.ArgumentParser) -> None:
    for name, axis in (("L", "length"), ("W", "width"), ("H", "height")):
        parser.add_argument(name, type=int, help=f"{axis} of the fruit, 1..32")
    _add_search_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--show", action="store_true", help="draw the eaten blocks layer by layer")
    parser.add_argument("--svg", metavar="FILE", help="write an SVG picture of the layers")
    parser.add_argument("--output", metavar="FILE", help="write the E/M lines to FILE")


def _run_solve(args: argparse.Namespace) -> int:
    from boardlab.shongololo.formats import format_actions
    from boardlab.shongololo.rules import Shongololo
    from boardlab.shongololo.solver import Solution

    solution = _solve(f"{args.L} {args.W} {args.H}", args)
    assert isinstance(solution, Solution)
    box = solution.box
    state = Shongololo(box)
    for action in solution.actions:
        state.push(action)
    outputs = []  # written together: all of them or none
    if args.output:
        outputs.append((args.output, format_actions(solution.actions)))
    if args.svg:
        from boardlab.render.shongololo import svg_picture

        outputs.append((args.svg, svg_picture(state)))
    write_files_atomically(outputs)
    if args.json:
        write_stdout(json.dumps(solution.as_dict()) + "\n")
    else:
        proof = "proven optimal" if solution.proven else "not proven optimal"
        lines = [
            f"fruit {box.length}x{box.width}x{box.height} ({box.volume} blocks): "
            f"{solution.eaten} eaten in {len(state.path)} moves",
            f"bound {solution.bound}: {solution.ratio:.1%} of the bound, "
            f"{solution.density:.1%} of the fruit; {proof}",
            f"best by {solution.method}; {solution.nodes} search nodes in {solution.seconds:.2f} s",
        ]
        write_stdout("\n".join(lines) + "\n")
    if args.show:
        from boardlab.render.shongololo import layers_text

        write_stdout("\n" + layers_text(state) + "\n")
    return 0


# -- judge ------------------------------------------------------------------------------------
def _configure_judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("input", help="contest input file (L, W, H)")
    parser.add_argument("output", help="the program's output (E/M lines), - for stdin")
    parser.add_argument(
        "--best", type=int, metavar="N", help="best known count: also print the contest score"
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    parser.add_argument("--show", action="store_true", help="draw the eaten blocks")


def _run_judge(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_source
    from boardlab.shongololo.formats import parse_input
    from boardlab.shongololo.judge import judge_text
    from boardlab.shongololo.rules import upper_bound

    if args.best is not None and args.best < 1:
        raise BoardlabError(f"--best must be a positive count of blocks, got {args.best}")
    text, source = read_source(args.input)
    box = parse_input(text, source)
    if args.best is not None and args.best > upper_bound(box):
        raise BoardlabError(
            f"--best {args.best}: no run in this box eats more than {upper_bound(box)} blocks"
        )
    output, output_source = read_source(args.output)
    verdict = judge_text(box, output, output_source, best=args.best)
    if args.json:
        write_stdout(json.dumps(verdict.as_dict()) + "\n")
    else:
        lines = [verdict.summary()]
        if args.best is not None:
            lines.append(f"score: {verdict.score(args.best):.1f}% of the best known {args.best}")
        write_stdout("\n".join(lines) + "\n")
    if args.show and verdict.valid:
        from boardlab.render.shongololo import layers_text
        from boardlab.shongololo.formats import parse_actions
        from boardlab.shongololo.rules import Shongololo

        state = Shongololo(box)
        for entry in parse_actions(output, output_source):
            state.push(entry.action)
        write_stdout("\n" + layers_text(state) + "\n")
    return 0 if verdict.valid else 1


# -- bound ------------------------------------------------------------------------------------
def _configure_bound(parser: argparse.ArgumentParser) -> None:
    for name, axis in (("L", "length"), ("W", "width"), ("H", "height")):
        parser.add_argument(name, type=int, help=f"{axis} of the fruit, 1..32")


def _run_bound(args: argparse.Namespace) -> int:
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.rules import upper_bound

    box = Box(args.L, args.W, args.H)
    bound = upper_bound(box)
    write_stdout(
        f"N = {box.volume}, F = {box.surface}: at most floor((6N - 2 + F) / 10) = {bound} "
        f"blocks ({bound / box.volume:.1%} of the fruit)\n"
    )
    return 0


def _warm_up() -> None:
    """The demo's searches on small fruits, so that their kernels are compiled."""
    from boardlab.core.limits import Limit
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.formats import parse_input
    from boardlab.shongololo.solver import Solver

    Solver(Limit(time=10.0)).solve(parse_input(SAMPLE_INPUT, "<sample>"))
    Solver(Limit(time=10.0), construction_rounds=2, local_rounds=0).solve(Box(4, 4, 4))


def _demo() -> list[str]:
    from boardlab.core.limits import Limit
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.formats import parse_input
    from boardlab.shongololo.judge import judge_text
    from boardlab.shongololo.solver import Solver

    box = parse_input(SAMPLE_INPUT, "<sample>")
    lines = [f"the statement's sample output: {judge_text(box, SAMPLE_OUTPUT).summary()}"]
    sample = Solver(Limit(time=1.0)).solve(box)
    proof = "proven optimal" if sample.proven else "not proven"
    lines.append(f"2x3x2: {sample.eaten} eaten (bound {sample.bound}), {proof}, by {sample.method}")
    big = Solver(Limit(time=1.0), construction_rounds=2, local_rounds=0).solve(Box(16, 16, 16))
    lines.append(
        f"16x16x16: {big.eaten} eaten of {big.box.volume} (bound {big.bound}, "
        f"{big.ratio:.1%} of it), judged legal, {big.seconds:.2f} s"
    )
    return lines


_CONTEST = Verb(
    "contest",
    "read L, W, H (stdin or FILE), write the E/M lines of a long legal run",
    _configure_contest,
    _run_contest,
)
GAME = Game(
    "shongololo",
    "Toxic iShongololo (IOI 1997): eat the most blocks of an L x W x H fruit",
    (
        Verb(
            "solve",
            "solve L W H: count, bound, ratio; --show draws the layers",
            _configure_solve,
            _run_solve,
        ),
        Verb(
            "judge",
            "judge INPUT OUTPUT: replay an E/M list, count or first broken rule",
            _configure_judge,
            _run_judge,
        ),
        Verb(
            "bound",
            "the proven upper bound floor((6N - 2 + F) / 10) for L W H",
            _configure_bound,
            _run_bound,
        ),
    ),
    default=_CONTEST,
    demo=_demo,
    warm_up=_warm_up,
)
