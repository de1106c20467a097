"""Interface layer: the web server's job slots, its bounded wait queue and cancellation.

A *job* is a search or a solve (anything an endpoint hands to
:func:`boardlab.web._http.run_job`). :class:`JobPool` runs at most ``slots`` of them at
once (one per core by default); up to ``waiting`` more wait their turn and a job beyond
that is refused with :class:`QueueFullError` (the API's 503 with ``Retry-After``). No client may
fill more than half of the queue, and a freed slot goes to the waiting job whose client
has the fewest jobs running (then the oldest), so one user cannot starve another.

Each job runs under a :class:`boardlab.core.limits.Stop` that is its cancel flag and its
time cap (``seconds`` from the moment it starts running): every search budget started
inside honours it. A job is cancelled when its client goes away, or when a newer job
from the same page (``owner.page``) arrives; a cancelled job ends with
:class:`JobCancelledError`. "Newer" is by arrival: the caller may stamp each job with its
arrival number (the web server numbers requests on its event loop, before a request waits
for a thread), so a job that reached the pool late never replaces one that arrived after it;
it is refused instead, as the page no longer wants it.

>>> pool = JobPool(slots=1, waiting=0, seconds=5.0)
>>> pool.run(Owner("127.0.0.1"), Stop(), lambda: 6 * 7)
42
>>> pool.running, pool.queued
(0, 0)
"""

from __future__ import annotations

import itertools
import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from boardlab.core.limits import Stop, stop_scope
from boardlab.web._heap import release_free_memory
from boardlab.web._memory import MAX_JOB_MEMORY, MemoryWatch
from boardlab.web._share import freeze_new_code, lowered_priority

__all__ = [
    "MAX_JOB_MEMORY",
    "MAX_JOB_SECONDS",
    "JobCancelledError",
    "JobPool",
    "MemoryCapError",
    "Owner",
    "QueueFullError",
    "settle_after_job",
]

T = TypeVar("T")

#: The server's cap on one search's run time (seconds), whatever it asks for.
MAX_JOB_SECONDS = 30.0
#: How often a waiting job looks at its cancel flag (seconds).
WAIT_POLL = 0.05
REPLACED = "replaced by a newer request from the same page"
#: How many pages' latest arrival numbers the pool remembers (the oldest forgotten first).
REMEMBERED_PAGES = 4096


@dataclass(frozen=True, slots=True)
class Owner:
    """Who asked: the client's address and, optionally, the page (tab) it came from."""

    client: str
    page: str | None = None


class QueueFullError(Exception):
    """No room in the queue; try again in ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class JobCancelledError(Exception):
    """The job was cancelled (its client went away, or a newer request replaced it)."""


class MemoryCapError(JobCancelledError):
    """The job was stopped because the server grew past its memory cap while it ran."""


@dataclass(eq=False, slots=True)
class _Ticket:
    owner: Owner
    stop: Stop
    number: int
    arrival: int
    running: bool = False


def _replaces(new: Owner, old: Owner) -> bool:
    """Whether a job of ``new`` cancels a job of ``old``: the same page of the same client."""
    return new.page is not None and new == old


def settle_after_job() -> None:
    """What the pool does when a job ends, by default: the memory the job freed goes back
    to the system, and the modules it loaded leave the collector's sight."""
    release_free_memory()
    freeze_new_code()


