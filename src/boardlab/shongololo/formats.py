"""Formats layer: the contest input (L, W, H) and output (E/M lines), parse and format in pairs.

- Input (``TOXIC.DAT``): the three integers L, W and H, each 1..32. The statement puts
  them on three lines; any whitespace between them is accepted, but there must be
  exactly three.
- Output (``TOXIC.OUT``): one action per line, ``E x y z`` or ``M x y z``, in the order
  they happen; blank lines are ignored by the parser.

>>> parse_input("2\\n3\\n2\\n")
Box(2, 3, 2)
>>> format_input(Box(2, 3, 2))
'2\\n3\\n2\\n'
>>> lines = parse_actions("E 1 1 1\\nM 1 1 1\\n")
>>> [(entry.line, str(entry.action)) for entry in lines]
[(1, 'E 1 1 1'), (2, 'M 1 1 1')]
>>> format_actions([entry.action for entry in lines])
'E 1 1 1\\nM 1 1 1\\n'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardlab.core.errors import ParseError
from boardlab.core.textio import TokenReader, tokenize
from boardlab.shongololo.blocks import MAX_SIDE, Action, Block, Box, Kind

__all__ = ["ActionLine", "format_actions", "format_input", "parse_actions", "parse_input"]

#: Fields of an output line: E or M and three coordinates.
LINE_FIELDS = 4
#: Longest coordinate read as a number (longer ones are garbage).
MAX_DIGITS = 9


def parse_input(text: str, source: str = "<stdin>") -> Box:
    """The fruit described by a contest input: L, W and H, each 1..32.

    :raises ParseError: naming the line and column of a missing, extra, non-integer or
        out-of-range number.
    """
    reader = TokenReader(text, source)
    sides = [reader.next_int(name, 1, MAX_SIDE) for name in ("L", "W", "H")]
    reader.expect_end("input (exactly three numbers: L, W, H)")
    return Box(*sides)


def format_input(box: Box) -> str:
    """The contest input for ``box``: L, W and H on three lines."""
    return f"{box.length}\n{box.width}\n{box.height}\n"


@dataclass(frozen=True, slots=True)
class ActionLine:
    """One parsed output line: its 1-based line number and the action on it."""

    line: int
    action: Action


def parse_actions(text: str, source: str = "<output>") -> list[ActionLine]:
    """The actions of a contest output, one ``E x y z`` or ``M x y z`` per line.

    Coordinates are any integers here; whether a block lies inside the fruit is a rule
    (the judge checks it).

    :raises ParseError: at the first line that is not a letter E or M and three integers.
    """
    entries: list[ActionLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        tokens = tokenize(raw)
        if not tokens:
            continue
        head = tokens[0]
        if head.text not in ("E", "M"):
            raise ParseError(
                f"expected E or M, got {head.text!r}",
                source=source,
                line=number,
                column=head.column,
            )
        if len(tokens) != LINE_FIELDS:
            extra = len(tokens) > LINE_FIELDS
            column = tokens[LINE_FIELDS].column if extra else len(raw) + 1
            problem = "too many fields" if extra else "missing coordinates"
            raise ParseError(
                f"{problem}: a line is E or M and three integers",
                source=source,
                line=number,
                column=column,
            )
        values: list[int] = []
        for token in tokens[1:]:
            digits = token.text[1:] if token.text[:1] in "+-" else token.text
            if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
                raise ParseError(
                    f"a coordinate must be an integer, got {token.text!r}",
                    source=source,
                    line=number,
                    column=token.column,
                )
            values.append(int(token.text))
        kind: Kind = "E" if head.text == "E" else "M"
        entries.append(ActionLine(number, Action(kind, Block(*values))))
    return entries


def format_actions(actions: Iterable[Action]) -> str:
    """The contest output: one ``E x y z`` / ``M x y z`` line per action."""
    return "".join(f"{action}\n" for action in actions)
