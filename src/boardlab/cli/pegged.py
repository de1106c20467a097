"""Interface layer: ``boardlab pegged``, the PEGGED contest program (POTM 1997) and its tools.

``boardlab pegged FILE`` is the contest mode: only the moves on stdout, one
``FROM TO`` a line, nothing on stderr. The verbs ``solve``, ``judge``, ``bench`` and
``generate`` report scores, bounds and verdicts for people.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.cli._command import Game, Verb
from boardlab.cli._io import write_stdout
from boardlab.cli._progress import ProgressLine
from boardlab.core.words import counted

if TYPE_CHECKING:
    from boardlab.core.limits import Limit
    from boardlab.pegs.pegged import PeggedResult, Progress
    from boardlab.pegs.rules import Position

__all__ = ["GAME"]

DEFAULT_TIME = 60.0
BENCH_TIME = 10.0
_MARGIN = 2.0  # seconds kept back from --time for start-up, judging and output
_MARGIN_SHARE = 4  # ... but never more than this share of a short --time
_SHORTEST_BUDGET = 0.2  # the search gets at least this many seconds


def _add_time_seed(parser: argparse.ArgumentParser, default_time: float = DEFAULT_TIME) -> None:
    parser.add_argument(
        "--time",
        type=float,
        metavar="S",
        help=f"time budget in seconds (default {default_time:g}, none with --nodes alone)",
    )
    parser.add_argument(
        "--nodes",
        type=int,
        metavar="N",
        help="node budget: exact-search positions plus beam states (the same answer on any "
        "machine)",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="N", help="search seed (default 0)")
    parser.set_defaults(default_time=default_time)


def _limit(args: argparse.Namespace) -> Limit:
    """The search limit of ``--time`` and ``--nodes`` (a margin kept back from the time).

    :raises BoardlabError: for a time or node budget that is not positive.
    """
    from boardlab.core.errors import BoardlabError
    from boardlab.core.limits import Limit

    seconds = args.time
    if seconds is None and args.nodes is None:
        seconds = args.default_time
    if seconds is None:
        return Limit(nodes=args.nodes)
    if not seconds > 0:
        raise BoardlabError(f"--time must be positive, got {seconds:g}")
    budget = max(_SHORTEST_BUDGET, seconds - min(_MARGIN, seconds / _MARGIN_SHARE))
    return Limit(time=budget, nodes=args.nodes)


def _read(path: str) -> Position:
    from boardlab.core.textio import read_source
    from boardlab.pegs.pegged import load_board

    text, source = read_source(path)
    return load_board(text, source)


def _solve(position: Position, limit: Limit, seed: int, progress: Progress | None) -> PeggedResult:
    from boardlab.pegs.pegged import PeggedSolver

    return PeggedSolver(limit, seed, progress=progress).solve(position)


def _moves_text(position: Position, result: PeggedResult) -> str:
    from boardlab.pegs.formats import format_moves

    return format_moves(result.moves, position.board, style="pegged")


# -- contest mode --------------------------------------------------------------------------
def _configure_contest(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the board file (_ no hole, O hole, X peg)")
    _add_time_seed(parser)


def _run_contest(args: argparse.Namespace) -> int:
    position = _read(args.file)
    result = _solve(position, _limit(args), args.seed, None)
    write_stdout(_moves_text(position, result))
    return 0


# -- solve ---------------------------------------------------------------------------------
def _configure_solve(parser: argparse.ArgumentParser) -> None:
    _configure_contest(parser)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument("--show", action="store_true", help="also draw the board before and after")


class _Progress(ProgressLine):
    """PEGGED's ``progress(moves, bound, elapsed)`` callback on the one progress display."""

    def __init__(self) -> None:
        super().__init__("PEGGED")

    def __call__(self, moves: int, bound: int, elapsed: float) -> None:
        self.update(description=f"{elapsed:6.1f} s: {moves} moves (lower bound {bound})")


def _run_solve(args: argparse.Namespace) -> int:
    position = _read(args.file)
    with _Progress() as progress:
        result = _solve(position, _limit(args), args.seed, progress)
    if args.json:
        write_stdout(json.dumps(result.as_dict()) + "\n")
        return 0
    moves = _moves_text(position, result)
    lines = [
        f"{Path(args.file).name}: {position.peg_count} pegs, {position.board.size} holes",
        f"answer: {counted(result.moves_count, 'move')} ({counted(result.jumps, 'jump')}, "
        f"{counted(result.walks, 'walk')}), "
        f"last peg {result.last_peg}, tiebreak {result.tiebreak}",
        f"lower bound: {result.bound} moves"
        + (f" ({result.proof})" if result.proof else f"; gap {result.gap}"),
        f"optimal: {'yes' if result.proven else 'not proven'}; "
        f"{result.runs} beam runs in {result.seconds:.2f} s, seed {result.seed}",
    ]
    if args.show:
        from boardlab.render.pegs import diagram

        final = position.copy()
        for move in result.moves:
            final.push(move)
        lines += ["start:", diagram(position), "end:", diagram(final)]
    lines.append("moves:")
    write_stdout("\n".join(lines) + "\n" + moves)
    return 0


