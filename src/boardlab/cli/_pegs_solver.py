"""Interface layer: the solver verbs of ``boardlab pegs``: solve, count, minmoves, table,
classify.

Exit status: 0 with an answer, 1 when the answer is "no solution" (proven), 2 for bad
input or a time limit reached without an answer. Output is built whole and written
only at the end; progress goes to stderr, only on a terminal and after one second.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.cli._command import Verb
from boardlab.cli._io import write_stdout
from boardlab.cli._pegs_args import BOARD_HELP, add_board_arguments, read_board, word_or_file
from boardlab.cli._pegs_cluster import add_cluster_arguments, run_analysis
from boardlab.cli._progress import ProgressLine
from boardlab.core.errors import BoardlabError
from boardlab.core.folders import make_folder

if TYPE_CHECKING:
    from boardlab.core.limits import Limit
    from boardlab.pegs.boards import Board
    from boardlab.pegs.cells import Jump
    from boardlab.pegs.solver import Analysis, Classification, MinMoves, Problem
    from boardlab.pegs.solver.starts import StartRow, StartTable
    from boardlab.pegs.solver.table_checks import TableCheck

__all__ = ["VERBS", "demo_lines"]


class _Progress(ProgressLine):
    """The solver's ``progress(done, total, label)`` callback on the one progress display."""

    def __init__(self) -> None:
        super().__init__("solving")

    def __call__(self, done: int, total: int, label: str) -> None:
        self.update(completed=done, total=total, description=label)


def _add_problem_arguments(parser: argparse.ArgumentParser) -> None:
    add_board_arguments(parser)
    parser.add_argument(
        "--goal",
        metavar="GOAL",
        help="centre (the home hole; default), a hole name (one peg there), "
        "ANY (one peg anywhere) or a board file of the final pegs",
    )
    parser.add_argument("--time", type=float, metavar="S", help="time limit in seconds")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _limit(args: argparse.Namespace) -> Limit:
    from boardlab.core.limits import Limit

    return Limit(time=args.time, nodes=getattr(args, "nodes", None))


def _problem(args: argparse.Namespace) -> Problem:
    from boardlab.pegs.formats import parse_goal
    from boardlab.pegs.solver import make_problem

    position = read_board(args.board, args.start)
    board = position.board
    goal = None
    if args.goal is not None:
        # a goal board file is read here; the formats layer parses its text
        goal = parse_goal(board, word_or_file(args.goal), source=args.goal)
    if goal is None and board.home is None:
        goal = parse_goal(board, "ANY")
    return make_problem(board, position.bits, goal)


def _describe(problem: Problem) -> str:
    board = problem.board
    return (
        f"{board.name}, {problem.start_pegs} pegs at the start, goal {problem.goal.text} "
        f"({problem.goal.pegs} peg{'s' if problem.goal.pegs > 1 else ''})"
    )


def _moves_text(problem: Problem, moves: tuple[Jump, ...], style: str) -> str:
    from boardlab.pegs.formats import format_moves

    if style == "pegged" and problem.board.triangular:
        from boardlab.core.errors import BoardlabError

        raise BoardlabError("--format pegged needs a square-lattice board")
    return format_moves(list(moves), problem.board, style)


def _diagrams(problem: Problem, moves: tuple[Jump, ...]) -> str:
    from boardlab.pegs.rules import Position
    from boardlab.render.pegs import diagram

    position = Position(problem.board, problem.start)
    parts = [diagram(position)]
    for move in moves:
        position.push(move)
        parts.append(f"{problem.board.move_text(move)}\n{diagram(position)}")
    return "\n\n".join(parts) + "\n"


# -- solve ------------------------------------------------------------------------------------
def _configure_solve(parser: argparse.ArgumentParser) -> None:
    _add_problem_arguments(parser)
    parser.add_argument("--show", action="store_true", help="draw the board after each jump")
    parser.add_argument(
        "--nodes",
        type=int,
        metavar="N",
        help="node limit (a limit that does not depend on the clock)",
    )
    parser.add_argument(
        "--format",
        choices=("board", "pegged"),
        default="board",
        help="board: the board's notation with the evidence; pegged: only FROM TO lines",
    )


