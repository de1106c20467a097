"""Interface layer: ``boardlab hex openings`` (every first move proven) and ``hex checkproof``.

``hex openings SIZE --workdir DIR`` proves the position after every first stone of
black's on the empty board (white to move), one of each pair the 180-degree turn
relates, into a work folder a stopped run resumes from
(:mod:`boardlab.hex.prover.openings`); on local processes (``--jobs``) or Ray
(``--workers``/``--address``). It writes ``DIR/table.json``, prints the table and
compares it with the published winners (6x6 to 8x8); with ``--proofs`` it stores a proof
tree for each opening and replays it with the checker (:mod:`boardlab.hex.proofcheck`,
which trusts no search). Exit status: 0 all proven and agreeing; 1 a mismatch with the
published table or a proof the checker refuses; 2 bad input, or openings left unproven
by the limits (one line: resume with the same folder).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.cli._types import count_of, positive_number
from boardlab.core.errors import BoardlabError

if TYPE_CHECKING:
    from boardlab.core.tasks import Engine
    from boardlab.hex.prover.openings import OpeningResult, OpeningsRun
    from boardlab.hex.prover.storecheck import EntryCheck, StoreEntry

__all__ = [
    "checked_entry",
    "checkproof_configure",
    "checkproof_run",
    "checkstore_configure",
    "checkstore_run",
    "openings_configure",
    "openings_run",
    "ray_engine",
]

#: The most local worker processes ``--jobs`` starts.
MAX_JOBS = 64


_seconds = positive_number("seconds")


def _size(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a board size: {text!r}") from None
    if not 1 <= value <= 11:  # noqa: PLR2004 - the DFPN's boards
        raise argparse.ArgumentTypeError(f"the openings are proven on boards 1 to 11, not {value}")
    return value


def openings_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("size", type=_size, help="board size N (1 to 11): the empty N x N board")
    parser.add_argument(
        "--workdir",
        type=Path,
        required=True,
        metavar="DIR",
        help="an existing folder for the results, the store of proven positions and the "
        "proofs; a stopped run resumes from it",
    )
    parser.add_argument(
        "--cells",
        metavar="LIST",
        help="only these openings and their twins, HexGui's cells comma-separated (e.g. "
        "a1,b1: the edge openings first on a large board; default: every opening)",
    )
    parser.add_argument(
        "--time-each", type=_seconds, metavar="S", help="seconds for one opening (default: none)"
    )
    parser.add_argument(
        "--time", type=_seconds, metavar="S", help="seconds for the whole run (default: none)"
    )
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory budget of each worker's search, e.g. 4G (default: 80%% of the free "
        "memory); past it that opening stops unproven",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=count_of("jobs", MAX_JOBS),
        default=1,
        metavar="N",
        help="prove the openings on N local processes (default 1: in this process)",
    )
    where.add_argument(
        "--workers", type=count_of("workers"), metavar="N", help="on a local Ray cluster of N CPUs"
    )
    where.add_argument("--address", metavar="ADDR", help="on the running Ray cluster at ADDR")
    parser.add_argument(
        "--proofs",
        action="store_true",
        help="store each opening's proof tree (DIR/proofs) and replay it with the checker",
    )
    parser.add_argument("--json", action="store_true", help="print the table as JSON")


def ray_engine(workers: int | None, address: str | None, pinned: bool = False) -> Engine:
    """A Ray engine: a local cluster of ``workers`` CPUs, or the running cluster at
    ``address``; its errors name the option (``--workers`` or ``--address``). With
    ``pinned`` the tasks of one place run in one process of their own.

    :raises BoardlabError: without Ray, or when the cluster cannot be reached.
    """
    from boardlab.cluster.ray_engine import RayEngine, ray_available

    option = "--address" if address is not None else "--workers"
    if not ray_available():
        raise BoardlabError(f"{option} needs Ray: pip install 'boardlab[cluster]'")
    try:
        return RayEngine(workers, address, pinned=pinned)
    except BoardlabError as error:
        raise BoardlabError(f"{option}: {error}") from None


def _engine(args: argparse.Namespace) -> Engine | None:
    """The engine the options ask for (None: this process)."""
    if args.workers is not None or args.address is not None:
        return ray_engine(args.workers, args.address)
    if args.jobs > 1:
        from boardlab.cluster.process_engine import ProcessEngine

        return ProcessEngine(args.jobs)
    return None


def _who(winner: int | None) -> str:
    return {None: "unknown", 1: "black", 2: "white"}[winner]


def _row(run: OpeningsRun, result: OpeningResult, check: str | None) -> str:
    from boardlab.hex.board import vertex

    n = run.size
    reply = "" if result.reply is None else f"reply {vertex(result.reply, n)}"
    how = f"(turn of {vertex(result.searched, n)})" if result.searched != result.opening else ""
    known = run.published.get(result.opening)
    if known is None:
        published = ""
    elif not result.proven:
        published = f"published {_who(known)}"
    else:
        published = (
            "published: agrees"
            if known == result.winner
            else (f"published {_who(known)}: MISMATCH")
        )
    cost = "" if how else f"{result.seconds:.1f} s, {result.nodes} positions"
    if cost and result.given:
        cost += f" (black's {' '.join(result.given_cells())} given)"
    parts = [
        f"{vertex(result.opening, n):>4}",
        f"{_who(result.winner):<7}",
        f"{reply:<9}",
        how,
        cost,
        published,
        check or "",
    ]
    return "  ".join(part for part in parts if part).rstrip()


def openings_run(args: argparse.Namespace) -> int:
    from boardlab.cli._progress import ProgressLine, counting
    from boardlab.cli._signals import stop_on_signal
    from boardlab.core.memory import parse_size
    from boardlab.core.progress import progress_scope
    from boardlab.hex.board import vertex
    from boardlab.hex.prover.openings import opening_cells, run_openings, write_table

    memory = None if args.memory is None else parse_size(args.memory)
    if not args.workdir.is_dir():
        raise BoardlabError(f"--workdir {args.workdir}: no such folder")
    only = None if args.cells is None else _cells(args.cells, args.size)
    engine = _engine(args)
    total = len(opening_cells(args.size, only))
    try:
        what = f"{args.size}x{args.size} openings"
        with (
            stop_on_signal(f"the {what}"),
            ProgressLine(what, total=total) as progress,
            progress_scope(counting(progress, what, "positions analysed")),
        ):

            def done(result: OpeningResult, count: int, of: int) -> None:
                progress.update(completed=count, total=of)

            run = run_openings(
                args.size,
                args.workdir,
                engine,
                seconds=args.time_each,
                total=args.time,
                memory=memory,
                proofs=args.proofs,
                done=done,
                only=only,
            )
    finally:
        if engine is not None:
            engine.close()
    checks = _check_proofs(run, args.workdir) if args.proofs else {}
    table = run.as_dict()
    rows = table["table"]
    assert isinstance(rows, list)
    for row in rows:
        row["proof_check"] = checks.get(row["opening"])
    table["proofs_checked"] = sum(1 for c in checks.values() if c.startswith("OK"))
    table["proofs_refused"] = sum(1 for c in checks.values() if c.startswith("BAD"))
    write_table(args.workdir / "table.json", table)
    if args.json:
        sys.stdout.write(json.dumps(table) + "\n")
    else:
        lines = [
            f"{args.size}x{args.size}: black's first stone, white to move (HexGui's cells; "
            "twins by the 180-degree turn)"
        ]
        lines += [_row(run, r, checks.get(vertex(r.opening, run.size))) for r in run.results]
        lines.append(
            f"proven {table['proven']} of {args.size * args.size}: black wins "
            f"{table['black_wins']}, white wins {table['white_wins']}; "
            + (
                f"published ({run.source}): {len(run.mismatches())} mismatches"
                if run.source
                else "no published table for this size"
            )
        )
        if args.proofs:
            lines.append(
                f"proofs replayed by the checker: {table['proofs_checked']} OK, "
                f"{table['proofs_refused']} refused"
            )
        lines.append(f"table: {args.workdir / 'table.json'}")
        sys.stdout.write("\n".join(lines) + "\n")
    for result in run.mismatches():
        sys.stderr.write(
            f"boardlab hex: MISMATCH: opening {vertex(result.opening, run.size)} proven "
            f"{_who(result.winner)}, published {_who(run.published[result.opening])}\n"
        )
    bad = [name for name, line in checks.items() if line.startswith("BAD")]
    for name in bad:
        sys.stderr.write(f"boardlab hex: proof of {name} refused: {checks[name]}\n")
    if run.mismatches() or bad:
        return 1
    asked = range(args.size * args.size) if only is None else only
    proven = {r.opening for r in run.results if r.proven}
    left = sum(1 for cell in asked if cell not in proven)
    if left:
        raise BoardlabError(
            f"{left} of {len(asked)} openings unproven within the limits; "
            f"run again with --workdir {args.workdir} to resume"
        )
    return 0


def _cells(text: str, size: int) -> list[int]:
    """The cells of ``--cells`` (HexGui's names, comma-separated) on a ``size`` board.

    :raises BoardlabError: for a name that is no cell of the board, or none at all.
    """
    from boardlab.hex.board import vertex_index

    cells = []
    for name in filter(None, (part.strip() for part in text.split(","))):
        try:
            cells.append(vertex_index(name, size))
        except ValueError as error:
            raise BoardlabError(f"--cells: {error}") from None
    if not cells:
        raise BoardlabError("--cells: no cell given")
    return cells


def _check_proofs(run: OpeningsRun, workdir: Path) -> dict[str, str]:
    """The checker's line for each searched opening's proof file, by opening name (the
    twins' by their searched opening's)."""
    from boardlab.hex.board import vertex

    lines: dict[str, str] = {}
    by_file: dict[str, str] = {}
    for result in run.results:
        if result.proof is None:
            continue
        if result.proof not in by_file:
            searched = next(r for r in run.results if r.opening == result.searched)
            by_file[result.proof] = _check_one(workdir, searched)
        lines[vertex(result.opening, run.size)] = by_file[result.proof]
    return lines


def _check_one(workdir: Path, result: OpeningResult) -> str:
    """The checker's line for one searched opening's proof: its tree replayed, and its
    root, winner and first move those of the table."""
    from boardlab.hex.board import vertex
    from boardlab.hex.proofcheck import check_proof, read_proof

    assert result.proof is not None
    reply = None if result.reply is None else vertex(result.reply, result.size)
    try:
        proof = read_proof(workdir / result.proof)
        answer = check_proof(proof)
    except BoardlabError as error:
        return f"BAD: {error}"
    claim = {"black": 1 << result.opening, "white": 0, "to_move": 2}
    if proof.get("winner") != result.winner or proof.get("root") != claim:
        return "BAD: the proof is not of this opening and winner"
    if answer.ok and answer.root_move != reply:
        return f"BAD: the proof's first move {answer.root_move} is not the reply {reply}"
    return answer.line()


def checkproof_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "proofs", nargs="+", type=Path, metavar="FILE", help="proof files (.json.gz)"
    )
    parser.add_argument("--json", action="store_true", help="print each answer as JSON")


def checkproof_run(args: argparse.Namespace) -> int:
    from boardlab.hex.proofcheck import check_proof_file

    answers = [(path, check_proof_file(path)) for path in args.proofs]
    for path, answer in answers:
        if args.json:
            sys.stdout.write(json.dumps({"file": str(path), **answer.as_dict()}) + "\n")
        else:
            sys.stdout.write(f"{path}: {answer.line()}\n")
    return 0 if all(answer.ok for _, answer in answers) else 1


def checkstore_configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "folder",
        type=Path,
        metavar="DIR",
        help="a work folder of hex openings or hex solve --first --workdir (or its store)",
    )
    parser.add_argument(
        "--sample",
        type=count_of("entries"),
        metavar="N",
        help="check N entries drawn by --seed (default: every entry)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    parser.add_argument(
        "--time-each",
        type=_seconds,
        default=10.0,
        metavar="S",
        help="seconds to prove one entry again and build its tree (default 10)",
    )
    parser.add_argument(
        "--memory", metavar="SIZE", help="memory budget of each check's search, e.g. 2G"
    )
    parser.add_argument("--json", action="store_true", help="print each answer as JSON")


def checked_entry(entry: StoreEntry, seconds: float, memory: int | None = None) -> EntryCheck:
    """One store entry proven again by a fresh search within ``seconds``
    (:func:`boardlab.hex.prover.storecheck.prove_entry`) and its tree replayed by the
    rules-only checker (:mod:`boardlab.hex.proofcheck`): ``ok``, ``bad`` or ``open``."""
    from boardlab.hex.proofcheck import check_proof
    from boardlab.hex.prover.storecheck import prove_entry

    answer = prove_entry(entry, seconds, memory)
    if answer.tree is None:
        return answer
    started = time.monotonic()
    replay = check_proof(answer.tree)
    spent = answer.seconds + time.monotonic() - started
    return answer.replayed(replay.ok, replay.line(), replay.nodes, spent)


def checkstore_run(args: argparse.Namespace) -> int:
    from boardlab.cli._progress import ProgressLine
    from boardlab.core.memory import parse_size
    from boardlab.hex.prover.storecheck import sample_entries, store_entries
    from boardlab.hex.prover.verdicts import warm

    memory = None if args.memory is None else parse_size(args.memory)
    entries = list(store_entries(args.folder))
    chosen = sample_entries(entries, args.sample, args.seed)
    warm()
    counts = {"ok": 0, "bad": 0, "open": 0}
    with ProgressLine("stored proofs", total=len(chosen)) as progress:
        for entry in chosen:
            answer = checked_entry(entry, args.time_each, memory)
            counts[answer.verdict] += 1
            if args.json:
                sys.stdout.write(json.dumps(answer.as_dict()) + "\n")
            elif answer.verdict != "ok":
                sys.stdout.write(
                    f"{answer.verdict.upper()} {entry.file}: {entry.name()}: {answer.reason}\n"
                )
            progress.advance()
    summary = (
        f"{len(chosen)} of {len(entries)} stored proofs checked: {counts['ok']} ok, "
        f"{counts['bad']} bad, {counts['open']} open (not proven again in "
        f"{args.time_each:g} s)"
    )
    (sys.stderr if args.json else sys.stdout).write(summary + "\n")
    return 1 if counts["bad"] else 0
