"""Core layer: the one protocol every game state follows.

After OpenSpiel's ``ApplyAction`` / ``DoApplyAction``: the base class keeps the history
once and does the bookkeeping (``play`` = check, then push; ``pop``; ``copy``; equality),
and a game writes only its small hooks:

- ``legal_moves()`` and ``why_illegal(move)`` (None when legal, else the broken rule);
- ``_apply(move)`` returns what ``_undo(move, token)`` needs to take the move back;
- ``_clone()`` copies the game's own fields (the history is copied here);
- ``_key()`` is what two equal states share (history aside), ``is_over()``, ``outcome()``;
- ``__repr__`` rebuilds the state (without its history).

Moves are value types (frozen dataclasses with a text form); kernels keep their
integers inside.

>>> class Counter(GameState[int, int, int]):
...     '''Add 1 or 2 to a total; whoever reaches 5 wins.'''
...     __slots__ = ("total",)
...     def __init__(self, total: int = 0) -> None:
...         super().__init__()
...         self.total = total
...     def legal_moves(self) -> list[int]:
...         return [] if self.is_over() else [m for m in (1, 2) if self.total + m <= 5]
...     def why_illegal(self, move: int) -> str | None:
...         return None if move in self.legal_moves() else f"cannot add {move} to {self.total}"
...     def _apply(self, move: int) -> int:
...         self.total += move
...         return move
...     def _undo(self, move: int, token: int) -> None:
...         self.total -= token
...     def _clone(self) -> "Counter":
...         return Counter(self.total)
...     def _key(self) -> int:
...         return self.total
...     def is_over(self) -> bool:
...         return self.total >= 5
...     def outcome(self) -> int | None:
...         return len(self.history) % 2 if self.is_over() else None
...     def __repr__(self) -> str:
...         return f"Counter({self.total})"
>>> state = Counter()
>>> state.play(2); state.play(2); state.history
(2, 2)
>>> state.play(2)
Traceback (most recent call last):
  ...
boardlab.core.errors.IllegalMoveError: cannot add 2 to 4
>>> twin = state.copy(); twin.push(1); twin.outcome(), state.outcome(), twin.pop()
(1, None, 1)
>>> twin == state, repr(twin)
(True, 'Counter(4)')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable
from typing import Generic, Self, TypeVar

from boardlab.core.errors import IllegalMoveError, NoMoveToUndoError

__all__ = ["GameState"]

MoveT = TypeVar("MoveT")
UndoT = TypeVar("UndoT")
OutcomeT = TypeVar("OutcomeT")


class GameState(ABC, Generic[MoveT, UndoT, OutcomeT]):
    """A mutable game state: ``push``/``pop`` unchecked and fast, ``play`` checked.

    Type parameters: the move value type, the undo token ``_apply`` returns, and the
    outcome value type.
    """

    __slots__ = ("_history",)

    def __init__(self) -> None:
        self._history: list[tuple[MoveT, UndoT]] = []

    # -- the game's hooks ---------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> list[MoveT]:
        """Every legal move now (empty once the game is over)."""

    @abstractmethod
    def why_illegal(self, move: MoveT) -> str | None:
        """None when ``move`` is legal now, else the rule it breaks, in words."""

    @abstractmethod
    def _apply(self, move: MoveT) -> UndoT:
        """Make ``move`` (known legal) and return what ``_undo`` needs to take it back."""

    @abstractmethod
    def _undo(self, move: MoveT, token: UndoT) -> None:
        """Take back ``move``, the last move made, with the token its ``_apply`` returned."""

    @abstractmethod
    def _clone(self) -> Self:
        """An independent copy of the game's own fields (the history is set by ``copy``)."""

    @abstractmethod
    def _key(self) -> Hashable:
        """What two equal states share: everything but the history."""

    @abstractmethod
    def is_over(self) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def outcome(self) -> OutcomeT | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def __repr__(self) -> str:
        """An expression that rebuilds the state (history aside)."""

    # -- bookkeeping, done once ---------------------------------------------------------
    @property
    def history(self) -> tuple[MoveT, ...]:
        """The moves made so far, oldest first."""
        return tuple(move for move, _ in self._history)

    @property
    def ply(self) -> int:
        """How many moves have been made."""
        return len(self._history)

    def is_legal(self, move: MoveT) -> bool:
        """True when ``move`` may be played now."""
        return self.why_illegal(move) is None

    def push(self, move: MoveT) -> None:
        """Make ``move`` without checking it (fast; see :meth:`play`)."""
        self._history.append((move, self._apply(move)))

    def play(self, move: MoveT) -> None:
        """Check ``move``, then push it.

        :raises IllegalMoveError: naming the rule the move breaks.
        """
        reason = self.why_illegal(move)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.push(move)

    def pop(self) -> MoveT:
        """Take back the last move and return it.

        :raises NoMoveToUndoError: when no move has been made (an ``IllegalMoveError``
            and an ``IndexError``).
        """
        if not self._history:
            raise NoMoveToUndoError("no move to take back")
        move, token = self._history.pop()
        self._undo(move, token)
        return move

    # -- for a game's own fast paths (moves given in its internal form) -------------------
    def _record(self, move: MoveT, token: UndoT) -> None:
        """Keep ``move``, already made by the game's fast path with undo ``token``, in the
        history, so :meth:`pop`, :meth:`copy` and :attr:`history` see it as if pushed."""
        self._history.append((move, token))

    def _token(self, ply: int) -> UndoT:
        """The undo token of move number ``ply`` (0 the first, -1 the last).

        :raises IndexError: when there is no such move.
        """
        return self._history[ply][1]

    def _tokens(self) -> list[UndoT]:
        """The undo tokens of the moves made so far, oldest first."""
        return [token for _, token in self._history]

    def copy(self) -> Self:
        """An independent copy, history included."""
        twin = self._clone()
        twin._history = list(self._history)
        return twin

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, GameState)
        return bool(self._key() == other._key())

    __hash__ = None  # type: ignore[assignment]
