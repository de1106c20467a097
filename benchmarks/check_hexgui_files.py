"""Check: does boardlab read every HexGui/MoHex SGF file under a folder as it stands?

For each ``*.sgf`` under the folder (for instance MoHex's public ``regression/sgf/``,
given by path and never committed), the file is read with
:func:`boardlab.hex.formats.parse_sgf` and the stones on the board are compared with a
count made here independently of boardlab's reader: the setup stones (``AB``/``AW``
values, less the cells ``AE`` empties) and the moves (``B``/``W`` values other than
``swap-pieces``, ``swap`` and ``resign``) on the main line (the first variation at each branch).
A file is reported when boardlab refuses it (with its one-line reason) or when the two
counts differ. Exit status 1 when any file is reported.

    .venv/bin/python benchmarks/check_hexgui_files.py /path/to/benzene/regression/sgf
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.hex.formats import parse_sgf

#: One SGF property: its name and its bracketed values (``\\]`` escapes a bracket).
_PROPERTY = re.compile(r"([A-Z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+)")
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]")


def main_line_text(text: str) -> str:
    """The SGF text of the main line: every variation after a branch's first one cut."""
    out: list[str] = []
    depth = 0
    skip_from: int | None = None  # depth at which a later variation is being skipped
    seen: list[bool] = []  # per open tree: has a child tree been seen?
    in_value = False
    escaped = False
    for char in text:
        if in_value:
            if skip_from is None:
                out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == "]":
                in_value = False
            continue
        if char == "[":
            in_value = True
        elif char == "(":
            if seen and seen[-1] and skip_from is None:
                skip_from = depth
            if seen:
                seen[-1] = True
            seen.append(False)
            depth += 1
            continue
        elif char == ")":
            depth -= 1
            seen.pop()
            if skip_from is not None and depth == skip_from:
                skip_from = None
            continue
        if skip_from is None:
            out.append(char)
    return "".join(out)


def expected_stones(text: str) -> int:
    """Setup stones plus moves on the main line, counted without boardlab's reader."""
    cells: dict[str, str] = {}
    placed = 0
    for name, values in _PROPERTY.findall(main_line_text(text)):
        points = [v.strip().lower() for v in _VALUE.findall(values)]
        if name in ("AB", "AW"):
            for point in points:
                cells[point] = name
        elif name == "AE":
            for point in points:
                cells.pop(point, None)
        elif name in ("B", "W") and points and points[0] not in ("swap-pieces", "swap", "resign"):
            placed += 1
    return len(cells) + placed


def check(path: Path) -> str | None:
    """What is wrong with boardlab's reading of one file (None: nothing)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        position = parse_sgf(text, str(path))
    except BoardlabError as exc:
        return f"refused: {exc}"
    stones = sum(1 for v in position.board if v)
    wanted = expected_stones(text)
    if stones != wanted:
        return f"{stones} stones on the board, the file's setup and moves give {wanted}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of SGF files (searched below too)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"{args.folder}: not a folder", file=sys.stderr)
        return 2
    files = sorted(args.folder.rglob("*.sgf"))
    bad = 0
    for path in files:
        problem = check(path)
        if problem is not None:
            bad += 1
            print(f"{path.relative_to(args.folder)}: {problem}")
    print(f"{len(files)} files, {len(files) - bad} read with the right stones, {bad} reported")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
