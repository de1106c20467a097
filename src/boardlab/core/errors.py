"""Core layer: the exception hierarchy every boardlab module raises.

Every failure a user can cause is a :class:`BoardlabError` (a ``ValueError``); the
command line turns any of them into one line on stderr and exit status 2.
"""

from __future__ import annotations

__all__ = [
    "BoardlabError",
    "IllegalMoveError",
    "LimitExceededError",
    "NoMoveToUndoError",
    "NoSolutionError",
    "ParseError",
    "ProtocolError",
    "ResourceLimitError",
    "UnknownNameError",
]


class BoardlabError(ValueError):
    """Base class of every error boardlab reports to a user."""


class ParseError(BoardlabError):
    """Text that does not follow its format; names the source, line and column.

    >>> str(ParseError("expected an integer, got 'x'", source="in.txt", line=3, column=7))
    "in.txt:3:7: expected an integer, got 'x'"
    """

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        where = [str(part) for part in (source, line, column) if part is not None]
        super().__init__(f"{':'.join(where)}: {message}" if where else message)


class IllegalMoveError(BoardlabError):
    """A move that the rules of the game do not allow in the current state."""


class NoMoveToUndoError(IllegalMoveError, IndexError):
    """``pop`` on a state with no move played (also an ``IndexError``, like ``list.pop``)."""


class UnknownNameError(BoardlabError):
    """A name (board, hole, game, command) that does not exist."""


class NoSolutionError(BoardlabError):
    """An instance that provably has no solution (the message gives the proof).

    Raised only with a proof; a search that merely ran out of its budget raises
    :class:`LimitExceededError` instead.
    """


class ProtocolError(BoardlabError):
    """A peer broke an interactive protocol (bad token, illegal reply, early end)."""


class LimitExceededError(BoardlabError):
    """A search ran out of its time or node budget before it found any answer."""


class ResourceLimitError(LimitExceededError):
    """A search stopped before work that would not fit in its ``resource`` budget
    (``"memory"`` or ``"disk"``); the message says how much it needed and had, in the
    library's words (a front end adds its own options' words)."""

    def __init__(self, message: str, *, resource: str) -> None:
        self.resource = resource
        super().__init__(message)
