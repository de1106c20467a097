"""Rules layer: the Hex board, its cells, legal moves and incremental win detection.

The board is an ``n x n`` rhombus (``1 <= n <= 26``) in the orientation of the IOI 1997
statement: cell ``(row, col)`` touches ``(row, col±1)``, ``(row-1, col)``,
``(row-1, col+1)``, ``(row+1, col-1)`` and ``(row+1, col)`` (each row is drawn half a
cell to the right of the one above). Player 1 (``BLACK``, who moves first) joins the
left edge (column 1) to the right edge (column n); player 2 (``WHITE``) joins the top
edge (row 1) to the bottom edge (row n).

A :class:`Cell` is written column letter then row number of this board: ``a1`` is the
top-left cell, ``c2`` is column 3 of row 2. Internally rows and columns count from 0 and
a cell is also an index ``row * n + col``. Every result outside names a move as HexGui
does (:func:`move_name`, read back by :func:`parse_move_name`): the cell across the long
diagonal, since HexGui's board is this one transposed.

Wins are detected incrementally with a union-find whose roots carry two edge flags;
every union is logged so :meth:`Position.pop` undoes it exactly.

**Swap rule** (optional, off by default; the IOI statement has none). When a game
that started from the empty board has ``swap`` on, player 2 may answer player 1's first
stone with the move :data:`SWAP` (HexGui's ``swap-pieces``): the stone is taken off and
a stone of player 2 is put on the mirrored cell (row and column exchanged, so each
colour keeps its own edges), and player 1 moves again. The swap is the move value
:data:`SWAP_MOVE` (text ``swap-pieces``); :meth:`Position.pop` undoes it.

A position is a :class:`~boardlab.core.state.GameState` whose moves are values (a
:class:`Cell` or :data:`SWAP_MOVE`). Searches keep integers: ``push_index`` /
``pop_index`` / ``legal_indices`` take cell indices and :data:`SWAP` (``-1``).

>>> q = Position(3, swap=True)
>>> q.play(Cell.parse("b1"))
>>> q.can_swap()
True
>>> q.play(SWAP_MOVE)
>>> q.stones(BLACK), q.stones(WHITE), q.to_move
([], [Cell(row=1, col=0)], 1)
>>> q.pop() == SWAP_MOVE, q.stones(BLACK), q.to_move
(True, [Cell(row=0, col=1)], 2)

>>> p = Position(3)
>>> for name in ["a2", "a1", "b2", "b1", "c2"]:
...     p.play(parse_move(name, 3))
>>> p.winner, p.history[-1]
(1, Cell(row=1, col=2))
>>> str(p.pop()), p.winner is None
('c2', True)
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import dataclass
from functools import cache

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.core.state import GameState
from boardlab.core.words import span
from boardlab.hex.board import Cell, bridge_table, neighbours, vertex, vertex_index

__all__ = [
    "BLACK",
    "EMPTY",
    "MAX_SIZE",
    "SWAP",
    "SWAP_MOVE",
    "WHITE",
    "Cell",
    "Move",
    "Position",
    "Swap",
    "bridge_table",
    "check_size",
    "color_name",
    "game_over",
    "move_name",
    "neighbours",
    "opponent",
    "parse_move",
    "parse_move_name",
    "random_open_position",
    "vertex",
    "vertex_index",
]

_SIDE_A, _SIDE_B = 1, 2

EMPTY, BLACK, WHITE = 0, 1, 2
MAX_SIZE = 26
#: The swap move as an index, in the integer fast path (``push_index``, ``indices``).
SWAP = -1


def opponent(player: int) -> int:
    """The other player (1 <-> 2)."""
    return 3 - player


def color_name(player: int) -> str:
    """``black`` (player 1) or ``white`` (player 2): HexGui's names of the players, the
    ones every message of boardlab uses (the web page draws black red and white blue)."""
    return "black" if player == BLACK else "white"


def game_over(winner: int) -> str:
    """The one sentence that says a game is won: ``the game is over: white has won``."""
    return f"the game is over: {color_name(winner)} has won"


def check_size(size: int) -> int:
    """``size`` when it is a legal board size.

    :raises BoardlabError: when it is not in 1..26.
    """
    if not isinstance(size, int) or isinstance(size, bool) or not 1 <= size <= MAX_SIZE:
        raise BoardlabError(f"board size must be {span(1, MAX_SIZE)}, got {size!r}")
    return size


@dataclass(frozen=True, slots=True)
class Swap:
    """The swap move: player 2 takes player 1's first stone (see the module docstring)."""

    def __str__(self) -> str:
        return "swap-pieces"

    def __repr__(self) -> str:
        return "SWAP_MOVE"


