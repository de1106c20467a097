"""Interface layer: the web server's memory cap on each running search.

A search cannot say how much memory it holds, so :class:`MemoryWatch` watches the
process: a daemon thread samples the resident set size while jobs run, and cancels the
:class:`~boardlab.core.limits.Stop` of every job during which it grew by more than the
cap (a search honours its stop at its next check, so it ends a little past the cap).
Several jobs that together pass one job's cap are stopped together: the server's memory
is shared, and the cap is there to keep it alive.

>>> watch = MemoryWatch(cap=2**40)
>>> stop = Stop()
>>> with watch.watching(stop):
...     pass
>>> watch.exceeded(stop), stop.cancelled
(False, False)
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from boardlab.core.limits import Stop
from boardlab.core.memory import resident_memory

__all__ = ["MAX_JOB_MEMORY", "MemoryWatch", "resident_bytes"]

#: The server's cap on how much one search may grow the process (bytes).
MAX_JOB_MEMORY = 1024 * 1024 * 1024
#: How often the watch samples the process's size while a job runs (seconds).
SAMPLE_SECONDS = 0.02


def resident_bytes() -> int | None:
    """The resident set size of this process (None where it cannot be read)."""
    try:
        return resident_memory()
    except OSError:
        return None


class MemoryWatch:
    """Cancel a job's stop once the process has grown by ``cap`` bytes since it started."""

    def __init__(self, cap: int) -> None:
        if cap <= 0:
            raise ValueError("a memory cap must be positive")
        self.cap = cap
        self._lock = threading.Lock()
        self._jobs: dict[Stop, int] = {}
        self._over: set[Stop] = set()
        self._thread: threading.Thread | None = None

    @property
    def reason(self) -> str:
        """The reason a stopped job is given."""
        return f"the search grew the server by more than {self.cap // 2**20} MB (its cap)"

    @contextmanager
    def watching(self, stop: Stop) -> Iterator[None]:
        """Watch the process's size while the block runs under ``stop``."""
        start = resident_bytes()
        if start is None:  # no way to measure: the time cap alone applies
            yield
            return
        with self._lock:
            self._jobs[stop] = start
            self._over.discard(stop)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._sample, daemon=True)
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._jobs.pop(stop, None)

    def exceeded(self, stop: Stop) -> bool:
        """Whether the watch stopped the job of ``stop`` for its memory (asked once, when
        the job has ended: the watch then forgets it)."""
        with self._lock:
            over = stop in self._over
            self._over.discard(stop)
            return over

    def _sample(self) -> None:
        while True:
            with self._lock:
                if not self._jobs:
                    self._thread = None
                    return
                now = resident_bytes() or 0
                for stop, start in self._jobs.items():
                    if now - start > self.cap and stop not in self._over:
                        self._over.add(stop)
                        stop.cancel(self.reason)
            threading.Event().wait(SAMPLE_SECONDS)
