"""Rules layer: the value types of peg solitaire: cells, jumps and walks, with text forms.

A :class:`Cell` is ``(row, col)`` counted from 0; its text is the PEGGED name: a row
letter from ``A`` and a column number from 1 (``Cell(2, 11)`` is ``C12``). On a
triangular board the column is the position within the row. A jump moves two cells
along a lattice line over the cell between; a walk moves one cell.

>>> Jump.parse("F10 F8")
Jump(Cell(5, 9), Cell(5, 7))
>>> str(Jump.parse("F10 F8")), Jump.parse("F10 F8").over
('F10-F8', Cell(5, 8))
>>> parse_move("C5 C6")
Walk(Cell(2, 4), Cell(2, 5))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError, ParseError

__all__ = ["MAX_COLS", "MAX_ROWS", "Cell", "Jump", "Move", "Walk", "parse_move"]

#: A jump moves two cells along a line.
_JUMP = 2

MAX_ROWS = 26
MAX_COLS = 99
_CELL = re.compile(r"([A-Za-z])([0-9]{1,2})")
_MOVE = re.compile(r"\s*([A-Za-z][0-9]{1,2})\s*(?:-|\s)\s*([A-Za-z][0-9]{1,2})\s*")


@dataclass(frozen=True, slots=True, order=True)
class Cell:
    """A cell of a board: ``row`` and ``col`` from 0 (text ``A1`` is ``Cell(0, 0)``)."""

    row: int
    col: int

    def __post_init__(self) -> None:
        if not (0 <= self.row < MAX_ROWS and 0 <= self.col < MAX_COLS):
            raise BoardlabError(f"cell ({self.row}, {self.col}) is outside A1..Z{MAX_COLS}")

    def __str__(self) -> str:
        return f"{chr(ord('A') + self.row)}{self.col + 1}"

    def __repr__(self) -> str:
        return f"Cell({self.row}, {self.col})"

    @classmethod
    def parse(cls, text: str) -> Cell:
        """The cell named ``text`` (``C12``; the row letter may be lower case).

        :raises ParseError: when ``text`` is not a cell name.
        """
        match = _CELL.fullmatch(text.strip())
        if match is None or int(match.group(2)) == 0:
            raise ParseError(
                f"not a cell name: {text!r} (expected a row letter and a column, like C12)"
            )
        return cls(ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1)


def _delta(src: Cell, dst: Cell) -> tuple[int, int]:
    return dst.row - src.row, dst.col - src.col


@dataclass(frozen=True, slots=True)
class Jump:
    """A peg jumps from ``src`` over the middle cell to ``dst`` (two cells along a line)."""

    src: Cell
    dst: Cell

    def __post_init__(self) -> None:
        dr, dc = _delta(self.src, self.dst)
        if (dr, dc) == (0, 0) or dr not in (-2, 0, 2) or dc not in (-2, 0, 2):
            raise BoardlabError(
                f"{self.src}-{self.dst} is not a jump: it must move two cells in a line"
            )

    @property
    def over(self) -> Cell:
        """The cell jumped over (its peg is removed)."""
        return Cell((self.src.row + self.dst.row) // 2, (self.src.col + self.dst.col) // 2)

    def __str__(self) -> str:
        return f"{self.src}-{self.dst}"

    def __repr__(self) -> str:
        return f"Jump({self.src!r}, {self.dst!r})"

    @classmethod
    def parse(cls, text: str) -> Jump:
        """A jump from ``"F10-F8"`` or ``"F10 F8"``.

        :raises ParseError: when the text is not two cell names two cells apart.
        """
        move = parse_move(text)
        if not isinstance(move, Jump):
            raise ParseError(f"{text.strip()!r} is a walk, not a jump")
        return move


@dataclass(frozen=True, slots=True)
class Walk:
    """A peg walks one cell from ``src`` to the empty neighbour ``dst`` (PEGGED rules)."""

    src: Cell
    dst: Cell

    def __post_init__(self) -> None:
        dr, dc = _delta(self.src, self.dst)
        if (dr, dc) == (0, 0) or dr not in (-1, 0, 1) or dc not in (-1, 0, 1):
            raise BoardlabError(f"{self.src}-{self.dst} is not a walk: it must move one cell")

    def __str__(self) -> str:
        return f"{self.src}-{self.dst}"

    def __repr__(self) -> str:
        return f"Walk({self.src!r}, {self.dst!r})"

    @classmethod
    def parse(cls, text: str) -> Walk:
        """A walk from ``"C5-C6"`` or ``"C5 C6"``.

        :raises ParseError: when the text is not two neighbouring cell names.
        """
        move = parse_move(text)
        if not isinstance(move, Walk):
            raise ParseError(f"{text.strip()!r} is a jump, not a walk")
        return move


Move = Jump | Walk


def parse_move(text: str) -> Move:
    """A jump or a walk from two cell names separated by a space or ``-``.

    :raises ParseError: when the text is not a move of one or two cells.
    """
    match = _MOVE.fullmatch(text)
    if match is None:
        raise ParseError(f"not a move: {text.strip()!r} (expected FROM-TO or FROM TO, like D2-D4)")
    src, dst = Cell.parse(match.group(1)), Cell.parse(match.group(2))
    dr, dc = _delta(src, dst)
    if max(abs(dr), abs(dc)) == _JUMP and dr in (-_JUMP, 0, _JUMP) and dc in (-_JUMP, 0, _JUMP):
        return Jump(src, dst)
    if max(abs(dr), abs(dc)) == 1:
        return Walk(src, dst)
    raise ParseError(f"not a move: {src} and {dst} are neither one nor two cells apart in a line")
