"""Formats layer: the Mars explorer map (MARS.DAT) and move list (MARS.OUT), parse and format.

The map is the number of vehicles, P (columns), Q (rows), then Q lines of P cells:
``0`` clear, ``1`` rough, ``2`` rock sample. Line ``y``, entry ``x`` is cell ``(x, y)``
(both 1-based); the pod is at ``(1, 1)`` and the transmitter at ``(P, Q)``. A move
list has one line per single step, ``VEHICLE DIRECTION`` with 0 = south, 1 = east.

The value types (:class:`~boardlab.mars.values.MarsMap`, :class:`~boardlab.mars.values.Step`)
live in :mod:`boardlab.mars.values`; this module owns the two file texts.

>>> m = parse_map("1\\n2\\n1\\n0 2\\n")
>>> m.width, m.height, m.rocks
(2, 1, 1)
>>> parse_map(format_map(m)) == m
True
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from boardlab.core.errors import ParseError
from boardlab.core.textio import TokenReader
from boardlab.mars.values import MAX_SIDE, MAX_VEHICLES, ROUGH, MarsMap, Step

__all__ = [
    "SAMPLE_MAP",
    "SAMPLE_MOVES",
    "STEP_FIELDS",
    "format_map",
    "format_moves",
    "format_routes",
    "parse_map",
    "parse_move_line",
    "parse_moves",
    "step_lines",
]


#: Fields of a move line: the vehicle and the direction.
STEP_FIELDS = 2


def parse_map(text: str, source: str = "<stdin>") -> MarsMap:
    """Read MARS.DAT: vehicles, P, Q, then Q lines of P cells each.

    Each row must be on its own line, so a missing or extra cell is reported on the
    line where it happens.

    :raises ParseError: naming line and column of the first problem: a count out of
        range (vehicles 1..999, P and Q 1..128), a cell other than 0/1/2, a row with
        the wrong number of cells, missing or extra rows, or a pod or transmitter on
        rough terrain.
    """
    reader = TokenReader(text, source)
    vehicles = reader.next_int("number of vehicles", 1, MAX_VEHICLES)
    width = reader.next_int("P (columns)", 1, MAX_SIDE)
    height = reader.next_int("Q (rows)", 1, MAX_SIDE)
    rows: list[tuple[int, ...]] = []
    tokens = list(reader)
    by_line: dict[int, list[int]] = {}
    order: list[int] = []
    for index, token in enumerate(tokens):
        if token.line not in by_line:
            by_line[token.line] = []
            order.append(token.line)
        by_line[token.line].append(index)
    for y, line in enumerate(order, start=1):
        indices = by_line[line]
        if y > height:
            raise reader.error(f"extra row: the map has Q = {height} rows", tokens[indices[0]])
        if len(indices) != width:
            where = tokens[indices[width]] if len(indices) > width else tokens[indices[-1]]
            raise reader.error(f"row {y} has {len(indices)} cells, expected P = {width}", where)
        cells = []
        for x, index in enumerate(indices, start=1):
            token = tokens[index]
            if token.text not in ("0", "1", "2"):
                raise reader.error(
                    f"cell ({x}, {y}) must be 0 (clear), 1 (rough) or 2 (rock), got {token.text!r}",
                    token,
                )
            cells.append(int(token.text))
        if y == 1 and cells[0] == ROUGH:
            raise reader.error("the pod at (1, 1) is on rough terrain", tokens[indices[0]])
        if y == height and cells[-1] == ROUGH:
            raise reader.error(
                f"the transmitter at ({width}, {height}) is on rough terrain",
                tokens[indices[-1]],
            )
        rows.append(tuple(cells))
    if len(rows) < height:
        raise reader.error(f"missing rows: the map has {len(rows)} of Q = {height} rows")
    return MarsMap(vehicles, tuple(rows))


def format_map(mars: MarsMap) -> str:
    """MARS.DAT for ``mars``: vehicles, P, Q, then one line of cells per row."""
    lines = [str(mars.vehicles), str(mars.width), str(mars.height)]
    lines.extend(" ".join(map(str, row)) for row in mars.rows)
    return "\n".join(lines) + "\n"


def parse_move_line(line: str, number: int, source: str = "<moves>") -> Step | None:
    """One line of a move list as a :class:`Step`, or None for a blank line.

    :raises ParseError: when the line is not exactly two integers, a vehicle number >= 1
        and a direction 0 or 1.
    """
    parts = line.split()
    if not parts:
        return None
    column = len(line) - len(line.lstrip()) + 1
    if len(parts) != STEP_FIELDS:
        raise ParseError(
            f"expected 'VEHICLE DIRECTION', got {line.strip()!r}",
            source=source,
            line=number,
            column=column,
        )
    vehicle_text, direction_text = parts
    if not (vehicle_text.isascii() and vehicle_text.isdigit()) or int(vehicle_text) < 1:
        raise ParseError(
            f"vehicle number must be a positive integer, got {vehicle_text!r}",
            source=source,
            line=number,
            column=column,
        )
    if direction_text not in ("0", "1"):
        raise ParseError(
            f"direction must be 0 (south) or 1 (east), got {direction_text!r}",
            source=source,
            line=number,
            column=line.index(direction_text, column - 1 + len(vehicle_text)) + 1,
        )
    return Step(int(vehicle_text), int(direction_text))


_DIGITS = {"0": 0, "1": 1}


def step_lines(text: str, source: str = "<moves>") -> Iterator[tuple[int, int, int]]:
    """``(line number, vehicle, direction)`` of each non-blank line of a move list, in
    order, without building a :class:`Step` (the judge reads millions of lines). A
    vehicle number is any digits here (0 included: the rules refuse it with their reason).

    :raises ParseError: when the iteration reaches a line that is not ``VEHICLE
        DIRECTION`` (as :func:`parse_move_line`); the lines before it have been given.
    """
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if (
            len(parts) == STEP_FIELDS
            and parts[1] in _DIGITS
            and parts[0].isdigit()
            and parts[0].isascii()
        ):
            yield number, int(parts[0]), _DIGITS[parts[1]]
            continue
        step = parse_move_line(line, number, source)
        if step is not None:
            yield number, step.vehicle, step.direction


def parse_moves(text: str, source: str = "<moves>") -> list[Step]:
    """Read a move list: one ``VEHICLE DIRECTION`` per line (blank lines are skipped).

    >>> parse_moves("1 1\\n\\n2 0\\n")
    [Step(vehicle=1, direction=1), Step(vehicle=2, direction=0)]

    :raises ParseError: at the first line that is not exactly two integers with a
        vehicle number >= 1 and a direction 0 or 1 (the judge turns it into a 0 score).
    """
    steps: list[Step] = []
    for number, line in enumerate(text.splitlines(), start=1):
        step = parse_move_line(line, number, source)
        if step is not None:
            steps.append(step)
    return steps


def format_moves(steps: Iterable[Step]) -> str:
    """The move list text, one step a line (empty text for no steps).

    >>> format_moves([Step(1, 1), Step(2, 0)])
    '1 1\\n2 0\\n'
    """
    return "".join(f"{step}\n" for step in steps)


def format_routes(routes: Iterable[tuple[int, int, str]]) -> str:
    """The move list of routes given as ``(first vehicle, vehicles, directions)``: each
    vehicle of a route takes the route's steps in turn (``directions`` a string of ``0``
    south and ``1`` east), the same text as :func:`format_moves` of those steps."""
    parts: list[str] = []
    for first, vehicles, directions in routes:
        if not directions:
            continue
        template = "".join(f"\0 {d}\n" for d in directions)
        for vehicle in range(first, first + vehicles):
            parts.append(template.replace("\0", str(vehicle)))
    return "".join(parts)


#: The statement's sample input (MARS.DAT), its scan read back as NOTES.md explains.
SAMPLE_MAP = """2
10
8
0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 1 1 0 0 0
0 0 0 1 0 2 0 0 0 0
1 1 0 1 2 0 0 0 0 1
0 1 0 0 2 0 1 1 0 0
0 1 0 1 0 0 1 1 0 0
0 1 2 0 0 0 0 1 0 0
0 0 0 0 0 0 0 0 0 0
"""

#: The statement's sample output (MARS.OUT): 29 lines survive in the scan; the last three
#: (``2 1``) are restored so vehicle 2 ends on the transmitter, as the statement says.
SAMPLE_MOVES = """\
1 1
1 0
2 1
2 0
1 1
1 1
2 0
2 1
2 0
2 0
2 0
2 0
1 1
1 0
1 0
1 0
1 0
1 0
1 0
2 0
2 1
1 1
1 1
1 1
1 1
1 1
2 1
2 1
2 1
2 1
2 1
2 1
"""
