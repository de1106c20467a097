"""Formats layer: every text format of the peg tasks, parse and format in pairs.

- Board files (PEGGED, POTM 1997): one line per row of ``_`` (no hole), ``O`` (empty
  hole), ``X`` (peg); rectangular, up to 25 rows and 49 columns.
- Hi-Q (Mid-Atlantic 1996) input: N, then N games, each the increasing list of occupied holes
  1..33 ended by 0; line breaks carry no meaning. Output: ``HI Q OUTPUT``, one sum
  per game, ``END OF OUTPUT``.
- Move lists: one move per line, ``FROM TO`` (PEGGED) or ``FROM-TO``, holes named in
  the board's notation.

>>> games = parse_hiq_input("2\\n10 12 17 19 25 0\\n0\\n")
>>> games
[(10, 12, 17, 19, 25), ()]
>>> format_hiq_output([51, 0])
'HI Q OUTPUT\\n51\\n0\\nEND OF OUTPUT\\n'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.textio import TokenReader
from boardlab.pegs.boards import (
    MAX_BOARD_COLS,
    MAX_BOARD_ROWS,
    Board,
    board_from_rows,
)
from boardlab.pegs.cells import Cell, Move
from boardlab.pegs.goals import Goal, goal_of_word
from boardlab.pegs.rules import Position

__all__ = [
    "HIQ_HOLES",
    "HOLE",
    "MAX_BOARD_COLS",
    "MAX_BOARD_ROWS",
    "NO_HOLE",
    "PEG",
    "MoveLine",
    "board_file_text",
    "diagram",
    "format_board_file",
    "format_hiq_output",
    "format_moves",
    "parse_board_file",
    "parse_goal",
    "parse_hiq_input",
    "parse_move_lines",
    "parse_start",
]

HIQ_HOLES = 33
HIQ_MAX_GAMES = 10
_BOARD_SYMBOLS = {"_": None, "O": False, "X": True}


# -- board files ----------------------------------------------------------------------------
def parse_board_file(text: str, source: str = "<board>", name: str | None = None) -> Position:
    """The position drawn in a PEGGED board file (its board and its pegs).

    Trailing blank lines and a trailing ``\\r`` on each line are ignored.

    :raises ParseError: naming the line and column of the first fault: a character
        other than ``_ O X``, a ragged row, an empty file, more than 25 rows or 49 columns.
    """
    lines = text.split("\n")
    lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise ParseError("the board file is empty", source=source, line=1, column=1)
    if len(lines) > MAX_BOARD_ROWS:
        raise ParseError(
            f"too many rows: {len(lines)} (at most {MAX_BOARD_ROWS})",
            source=source,
            line=MAX_BOARD_ROWS + 1,
            column=1,
        )
    width = len(lines[0])
    if width == 0:
        raise ParseError("the first row is empty", source=source, line=1, column=1)
    holes: list[tuple[int, int]] = []
    pegs: list[Cell] = []
    for r, line in enumerate(lines):
        for c, char in enumerate(line[: MAX_BOARD_COLS + 1]):
            if char not in _BOARD_SYMBOLS:
                shown = "a space" if char == " " else ("a tab" if char == "\t" else repr(char))
                raise ParseError(
                    f"{shown} is not a board symbol (use _ for no hole, O for a hole, X for a peg)",
                    source=source,
                    line=r + 1,
                    column=c + 1,
                )
            if c >= MAX_BOARD_COLS:
                raise ParseError(
                    f"row is longer than {MAX_BOARD_COLS} columns",
                    source=source,
                    line=r + 1,
                    column=c + 1,
                )
            if _BOARD_SYMBOLS[char] is not None:
                holes.append((r, c))
                if _BOARD_SYMBOLS[char]:
                    pegs.append(Cell(r, c))
        if len(line) != width:
            raise ParseError(
                f"ragged row: {len(line)} columns where the first row has {width}",
                source=source,
                line=r + 1,
                column=min(len(line), width) + 1,
            )
    if not holes:
        raise ParseError("the board has no holes", source=source, line=1, column=1)
    board = board_from_rows(name or Path(source).name, holes, len(lines), width)
    return Position.from_cells(board, pegs)


def parse_goal(board: Board, text: str | None = None, source: str = "<goal>") -> Goal:
    """A goal: ``centre`` (the default), ``ANY``, a hole name, or the text of a board file
    (any text with a line break) holding the final pegs.

    :raises UnknownNameError: for a hole the board does not have.
    :raises ParseError: for a malformed goal board file.
    :raises BoardlabError: when a goal board has another shape or no pegs, or the board
        has no centre.
    """
    if text is None or "\n" not in text:
        return goal_of_word(board, "centre" if text is None else text)
    other = parse_board_file(text, source=source)
    if other.board.grid != board.grid:
        raise BoardlabError(f"goal file {source!r} has a different board shape")
    if other.bits == 0:
        raise BoardlabError(f"goal file {source!r} has no pegs")
    return Goal(other.bits, source)


def format_board_file(position: Position) -> str:
    """The board file of a square-lattice position (inverse of :func:`parse_board_file`).

    :raises BoardlabError: on a triangular board.
    """
    return board_file_text(position)


PEG, HOLE, NO_HOLE = "X", "O", "_"


def _symbol(position: Position, cell: Cell) -> str:
    if not position.board.has_hole(cell):
        return NO_HOLE
    return PEG if position.has_peg(cell) else HOLE


def board_file_text(position: Position) -> str:
    """The position as a PEGGED board file (``_`` no hole, ``O`` empty, ``X`` peg).

    Only square-lattice boards have a board-file form.

    :raises BoardlabError: on a triangular board.
    """
    board = position.board
    if board.triangular:
        raise BoardlabError(
            f"the {board.name} board is triangular: only square-lattice boards have a "
            "PEGGED board-file form"
        )
    return "".join(
        "".join(_symbol(position, Cell(r, c)) for c in range(board.cols)) + "\n"
        for r in range(board.rows)
    )


def diagram(position: Position) -> str:
    """A readable diagram: row letters, column numbers, ``X`` peg, ``O`` empty hole.

    >>> print(diagram(Position("triangle-4")))
    A     O
    B    X X
    C   X X X
    D  X X X X
    """
    board = position.board
    width = len(str(board.cols))
    lines = []
    if board.triangular:
        for r in range(board.rows):
            indent = " " * ((board.rows - 1 - r) * (width + 1) // 2)
            row = " ".join(_symbol(position, Cell(r, k)).rjust(width) for k in range(r + 1))
            lines.append(f"{chr(65 + r)}  {indent}{row}".rstrip())
        return "\n".join(lines)
    lines.append("   " + " ".join(str(c + 1).rjust(width) for c in range(board.cols)))
    for r in range(board.rows):
        row = " ".join(
            _symbol(position, Cell(r, c)).replace(NO_HOLE, " ").rjust(width)
            for c in range(board.cols)
        )
        lines.append(f"{chr(65 + r)}  {row}".rstrip())
    return "\n".join(lines)


def parse_start(board: Board, text: str, source: str = "<start>") -> int:
    """The pegs at the start, as a bitset: ``full`` (every hole), a hole name (the single
    vacancy there) or the text of a board file of the same shape (any text with a line
    break).

    :raises UnknownNameError: for a hole the board does not have.
    :raises ParseError: for a malformed start board file.
    :raises BoardlabError: when a start board has another shape.
    """
    word = text.strip()
    if "\n" in text:
        other = parse_board_file(text, source=source)
        if other.board.grid != board.grid:
            raise BoardlabError(f"start file {source!r} has a different board shape")
        return other.bits
    if word == "full":
        return board.grid.full
    return board.grid.full & ~(1 << board.index(board.parse_hole(word)))


# -- Hi-Q -----------------------------------------------------------------------------------
def parse_hiq_input(text: str, source: str = "<stdin>") -> list[tuple[int, ...]]:
    """The games of a Hi-Q input: each the increasing tuple of occupied holes.

    :raises ParseError: naming the token and its line and column: N outside 1..10, a
        hole outside 1..33, a duplicate or unsorted hole, a missing 0, missing games,
        something that is not a number, or anything after the last game.
    """
    reader = TokenReader(text, source)
    count = reader.next_int("number of games N", 1, HIQ_MAX_GAMES)
    games: list[tuple[int, ...]] = []
    for game_number in range(1, count + 1):
        holes: list[int] = []
        while True:
            what = f"hole or 0 of game {game_number} of {count}"
            token = reader.next_token(what)
            hole = reader.int_of(token, what, 0, HIQ_HOLES)
            if hole == 0:
                break
            if holes and hole == holes[-1]:
                raise reader.error(f"hole {hole} is listed twice in game {game_number}", token)
            if holes and hole < holes[-1]:
                raise reader.error(
                    f"holes of game {game_number} must increase: {hole} comes after {holes[-1]}",
                    token,
                )
            holes.append(hole)
        games.append(tuple(holes))
    reader.expect_end(f"{count} game(s)")
    return games


def format_hiq_output(sums: Sequence[int]) -> str:
    """The Hi-Q output for the final sums, byte for byte."""
    return "HI Q OUTPUT\n" + "".join(f"{value}\n" for value in sums) + "END OF OUTPUT\n"


# -- move lists -----------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveLine:
    """One line of a move list: its number, its text and the move or why it is not one."""

    line: int
    text: str
    move: Move | None
    error: str | None


def parse_move_lines(text: str, board: Board) -> list[MoveLine]:
    """Every non-blank line of a move list, parsed leniently (errors are kept, not raised).

    A judge uses this to report the first bad line rather than fail the whole input.
    A line may be one peg's chain of jumps (``B6-B4-D4``): it gives one entry per jump,
    each with the line's number.
    """
    result = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        dashed = [word for word in line.split() if "-" in word.strip("-")]
        if len(dashed) > 1:
            both = " and ".join(dashed) if len(dashed) == 2 else ", ".join(dashed)  # noqa: PLR2004
            error = (
                f"{line.strip()} holds {len(dashed)} moves ({both}): write one move a line "
                "(one peg's chain of jumps is written B6-B4-D4)"
            )
            result.append(MoveLine(number, line.strip(), None, error))
            continue
        try:
            moves = board.parse_moves(line)
        except BoardlabError as exc:
            result.append(MoveLine(number, line.strip(), None, str(exc)))
            continue
        result.extend(MoveLine(number, line.strip(), move, None) for move in moves)
    return result


def format_moves(moves: Sequence[Move], board: Board, style: str = "board") -> str:
    """A move list, one per line: ``board`` notation (``5-17``, ``D2-D4``) or ``pegged``
    (``FROM TO`` with ``A1`` names, square boards).
    """
    if style == "pegged":
        return "".join(f"{move.src} {move.dst}\n" for move in moves)
    if style == "board":
        return "".join(board.move_text(move) + "\n" for move in moves)
    raise BoardlabError(f"unknown move style {style!r} (board or pegged)")
