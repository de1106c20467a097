"""Re-check kept rows of a peg solitaire start table against each other.

Reads the JSON that ``boardlab pegs table BOARD --json`` prints (a table) or a work
folder's ``start-HOLE/row.json`` (one row; then ``--board`` names the board), from any
number of files, and checks the identities every such table satisfies
(:mod:`boardlab.pegs.solver.table_checks`): each row's solutions against its solutions
by finishing hole, the symmetries that fix its start, and reversal between every pair
of rows (a solution from the vacancy s ending in f, played backwards, is one from the
vacancy f ending in s). Rows counted by different runs that share a start must be the
same. The French rows kept are in ``benchmarks/results/pegs-french``; run from the
repository root:

    .venv/bin/python benchmarks/check_pegs_table.py benchmarks/results/pegs-french/*.json

Exit status 0 when every identity holds, 1 when one fails (each is printed), 2 for a
file that cannot be read as a table or a row.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.solver.starts import StartRow
from boardlab.pegs.solver.table_checks import check_rows


class InputError(Exception):
    """A file that is not a table or a row (one line, naming the file)."""


def read_rows(path: Path, board_name: str | None) -> tuple[Board, list[StartRow]]:
    """The board and the rows of one file (a table, or one row with ``board_name``).

    :raises InputError: when the file cannot be read or is neither.
    """
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"{path}: cannot read it: {exc.strerror}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        where = ""
        if isinstance(exc, json.JSONDecodeError):
            where = f" (line {exc.lineno}, column {exc.colno})"
        raise InputError(f"{path}: not JSON{where}") from None
    if isinstance(found, dict) and "rows" in found:
        name, items = found.get("board"), found["rows"]
    else:
        name, items = board_name, [found]
    if not isinstance(name, str) or not isinstance(items, list):
        raise InputError(f"{path}: neither a table (board, rows) nor a row given --board")
    try:
        board = named_board(name)
    except BoardlabError as exc:
        raise InputError(f"{path}: {exc}") from None
    rows = []
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            raise InputError(f"{path}: row {number} is not an object")
        try:
            rows.append(StartRow.from_dict(board, item))
        except (KeyError, TypeError, ValueError, BoardlabError) as exc:
            raise InputError(f"{path}: row {number} is not a start's row: {exc}") from None
    return board, rows


def merged(files: Sequence[tuple[Path, Board, list[StartRow]]]) -> tuple[Board, list[StartRow]]:
    """One row a start over every file (the same start twice must have the same figures).

    :raises InputError: for files of different boards or one start counted two ways.
    """
    board = files[0][1]
    rows: dict[int, tuple[Path, StartRow]] = {}
    for path, other, found in files:
        if other.name != board.name:
            raise InputError(f"{path}: a {other.name} table beside {board.name} ones")
        for row in found:
            earlier = rows.get(row.hole)
            if earlier is None:
                rows[row.hole] = (path, row)
            elif _figures(earlier[1]) != _figures(row):
                start = board.hole_name(board.cells[row.hole])
                raise InputError(f"{path}: start {start} differs from its row in {earlier[0]}")
    return board, [row for _, row in sorted(rows.values(), key=lambda item: item[1].hole)]


def _figures(row: StartRow) -> tuple[object, ...]:
    return (row.solutions, row.back, row.games, row.shortest, row.finishes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path, help="tables or rows (JSON)")
    parser.add_argument("--board", help="the board of files holding one row (row.json)")
    args = parser.parse_args(argv)
    try:
        files = [(path, *read_rows(path, args.board)) for path in args.files]
        board, rows = merged(files)
    except InputError as exc:
        print(f"check_pegs_table: error: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        start = board.hole_name(board.cells[row.hole])
        ends = ", ".join(
            f"{board.hole_name(board.cells[h])} {n:,}" for h, n in sorted(row.finishes.items())
        )
        print(f"{start}: {row.solutions:,} solutions ({ends or 'none'}), {row.games:,} games")
    check = check_rows(board, rows)
    for problem in check.problems:
        print(f"FAILS {problem}")
    verdict = "all hold" if check.holds else f"{len(check.problems)} fail"
    print(f"{board.name}: {check.checked:,} identities over {len(rows)} rows: {verdict}")
    return 0 if check.holds else 1


if __name__ == "__main__":
    sys.exit(main())