#: The swap move as a value (HexGui's ``swap-pieces``).
SWAP_MOVE = Swap()
#: A move: a cell, or the swap.
Move = Cell | Swap


def parse_move(text: str, size: int | None = None) -> Move:
    """A move from its text: a cell name (``c5``) or ``swap-pieces`` (also ``swap``).

    :raises ParseError: when ``text`` is neither, or names a cell off the board.
    """
    if text.strip().lower() in ("swap-pieces", "swap"):
        return SWAP_MOVE
    return Cell.parse(text, size)


def move_name(move: Move) -> str:
    """HexGui's name of a move, the one name every result gives it: its cell's vertex
    (:meth:`Cell.vertex`, ``c5`` = column c, row 5 of HexGui's board) or ``swap-pieces``.

    >>> move_name(Cell(0, 2)), move_name(SWAP_MOVE)
    ('a3', 'swap-pieces')
    """
    return str(move) if isinstance(move, Swap) else move.vertex()


def parse_move_name(text: str, size: int | None = None) -> Move:
    """The move HexGui names ``text`` (the inverse of :func:`move_name`).

    :raises ParseError: when ``text`` is neither a cell name nor the swap, or is off the board.

    >>> parse_move_name("a3", 3)
    Cell(row=0, col=2)
    """
    move = parse_move(text, size)
    return move if isinstance(move, Swap) else move.transposed()


@cache
def _cells(size: int) -> tuple[Cell, ...]:
    """Every cell of a ``size`` board, by index (shared, so moves cost no allocation)."""
    return tuple(Cell.of_index(index, size) for index in range(size * size))


#: What ``_apply`` hands ``_undo``: the move's index (:data:`SWAP` for a swap).
Undo = int


