"""Benchmark: boardlab's Hex solver against MoHex 2.0's DFPN on MoHex's own test suites.

A Benzene regression file (``regression/dfpn-puzzle.tst``, ``dfpn-solve-7x7.tst``, ... in
MoHex's public repository, given by path and never committed) is a GTP script: position
commands (``boardsize``, ``loadsgf FILE`` relative to the ``.tst`` file, ``play``,
``undo``) and numbered tests, ``dfpn-solve-state COLOUR`` (who wins with COLOUR to move)
or ``dfpn-solver-find-winning COLOUR`` (its winning moves), each followed by
``#? [expected]``; a ``# Takes N seconds`` comment above a test is the suite's own time
for it (2008 hardware).

Each test is answered, one position at a time, by:

- boardlab: ``hex.prover.solver.solve`` on the position (the SGF read as HexGui reads it, the
  side to move the test's colour), ``--time`` seconds at most; a ``find-winning`` test
  asks the same question as MoHex (``mustplay``: the winning moves among the root's
  must-play set less its inferior cells). Right when the winner is right and, for
  ``find-winning``, every expected move is among the winning moves boardlab proves (the
  two inferior-cell analyses differ, so boardlab may name more, each proven);
- MoHex: a fresh process given the same commands and the test command, its DFPN limited
  to ``--time`` seconds; right when its answer is the expected one.

Beside boardlab's positions analysed, each line gives the positions MoHex's DFPN built
connections for (the ``VC builds`` its log ``default.log`` reports for the question,
summed over its searches): the two programs' counts of analysed positions.

``--memory SIZE`` gives boardlab's solver that memory budget a case (a search past it
stops and the case counts unsolved); the end of the output says how far boardlab's
process grew at its peak over its size before the first case, and which cases the budget
stopped.

Times are wall seconds of the question alone: MoHex's test command once its position is
set up (not its start-up), boardlab's solver call (every kernel of the chosen cases'
board sizes loaded first, :func:`warm_up`). By default
the two answer one after the other; with ``--mohex-cpu N`` MoHex answers on processor
``N`` while boardlab answers on the processor this script is pinned to, at the same time
(each case then costs the longer of the two). With ``--threads N`` each answers with N
workers: boardlab's job-level search on N processes (``dfpn-solve-state`` cases up to
8x8), MoHex's parallel DFPN on N threads, one after the other. With ``--jobs K`` the
chosen cases are split among K processes of this script at once (on a machine of at
least 2K processors: process i on the i-th pair, boardlab on the first, its MoHex
beside it on the second, as ``--mohex-cpu``), and their answers gathered in case order
into one table. With ``--repeat K`` each case is answered K times by each program, the
two taking turns at going first, and a case's time is each program's median (its
verdict the worst of its K, every time printed below the case's line): on a machine
whose speed drifts from minute to minute (a shared virtual machine) one pass can put a
slow spell on one program alone. A table per board size and the ratio of the total
times are printed (an unsolved case counts at the time limit).

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_suite.py \\
        --suite /path/to/benzene/regression/dfpn-puzzle.tst --time 60 --max-size 7
    MOHEX=/path/to/mohex NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/bench_hex_suite.py \\
        --suite /path/to/benzene/regression/dfpn-solve-8x8.tst --time 60 --memory 2G --jobs 8
"""

from __future__ import annotations

import argparse
import atexit
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from boardlab.cluster.process_engine import ProcessEngine
from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.core.memory import format_size, parse_size, peak_resident_memory, resident_memory
from boardlab.hex.formats import parse_sgf
from boardlab.hex.gtp import parse_vertex
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.solver import MAX_CELLS, solve
from boardlab.hex.prover.wide import WideDfpn
from boardlab.hex.rules import BLACK, WHITE, Position
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, mohex_binary

_TEST = re.compile(r"^\d+\s+(dfpn-solve-state|dfpn-solver-find-winning)\s+(\w+)\s*$")
_EXPECT = re.compile(r"^#\?\s*\[(.*)\]")
_TAKES = re.compile(r"Takes\s+(\d+)\s+seconds?")
_BUILDS = re.compile(r"^VC builds\s+(\d+)\s*$", re.M)
#: The log a MoHex process writes in its working folder.
MOHEX_LOG = "default.log"


@dataclass
class Case:
    """One test: the commands that set up its position, the question, the answer."""

    number: int
    setup: list[str]
    command: str
    colour: int
    expected: list[str]
    noted_seconds: float | None
    size: int = 0


