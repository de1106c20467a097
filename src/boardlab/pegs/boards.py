"""Rules layer: peg-solitaire boards: the named classics and boards drawn in text.

Named boards (hole counts in brackets): ``english`` (33), ``french`` (37),
``wiegleb`` (45), ``asymmetric`` (the 3-3-2-2 board, 39), ``diamond`` (41) on the
square lattice, and ``triangle-N`` (N(N+1)/2 holes, N >= 4, six jump directions).
Each has a conventional start: every hole full but one, its *home* hole (the centre
where there is one; the apex ``A1`` on triangles). Holes are named ``A1`` style
(row letter, column number; on a triangle the column is the place in the row);
the English board also answers to the Hi-Q numbers 1..33.

>>> board = named_board("english")
>>> board.size, len(board.symmetries()), str(board.home), board.hole_name(board.home)
(33, 8, 'D4', '17')
>>> board.parse_hole("17") == board.parse_hole("D4")
True
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from itertools import pairwise

from boardlab.core.errors import ParseError, UnknownNameError
from boardlab.core.grid import SQUARE, TRIANGULAR, Coord, Grid, Permutation
from boardlab.core.words import span
from boardlab.pegs.cells import Cell, Jump, Move, parse_move

__all__ = [
    "BOARD_NAMES",
    "MAX_TRIANGLE_SIDE",
    "Board",
    "board_from_rows",
    "named_board",
]

#: A numbered move names two holes.
_MOVE_HOLES = 2
#: The diamond boards hold every cell within this many steps of the centre.
_DIAMOND_RADIUS = 4
#: The largest PEGGED board file (rows and columns).
MAX_BOARD_ROWS, MAX_BOARD_COLS = 25, 49
#: The smallest triangular board (its side).
MIN_TRIANGLE_SIDE = 4

MAX_TRIANGLE_SIDE = 25
BOARD_NAMES = ("english", "french", "wiegleb", "asymmetric", "diamond", "triangle-N")
_TRIANGLE = re.compile(r"triangle-?([0-9]+)")
#: What separates the holes of a move or a chain: a "-" or white space.
_HOLE_SEPARATOR = re.compile(r"\s*-\s*|\s+")
_ALIASES = {
    "european": "french",
    "german": "wiegleb",
    "3-3-2-2": "asymmetric",
    "triangular": "triangle-5",
}


@dataclass(frozen=True)
class Board:
    """A board: its holes on a lattice, its drawing box, its conventional start.

    ``rows`` x ``cols`` is the drawing box (a board file's rectangle). ``home`` is
    the hole of the conventional single vacancy and goal, or None. ``numbered``
    boards (English) also name holes by their row-major number from 1.
    """

    name: str
    grid: Grid
    rows: int
    cols: int
    start: int
    home: Cell | None
    numbered: bool = False

    # -- holes -------------------------------------------------------------------------
    @property
    def size(self) -> int:
        """Number of holes."""
        return self.grid.size

    @property
    def triangular(self) -> bool:
        """True on the triangular lattice (six jump directions)."""
        return self.grid.lattice is TRIANGULAR

    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Every hole, in row-major order (the order of bit indices)."""
        return tuple(Cell(r, c) for r, c in self.grid.cells)

    def has_hole(self, cell: Cell) -> bool:
        """True when ``cell`` is a hole of this board."""
        return (cell.row, cell.col) in self.grid.index

    def index(self, cell: Cell) -> int:
        """The bit index of hole ``cell``.

        :raises UnknownNameError: when the board has no hole there.
        """
        try:
            return self.grid.index[(cell.row, cell.col)]
        except KeyError:
            raise UnknownNameError(f"{cell} is not a hole of the {self.name} board") from None

    def hole_name(self, cell: Cell) -> str:
        """The hole's name in this board's notation (Hi-Q numbers on English)."""
        return str(self.index(cell) + 1) if self.numbered else str(cell)

    def parse_hole(self, text: str) -> Cell:
        """The hole named ``text`` (``D4``; also ``17`` on a numbered board).

        :raises UnknownNameError: when no hole has that name.
        """
        word = text.strip()
        if self.numbered and word.isdigit():
            number = int(word)
            if not 1 <= number <= self.size:
                raise UnknownNameError(
                    f"hole {word} does not exist (holes are {span(1, self.size)})"
                )
            return self.cells[number - 1]
        try:
            cell = Cell.parse(word)
        except ValueError:
            raise UnknownNameError(
                f"{word!r} is not a hole name of the {self.name} board"
            ) from None
        self.index(cell)
        return cell

    def bits(self, cells: Iterable[Cell]) -> int:
        """The bitset of the given holes.

        :raises UnknownNameError: when one is not a hole.
        """
        value = 0
        for cell in cells:
            value |= 1 << self.index(cell)
        return value

    def cells_of(self, bits: int) -> list[Cell]:
        """The holes of a bitset, in row-major order."""
        return [Cell(r, c) for r, c in self.grid.coords(bits)]

    # -- geometry ------------------------------------------------------------------------
    def symmetries(self) -> tuple[Permutation, ...]:
        """The board's symmetry group as bit permutations (identity first)."""
        return self.grid.symmetries()

    @cached_property
    def centre(self) -> Cell | None:
        """The PEGGED centre: the middle of an odd drawing box if a hole, else ``home``."""
        if self.rows % 2 and self.cols % 2 and not self.triangular:
            middle = Cell(self.rows // 2, self.cols // 2)
            if self.has_hole(middle):
                return middle
        return self.home

    def is_line_move(self, move: Move) -> bool:
        """True when the move's direction is a lattice direction of this board."""
        dr = (move.dst.row - move.src.row) // (2 if isinstance(move, Jump) else 1)
        dc = (move.dst.col - move.src.col) // (2 if isinstance(move, Jump) else 1)
        return (dr, dc) in self.grid.lattice.directions

    def distance_to_centre(self, cell: Cell) -> int | None:
        """PEGGED tiebreak: ``|row - centre row| + |col - centre col|`` (square boards)."""
        centre = self.centre
        if centre is None or self.triangular:
            return None
        return abs(cell.row - centre.row) + abs(cell.col - centre.col)

    # -- notation ------------------------------------------------------------------------
    def move_text(self, move: Move) -> str:
        """The move in this board's notation: ``D2-D4``, or ``5-17`` on a numbered board."""
        return f"{self.hole_name(move.src)}-{self.hole_name(move.dst)}"

    def parse_move(self, text: str) -> Move:
        """A move written with this board's hole names (``F10 F8``, ``F10-F8``, ``5-17``).

        :raises ParseError: when the text names no move between two holes;
        :raises UnknownNameError: when it names a hole the board does not have.
        """
        word = text.strip()
        if self.numbered:
            parts = _HOLE_SEPARATOR.split(word)
            if len(parts) == _MOVE_HOLES and all(part.isdigit() for part in parts):
                src, dst = self.parse_hole(parts[0]), self.parse_hole(parts[1])
                return parse_move(f"{src} {dst}")
        return parse_move(word)

    def parse_moves(self, text: str) -> list[Move]:
        """One line of a move list: a move, or one peg's chain of jumps (``B6-B4-D4``,
        as ``pegs minmoves`` prints them), split into its jumps.

        :raises ParseError: when a part names no move, or a chain holds a walk;
        :raises UnknownNameError: when it names a hole the board does not have.
        """
        holes = [part for part in _HOLE_SEPARATOR.split(text.strip()) if part]
        if len(holes) <= _MOVE_HOLES:
            return [self.parse_move(text)]
        moves = [self.parse_move(f"{src}-{dst}") for src, dst in pairwise(holes)]
        if not all(isinstance(move, Jump) for move in moves):
            raise ParseError(f"not a chain of jumps: {text.strip()!r}")
        return moves

    def __repr__(self) -> str:
        """An expression that rebuilds the board: ``named_board(...)`` or
        ``board_from_rows(...)``, the shapes every board comes from."""
        if _is_named(self):
            return f"named_board({self.name!r})"
        return (
            f"board_from_rows({self.name!r}, {list(self.grid.cells)!r}, {self.rows}, {self.cols})"
        )


def _is_named(board: Board) -> bool:
    try:
        return named_board(board.name) is board
    except UnknownNameError:
        return False


def _square_board(name: str, cells: Iterable[Coord], home: Coord, numbered: bool = False) -> Board:
    grid = Grid.from_cells(cells, SQUARE)
    rows = max(r for r, _ in grid.cells) + 1
    cols = max(c for _, c in grid.cells) + 1
    home_bit = 1 << grid.index[home]
    return Board(name, grid, rows, cols, grid.full & ~home_bit, Cell(*home), numbered)


def _cross(
    arm_up: int, arm_left: int, arm_down: int, arm_right: int, width: int = 3
) -> list[Coord]:
    height = arm_up + width + arm_down
    breadth = arm_left + width + arm_right
    return [
        (r, c)
        for r in range(height)
        for c in range(breadth)
        if arm_up <= r < arm_up + width or arm_left <= c < arm_left + width
    ]


def _triangle(side: int) -> Board:
    grid = Grid.from_cells([(r, k) for r in range(side) for k in range(r + 1)], TRIANGULAR)
    return Board(f"triangle-{side}", grid, side, side, grid.full & ~1, Cell(0, 0))


def named_board(name: str) -> Board:
    """The named board (``english``, ``french``, ``wiegleb``, ``asymmetric``, ``diamond``,
    ``triangle-N``), one shared instance per board.

    :raises UnknownNameError: for any other name.
    """
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    match = _TRIANGLE.fullmatch(key)
    return _named_board(f"triangle-{int(match.group(1))}" if match else key)


@cache
def _named_board(key: str) -> Board:
    if key == "english":
        return _square_board("english", _cross(2, 2, 2, 2), (3, 3), numbered=True)
    if key == "wiegleb":
        return _square_board("wiegleb", _cross(3, 3, 3, 3), (4, 4))
    if key == "asymmetric":
        return _square_board("asymmetric", _cross(3, 3, 2, 2), (4, 4))
    if key == "french":
        cells = [
            (r, c) for r in range(7) for c in range(7) if abs(r - 3) + abs(c - 3) <= _DIAMOND_RADIUS
        ]
        return _square_board("french", cells, (3, 3))
    if key == "diamond":
        cells = [
            (r, c) for r in range(9) for c in range(9) if abs(r - 4) + abs(c - 4) <= _DIAMOND_RADIUS
        ]
        return _square_board("diamond", cells, (4, 4))
    match = _TRIANGLE.fullmatch(key)
    if match is not None:
        side = int(match.group(1))
        if not MIN_TRIANGLE_SIDE <= side <= MAX_TRIANGLE_SIDE:
            raise UnknownNameError(
                f"triangle side must be {MIN_TRIANGLE_SIDE}..{MAX_TRIANGLE_SIDE}, got {side}"
            )
        return _triangle(side)
    raise UnknownNameError(f"unknown board {key!r} (named boards: {', '.join(BOARD_NAMES)})")


def board_from_rows(name: str, holes: Iterable[Coord], rows: int, cols: int) -> Board:
    """A square-lattice board with the given holes in a ``rows`` x ``cols`` box.

    Its start is empty (the caller holds the pegs); ``home`` is the centre of an odd
    box when that is a hole.
    """
    grid = Grid.from_cells(holes, SQUARE)
    home = None
    if rows % 2 and cols % 2 and (rows // 2, cols // 2) in grid.index:
        home = Cell(rows // 2, cols // 2)
    return Board(name, grid, rows, cols, 0, home)
