"""Core layer: the time and node budget handed to every search, and the outside stop.

>>> budget = Limit(time=None, nodes=10).start()
>>> budget.exhausted(nodes=9), budget.exhausted(nodes=10)
(False, True)

A :class:`Stop` is a reason from outside the search to end it early: a cancel flag that
another thread may set (a web client went away) and a hard deadline (a server's cap).
Every budget started inside :func:`stop_scope` honours it, including the budgets a
search starts for its own phases, so a search needs no extra argument to be stopped:

>>> stop = Stop()
>>> with stop_scope(stop):
...     budget = Limit(nodes=10).start()
>>> budget.exhausted(nodes=1)
False
>>> stop.cancel("the client went away")
>>> budget.exhausted(nodes=1), budget.remaining, stop.reason
(True, 0.0, 'the client went away')
>>> with stop_scope(Stop(seconds=5)):
...     capped = Limit(time=60).start()
>>> capped.remaining is not None and capped.remaining <= 5
True
"""

from __future__ import annotations

import threading
import time as _time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from boardlab.core.errors import BoardlabError, LimitExceededError

__all__ = ["Budget", "Limit", "Stop", "current_stop", "stop_scope"]


class Stop:
    """An outside reason to stop: ``cancel(reason)`` from any thread, or a deadline.

    ``seconds`` (None: no deadline) counts from creation; :meth:`restart` moves it.
    """

    __slots__ = ("_event", "deadline", "reason")

    def __init__(self, seconds: float | None = None) -> None:
        self._event = threading.Event()
        self.reason = ""
        self.deadline: float | None = None
        self.restart(seconds)

    def restart(self, seconds: float | None) -> None:
        """Set the deadline ``seconds`` from now (None: no deadline)."""
        self.deadline = None if seconds is None else _time.perf_counter() + seconds

    def cancel(self, reason: str = "cancelled") -> None:
        """Ask every budget under this stop to end (the first reason is kept)."""
        if not self._event.is_set():
            self.reason = reason
            self._event.set()

    @property
    def cancelled(self) -> bool:
        """Whether :meth:`cancel` was called."""
        return self._event.is_set()

    def wait(self, seconds: float) -> bool:
        """Block up to ``seconds`` for a cancel; True when cancelled."""
        return self._event.wait(seconds)

    def is_set(self) -> bool:
        """True once cancelled or past the deadline."""
        if self._event.is_set():
            return True
        return self.deadline is not None and _time.perf_counter() >= self.deadline


_CURRENT: ContextVar[Stop | None] = ContextVar("boardlab_stop", default=None)


def current_stop() -> Stop | None:
    """The stop of the innermost :func:`stop_scope` of this thread/task, or None."""
    return _CURRENT.get()


@contextmanager
def stop_scope(stop: Stop) -> Iterator[Stop]:
    """Every :class:`Budget` started inside the block honours ``stop``."""
    token = _CURRENT.set(stop)
    try:
        yield stop
    finally:
        _CURRENT.reset(token)


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a search may run: seconds of wall time and/or nodes (None = no bound)."""

    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise BoardlabError(f"time limit must be positive, got {self.time}")
        if self.nodes is not None and self.nodes <= 0:
            raise BoardlabError(f"node limit must be positive, got {self.nodes}")

    def start(self) -> Budget:
        """A running budget whose clock starts now (under the current :class:`Stop`)."""
        return Budget(self)


@dataclass(slots=True)
class Budget:
    """A :class:`Limit` with its clock running, and the outside :class:`Stop` it honours
    (by default the one of the enclosing :func:`stop_scope`)."""

    limit: Limit
    started: float = field(default_factory=_time.perf_counter)
    stop: Stop | None = field(default_factory=current_stop)

    @property
    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return _time.perf_counter() - self.started

    @property
    def remaining(self) -> float | None:
        """Seconds left (never negative; 0 once the stop is cancelled), or None without a
        time bound."""
        if self.stop is not None and self.stop.cancelled:
            return 0.0
        end = self.deadline()
        return None if end is None else max(0.0, end - _time.perf_counter())

    def deadline(self) -> float | None:
        """The ``time.perf_counter()`` value at which time runs out, or None
        (the earlier of the limit's and the stop's)."""
        own = None if self.limit.time is None else self.started + self.limit.time
        outside = None if self.stop is None else self.stop.deadline
        if own is None or outside is None:
            return own if outside is None else outside
        return min(own, outside)

    def exhausted(self, nodes: int = 0) -> bool:
        """True once the time or the node count has reached the limit, or the stop is set."""
        if self.limit.nodes is not None and nodes >= self.limit.nodes:
            return True
        if self.stop is not None and self.stop.is_set():
            return True
        return self.limit.time is not None and self.elapsed >= self.limit.time

    def check(self, what: str, nodes: int = 0) -> None:
        """Raise :class:`LimitExceededError` naming what ran out (the node limit, the
        outside stop or the time limit) while ``what``, once :meth:`exhausted`.

        :raises LimitExceededError: when the budget is exhausted.
        """
        if not self.exhausted(nodes):
            return
        if self.limit.nodes is not None and nodes >= self.limit.nodes:
            spent = f"node limit of {self.limit.nodes:,}"
        elif self.stop is not None and self.stop.is_set():
            spent = f"search stopped ({self.stop.reason or 'deadline'})"
        else:
            spent = f"time limit of {self.limit.time:g} s"
        raise LimitExceededError(f"{spent} reached while {what}; no answer")