@dataclass
class Row:
    cases: int = 0
    ours_nodes: int = 0
    ours_right: int = 0
    ours_unsolved: int = 0
    mohex_right: int = 0
    ours_seconds: float = 0.0
    mohex_seconds: float = 0.0
    mohex_builds: int = 0
    wrong: list[str] = field(default_factory=list)


def read_suite(path: Path) -> list[Case]:
    """The tests of a ``.tst`` file, each with the position commands before it."""
    commands: list[str] = []
    cases: list[Case] = []
    takes: float | None = None
    pending: Case | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line:
            continue
        expect = _EXPECT.match(line)
        if expect and pending is not None:
            pending.expected = expect.group(1).split()
            cases.append(pending)
            pending = None
            continue
        if line.startswith("#"):
            found = _TAKES.search(line)
            if found:
                takes = float(found.group(1))
            continue
        test = _TEST.match(line)
        if test:
            colour = BLACK if test.group(2).lower().startswith("b") else WHITE
            number = int(line.split()[0])
            pending = Case(number, list(commands), test.group(1), colour, [], takes)
            takes = None
            continue
        word = line.split()[0]
        if word in ("boardsize", "loadsgf", "play", "undo"):
            commands.append(line)
    return cases


def position_of(case: Case, folder: Path) -> Position:
    """boardlab's position for a case: its commands replayed, the test's colour to move."""
    position = Position(11)
    played: list[Position] = []
    for line in case.setup:
        words = line.split()
        if words[0] == "boardsize":
            position = Position(int(words[1]))
            played = []
        elif words[0] == "loadsgf":
            source = folder / words[1]
            position = parse_sgf(source.read_text(), str(source))
            played = []
        elif words[0] == "play":
            played.append(position.copy())
            position.to_move = BLACK if words[1].lower().startswith("b") else WHITE
            position.play_index(parse_vertex(words[2], position.size))
        elif words[0] == "undo" and played:
            position = played.pop()
    position.to_move = case.colour
    return position


#: One answer of boardlab's (:func:`ours`) and one of MoHex's (:func:`theirs`).
Ours = tuple[bool | None, float, int, bool]
Theirs = tuple[bool | None, float, int | None]


def ours(
    case: Case, position: Position, seconds: float, memory: int | None = None, threads: int = 1
) -> Ours:
    """(right, or None when unsolved in time or memory; seconds; positions analysed;
    whether its memory budget stopped it): the solver with the memory budget ``memory``
    (bytes; None: its default, for each worker). With ``threads`` above 1 a
    ``dfpn-solve-state`` case of at most 64 cells is proven by that many worker
    processes at once (``hex solve --first --jobs N``), started afresh for the case."""
    started = time.perf_counter()
    find_winning = case.command == "dfpn-solver-find-winning"
    engine = None
    if threads > 1 and not find_winning and position.size**2 <= MAX_CELLS:
        engine = ProcessEngine(threads, pinned=True)
    try:
        result = solve(
            position,
            Limit(time=seconds),
            all_moves=find_winning,
            mustplay=find_winning,
            memory=memory,
            engine=engine,
        )
    finally:
        if engine is not None:
            engine.close()
    spent = time.perf_counter() - started
    by_memory = result.stopped == "memory"
    if result.winner is None or (case.command != "dfpn-solve-state" and not result.complete):
        return None, spent, result.nodes, by_memory
    winner = "black" if result.winner == BLACK else "white"
    if case.command == "dfpn-solve-state":
        return [winner] == case.expected, spent, result.nodes, by_memory
    found = {cell.vertex() for cell in result.winning_moves}
    right = set(case.expected) <= found and bool(found) == bool(case.expected)
    return right, spent, result.nodes, by_memory


def mohex_builds(log: str) -> int | None:
    """The positions MoHex's DFPN built connections for (its ``VC builds`` statistic,
    summed over the searches a question makes: ``find-winning`` may make several), read
    from the text of its log; None when the log has none."""
    found = _BUILDS.findall(log)
    return sum(int(count) for count in found) if found else None


