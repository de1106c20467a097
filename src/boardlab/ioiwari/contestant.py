"""Judge layer: what the referee needs from a contestant, and the in-process contestant.

The referee in :mod:`boardlab.ioiwari.judge` talks to a :class:`Channel`: send a line,
read a token before a deadline, finish. :class:`FunctionChannel` runs an in-process
player (a function from an input line to the lines it writes); the pipe to a real
program is interface code, :class:`boardlab.peers.ioiwari_channel.ProcessChannel`, which
the command line hands to the judge as its :data:`Connect`. The referee cannot tell
them apart, and this game starts no process.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "Channel",
    "Connect",
    "Exit",
    "ForfeitError",
    "FunctionChannel",
    "TimeLimitError",
]


class ForfeitError(Exception):
    """The program lost the game by breaking the protocol; the message is the reason."""


class TimeLimitError(ForfeitError):
    """The program said nothing before the deadline."""


@dataclass(frozen=True, slots=True)
class Exit:
    """How the program ended: its exit code, CPU seconds and peak memory, when known."""

    code: int | None
    cpu: float | None
    max_rss_kb: int | None
    killed: bool
    stderr_tail: str

    def describe(self) -> str:
        """``exit status 1``, ``killed by signal 11``, or ``killed by the judge``."""
        if self.killed:
            return "killed by the judge"
        if self.code is None:
            return "exit status unknown"
        if self.code < 0:
            try:
                name = signal.Signals(-self.code).name
            except ValueError:
                name = str(-self.code)
            return f"killed by signal {name}"
        return f"exit status {self.code}"


class Channel(Protocol):
    """What the referee needs from a player: send a line, read a token, finish."""

    def send(self, line: str) -> None:
        """Write ``line`` and a newline to the program (a closed pipe is ignored)."""
        ...

    def read_token(self, deadline: float) -> str | None:
        """The next whitespace-separated token, or None at end of output.

        :raises ForfeitError: when no token arrives by ``deadline`` or it is too long.
        """
        ...

    def finish(self, deadline: float) -> Exit:
        """Close the program's input, let it exit until ``deadline``, then kill it."""
        ...


class FunctionChannel:
    """An in-process player: ``feed(line)`` returns the lines it writes.

    An exception from ``feed`` plays the part of a crash: the output ends there.
    """

    def __init__(self, feed: Callable[[str], list[str]]) -> None:
        self._feed = feed
        self._tokens: deque[str] = deque()
        self._crash: str = ""

    def send(self, line: str) -> None:
        """Hand ``line`` to the player and queue what it writes."""
        if self._crash:
            return
        try:
            lines = self._feed(line)
        except Exception as exc:  # the player under test may fail in any way
            self._crash = f"{type(exc).__name__}: {exc}"
            return
        for out in lines:
            self._tokens.extend(out.split())

    def read_token(self, deadline: float) -> str | None:
        """The next queued token, or None (the player wrote nothing more)."""
        return self._tokens.popleft() if self._tokens else None

    def finish(self, deadline: float) -> Exit:
        """Nothing to stop; report a crash as exit status 1 with its message."""
        return Exit(
            code=1 if self._crash else 0,
            cpu=None,
            max_rss_kb=None,
            killed=False,
            stderr_tail=self._crash,
        )


#: Starts the program ``command`` and returns its channel (raises ``OSError`` when it cannot).
Connect = Callable[[Sequence[str]], Channel]
