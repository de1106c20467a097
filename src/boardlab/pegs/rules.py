"""Rules layer: a peg-solitaire position with its legal moves, push/pop and checks.

A :class:`Position` is a board plus the set of holes holding pegs (a bitset over the
board's holes) and the moves played so far. Jumps go along the board's lattice
lines; walks (one cell to an empty neighbour, PEGGED rules) are legal only when
the position allows them.

>>> from boardlab.pegs.boards import named_board
>>> position = Position(named_board("english"))
>>> position.peg_count, len(position.legal_moves())
(32, 4)
>>> position.play(position.board.parse_move("5-17"))
>>> position.peg_count, str(position.history[-1])
(31, 'B4-D4')
"""

from __future__ import annotations

from collections.abc import Hashable

from boardlab.core.errors import BoardlabError
from boardlab.core.state import GameState
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.cells import Cell, Jump, Move, Walk

__all__ = ["Position"]


class Position(GameState[Move, int, int]):
    """Pegs on a board, mutable with :meth:`push` / :meth:`pop` (a :class:`GameState`;
    the undo token is the peg bitset before the move, the outcome the pegs left).

    :raises BoardlabError: when ``bits`` holds a peg off the board.
    """

    __slots__ = ("bits", "board", "walks")

    def __init__(self, board: Board | str, bits: int | None = None, *, walks: bool = False) -> None:
        super().__init__()
        self.board = named_board(board) if isinstance(board, str) else board
        self.bits = self.board.start if bits is None else bits
        if self.bits < 0 or self.bits >> self.board.size:
            raise BoardlabError("peg bitset has bits outside the board")
        self.walks = walks

    @classmethod
    def from_cells(cls, board: Board, pegs: list[Cell], *, walks: bool = False) -> Position:
        """A position with pegs in exactly the given holes.

        :raises UnknownNameError: when a cell is not a hole.
        """
        return cls(board, board.bits(pegs), walks=walks)

    # -- inspection ------------------------------------------------------------------------
    @property
    def peg_count(self) -> int:
        """Number of pegs on the board."""
        return self.bits.bit_count()

    @property
    def pegs(self) -> list[Cell]:
        """The holes holding pegs, in row-major order."""
        return self.board.cells_of(self.bits)

    def has_peg(self, cell: Cell) -> bool:
        """True when hole ``cell`` holds a peg (False for a cell that is not a hole)."""
        index = self.board.grid.index.get((cell.row, cell.col))
        return index is not None and bool(self.bits >> index & 1)

    # -- moves -----------------------------------------------------------------------------
    def legal_jumps(self) -> list[Jump]:
        """Every legal jump, in the board's jump-table order."""
        bits = self.bits
        cells = self.board.cells
        return [
            Jump(cells[a], cells[c])
            for a, b, c in self.board.grid.jumps
            if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
        ]

    def legal_walks(self) -> list[Walk]:
        """Every legal walk (empty unless walks are allowed)."""
        if not self.walks:
            return []
        bits = self.bits
        cells = self.board.cells
        return [
            Walk(cells[a], cells[b])
            for a, b in self.board.grid.steps
            if bits >> a & 1 and not bits >> b & 1
        ]

    def legal_moves(self) -> list[Move]:
        """Every legal jump, then every legal walk when walks are allowed (none once one
        peg or fewer is left: the game is over)."""
        if self.peg_count <= 1:
            return []
        moves: list[Move] = list(self.legal_jumps())
        moves.extend(self.legal_walks())
        return moves

    def why_illegal(self, move: Move) -> str | None:
        """None when ``move`` is legal here, else the first rule it breaks, in words."""
        board = self.board
        name = (
            board.move_text(move)
            if board.has_hole(move.src) and board.has_hole(move.dst)
            else str(move)
        )
        if isinstance(move, Walk) and not self.walks:
            return f"{name}: walks are not allowed here (jumps only)"
        if self.peg_count <= 1:
            return f"{name}: the game is over ({self.peg_count} peg left)"
        for cell in (move.src, move.dst):
            if not board.has_hole(cell):
                return f"{name}: {cell} is not a hole of the board"
        if not board.is_line_move(move):
            return f"{name}: not along a line of the {board.name} board"
        if not self.has_peg(move.src):
            return f"{name}: no peg at {board.hole_name(move.src)}"
        if self.has_peg(move.dst):
            return f"{name}: {board.hole_name(move.dst)} is not empty"
        if isinstance(move, Jump):
            if not board.has_hole(move.over):
                return f"{name}: {move.over} between them is not a hole"
            if not self.has_peg(move.over):
                return f"{name}: no peg to jump over at {board.hole_name(move.over)}"
        return None

    def _apply(self, move: Move) -> int:
        board = self.board
        src, dst = board.index(move.src), board.index(move.dst)
        before = self.bits
        bits = (before & ~(1 << src)) | (1 << dst)
        if isinstance(move, Jump):
            bits &= ~(1 << board.index(move.over))
        self.bits = bits
        return before

    def _undo(self, move: Move, token: int) -> None:
        self.bits = token

    def _clone(self) -> Position:
        return Position(self.board, self.bits, walks=self.walks)

    def _key(self) -> Hashable:
        return self.board, self.bits, self.walks

    def is_over(self) -> bool:
        """True at one peg or fewer, or when no jump (and no walk, when allowed) remains."""
        if self.peg_count <= 1:
            return True
        return not self.legal_jumps() and not (self.walks and self.legal_walks())

    def outcome(self) -> int | None:
        """Pegs left once the game is over, or None while moves remain."""
        return self.peg_count if self.is_over() else None

    def __repr__(self) -> str:
        walks = ", walks=True" if self.walks else ""
        return f"Position({self.board!r}, {self.bits:#x}{walks})"