def _run_solve(args: argparse.Namespace) -> int:
    from boardlab.pegs.solver import solve

    problem = _problem(args)
    with _Progress() as progress:
        result = solve(problem, _limit(args), progress)
    evidence = f"nodes {result.nodes}, {result.seconds:.3f} s, proven {str(result.proven).lower()}"
    if args.json:
        write_stdout(json.dumps(result.as_dict()) + "\n")
    elif args.format == "pegged":
        write_stdout(_moves_text(problem, result.moves, "pegged") if result.solved else "")
    else:
        lines = [_describe(problem)]
        if result.solved:
            how = "" if result.reason == "solution found" else f" ({result.reason})"
            lines.append(f"solved in {len(result.moves)} jumps{how}; {evidence}")
        else:
            lines.append(f"no solution: {result.reason}; {evidence}")
        text = "\n".join(lines) + "\n" + _moves_text(problem, result.moves, "board")
        if args.show and result.solved:
            text += "\n" + _diagrams(problem, result.moves)
        write_stdout(text)
    return 0 if result.solved else 1


# -- count ------------------------------------------------------------------------------------
def _configure_count(parser: argparse.ArgumentParser) -> None:
    _add_problem_arguments(parser)
    parser.add_argument(
        "--no-symmetry", action="store_true", help="do not reduce by the board's symmetry"
    )
    parser.add_argument(
        "--min-moves",
        action="store_true",
        help="also prove the minimum number of moves from the same pass "
        '(what `pegs minmoves` prints; under "minmoves" in --json)',
    )
    add_cluster_arguments(parser)


def _run_count(args: argparse.Namespace) -> int:
    from boardlab.pegs.solver import make_problem, min_moves

    problem = _problem(args)
    if args.no_symmetry:
        problem = make_problem(problem.board, problem.start, problem.goal, symmetry=False)
    limit = _limit(args)
    fewest = None
    with _Progress() as progress:
        found = run_analysis(args, problem, limit, progress, keep_winning=args.min_moves)
        if args.min_moves:  # the same levels and winning positions, no second pass
            fewest = min_moves(problem, limit, progress, analysis=found)
    if args.json:
        record = found.as_dict()
        if fewest is not None:
            record["minmoves"] = fewest.as_dict()
        write_stdout(json.dumps(record) + "\n")
        return 0
    lines = [
        _describe(problem) + f"; symmetry group of order {len(problem.group)}",
        f"{'pegs':>4} {'classes':>12} {'boards':>13} {'win classes':>12} {'win boards':>13}",
    ]
    for level in found.levels:
        lines.append(
            f"{level.pegs:>4} {level.classes:>12,} {level.boards:>13,} "
            f"{level.win_classes:>12,} {level.win_boards:>13,}"
        )
    lines.append(
        f"{'all':>4} {found.classes:>12,} {found.boards:>13,} "
        f"{found.win_classes:>12,} {found.win_boards:>13,}"
    )
    lines.append(f"solutions: {found.solutions:,}")
    if problem.goal.bits is None:
        board = problem.board
        ends = (f"{board.hole_name(board.cells[h])} {n:,}" for h, n in found.finishes.items())
        lines.append("by finishing hole: " + (", ".join(ends) or "none"))
    lines.extend(games_lines(problem, found))
    lines.append(f"time: {found.seconds:.2f} s")
    if fewest is not None:
        lines.extend(minmoves_lines(fewest))
    write_stdout("\n".join(lines) + "\n")
    return 0


def games_lines(problem: Problem, found: Analysis) -> list[str]:
    """The games part of ``count``: every complete game, and one shortest game."""
    games = found.games
    if games is None:
        return []
    moves = " ".join(problem.board.move_text(move) for move in games.shortest)
    return [
        f"games: {games.total:,} (every line of play until no jump is left)",
        f"shortest game: {games.shortest_jumps} jumps, {games.shortest_pegs} pegs left: "
        + (moves or "(no jump at the start)"),
    ]


# -- minmoves ---------------------------------------------------------------------------------
def _configure_minmoves(parser: argparse.ArgumentParser) -> None:
    _add_problem_arguments(parser)
    parser.add_argument(
        "--format",
        choices=("board", "pegged"),
        default="board",
        help="board: one move (a chain of jumps) a line with the evidence; "
        "pegged: only FROM TO jump lines",
    )
    add_cluster_arguments(parser)