class Position(GameState[Move, Undo, int]):
    """A Hex position: stones, the side to move, history, and the winner (if any).

    ``push``/``pop`` are unchecked and fast; ``play`` checks the move first. ``swap``
    turns the swap rule on (see the module docstring); it may be changed at any time
    and only decides whether :data:`SWAP_MOVE` is legal.
    """

    __slots__ = (
        "_flags",
        "_log",
        "_parent",
        "_rank",
        "board",
        "size",
        "start_empty",
        "swap",
        "to_move",
        "winner",
    )

    def __init__(self, size: int, swap: bool = False) -> None:
        super().__init__()
        self.size = check_size(size)
        self.swap = swap
        #: True when the game started from the empty board (the swap rule needs it).
        self.start_empty = True
        cells = size * size
        self.board: list[int] = [EMPTY] * cells
        self.to_move = BLACK
        self.winner: int | None = None
        self._parent = list(range(cells))
        self._rank = [0] * cells
        self._flags = [0] * cells
        self._log: list[list[tuple[int, int, int, int]]] = []

    # -- construction -------------------------------------------------------------------

    @classmethod
    def from_stones(
        cls,
        size: int,
        black: list[Cell],
        white: list[Cell],
        to_move: int | None = None,
        swap: bool = False,
    ) -> Position:
        """A position holding the given stones; ``to_move`` defaults from the counts.

        :raises BoardlabError: for an off-board or doubly used cell, or counts that do
            not allow the side to move (black has as many stones as white, or one more).
        """
        position = cls(size, swap)
        seen: set[Cell] = set()
        for cell in [*black, *white]:
            if not cell.on_board(size):
                raise BoardlabError(f"cell {cell} is off the {size}x{size} board")
            if cell in seen:
                raise BoardlabError(f"cell {cell} holds two stones")
            seen.add(cell)
        diff = len(black) - len(white)
        if to_move is None:
            if diff not in (0, 1):
                raise BoardlabError(
                    f"unbalanced position: {len(black)} black and {len(white)} white stones "
                    "(black moves first, so black has as many stones as white or one more)"
                )
            to_move = BLACK if diff == 0 else WHITE
        for color, stones in ((BLACK, black), (WHITE, white)):
            for cell in stones:
                position._place(cell.index(size), color)
        position._log.clear()
        position.to_move = to_move
        position.start_empty = not black and not white
        return position

    @classmethod
    def from_moves(cls, size: int, moves: list[Move], swap: bool = False) -> Position:
        """The position after playing ``moves`` from the empty board (each checked).

        :raises IllegalMoveError: for a move the rules do not allow.
        """
        position = cls(size, swap)
        for move in moves:
            position.play(move)
        return position

    def _clone(self) -> Position:
        other = Position.__new__(Position)
        other.size = self.size
        other.swap = self.swap
        other.start_empty = self.start_empty
        other.board = self.board.copy()
        other.to_move = self.to_move
        other.winner = self.winner
        other._parent = self._parent.copy()
        other._rank = self._rank.copy()
        other._flags = self._flags.copy()
        other._log = [entry.copy() for entry in self._log]
        return other

    def transposed(self) -> Position:
        """The same game seen across the long diagonal, colours swapped with the edges.

        Cell ``(r, c)`` of ``self`` becomes ``(c, r)``; stone owners stay, so the result is
        the position in the HexGui orientation (first player joins top and bottom) read
        back in this module's orientation and vice versa. History is not kept, and the
        result's winner and :meth:`winning_chain` follow this module's edges on the
        transposed stones: read a game's winner and chain from ``self`` (as
        :func:`boardlab.hex.formats.format_hexgui_diagram` does).
        """
        black = [self.cell(i).transposed() for i, v in enumerate(self.board) if v == BLACK]
        white = [self.cell(i).transposed() for i, v in enumerate(self.board) if v == WHITE]
        return Position.from_stones(self.size, black, white, self.to_move)

    # -- queries ---------------------------------------------------------------------------

    def cell(self, index: int) -> Cell:
        """The :class:`Cell` of an index."""
        return Cell.of_index(index, self.size)

    def index(self, cell: Cell) -> int:
        """The index of ``cell``.

        :raises IllegalMoveError: when it is off the board.
        """
        if not cell.on_board(self.size):
            raise IllegalMoveError(f"cell {cell.vertex()} is off the {self.size}x{self.size} board")
        return cell.index(self.size)

    def move_of(self, index: int) -> Move:
        """The move value of an index (:data:`SWAP` gives :data:`SWAP_MOVE`)."""
        return SWAP_MOVE if index == SWAP else _cells(self.size)[index]

    def index_of(self, move: Move) -> int:
        """The index of a move (:data:`SWAP` for the swap).

        :raises IllegalMoveError: for a cell off the board.
        """
        return SWAP if isinstance(move, Swap) else self.index(move)

    @property
    def indices(self) -> list[int]:
        """The moves played so far as indices (:data:`SWAP` for a swap), oldest first."""
        return self._tokens()

    def __getitem__(self, cell: Cell) -> int:
        return self.board[self.index(cell)]

    def stones(self, player: int) -> list[Cell]:
        """The cells holding ``player``'s stones, in index order."""
        return [self.cell(i) for i, v in enumerate(self.board) if v == player]

    def legal_indices(self) -> list[int]:
        """Indices of the empty cells (none once the game is won); the swap is not listed."""
        if self.winner is not None:
            return []
        return [i for i, v in enumerate(self.board) if v == EMPTY]

    def legal_moves(self) -> list[Move]:
        """Every legal move: the empty cells in index order, then the swap when legal."""
        cells = _cells(self.size)
        moves: list[Move] = [cells[i] for i in self.legal_indices()]
        if self.can_swap():
            moves.append(SWAP_MOVE)
        return moves

    def can_swap(self) -> bool:
        """True when the side to move may play :data:`SWAP_MOVE`: the swap rule is on, the
        game started from the empty board, and exactly one move, player 1's first stone,
        has been played (so player 2 is to move).
        """
        if not (self.swap and self.start_empty and self.winner is None):
            return False
        if self.ply != 1 or self.to_move != WHITE:
            return False
        first = self._first_stone()
        return first >= 0 and self.board[first] == BLACK

    def why_illegal(self, move: Move) -> str | None:
        """None when the side to move may play ``move``, else why not."""
        if self.winner is not None:
            return game_over(self.winner)
        if isinstance(move, Swap):
            return None if self.can_swap() else self._swap_refusal()
        if not move.on_board(self.size):
            return f"cell {move.vertex()} is off the {self.size}x{self.size} board"
        if self.board[move.index(self.size)] != EMPTY:
            return f"cell {move.vertex()} is already occupied"
        return None

    def index_is_legal(self, index: int) -> bool:
        """True when the side to move may play at ``index`` (or :data:`SWAP`)."""
        if index == SWAP:
            return self.can_swap()
        return self.winner is None and 0 <= index < len(self.board) and self.board[index] == EMPTY

    def swapped_cell(self) -> int:
        """The cell where a swap would put player 2's stone: the mirror of the first stone.

        :raises IllegalMoveError: when the swap is not legal now (see :meth:`can_swap`).
        """
        if not self.can_swap():
            raise IllegalMoveError(self._swap_refusal())
        return self._mirror(self._first_stone())

    def is_over(self) -> bool:
        """True when someone has won (Hex has no draws; a full board always has a winner)."""
        return self.winner is not None

    def outcome(self) -> int | None:
        """The winner (1 or 2) or None while the game goes on."""
        return self.winner

    def winning_chain(self) -> list[int]:
        """The winner's cells in the group that touches both of its edges ([] if none)."""
        if self.winner is None:
            return []
        roots = {
            self._find(i)
            for i, v in enumerate(self.board)
            if v == self.winner and self._flags[self._find(i)] == _SIDE_A | _SIDE_B
        }
        return [i for i, v in enumerate(self.board) if v == self.winner and self._find(i) in roots]

    def key(self) -> tuple[int, int]:
        """Bitsets of black and white stones (bit ``index``); the side to move follows."""
        black = white = 0
        for i, v in enumerate(self.board):
            if v == BLACK:
                black |= 1 << i
            elif v == WHITE:
                white |= 1 << i
        return black, white

    def _key(self) -> Hashable:
        return self.size, tuple(self.board), self.to_move, self.swap, self.can_swap()

    # -- moves -------------------------------------------------------------------------------

    def play_index(self, index: int) -> None:
        """Check and play the move at ``index`` (or :data:`SWAP`).

        :raises IllegalMoveError: as :meth:`play`, also for an index off the board.
        """
        if index != SWAP and not 0 <= index < len(self.board):
            raise IllegalMoveError(f"cell index {index} is off the {self.size}x{self.size} board")
        self.play(self.move_of(index))

    def push_index(self, index: int) -> None:
        """Play at ``index`` (or :data:`SWAP`) for the side to move without checks."""
        self._record(self.move_of(index), self._apply_index(index))

    def pop_index(self) -> int:
        """Undo the last move and return its index (:data:`SWAP` for a swap).

        :raises NoMoveToUndoError: when there is no move to undo.
        """
        index = self._token(-1) if self.ply else SWAP
        self.pop()
        return index

    def _apply(self, move: Move) -> Undo:
        return self._apply_index(self.index_of(move))

    def _apply_index(self, index: int) -> Undo:
        if index == SWAP:
            self._swap()
        else:
            self._place(index, self.to_move)
            self.to_move = opponent(self.to_move)
        return index

    def _undo(self, move: Move, token: Undo) -> None:
        if token == SWAP:
            self._unswap()
            return
        self._unlog()
        self.board[token] = EMPTY
        self.to_move = opponent(self.to_move)
        self.winner = None

    def _unlog(self) -> None:
        for node, parent, rank, flags in reversed(self._log.pop()):
            self._parent[node] = parent
            self._rank[node] = rank
            self._flags[node] = flags

    def _first_stone(self) -> int:
        """The index of the first move (its undo token)."""
        return self._token(0)

    def _mirror(self, index: int) -> int:
        """The cell across the long diagonal, where a swap puts player 2's stone."""
        return self.cell(index).transposed().index(self.size)

    def _swap(self) -> None:
        # The first stone is the only one on the board: undo its placement, then put
        # player 2's stone on the mirror cell.
        first = self._first_stone()
        mirror = self._mirror(first)
        self._unlog()
        self.board[first] = EMPTY
        self._log.append([])
        self._place(mirror, WHITE)
        self.to_move = BLACK

    def _unswap(self) -> None:
        first = self._first_stone()
        mirror = self._mirror(first)
        self._unlog()  # player 2's mirrored stone
        self._log.pop()  # the empty entry standing for the removed first stone
        self.board[mirror] = EMPTY
        self.winner = None
        self._place(first, BLACK)
        self.to_move = WHITE

    def _swap_refusal(self) -> str:
        if not self.swap:
            return "swap is not allowed: the swap rule is off"
        if not self.start_empty:
            return "swap is not allowed: the game did not start from the empty board"
        return "swap is only allowed as player 2's answer to player 1's first stone"

    def _find(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            node = parent[node]
        return node

    def _place(self, index: int, color: int) -> None:
        size = self.size
        row, col = divmod(index, size)
        log: list[tuple[int, int, int, int]] = [
            (index, self._parent[index], self._rank[index], self._flags[index])
        ]
        flags = 0
        line = col if color == BLACK else row
        if line == 0:
            flags |= _SIDE_A
        if line == size - 1:
            flags |= _SIDE_B
        self.board[index] = color
        self._flags[index] = flags
        root = index
        for other in neighbours(size)[index]:
            if self.board[other] != color:
                continue
            other_root = self._find(other)
            if other_root == root:
                continue
            if self._rank[root] < self._rank[other_root]:
                root, other_root = other_root, root
            log.append(
                (
                    other_root,
                    self._parent[other_root],
                    self._rank[other_root],
                    self._flags[other_root],
                )
            )
            log.append((root, self._parent[root], self._rank[root], self._flags[root]))
            self._parent[other_root] = root
            self._flags[root] |= self._flags[other_root]
            if self._rank[root] == self._rank[other_root]:
                self._rank[root] += 1
        self._log.append(log)
        if self._flags[root] == _SIDE_A | _SIDE_B and self.winner is None:
            self.winner = color

    def __repr__(self) -> str:
        """``Position.from_moves(...)`` for a game from the empty board (the swap rule
        depends on its moves), else ``Position.from_stones(...)``."""
        swap = ", swap=True" if self.swap else ""
        if self.start_empty:
            return f"Position.from_moves({self.size}, {list(self.history)!r}{swap})"
        black, white = self.stones(BLACK), self.stones(WHITE)
        return (
            f"Position.from_stones({self.size}, {black!r}, {white!r}, to_move={self.to_move}{swap})"
        )


def random_open_position(size: int, moves: int, rng: random.Random) -> Position:
    """A position after ``moves`` random legal moves from the empty board that nobody has won
    yet (games that end early are thrown away and replayed), for tests and benchmarks.
    """
    while True:
        position = Position(size)
        for _ in range(moves):
            position.push_index(rng.choice(position.legal_indices()))
            if position.winner is not None:
                break
        if position.winner is None:
            return position