def theirs(
    case: Case,
    binary: str,
    folder: Path,
    workdir: Path,
    seconds: float,
    cpu: int | None = None,
    threads: int = 1,
) -> Theirs:
    """(MoHex right, or None when a ``dfpn-solve-state`` names no winner in time;
    seconds; its VC builds, None if its log names none): a fresh MoHex in ``workdir``
    (it writes its log there), the suite's files named by their full paths, pinned to
    processor ``cpu`` if given, its DFPN on ``threads`` threads (``param_dfpn threads``).
    Only the test command is timed."""
    started = time.perf_counter()
    log = workdir / MOHEX_LOG
    log.unlink(missing_ok=True)
    process = GtpProcess([binary], timeout=seconds + 30, cwd=str(workdir))
    try:
        if cpu is not None:
            os.sched_setaffinity(process.process.pid, {cpu})
        process.command(f"param_dfpn timelimit {seconds}")
        if threads > 1:
            process.command(f"param_dfpn threads {threads}")
        for line in case.setup:
            words = line.split()
            if words[0] == "loadsgf":
                line = f"loadsgf {folder.resolve() / words[1]}"
            process.command(line)
        colour = "black" if case.colour == BLACK else "white"
        started = time.perf_counter()
        answer = process.command(f"{case.command} {colour}", seconds + 30).split()
    except ProtocolError:
        answer = ["(failed)"]
    finally:
        process.close()
    spent = time.perf_counter() - started
    try:
        builds = mohex_builds(log.read_text(errors="replace"))
    except OSError:
        builds = None
    if case.command == "dfpn-solve-state":
        if answer not in (["black"], ["white"]):
            return None, spent, builds
        return answer == case.expected, spent, builds
    return sorted(answer) == sorted(case.expected), spent, builds


#: How a case's answer is printed: right, wrong (boardlab's in capitals) or no answer in time.
STATUS: dict[bool | None, str] = {True: "right", False: "wrong", None: "unsolved"}
_WORD = {word: right for right, word in STATUS.items()}
_WORD["WRONG"] = False
_ANSWER = re.compile(
    r"^\s*case (\d+) \((\d+)x\d+, ([\w-]+)\): boardlab (\w+) ([\d.]+) s \((\d+) positions "
    r"analysed\), MoHex (\w+) ([\d.]+) s \(([\d?]+) VC builds\)\s*$"
)


@dataclass
class Answer:
    """One case answered by both programs, as its line prints it."""

    number: int
    size: int
    command: str
    right: bool | None
    spent: float
    nodes: int
    theirs_right: bool | None
    their_spent: float
    builds: int | None

    def line(self) -> str:
        """The case's line of the output (read back by :meth:`parse`)."""
        status = {**STATUS, False: "WRONG"}[self.right]
        builds = "?" if self.builds is None else self.builds
        return (
            f"  case {self.number} ({self.size}x{self.size}, {self.command}): "
            f"boardlab {status} {self.spent:.1f} s ({self.nodes} positions analysed), "
            f"MoHex {STATUS[self.theirs_right]} {self.their_spent:.1f} s ({builds} VC builds)"
        )

    @classmethod
    def parse(cls, text: str) -> Answer | None:
        """The answer a line of :meth:`line` gives, None for any other line."""
        found = _ANSWER.match(text)
        if found is None:
            return None
        number, size, command, ours_word, spent, nodes, word, their_spent, builds = found.groups()
        return cls(
            int(number), int(size), command, _WORD[ours_word], float(spent), int(nodes),
            _WORD[word], float(their_spent), None if builds == "?" else int(builds),
        )  # fmt: skip

    def add_to(self, row: Row, limit: float) -> None:
        """Count the answer in its board's row (an unsolved case at the time ``limit``)."""
        row.cases += 1
        row.ours_right += self.right is True
        row.ours_nodes += self.nodes
        row.ours_unsolved += self.right is None
        row.mohex_right += self.theirs_right is True
        row.ours_seconds += self.spent if self.right is not None else limit
        row.mohex_seconds += self.their_spent
        row.mohex_builds += self.builds or 0
        if self.right is False:
            row.wrong.append(str(self.number))