# -- judge ---------------------------------------------------------------------------------
def _configure_judge(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the board file")
    parser.add_argument("moves", metavar="MOVES", help="the answer: FROM TO per line ('-' = stdin)")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def _run_judge(args: argparse.Namespace) -> int:
    from boardlab.core.textio import read_text
    from boardlab.pegs.judge import judge_text

    position = _read(args.file)
    verdict = judge_text(position, read_text(args.moves), walks=True)
    if args.json:
        write_stdout(json.dumps(verdict.as_dict()) + "\n")
    else:
        text = verdict.summary()
        if verdict.valid and not verdict.solved:
            text += "; not reduced to one peg: scores nothing"
        write_stdout(text + "\n")
    return 0 if verdict.solved else 1


# -- bench ---------------------------------------------------------------------------------
def _configure_bench(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("folder", metavar="DIR", help="a folder of board files (*.txt)")
    _add_time_seed(parser, BENCH_TIME)


def _run_bench(args: argparse.Namespace) -> int:
    from boardlab.core.errors import BoardlabError

    folder = Path(args.folder)
    if not folder.is_dir():
        raise BoardlabError(f"{args.folder!r} is not a folder")
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.suffix == ".txt")
    if not files:
        raise BoardlabError(f"no board files (*.txt) in {args.folder!r}")
    rows = [
        f"{'board':<24} {'pegs':>5} {'moves':>6} {'walks':>6} {'bound':>6} {'gap':>4} "
        f"{'tie':>4} {'optimal':>7} {'seconds':>8}"
    ]
    limit = _limit(args)
    total = bound_total = 0
    for path in files:
        position = _read(str(path))
        result = _solve(position, limit, args.seed, None)
        total += result.moves_count
        bound_total += result.bound
        rows.append(
            f"{path.name:<24} {position.peg_count:>5} {result.moves_count:>6} "
            f"{result.walks:>6} {result.bound:>6} {result.gap:>4} {result.tiebreak:>4} "
            f"{'yes' if result.proven else 'no':>7} {result.seconds:>8.2f}"
        )
    rows.append(
        f"{'total':<24} {'':>5} {total:>6} {'':>6} {bound_total:>6} {total - bound_total:>4}"
    )
    write_stdout("\n".join(rows) + "\n")
    return 0


# -- generate ------------------------------------------------------------------------------
def _configure_generate(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rows", type=int, default=25, help="odd, 3..25 (default 25)")
    parser.add_argument("--cols", type=int, default=49, help="odd, 3..49 (default 49)")
    parser.add_argument("--pegs", type=int, default=400, help="number of pegs (default 400)")
    parser.add_argument("--density", type=float, default=0.85, help="share of cells with a hole")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")


def _run_generate(args: argparse.Namespace) -> int:
    from boardlab.pegs.pegged.generate import random_board_text

    write_stdout(random_board_text(args.rows, args.cols, args.pegs, args.seed, args.density))
    return 0


# -- demo ----------------------------------------------------------------------------------
#: The contest FAQ's system-test board 1, the demo's board.
FAQ_BOARD_1 = (
    "______OOO______\n_____OOOOO_____\n____XOXXXOX____\n___OOOXXXOOO___\n"
    "___OXXXXXXXO___\n___OXXXOXXXO___\n___OXXXXXXXO___\n___OOOXXXOOO___\n"
    "____XOXXXOX____\n_____OOOOO_____\n______OOO______\n"
)
#: The demo's time for the solver (its kernels loaded before, by :func:`_warm_up`).
DEMO_SECONDS = 5.0


def _warm_up() -> None:
    from boardlab.pegs.pegged import load_board, warm_up

    warm_up(load_board(FAQ_BOARD_1, "faq-board-1"))


def _demo() -> list[str]:
    from boardlab.core.limits import Limit
    from boardlab.pegs.judge import judge_moves
    from boardlab.pegs.pegged import PeggedSolver, load_board

    position = load_board(FAQ_BOARD_1, "faq-board-1")
    result = PeggedSolver(Limit(time=DEMO_SECONDS), seed=0).solve(position)
    verdict = judge_moves(position, result.moves)
    first = " ".join(f"{m.src}-{m.dst}" for m in result.moves[:4])
    return [
        f"FAQ system-test board 1: {position.peg_count} pegs on {position.board.size} holes",
        f"solver: {counted(result.moves_count, 'move')} ({counted(result.walks, 'walk')}), "
        f"last peg {result.last_peg}, tiebreak {result.tiebreak}, lower bound {result.bound}, "
        f"optimal {'yes' if result.proven else 'not proven'} "
        f"({counted(result.runs, 'beam run')}, {counted(result.nodes, 'node')})",
        f"first moves: {first} ...",
        f"judge: {verdict.summary()}",
    ]


_CONTEST = Verb(
    "contest",
    "contest mode: print only the moves (FROM TO per line)",
    _configure_contest,
    _run_contest,
)

GAME = Game(
    "pegged",
    "PEGGED (1997 POTM): reduce a board to one peg with the fewest walks and jumps",
    (
        Verb(
            "solve",
            "the answer with its score, lower bound and optimality (--json, --show)",
            _configure_solve,
            _run_solve,
        ),
        Verb(
            "judge",
            "check an answer: exit 0 solved, 1 invalid or unfinished, 2 bad input",
            _configure_judge,
            _run_judge,
        ),
        Verb(
            "bench",
            "solve every board file in a folder, print a table",
            _configure_bench,
            _run_bench,
        ),
        Verb("generate", "print a random board file (seeded)", _configure_generate, _run_generate),
    ),
    default=_CONTEST,
    demo=_demo,
    warm_up=_warm_up,
)