def _run_minmoves(args: argparse.Namespace) -> int:
    from boardlab.pegs.solver import min_moves

    problem = _problem(args)
    limit = _limit(args)
    with _Progress() as progress:
        found = run_analysis(args, problem, limit, progress, keep_winning=True, games=False)
        result = min_moves(problem, limit, progress, analysis=found)
    if args.json:
        write_stdout(json.dumps(result.as_dict()) + "\n")
    elif args.format == "pegged":
        write_stdout(_moves_text(problem, result.jumps, "pegged"))
    else:
        write_stdout("\n".join([_describe(problem), *minmoves_lines(result)]) + "\n")
    return 0 if result.moves is not None else 1


def minmoves_lines(result: MinMoves) -> list[str]:
    """The text of ``minmoves`` below the problem line: the proven minimum, then one
    move (the holes its peg visits) a line."""
    if result.moves is None:
        return ["no solution: no winning path (complete level search)"]
    head = (
        f"minimum {result.moves} moves ({len(result.jumps)} jumps); "
        f"proven: every one of {result.positions:,} winning positions measured; "
        f"{result.seconds:.2f} s"
    )
    return [head, *result.chain_names()]


# -- classify ---------------------------------------------------------------------------------
def _configure_classify(parser: argparse.ArgumentParser) -> None:

    parser.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    parser.add_argument(
        "--time",
        type=float,
        metavar="S",
        help="time limit of the whole command (default: none); it then stops with what it "
        "decided, names the starts left open, and exits with status 2",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="one finishing hole a start is enough (the others may stay not decided)",
    )
    parser.add_argument("--ends", action="store_true", help=argparse.SUPPRESS)  # the default
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory budget of the counts that decide what the searches leave open "
        "(default: 80%% of the free memory)",
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def _run_classify(args: argparse.Namespace) -> int:
    from boardlab.core.memory import parse_size
    from boardlab.pegs.judge import judge_moves
    from boardlab.pegs.rules import Position
    from boardlab.pegs.solver import classify

    if args.time is not None and not args.time > 0:
        raise BoardlabError(f"time limit must be positive, got {args.time}")
    board = read_board(args.board).board
    memory = None if args.memory is None else parse_size(args.memory)
    with _Progress() as progress:
        found = classify(
            board, every_end=not args.quick, progress=progress, memory=memory, total=args.time
        )
    name = board.hole_name
    for vacancy, moves in found.solutions:  # every solution found, replayed by the judge
        start = board.grid.full & ~(1 << board.index(vacancy))
        verdict = judge_moves(Position(board, start), list(moves))
        if not verdict.solved:  # pragma: no cover - a solver bug, never user input
            raise AssertionError(f"the judge rejects a solution from {name(vacancy)}")
    if args.json:
        write_stdout(json.dumps(found.as_dict()) + "\n")
    else:
        write_stdout(_classify_text(found))
    if found.stopped:
        left = " ".join(name(cell) for cell in found.undecided) or "none"
        print(
            f"boardlab pegs: time limit of {args.time:g} s reached; starts left open: {left}",
            file=sys.stderr,
        )
        return 2
    return 0


def _classify_text(found: Classification) -> str:
    board = found.board
    name = board.hole_name
    verdicts = found.starts
    lines = []
    for v in verdicts:
        ends = f" -> {' '.join(name(c) for c in v.ends)}" if v.ends else ""
        more = f" (not decided: {' '.join(name(c) for c in v.open)})" if v.open and v.ends else ""
        back = {True: "yes", False: "no", None: "open"}[v.back]
        how = f" ({v.back_how})" if v.back_how else ""
        lines.append(
            f"{name(v.vacancy):>4}: {v.reason}{ends}{more}; back at the start: {back}{how}"
        )
    yes = sum(v.solvable is True for v in verdicts)
    no = sum(v.solvable is False for v in verdicts)
    lines.append(
        f"{board.name}: {yes} of {len(verdicts)} single vacancies can end with one peg, "
        f"{no} cannot, {len(verdicts) - yes - no} undecided; {found.seconds:.1f} s"
    )
    lines.append(
        f"evidence: {len(found.solutions)} solutions found, each replayed by the judge; "
        f"{len(found.proofs)} pagoda proofs"
    )
    return "\n".join(lines) + "\n"


