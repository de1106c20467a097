"""Interface layer: the BOARD argument every ``boardlab pegs`` verb shares, and the
reading of the board (and start) files it names."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.pegs.rules import Position

__all__ = ["BOARD_HELP", "add_board_arguments", "read_board"]

BOARD_HELP = (
    "a named board (english, french, wiegleb, asymmetric, diamond, triangle-N) or a board file"
)


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """The BOARD argument and ``--start`` shared by every pegs verb."""
    parser.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    parser.add_argument(
        "--start",
        metavar="START",
        help="the pegs at the start: 'full', a hole name (the single vacancy there) "
        "or a board file",
    )


def read_board(spec: str, start: str | None = None) -> Position:
    """The position named by ``spec``: a named board at its conventional start, or a
    board file (``-`` for stdin) with its pegs.

    ``start`` optionally overrides the pegs: ``full`` (every hole), a hole name (the
    single vacancy there) or a board file of the same shape; the files are read here,
    their text parsed by :mod:`boardlab.pegs.formats`.

    :raises UnknownNameError: when ``spec`` is neither a board name nor a readable file.
    :raises ParseError: when a board file is malformed.
    :raises BoardlabError: when a file cannot be read or a start file has another shape.
    """
    from boardlab.pegs.formats import parse_start
    from boardlab.pegs.rules import Position

    position = _read_board_spec(spec)
    if start is None:
        return position
    word = start.strip()
    return Position(position.board, parse_start(position.board, word_or_file(word), source=word))


def word_or_file(value: str) -> str:
    """The text of ``value``: the file of that name when there is one, else the words.

    :raises BoardlabError: for a folder, or a file with nothing in it.
    """
    from boardlab.core.errors import BoardlabError
    from boardlab.core.textio import read_text

    path = Path(value)
    if value and path.is_dir():
        raise BoardlabError(f"{value!r} is a folder, not a board file")
    if not value or not path.is_file():
        return value
    text = read_text(value)
    if not text.strip():
        raise BoardlabError(f"{value!r}: the file is empty")
    return text


def _read_board_spec(spec: str) -> Position:
    from boardlab.core.errors import BoardlabError, UnknownNameError
    from boardlab.core.textio import read_text
    from boardlab.pegs.boards import BOARD_NAMES, named_board
    from boardlab.pegs.formats import parse_board_file
    from boardlab.pegs.rules import Position

    try:
        return Position(named_board(spec))
    except UnknownNameError as unknown:
        if spec == "-" or Path(spec).exists():
            source = "<stdin>" if spec == "-" else spec
            return parse_board_file(read_text(spec), source=source)
        if spec.strip().lower().startswith("triangle"):
            raise unknown
        if "/" in spec or "." in spec:
            raise BoardlabError(f"cannot read {spec!r}: no such file") from None
        raise UnknownNameError(
            f"unknown board {spec!r}: not a named board ({', '.join(BOARD_NAMES)}) nor a file"
        ) from None