def run_in_pairs(argv: Sequence[str] | None, numbers: list[int], args: argparse.Namespace) -> int:
    """The chosen cases split among ``args.jobs`` processes of this script run at once,
    process ``i`` pinned to the ``2 i``-th processor this one may use with its MoHex on the
    next (each case as ``--mohex-cpu`` runs it); their case lines in case order and one
    table."""
    # each process this run's arguments, one job (argparse keeps an option's last value),
    # its own processor for MoHex and its own cases
    given = [*(sys.argv[1:] if argv is None else argv), "--jobs", "1"]
    groups = [numbers[i :: args.jobs] for i in range(args.jobs)]
    cpus = sorted(os.sched_getaffinity(0))
    running = []
    for i, group in enumerate(groups):
        if not group:
            continue
        ours_cpu, their_cpu = cpus[2 * i], cpus[2 * i + 1]
        command = [sys.executable, __file__, *given, "--mohex-cpu", str(their_cpu)]
        command += ["--cases", *map(str, group)]
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=partial(os.sched_setaffinity, 0, {ours_cpu}),
        )
        running.append((i, process))
    answers: list[Answer] = []
    failed = False
    for i, process in running:
        out, _ = process.communicate()
        for text in out.splitlines():
            answer = Answer.parse(text)
            if answer is not None:
                answers.append(answer)
            elif text.startswith("boardlab's process grew"):
                print(f"process {i}: {text}")
        if process.returncode == 2:
            failed = True
            last = out.strip().splitlines()[-1:] or ["no output"]
            print(f"process {i} failed: {last[0]}", file=sys.stderr)
    rows: dict[int, Row] = defaultdict(Row)
    for answer in sorted(answers, key=lambda a: a.number):
        answer.add_to(rows[answer.size], args.time)
        print(answer.line())
    print_tables(rows, args)
    if failed:
        return 2
    return 1 if any(row.wrong for row in rows.values()) else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", type=Path, required=True, help="a Benzene .tst file")
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    parser.add_argument("--time", type=float, default=60.0, help="seconds a case (default 60)")
    parser.add_argument("--max-size", type=int, default=19, help="skip larger boards")
    parser.add_argument("--min-size", type=int, default=1, help="skip smaller boards")
    parser.add_argument(
        "--noted", type=float, help="only cases the suite times at most this many seconds"
    )
    parser.add_argument("--cases", type=int, nargs="*", help="only the cases so numbered")
    parser.add_argument(
        "--mohex-only",
        action="store_true",
        help="MoHex's answers and times alone (boardlab's measured in a run of its own)",
    )
    parser.add_argument(
        "--mohex-cpu",
        type=int,
        metavar="N",
        help="MoHex answers each case on processor N while boardlab answers it here, at "
        "the same time (pin this process to another processor; default: one after the "
        "other)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        metavar="N",
        help="N workers each: boardlab proves a dfpn-solve-state case of up to 8x8 with N "
        "worker processes (hex solve --first --jobs N), MoHex's DFPN runs N threads; the "
        "two answer one after the other (default 1)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="K",
        help="K processes at once, each on some of the cases: process i pinned to processor "
        "2i, its MoHex answering beside it on 2i+1 (as --mohex-cpu); one table at the end",
    )
    parser.add_argument(
        "--vc-fill-from",
        type=int,
        metavar="N",
        help="boardlab fills the regions captured through a connection at every analysed "
        "position on boards of N x N and larger (hex.prover.vcfill; default 8)",
    )
    parser.add_argument(
        "--region-depth",
        type=int,
        metavar="D",
        help="boardlab fills captured regions at most D - 1 moves below the root, at every "
        "board size (default: the solver's, 1 up to 8x8 and 3 past it; 1: the root only)",
    )
    parser.add_argument(
        "--no-edge-patterns",
        action="store_true",
        help="boardlab's H-search without the edge patterns (hex/data/edge_patterns.json): "
        "the one-word search with no edge templates, the two-word one with the one-stone "
        "templates alone",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="K",
        help="each case K times by each program, taking turns at going first; a case's "
        "time is each program's median, its verdict the worst (default 1)",
    )
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="boardlab's memory budget a case (e.g. 2G; default: the solver's, most of "
        "the memory free); the process's growth at its peak is printed at the end",
    )
    args = parser.parse_args(argv)
    try:
        memory = None if args.memory is None else parse_size(args.memory)
    except BoardlabError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.vc_fill_from is not None:
        Dfpn.vc_fill_from = args.vc_fill_from
    if args.no_edge_patterns:
        Dfpn.edge_patterns = WideDfpn.edge_patterns = False
    if args.region_depth is not None:
        if args.region_depth < 1:
            print(f"--region-depth must be at least 1, not {args.region_depth}", file=sys.stderr)
            return 2
        Dfpn.region_depth = WideDfpn.region_depth = args.region_depth
    if args.repeat < 1:
        print(f"--repeat must be at least 1, not {args.repeat}", file=sys.stderr)
        return 2
    if args.threads < 1 or (args.threads > 1 and args.mohex_cpu is not None):
        print("--threads must be at least 1, and above 1 without --mohex-cpu", file=sys.stderr)
        return 2
    if args.jobs < 1 or (args.jobs > 1 and (args.mohex_cpu is not None or args.threads > 1)):
        print(
            "--jobs must be at least 1, and above 1 without --mohex-cpu or --threads",
            file=sys.stderr,
        )
        return 2
    if args.jobs > 1 and 2 * args.jobs > len(os.sched_getaffinity(0)):
        print(
            f"--jobs {args.jobs}: needs {2 * args.jobs} processors, this process may use "
            f"{len(os.sched_getaffinity(0))}",
            file=sys.stderr,
        )
        return 2
    if args.mohex_cpu is not None and not 0 <= args.mohex_cpu < (os.cpu_count() or 1):
        print(f"--mohex-cpu {args.mohex_cpu}: no such processor", file=sys.stderr)
        return 2
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(MOHEX_ABSENT, file=sys.stderr)
        return 2
    try:
        cases = read_suite(args.suite)
    except OSError as exc:
        print(f"{args.suite}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    folder = args.suite.parent
    chosen: list[tuple[Case, Position]] = []
    for case in cases:
        try:
            position = position_of(case, folder)
        except (BoardlabError, OSError) as exc:
            print(f"case {case.number}: cannot set up: {exc}", file=sys.stderr)
            return 2
        if wanted(case, position, args):
            chosen.append((case, position))
    if args.jobs > 1:
        return run_in_pairs(argv, [case.number for case, _ in chosen], args)
    if args.mohex_only:
        return mohex_alone(chosen, binary, folder, args)
    warm_up(sorted({position.size for _, position in chosen}))
    rows: dict[int, Row] = defaultdict(Row)
    start_resident = resident_memory()
    stopped_by_memory: list[int] = []
    workdir = scratch_folder()
    for case, position in chosen:
        tries: list[tuple[Ours, Theirs]] = []
        for k in range(args.repeat):
            # the two programs take turns at going first, so that a slow spell of the
            # machine falls on both alike
            tries.append(answer_once(case, position, binary, workdir, memory, args, k % 2 == 0))
        answer_row = combined(case, position.size, tries)
        if any(mine[3] for mine, _ in tries):
            stopped_by_memory.append(case.number)
        answer_row.add_to(rows[position.size], args.time)
        print(answer_row.line(), flush=True)
        if args.repeat > 1:
            print(
                "    each time: boardlab "
                + " ".join(f"{mine[1]:.2f}" for mine, _ in tries)
                + " s, MoHex "
                + " ".join(f"{their[1]:.2f}" for _, their in tries)
                + " s",
                flush=True,
            )
    print_tables(rows, args)
    grown = peak_resident_memory() - start_resident
    budget = format_size(memory) if memory is not None else "the solver's default"
    print(
        f"boardlab's process grew by {format_size(max(grown, 0))} at most over its size "
        f"before the first case (memory budget a case: {budget}); stopped by the budget: "
        f"{', '.join(map(str, stopped_by_memory)) or 'none'}"
    )
    return 1 if any(row.wrong for row in rows.values()) else 0


def answer_once(
    case: Case,
    position: Position,
    binary: str,
    workdir: Path,
    memory: int | None,
    args: argparse.Namespace,
    ours_first: bool,
) -> tuple[Ours, Theirs]:
    """Both programs' answers to a case: one after the other (boardlab first when
    ``ours_first``), or at the same time with ``--mohex-cpu``."""
    folder = args.suite.parent
    if args.mohex_cpu is not None:
        with ThreadPoolExecutor(1) as pool:
            answer = pool.submit(theirs, case, binary, folder, workdir, args.time, args.mohex_cpu)
            mine = ours(case, position, args.time, memory)
            return mine, answer.result()
    if ours_first:
        mine = ours(case, position, args.time, memory, args.threads)
        return mine, theirs(case, binary, folder, workdir, args.time, threads=args.threads)
    their = theirs(case, binary, folder, workdir, args.time, threads=args.threads)
    return ours(case, position, args.time, memory, args.threads), their


def _worst(answers: list[bool | None]) -> bool | None:
    """A program's verdict over several tries: wrong if it was ever wrong, else
    unsolved if it ever was, else right."""
    if False in answers:
        return False
    return None if None in answers else True


def combined(case: Case, size: int, tries: list[tuple[Ours, Theirs]]) -> Answer:
    """One case's answer over its tries: each program's worst verdict (see
    :func:`_worst`), the median of its times, and the first try's positions and VC
    builds (each search is the same every time)."""
    mine = [m for m, _ in tries]
    their = [t for _, t in tries]
    return Answer(
        case.number,
        size,
        case.command,
        _worst([m[0] for m in mine]),
        statistics.median(m[1] for m in mine),
        mine[0][2],
        _worst([t[0] for t in their]),
        statistics.median(t[1] for t in their),
        their[0][2],
    )


def mohex_alone(
    chosen: list[tuple[Case, Position]], binary: str, folder: Path, args: argparse.Namespace
) -> int:
    """``--mohex-only``: MoHex's answer and time on each case, boardlab not run (for
    cases whose boardlab time was measured before, in a run of their own)."""
    workdir = scratch_folder()
    wrong = False
    for case, position in chosen:
        right, spent, builds = theirs(
            case, binary, folder, workdir, args.time, args.mohex_cpu, args.threads
        )
        wrong = wrong or right is False
        print(
            f"case {case.number} ({position.size}x{position.size}, {case.command}): MoHex "
            f"{STATUS[right]} {spent:.1f} s ({builds if builds is not None else '?'} VC builds)",
            flush=True,
        )
    return 1 if wrong else 0


def scratch_folder() -> Path:
    """A temporary folder for MoHex's runs (its log), removed when the script ends."""
    folder = Path(tempfile.mkdtemp(prefix="boardlab-suite-"))
    atexit.register(shutil.rmtree, folder, True)
    return folder


def warm_up(sizes: list[int]) -> None:
    """Load every kernel the timed cases use before any clock, as MoHex's start-up is
    not timed either: a short search of the empty board of each size, for one winner
    and for every winning move (the must-play analysis), so that no case pays for
    loading (or, on a fresh install, compiling) a kernel of its board's width."""
    solve(Position(3), Limit(time=5))
    if any(size**2 > MAX_CELLS for size in sizes):  # the two-word DFPN too
        WideDfpn(3, Limit(time=5).start()).prove(0, 0, BLACK)
    for size in sizes:
        for every in (False, True):
            solve(Position(size), Limit(nodes=20, time=5), all_moves=every, mustplay=every)


def wanted(case: Case, position: Position, args: argparse.Namespace) -> bool:
    """Is the case among those asked for (board sizes, the suite's noted time, numbers)?"""
    if position.size > args.max_size or position.size < args.min_size:
        return False
    if args.noted is not None and (case.noted_seconds or 0.0) > args.noted:
        return False
    return not args.cases or case.number in args.cases


def print_tables(rows: dict[int, Row], args: argparse.Namespace) -> None:
    """The table per board size and the total, with any wrong answers of boardlab's."""
    each = "" if args.threads == 1 else f", {args.threads} workers or threads each"
    at_once = "" if args.jobs == 1 else f", {args.jobs} processes at once"
    limit = f"{args.time:g} s a case at most, one position at a time"
    print(f"\n{args.suite.name}, {limit}{each}{at_once}")
    print(
        "| board | cases | boardlab right | unsolved | MoHex right | boardlab s "
        "| boardlab positions | MoHex s | MoHex VC builds | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    total = Row()
    for size in sorted(rows):
        row = rows[size]
        for name in (
            "cases",
            "ours_right",
            "ours_unsolved",
            "mohex_right",
            "ours_nodes",
            "mohex_builds",
        ):
            setattr(total, name, getattr(total, name) + getattr(row, name))
        total.ours_seconds += row.ours_seconds
        total.mohex_seconds += row.mohex_seconds
        total.wrong += row.wrong
        print(_line(f"{size}x{size}", row))
    print(_line("all", total))
    if total.wrong:
        print(f"WRONG answers from boardlab in cases {', '.join(total.wrong)}")


def _line(name: str, row: Row) -> str:
    ratio = row.ours_seconds / row.mohex_seconds if row.mohex_seconds else float("nan")
    return (
        f"| {name} | {row.cases} | {row.ours_right} | {row.ours_unsolved} | {row.mohex_right} "
        f"| {row.ours_seconds:.1f} | {row.ours_nodes} | {row.mohex_seconds:.1f} "
        f"| {row.mohex_builds} | {ratio:.1f} |"
    )


if __name__ == "__main__":
    sys.exit(main())
