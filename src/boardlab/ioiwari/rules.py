"""Rules layer: the Ioiwari board, sowing, moves and the mutable game state.

Seven pits ``1..7`` clockwise around a round board and one bank per player. A move
empties a non-empty pit and sows its beads clockwise from the next pit on, going round
the board (past the emptied pit) as often as needed:

* more than one bead in hand: a pit holding ``cap`` (5) beads gives one bead to the
  mover's bank; any other pit receives one bead from the hand;
* the last bead: a pit holding ``1..cap-1`` beads goes, with that bead, to the mover's
  bank; otherwise (``0`` or ``cap``) the bead goes to the opponent's bank.

A move always banks at least one bead, so every game ends; it ends when all pits are
empty, and the larger bank wins. The statement's worked example:

>>> state = State(IOI, (4, 3, 2, 4, 2, 3, 2))
>>> for pit in (2, 3, 5, 4, 5, 7):
...     state.play(Move(pit))
>>> state.position()
Position(pits=(0, 0, 0, 0, 0, 0, 0), banks=(11, 9), to_move=1)
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.state import GameState
from boardlab.core.textio import TokenReader
from boardlab.core.words import span

__all__ = [
    "IOI",
    "Move",
    "Outcome",
    "Position",
    "State",
    "Variant",
    "sow",
    "sow_trace",
]

#: Pits and bead cap a variant may have.
MIN_PITS, MAX_PITS = 2, 12
MIN_CAP, MAX_CAP = 2, 9
#: Largest table a variant may ask for (``(cap + 1) ** pits`` entries of one byte).
MAX_TABLE = 50_000_000


@dataclass(frozen=True, slots=True)
class Variant:
    """The parameters of the game: pits, bead cap of a pit, beads of a start and their spread.

    The IOI game is ``Variant()``: 7 pits, cap 5, 20 beads, each start pit holding 2..4.

    >>> Variant.parse(str(IOI)) == IOI
    True
    >>> str(Variant(pits=5, cap=4, total=10, low=1, high=3))
    'pits=5 cap=4 total=10 start=1..3'
    """

    pits: int = 7
    cap: int = 5
    total: int = 20
    low: int = 2
    high: int = 4

    def __post_init__(self) -> None:
        if not MIN_PITS <= self.pits <= MAX_PITS:
            raise BoardlabError(f"a variant needs {MIN_PITS}..{MAX_PITS} pits, got {self.pits}")
        if not MIN_CAP <= self.cap <= MAX_CAP:
            raise BoardlabError(f"the bead cap must be {span(MIN_CAP, MAX_CAP)}, got {self.cap}")
        if (self.cap + 1) ** self.pits > MAX_TABLE:
            raise BoardlabError(
                f"{self.pits} pits with cap {self.cap} need a table of "
                f"{(self.cap + 1) ** self.pits} entries (at most {MAX_TABLE})"
            )
        if not 0 <= self.low <= self.high <= self.cap:
            raise BoardlabError(
                f"start pits must hold low..high beads with 0 <= low <= high <= cap "
                f"{self.cap}, got {self.low}..{self.high}"
            )
        if not self.pits * self.low <= self.total <= self.pits * self.high:
            raise BoardlabError(
                f"{self.pits} pits of {self.low}..{self.high} beads cannot hold {self.total}"
            )

    @property
    def size(self) -> int:
        """Number of codes of a pit vector: ``(cap + 1) ** pits``."""
        return int((self.cap + 1) ** self.pits)

    def starts(self) -> list[tuple[int, ...]]:
        """Every legal start in lexicographic order (357 for the IOI game).

        >>> len(IOI.starts()), IOI.starts()[0]
        (357, (2, 2, 2, 2, 4, 4, 4))
        """
        spread = range(self.low, self.high + 1)
        return [
            pits for pits in itertools.product(spread, repeat=self.pits) if sum(pits) == self.total
        ]

    def check_start(self, pits: Sequence[int]) -> None:
        """Check that ``pits`` is a start of this variant.

        :raises BoardlabError: naming the first pit out of ``low..high`` or the wrong total.
        """
        self.check_pits(pits)
        for label, beads in enumerate(pits, start=1):
            if not self.low <= beads <= self.high:
                raise BoardlabError(
                    f"pit {label} holds {beads} beads; a start has {self.low}..{self.high}"
                )
        if sum(pits) != self.total:
            raise BoardlabError(f"the pits hold {sum(pits)} beads; a start has {self.total}")

    def check_pits(self, pits: Sequence[int]) -> None:
        """Check that ``pits`` has the right length and every pit holds ``0..cap`` beads.

        :raises BoardlabError: naming the first wrong pit.
        """
        if len(pits) != self.pits:
            raise BoardlabError(f"expected {self.pits} pits, got {len(pits)}")
        for label, beads in enumerate(pits, start=1):
            if not 0 <= beads <= self.cap:
                raise BoardlabError(
                    f"pit {label} holds {beads} beads; a pit holds {span(0, self.cap)}"
                )

    def __str__(self) -> str:
        return f"pits={self.pits} cap={self.cap} total={self.total} start={self.low}..{self.high}"

    @classmethod
    def parse(cls, text: str) -> Variant:
        """Read ``pits=7 cap=5 total=20 start=2..4`` (any subset, any order; commas allowed).

        :raises ParseError: on an unknown key or a malformed value.
        :raises BoardlabError: when the parameters do not make a game.
        """
        values: dict[str, int] = {}
        reader = TokenReader(text.replace(",", " "), source="<variant>")
        for token in reader:
            key, sep, value = token.text.partition("=")
            if not sep or key not in ("pits", "cap", "total", "start"):
                raise reader.error(
                    f"expected pits=N, cap=N, total=N or start=LOW..HIGH, got {token.text!r}",
                    token,
                )
            if key == "start":
                low, dots, high = value.partition("..")
                if not dots or not low.isdigit() or not high.isdigit():
                    raise reader.error(f"start must be LOW..HIGH, got {value!r}", token)
                values["low"], values["high"] = int(low), int(high)
            elif value.isdigit() and value.isascii():
                values[key] = int(value)
            else:
                raise reader.error(f"{key} must be a whole number, got {value!r}", token)
        return cls(**values)


#: The game of IOI 2001: 7 pits, cap 5, starts of 20 beads with 2..4 in each pit.
IOI = Variant()


@dataclass(frozen=True, slots=True)
class Move:
    """A move: the label (``1..pits``) of the pit that is emptied.

    >>> Move.parse(str(Move(3)))
    Move(pit=3)
    """

    pit: int

    def __str__(self) -> str:
        return str(self.pit)

    @classmethod
    def parse(cls, text: str) -> Move:
        """Read a pit label.

        :raises ParseError: when ``text`` is not one positive integer.
        """
        reader = TokenReader(text, source="<move>")
        pit = reader.next_int("pit label", 1, None)
        reader.expect_end("move")
        return cls(pit)


@dataclass(frozen=True, slots=True)
class Position:
    """A snapshot: pit contents, the two banks and the player to move (1 or 2).

    Written ``4 0 3 5 0 3 2 | 3 0 | 2``; ``parse`` also takes the pits alone (a start:
    empty banks, player 1 to move).

    >>> p = Position.parse("4 0 3 5 0 3 2 | 3 0 | 2")
    >>> Position.parse(str(p)) == p, Position.parse("4 3 2 4 2 3 2").banks
    (True, (0, 0))
    """

    pits: tuple[int, ...]
    banks: tuple[int, int] = (0, 0)
    to_move: int = 1

    def __str__(self) -> str:
        pits = " ".join(map(str, self.pits))
        return f"{pits} | {self.banks[0]} {self.banks[1]} | {self.to_move}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read ``PITS`` or ``PITS | BANK1 BANK2 | PLAYER``.

        :raises ParseError: on a malformed part, naming its column.
        """
        parts = text.split("|")
        if len(parts) not in (1, 3):
            raise ParseError(
                "expected 'PITS' or 'PITS | BANK1 BANK2 | PLAYER'", source="<position>", line=1
            )
        offset = 0
        readers = []
        for part in parts:
            readers.append(TokenReader(" " * offset + part, source="<position>"))
            offset += len(part) + 1
        pit_reader = readers[0]
        pits = tuple(pit_reader.int_of(token, "pit", 0, None) for token in pit_reader)
        if not pits:
            raise pit_reader.error("expected the beads of every pit")
        if len(parts) == 1:
            return cls(pits)
        bank_reader, player_reader = readers[1], readers[2]
        banks = (
            bank_reader.next_int("bank 1", 0, None),
            bank_reader.next_int("bank 2", 0, None),
        )
        bank_reader.expect_end("banks")
        to_move = player_reader.next_int("player to move", 1, 2)
        player_reader.expect_end("position")
        return cls(pits, banks, to_move)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: the banks and the winner (1, 2, or 0 for a draw)."""

    banks: tuple[int, int]

    @property
    def winner(self) -> int:
        """1 or 2, or 0 for a draw."""
        first, second = self.banks
        return 1 if first > second else 2 if second > first else 0

    def __str__(self) -> str:
        first, second = self.banks
        result = "draw" if self.winner == 0 else f"player {self.winner} wins"
        return f"{first} : {second}, {result}"


def sow(pits: Sequence[int], index: int, cap: int) -> tuple[tuple[int, ...], int, int]:
    """Empty pit ``index`` (0-based) and sow: ``(new pits, mover's gain, opponent's gain)``.

    The pit must not be empty (not checked).

    >>> sow((4, 3, 2, 4, 2, 3, 2), 1, 5)
    ((4, 0, 3, 5, 0, 3, 2), 3, 0)
    """
    board = list(pits)
    size = len(board)
    hand = board[index]
    board[index] = 0
    mine = theirs = 0
    at = index
    while hand > 1:
        at = (at + 1) % size
        if board[at] == cap:
            board[at] -= 1
            mine += 1
        else:
            board[at] += 1
            hand -= 1
    at = (at + 1) % size
    if 1 <= board[at] < cap:
        mine += board[at] + 1
        board[at] = 0
    else:
        theirs += 1
    return tuple(board), mine, theirs


def sow_trace(pits: Sequence[int], index: int, cap: int) -> list[tuple[int, str]]:
    """The steps of a sowing for display: ``(pit label, what happened)`` per pit visited.

    >>> sow_trace((4, 3, 2, 4, 2, 3, 2), 1, 5)
    [(3, 'drop'), (4, 'drop'), (5, 'capture 2+1')]
    """
    board = list(pits)
    size = len(board)
    hand = board[index]
    board[index] = 0
    steps: list[tuple[int, str]] = []
    at = index
    while hand > 1:
        at = (at + 1) % size
        if board[at] == cap:
            board[at] -= 1
            steps.append((at + 1, "full: one bead to the bank"))
        else:
            board[at] += 1
            hand -= 1
            steps.append((at + 1, "drop"))
    at = (at + 1) % size
    if 1 <= board[at] < cap:
        steps.append((at + 1, f"capture {board[at]}+1"))
    else:
        steps.append((at + 1, "last bead to the opponent's bank"))
    return steps


class State(GameState[Move, tuple[tuple[int, ...], tuple[int, int]], Outcome]):
    """A game in progress: mutable with ``push``/``pop``; ``play`` checks, ``push`` does not.

    :raises BoardlabError: when the pits do not fit the variant.
    """

    __slots__ = ("banks", "pits", "to_move", "variant")

    def __init__(
        self,
        variant: Variant = IOI,
        pits: Sequence[int] | None = None,
        banks: tuple[int, int] = (0, 0),
        to_move: int = 1,
    ) -> None:
        super().__init__()
        start = list(pits) if pits is not None else variant.starts()[0]
        variant.check_pits(start)
        if to_move not in (1, 2):
            raise BoardlabError(f"the player to move is 1 or 2, got {to_move}")
        if min(banks) < 0:
            raise BoardlabError(f"banks cannot be negative, got {banks[0]} {banks[1]}")
        self.variant = variant
        self.pits: list[int] = list(start)
        self.banks: list[int] = list(banks)
        self.to_move = to_move

    @classmethod
    def from_position(cls, position: Position, variant: Variant = IOI) -> State:
        """A state at ``position``.

        :raises BoardlabError: when the position does not fit the variant.
        """
        return cls(variant, position.pits, position.banks, position.to_move)

    def position(self) -> Position:
        """The current snapshot."""
        return Position(tuple(self.pits), (self.banks[0], self.banks[1]), self.to_move)

    def legal_moves(self) -> list[Move]:
        """Every non-empty pit, in label order."""
        return [Move(i + 1) for i, beads in enumerate(self.pits) if beads]

    def why_illegal(self, move: Move) -> str | None:
        """None when ``move`` names a non-empty pit of the board, else why not."""
        if not 1 <= move.pit <= len(self.pits):
            return f"there is no pit {move.pit} (pits are {span(1, len(self.pits))})"
        if self.pits[move.pit - 1] == 0:
            return f"pit {move.pit} is empty"
        return None

    def is_over(self) -> bool:
        """True when every pit is empty."""
        return not any(self.pits)

    def _apply(self, move: Move) -> tuple[tuple[int, ...], tuple[int, int]]:
        token = (tuple(self.pits), (self.banks[0], self.banks[1]))
        board, mine, theirs = sow(self.pits, move.pit - 1, self.variant.cap)
        self.pits = list(board)
        mover = self.to_move - 1
        self.banks[mover] += mine
        self.banks[1 - mover] += theirs
        self.to_move = 3 - self.to_move
        return token

    def _undo(self, move: Move, token: tuple[tuple[int, ...], tuple[int, int]]) -> None:
        pits, banks = token
        self.pits = list(pits)
        self.banks = list(banks)
        self.to_move = 3 - self.to_move

    def _clone(self) -> State:
        return State(self.variant, self.pits, (self.banks[0], self.banks[1]), self.to_move)

    def _key(self) -> Hashable:
        return (self.variant, tuple(self.pits), tuple(self.banks), self.to_move)

    def outcome(self) -> Outcome | None:
        """The result once every pit is empty, else None."""
        if not self.is_over():
            return None
        return Outcome((self.banks[0], self.banks[1]))

    def __repr__(self) -> str:
        return (
            f"State({self.variant!r}, {tuple(self.pits)!r}, "
            f"({self.banks[0]}, {self.banks[1]}), {self.to_move})"
        )
