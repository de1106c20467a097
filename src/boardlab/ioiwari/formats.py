"""Formats layer: the text of the IOI protocol, parsed and written in pairs.

The program reads one line of 7 integers (the start), then writes its move (a pit
label) and reads the opponent's, each an integer token, until every pit is empty.

>>> parse_start("4 3 2 4 2 3 2")
(4, 3, 2, 4, 2, 3, 2)
>>> parse_start(format_start((4, 3, 2, 4, 2, 3, 2))) == (4, 3, 2, 4, 2, 3, 2)
True
>>> parse_start("4 3 2 4 2 3 3")
Traceback (most recent call last):
...
boardlab.core.errors.ParseError: <stdin>:1:1: the pits hold 21 beads; a start holds 20
"""

from __future__ import annotations

from collections.abc import Sequence

from boardlab.core.errors import ParseError
from boardlab.core.textio import Token, TokenReader, tokenize
from boardlab.ioiwari.rules import IOI, Variant

__all__ = [
    "MAX_DIGITS",
    "format_move",
    "format_start",
    "line_tokens",
    "parse_pit",
    "parse_start",
]

#: Longest pit label read as a number (longer ones are garbage, not a huge pit).
MAX_DIGITS = 9


def parse_start(
    text: str, variant: Variant = IOI, *, source: str = "<stdin>", line: int = 1
) -> tuple[int, ...]:
    """The pits of a start line: exactly ``variant.pits`` integers ``0..cap``, ``total`` in all.

    ``line`` is the line number ``text`` has in its source (for the diagnostics).

    :raises ParseError: on a wrong count, a non-integer, a pit out of ``0..cap`` or a wrong
        total, naming the line and column.
    """
    reader = TokenReader("\n" * (line - 1) + text, source=source)
    if reader.at_end:
        raise reader.error(f"expected a start line of {variant.pits} pit counts, got nothing")
    first: Token | None = None
    pits = []
    for label in range(1, variant.pits + 1):
        if reader.at_end:
            raise reader.error(
                f"the start line has {label - 1} numbers; expected {variant.pits} pit counts"
            )
        token = reader.next_token(f"pit {label}")
        first = first or token
        pits.append(reader.int_of(token, f"pit {label}", 0, variant.cap))
    if not reader.at_end:
        extra = reader.next_token("pit")
        raise reader.error(
            f"unexpected {extra.text!r}: the start line has more than {variant.pits} numbers",
            extra,
        )
    if sum(pits) != variant.total:
        raise reader.error(f"the pits hold {sum(pits)} beads; a start holds {variant.total}", first)
    return tuple(pits)


def format_start(pits: Sequence[int]) -> str:
    """The start line, without its newline."""
    return " ".join(str(beads) for beads in pits)


def line_tokens(text: str, line: int) -> list[Token]:
    """The tokens of one line of a stream, numbered as line ``line``."""
    return [Token(t.text, line, t.column) for t in tokenize(text)]


def parse_pit(token: Token, *, source: str = "<stdin>", who: str = "move") -> int:
    """A move token as an integer (the rules decide whether that pit can be played).

    :raises ParseError: when the token is not an integer, naming its line and column.
    """
    text = token.text
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or not digits.isdigit() or not digits.isascii() or len(digits) > MAX_DIGITS:
        raise ParseError(
            f"{who} must be a pit label, got {text[:40]!r}",
            source=source,
            line=token.line,
            column=token.column,
        )
    return int(text)


def format_move(pit: int) -> str:
    """A move as the protocol writes it (one line, no newline)."""
    return str(pit)