# -- table ------------------------------------------------------------------------------------
def _configure_table(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    parser.add_argument(
        "--start",
        action="append",
        metavar="HOLE",
        help="only the start of this hole (or of its symmetric images); may be repeated",
    )
    parser.add_argument(
        "--no-symmetry",
        action="store_true",
        help="one row a hole, each counted without the board's symmetry (a cross-check)",
    )
    parser.add_argument("--time", type=float, metavar="S", help="time limit of each start")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    parser.add_argument(
        "--drop-shards",
        action="store_true",
        help="with --workdir: delete a start's shards once its row is saved (row.json), "
        "to free the disk for the next start",
    )
    add_cluster_arguments(parser)


#: The file of a start's finished row in its folder of a table's work folder.
ROW_FILE = "row.json"


def _start_folder(workdir: str, board: Board, hole: int) -> Path:
    """The folder of a table's start in its work folder (one a start, each resumes alone)."""
    return Path(workdir) / f"start-{board.hole_name(board.cells[hole])}"


def _save_row(folder: Path, row: StartRow, drop_shards: bool) -> None:
    """Write a start's row to its folder (whole or not at all) and, with ``drop_shards``,
    delete everything else there."""
    import shutil

    folder.mkdir(parents=True, exist_ok=True)
    part = folder / (ROW_FILE + ".part")
    part.write_text(json.dumps(row.as_dict()) + "\n")
    part.replace(folder / ROW_FILE)
    if drop_shards:
        for entry in folder.iterdir():
            if entry.name == ROW_FILE:
                continue
            if entry.is_dir():
                shutil.rmtree(entry)
            else:
                entry.unlink()


def _saved_row(folder: Path, board: Board, orbit: tuple[int, ...]) -> StartRow | None:
    """A start's row an earlier run saved in its folder (None: none)."""
    from boardlab.pegs.solver.starts import StartRow

    path = folder / ROW_FILE
    if not path.exists():
        return None
    try:
        row = StartRow.from_dict(board, json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError, RecursionError) as exc:
        raise BoardlabError(
            f"{path}: not a start's row ({exc}); delete it to count the start again"
        ) from exc
    if sorted(row.orbit) != sorted(orbit):
        raise BoardlabError(f"{path}: a row of another start or symmetry; delete it to count again")
    return row


def _run_table(args: argparse.Namespace) -> int:
    import time

    from boardlab.core.errors import LimitExceededError
    from boardlab.pegs.solver.starts import StartTable, centre_hole, start_table
    from boardlab.pegs.solver.table_checks import check_rows

    board = read_board(args.board).board
    if args.drop_shards and args.workdir is None:
        raise BoardlabError("--drop-shards drops the shards of a work folder: give --workdir DIR")
    if args.drop_shards and args.local_disks:
        raise BoardlabError(
            "--drop-shards cannot reach the shards on the machines' own disks (--local-disks): "
            "remove each machine's DIR/start-HOLE/ after its row.json is written"
        )
    if args.workdir is not None and not Path(args.workdir).is_dir():
        raise BoardlabError(f"--workdir {args.workdir}: no such folder")
    holes = None if args.start is None else [board.index(board.parse_hole(h)) for h in args.start]
    limit = _limit(args)
    with _Progress() as progress:

        def count(problem: Problem) -> Analysis:
            local = argparse.Namespace(**vars(args))
            if args.workdir is not None:  # one folder a start, so each resumes on its own
                vacancy = (board.grid.full & ~problem.start).bit_length() - 1
                folder = _start_folder(args.workdir, board, vacancy)
                make_folder(folder, "the start's folder")
                local.workdir = str(folder)
                local.disk_root = args.workdir  # the budget counts every start's folder
            return run_analysis(local, problem, limit, progress)

        def done(row: StartRow) -> None:
            progress(len(rows) + 1, 0, f"start {board.hole_name(board.cells[row.hole])} done")
            rows.append(row)
            if args.workdir is not None:
                _save_row(_start_folder(args.workdir, board, row.hole), row, args.drop_shards)

        def saved(hole: int, orbit: tuple[int, ...]) -> StartRow | None:
            if args.workdir is None:
                return None
            row = _saved_row(_start_folder(args.workdir, board, hole), board, orbit)
            if row is not None:
                rows.append(row)
            return row

        rows: list[StartRow] = []
        began = time.perf_counter()
        try:
            table = start_table(
                board, count, symmetry=not args.no_symmetry, holes=holes, done=done, saved=saved
            )
            stopped = None
        except LimitExceededError as exc:  # the finished rows are kept and printed
            stopped = exc
            centre_index = centre_hole(board)
            centre_cell = None if centre_index is None else board.cells[centre_index]
            table = StartTable(
                board, not args.no_symmetry, centre_cell, tuple(rows), time.perf_counter() - began
            )
    check = check_rows(board, table.rows)
    if args.json:
        found = table.as_dict()
        found["identities"] = {"checked": check.checked, "failed": list(check.problems)}
        if stopped is not None:
            found["stopped"] = str(stopped)
        write_stdout(json.dumps(found) + "\n")
    else:
        write_stdout(_table_text(table) + _check_text(check))
    if stopped is not None:
        raise LimitExceededError(
            f"{stopped}; the {len(table.rows)} starts finished before it are printed"
        )
    if not check.holds:  # the counts contradict each other: printed, and exit status 1
        print(f"boardlab pegs: the rows disagree: {check.problems[0]}", file=sys.stderr)
        return 1
    return 0


def _check_text(check: TableCheck) -> str:
    """The identities between the rows, as the table's last lines."""
    if check.holds:
        return (
            f"checks: {check.checked:,} identities between the rows hold (sums by finishing "
            "hole, symmetries of each start, reversal)\n"
        )
    return "".join(f"FAILS {problem}\n" for problem in check.problems)


def _table_text(table: StartTable) -> str:
    board = table.board
    name = board.hole_name
    centre = "none" if table.centre is None else name(table.centre)
    head = ("start", "holes", "solutions", "centre", "back", "shortest", "games")
    cells = [head]
    for row in table.rows:
        mid = "-" if row.centre is None else f"{row.centre:,}"
        cells.append(
            (name(board.cells[row.hole]), str(len(row.orbit)), f"{row.solutions:,}", mid,
             f"{row.back:,}", str(row.shortest), f"{row.games:,}")
        )  # fmt: skip
    widths = [max(len(line[k]) for line in cells) for k in range(len(head))]
    lines = [
        f"{board.name}: {len(table.rows)} starts "
        + ("up to symmetry" if table.symmetry else "(no symmetry)")
        + f"; centre {centre}"
    ]
    lines.extend(" ".join(f"{v:>{w}}" for v, w in zip(line, widths, strict=True)) for line in cells)
    lines.append(
        "solutions: to one peg anywhere; centre: the last peg in the centre; back: in the "
        "starting hole; shortest: fewest jumps to a dead end; games: every line of play"
    )
    lines.append(f"time: {table.seconds:.2f} s")
    return "\n".join(lines) + "\n"


def demo_lines() -> list[str]:
    """The solver's part of ``boardlab demo``: the English game solved, triangle-5 counted."""
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import analyse, make_problem, parse_goal, solve

    english = named_board("english")
    problem = make_problem(english)
    solve(problem)  # warm-up: compile or load the kernels
    result = solve(problem)
    lines = [
        f"solve english (central game): {len(result.moves)} jumps, {result.nodes} nodes, "
        f"{result.seconds * 1000:.1f} ms; first jumps "
        + " ".join(english.move_text(move) for move in result.moves[:4])
    ]
    triangle = named_board("triangle-5")
    found = analyse(make_problem(triangle, goal=parse_goal(triangle, "ANY")))
    lines.append(
        f"count triangle-5 (vacancy A1, one peg anywhere): {found.classes} classes, "
        f"{found.boards} boards, {found.solutions:,} solutions"
    )
    return lines


VERBS = (
    Verb("solve", "one solution, or the proof that none exists", _configure_solve, _run_solve),
    Verb(
        "count",
        "reachable and winning positions per peg count, and the number of solutions",
        _configure_count,
        _run_count,
    ),
    Verb(
        "minmoves",
        "a solution with the fewest moves (chains of jumps), proven minimal",
        _configure_minmoves,
        _run_minmoves,
    ),
    Verb(
        "table",
        "every single-vacancy start: solutions (anywhere, centre, back at the start), "
        "shortest game, all games",
        _configure_table,
        _run_table,
    ),
    Verb(
        "classify",
        "every single-vacancy start: can one peg remain, and where",
        _configure_classify,
        _run_classify,
    ),
)
