"""Re-check a kept ``boardlab pegs classify BOARD --json`` result with plain Python.

Trusts nothing the classification computed. For every solution it lists, the jumps are
replayed on the board's holes (each jump two holes along a line of holes, over a peg,
into an empty hole) and the one peg left must be in the finishing hole the result
names. For every pagoda proof, each function must be a pagoda function (no jump raises
its sum), the positions after the proof's first jumps are enumerated from the start,
and each must weigh less, under one of the proof's functions, than every position one
jump before the lone peg at the end hole (and hold more than two pegs): no such
position can then lead to the end. The verdicts must cover every start, with no start
left undecided. Run from the repository root:

    .venv/bin/python benchmarks/check_pegs_classify.py benchmarks/results/pegs-diamond/classify.json

Exit status 0 when everything holds, 1 when a check fails (each printed), 2 for a file
that cannot be read as a classification.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import Board, named_board

Jumps = list[tuple[int, int, int]]


def read(path: Path) -> dict[str, Any]:
    """The classification in ``path``.

    :raises ValueError: when it cannot be read as one (one line, naming the file).
    """
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a readable JSON file ({exc})") from None
    if not isinstance(data, dict) or not {"board", "starts"} <= data.keys():
        raise ValueError("not the JSON of `boardlab pegs classify`")
    return data


def hole(board: Board, name: str) -> int:
    """The bit of the hole called ``name``."""
    return board.index(board.parse_hole(name))


def after_jump(bits: int, jumps: Jumps) -> set[int]:
    """Every position one jump after ``bits``."""
    return {
        bits ^ (1 << a) ^ (1 << b) ^ (1 << c)
        for a, b, c in jumps
        if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
    }


def check_solution(board: Board, solution: dict[str, Any]) -> str | None:
    """Why a listed solution is not one, or None."""
    cells = {board.index(cell): cell for cell in board.cells}
    where = {(cell.row, cell.col): bit for bit, cell in cells.items()}
    pegs = set(cells) - {hole(board, solution["vacancy"])}
    for number, move in enumerate(solution["moves"], 1):
        frm, to = (hole(board, name) for name in move.split("-"))
        (r1, c1), (r2, c2) = (cells[frm].row, cells[frm].col), (cells[to].row, cells[to].col)
        over = where.get(((r1 + r2) // 2, (c1 + c2) // 2))
        straight = {abs(r1 - r2), abs(c1 - c2)} in ({0, 2}, {2})
        if not straight or over is None or frm not in pegs or over not in pegs or to in pegs:
            return f"from {solution['vacancy']}: move {number} ({move}) is not a legal jump"
        pegs -= {frm, over}
        pegs.add(to)
    if len(pegs) != 1:
        return f"from {solution['vacancy']}: {len(pegs)} pegs left"
    return None


def weight(function: list[int], bits: int) -> int:
    """The pagoda sum of a position."""
    return sum(w for i, w in enumerate(function) if bits >> i & 1)


def check_proof(board: Board, jumps: Jumps, proof: dict[str, Any]) -> str | None:
    """Why a listed pagoda proof does not rule its end out, or None."""
    label = f"pagoda proof {proof['vacancy']} to {proof['end']}"
    functions = proof["functions"]
    for function in functions:
        if len(function) != board.size:
            return f"{label}: a function of {len(function)} weights on {board.size} holes"
        if any(function[a] + function[b] < function[c] for a, b, c in jumps):
            return f"{label}: a function some jump raises"
    end = 1 << hole(board, proof["end"])
    before = {
        end ^ (1 << a) ^ (1 << b) ^ (1 << c)
        for a, b, c in jumps
        if end >> c & 1 and not end >> a & 1 and not end >> b & 1
    }
    full = (1 << board.size) - 1
    frontier = {full ^ (1 << hole(board, proof["vacancy"]))}
    for _ in range(proof["first_jumps"]):
        frontier = {child for bits in frontier for child in after_jump(bits, jumps)}
    for bits in frontier:
        if bits.bit_count() <= 2 or not any(
            weight(f, bits) < min((weight(f, t) for t in before), default=-(10**9))
            for f in functions
        ):
            return f"{label}: a position after the first jumps is not ruled out"
    return None


def check(data: dict[str, Any]) -> list[str]:
    """Every failed check of one classification."""
    board = named_board(data["board"])
    jumps: Jumps = list(board.grid.jumps)
    failures: list[str] = []
    if data.get("undecided"):
        failures.append(f"undecided starts: {data['undecided']}")
    names = {s["vacancy"] for s in data["starts"]}
    if len(names) != board.size:
        failures.append(f"{len(names)} starts classified on a board of {board.size} holes")
    for solution in data.get("solutions", []):
        why = check_solution(board, solution)
        if why is not None:
            failures.append(why)
    for proof in data.get("pagoda_proofs", []):
        why = check_proof(board, jumps, proof)
        if why is not None:
            failures.append(why)
    return failures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path, help="JSON of `pegs classify --json`")
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        try:
            data = read(path)
            failures = check(data)
        except (ValueError, KeyError, TypeError, BoardlabError) as exc:
            print(f"check_pegs_classify: {path}: {exc}", file=sys.stderr)
            return 2
        starts = data["starts"]
        solvable = sum(1 for s in starts if s["solvable"])
        print(
            f"{path}: {len(starts)} starts, {solvable} solvable, {len(starts) - solvable} not; "
            f"{len(data.get('solutions', []))} solutions replayed, "
            f"{len(data.get('pagoda_proofs', []))} pagoda proofs re-checked"
        )
        for failure in failures:
            print(f"  FAILED: {failure}")
            status = 1
    if status == 0:
        print("every check holds")
    return status


if __name__ == "__main__":
    sys.exit(main())