class JobPool:
    """At most ``slots`` jobs at once, ``waiting`` more queued, each capped at ``seconds``
    and at ``memory`` bytes of growth of the process; ``release`` is called when a job
    ends (by default :func:`settle_after_job`)."""

    def __init__(
        self,
        slots: int,
        waiting: int,
        seconds: float,
        memory: int = MAX_JOB_MEMORY,
        release: Callable[[], object] = settle_after_job,
    ) -> None:
        if slots < 1 or waiting < 0 or not seconds > 0:
            raise ValueError("a pool needs slots >= 1, waiting >= 0 and seconds > 0")
        self.slots = slots
        self.waiting = waiting
        self.seconds = seconds
        self.memory = MemoryWatch(memory)
        self.release = release
        self._lock = threading.Condition()
        self._queue: list[_Ticket] = []
        self._active: list[_Ticket] = []
        self._numbers = itertools.count()
        self._arrivals = itertools.count()
        self._latest: OrderedDict[Owner, int] = OrderedDict()

    @property
    def running(self) -> int:
        """Jobs running now."""
        with self._lock:
            return len(self._active)

    @property
    def queued(self) -> int:
        """Jobs waiting for a slot."""
        with self._lock:
            return len(self._queue)

    def arrival(self) -> int:
        """A new arrival number, larger than every one given before (``next`` of a count is
        one step under the interpreter's lock: no lock of the pool's, so the server's event
        loop never waits for a job's thread to number a request)."""
        return next(self._arrivals)

    def run(self, owner: Owner, stop: Stop, work: Callable[[], T], arrival: int | None = None) -> T:
        """Run ``work`` in this thread once a slot is free, under ``stop`` (its deadline
        is set to the pool's cap when the job starts). ``arrival`` (from :meth:`arrival`,
        taken when the request arrived; now by default) orders the jobs of one page: a job
        replaces its page's jobs that arrived before it, and is refused when one that
        arrived after it has been seen.

        :raises QueueFullError: when the queue is full, or this client holds its share of it.
        :raises JobCancelledError: when ``stop`` is cancelled before or while the job runs.
        :raises MemoryCapError: when the process grew past the memory cap while it ran.
        """
        ticket = self._enter(owner, stop, arrival)
        try:
            self._await_turn(ticket)
            stop.restart(self.seconds)
            try:
                with stop_scope(stop), self.memory.watching(stop), lowered_priority():
                    result = work()
            finally:
                over = self.memory.exceeded(stop)
        finally:
            self._leave(ticket)
            if ticket.running:
                self.release()  # outside the lock: the next job need not wait for it
        if over:
            raise MemoryCapError(stop.reason)
        if stop.cancelled:
            raise JobCancelledError(stop.reason)
        return result

    def _enter(self, owner: Owner, stop: Stop, arrival: int | None) -> _Ticket:
        with self._lock:
            if arrival is None:
                arrival = next(self._arrivals)
            if owner.page is not None and not self._newest(owner, arrival):
                stop.cancel(REPLACED)
                raise JobCancelledError(REPLACED)
            self._queue = [t for t in self._queue if not t.stop.cancelled]
            replaced = [
                t
                for t in [*self._queue, *self._active]
                if _replaces(owner, t.owner) and t.arrival < arrival
            ]
            for old in replaced:
                old.stop.cancel(REPLACED)
            self._queue = [t for t in self._queue if not t.stop.cancelled]
            ticket = _Ticket(owner, stop, next(self._numbers), arrival)
            if len(self._active) < self.slots and not self._queue:
                ticket.running = True
                self._active.append(ticket)
                return ticket
            share = max(1, math.ceil(self.waiting / 2))
            mine = sum(t.owner.client == owner.client for t in self._queue)
            # a job that replaces one of its page may wait for the slot it frees
            full = len(self._queue) >= self.waiting or mine >= share
            if full and not replaced:
                why = "the server is busy" if mine < share else "too many of your searches wait"
                raise QueueFullError(
                    f"{why}: {len(self._active)} searches running, {len(self._queue)} waiting",
                    self._retry_after(),
                )
            self._queue.append(ticket)
            self._dispatch()
            return ticket

    def _newest(self, owner: Owner, arrival: int) -> bool:
        """Whether ``arrival`` is the newest seen from ``owner``'s page (then remembered)."""
        latest = self._latest.get(owner)
        if latest is not None and latest > arrival:
            return False
        self._latest[owner] = arrival
        self._latest.move_to_end(owner)
        while len(self._latest) > REMEMBERED_PAGES:
            self._latest.popitem(last=False)
        return True

    def _retry_after(self) -> int:
        """A guess at when a slot frees: a second per queued job per slot, at least 1."""
        return max(1, math.ceil((len(self._queue) + 1) / self.slots))

    def _await_turn(self, ticket: _Ticket) -> None:
        with self._lock:
            while not ticket.running:
                if ticket.stop.cancelled:
                    raise JobCancelledError(ticket.stop.reason)
                self._lock.wait(WAIT_POLL)

    def _leave(self, ticket: _Ticket) -> None:
        with self._lock:
            if ticket in self._active:
                self._active.remove(ticket)
            if ticket in self._queue:
                self._queue.remove(ticket)
            self._dispatch()

    def _dispatch(self) -> None:
        """Give free slots to waiting jobs: fewest running for their client, then oldest."""
        self._queue = [t for t in self._queue if not t.stop.cancelled]
        while self._queue and len(self._active) < self.slots:
            busy: dict[str, int] = {}
            for active in self._active:
                busy[active.owner.client] = busy.get(active.owner.client, 0) + 1
            chosen = min(self._queue, key=lambda t: (busy.get(t.owner.client, 0), t.number))
            self._queue.remove(chosen)
            chosen.running = True
            self._active.append(chosen)
        self._lock.notify_all()
