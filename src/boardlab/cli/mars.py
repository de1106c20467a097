"""Interface layer: ``boardlab mars``: contest output, the optimal plan with its proof, the judge.

``boardlab mars FILE`` writes the move list and nothing else (``-`` reads stdin);
``solve`` explains the optimum, ``judge`` scores any move list against it.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_file_atomically

if TYPE_CHECKING:
    from boardlab.mars.solver import Solution
    from boardlab.mars.values import MarsMap

__all__ = ["GAME"]

_BACKENDS = ("auto", "ortools", "networkx")


def _read_map(path: str) -> MarsMap:
    from boardlab.core.textio import read_source
    from boardlab.mars.formats import parse_map

    text, source = read_source(path)
    return parse_map(text, source)


def _configure_contest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the map (MARS.DAT format); - for stdin")


def _run_contest(args: argparse.Namespace) -> int:
    from boardlab.mars.solver import solve

    output = solve(_read_map(args.file), certify=False).moves_text()
    sys.stdout.write(output)
    return 0


def _summary(solution: Solution) -> list[str]:
    mars = solution.mars
    lines = [
        f"map: {mars.width} x {mars.height}, {mars.vehicles} vehicle(s), {mars.rocks} rock(s)",
    ]
    if not solution.reachable:
        lines += [
            "the transmitter cannot be reached from the pod: no vehicle can arrive",
            f"best possible: {solution.best} points (every vehicle stays in the pod; "
            "any legal answer scores the same, 100%)",
        ]
        return lines
    cert = solution.certificate
    lines += [
        f"samples delivered: {solution.max_rocks} (the most possible), "
        f"vehicles arriving: {mars.vehicles}",
        f"best possible: {solution.best} points = {solution.max_rocks} samples + "
        f"{mars.vehicles} vehicles",
        f"method: {solution.method}"
        + (
            f" ({solution.cover} vehicle(s) collect every collectible rock)"
            if solution.cover
            else ""
        ),
        f"routes: {len(solution.routes)} distinct, "
        f"{sum(len(r.directions) * r.vehicles for r in solution.routes)} output lines",
    ]
    if cert is not None:
        if cert.method == "chain cover":
            lines.append(
                f"proof: all {cert.bound} rocks on some pod-to-transmitter path are delivered, "
                f"none more exists ({cert.unreachable_rocks} rock(s) lie off every path)"
            )
        else:
            lines.append(
                f"proof: residual potentials leave no negative reduced cost "
                f"({'checked' if cert.reduced_costs_ok else 'CHECK FAILED'}); dual bound "
                f"{mars.vehicles} x {cert.levels} level(s) + {cert.free_rocks} free rock(s) "
                f"= {cert.bound}"
            )
            big = sum(1 for g in cert.groups if len(g) > 1)
            lines.append(
                f"  as rock groups no vehicle can visit twice: {big} level group(s) + "
                f"{len(cert.groups) - big} single(s), sum of min(size, {mars.vehicles}) "
                f"= {cert.group_bound}"
            )
        verdict = "proven optimal" if solution.proven else "NOT PROVEN"
        lines.append(f"{verdict}: flow value {solution.max_rocks} = bound {cert.bound}")
    lines.append(f"time: {solution.seconds:.3f} s")
    return lines


def _configure_solve(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the map (MARS.DAT format); - for stdin")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--show", action="store_true", help="draw the routes as ASCII")
    parser.add_argument("--svg", metavar="OUT", help="write an SVG picture of the routes")
    parser.add_argument(
        "--backend",
        choices=_BACKENDS,
        default="auto",
        help="auto: chain cover, then OR-tools min-cost flow when vehicles are short",
    )


def _run_solve(args: argparse.Namespace) -> int:
    from boardlab.mars.solver import solve

    mars = _read_map(args.file)
    solution = solve(mars, backend=args.backend)
    routes = [r.directions for r in solution.routes]
    svg_text = None
    if args.svg:
        from boardlab.render.mars import svg_routes

        svg_text = svg_routes(mars, routes, title=f"Mars explorer: {args.file}")
    if args.json:
        out = json.dumps(solution.as_dict(), indent=2) + "\n"
    else:
        lines = _summary(solution)
        if args.show:
            from boardlab.render.mars import LETTERS, ascii_routes, label

            lines.append("")
            lines.extend(ascii_routes(mars, routes).splitlines())
            for index, route in enumerate(solution.routes[:LETTERS]):
                last = route.first_vehicle + route.vehicles - 1
                who = f"vehicle {route.first_vehicle}" + (
                    f"..{last}" if last > route.first_vehicle else ""
                )
                lines.append(f"  {label(index)}: {who}, collects {route.new_rocks} new rock(s)")
            if len(solution.routes) > LETTERS:
                lines.append(f"  ({len(solution.routes) - LETTERS} more routes reuse the letters)")
        out = "\n".join(lines) + "\n"
    if svg_text is not None:
        write_file_atomically(args.svg, svg_text)
    sys.stdout.write(out)
    return 0


def _configure_judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the map (MARS.DAT format)")
    parser.add_argument("moves", metavar="MOVES", help="the move list to score; - for stdin")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def _run_judge(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_source
    from boardlab.mars.judge import judge
    from boardlab.mars.solver import solve

    mars = _read_map(args.file)
    moves, source = read_source(args.moves)
    best = solve(mars, certify=False).best
    verdict = judge(mars, moves, best=best, source=source)
    if args.json:
        sys.stdout.write(json.dumps(verdict.as_dict(), indent=2) + "\n")
    else:
        sys.stdout.write("\n".join(verdict.lines()) + "\n")
    return 0 if verdict.legal else 1


def _demo() -> list[str]:
    from boardlab.mars.formats import SAMPLE_MAP, SAMPLE_MOVES, parse_map
    from boardlab.mars.judge import judge
    from boardlab.mars.solver import solve

    mars = parse_map(SAMPLE_MAP, "<sample>")
    solution = solve(mars)
    mine = judge(mars, solution.moves_text(), best=solution.best)
    theirs = judge(mars, SAMPLE_MOVES, best=solution.best)
    cert = solution.certificate
    return [
        f"statement sample: {mars.width} x {mars.height}, {mars.vehicles} vehicles, "
        f"{mars.rocks} rocks",
        f"optimum: {solution.max_rocks} samples, best {solution.best} points "
        f"({solution.method}; bound {cert.bound if cert else '-'}, "
        f"{'proven' if solution.proven else 'not proven'})",
        f"our {mine.steps} steps judged: {mine.score} of {mine.best} points, {mine.percent:.0f}%",
        f"statement's sample output judged: {theirs.score} of {theirs.best} points, "
        f"{theirs.percent:.0f}%",
    ]


_CONTEST = Verb(
    "contest",
    "write the optimal move list for FILE (contest mode: nothing else)",
    _configure_contest,
    _run_contest,
)
_SOLVE = Verb(
    "solve",
    "the optimum with its proof; --show ASCII routes, --svg OUT, --json",
    _configure_solve,
    _run_solve,
)
_JUDGE = Verb(
    "judge",
    "replay and score a move list (0 on any illegal step, % of the best)",
    _configure_judge,
    _run_judge,
)

GAME = Game(
    "mars",
    "Mars explorer (IOI 1997): optimal vehicle routes and their judge",
    (_SOLVE, _JUDGE),
    default=_CONTEST,
    demo=_demo,
)
