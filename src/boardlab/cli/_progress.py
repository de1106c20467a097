"""Interface layer: the one progress display of the command line (rich, on stderr).

It shows only when stderr is a terminal and a run has passed ``delay`` seconds, so
short runs stay silent; it disappears when the run ends. When stderr is not a terminal
(a log file, a pipe), a long run writes one plain line a minute instead (``LOG_EVERY``
seconds), the first after a minute.

>>> with ProgressLine("solving", total=10) as progress:
...     progress.update(completed=3, description="level 3")
...     progress.advance()
>>> progress.completed
4
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

__all__ = ["LOAD_HINT_AFTER", "LOG_EVERY", "ProgressLine", "counting", "slow_load_hint"]

#: Seconds between two plain progress lines when stderr is not a terminal.
LOG_EVERY = 60.0
#: Seconds of loading kernels after which :func:`slow_load_hint` says why it takes long.
LOAD_HINT_AFTER = 5.0


class slow_load_hint:  # noqa: N801 - a context manager read as a phrase
    """While loading kernels: once it has taken ``after`` seconds (default
    :data:`LOAD_HINT_AFTER`: numba compiling them, on a first run after installing), one
    line on stderr saying so and naming ``boardlab warm``; nothing when it is quick.

    >>> with slow_load_hint("hex move", after=60.0):
    ...     pass
    """

    def __init__(self, command: str, after: float | None = None) -> None:
        import threading

        self.command = command
        self.said = False
        wait = LOAD_HINT_AFTER if after is None else after
        self._timer = threading.Timer(wait, self._say)
        self._timer.daemon = True

    def _say(self) -> None:
        self.said = True
        print(
            f"boardlab {self.command}: compiling the kernels (a first run after installing "
            "takes minutes; 'boardlab warm' does it ahead of time)",
            file=sys.stderr,
            flush=True,
        )

    def __enter__(self) -> Self:
        self._timer.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._timer.cancel()


class ProgressLine:
    """A rich progress bar (a spinner when the total is unknown) on stderr."""

    def __init__(self, description: str, total: int | None = None, *, delay: float = 1.0) -> None:
        self.description = description
        self.total = total
        self.completed = 0
        self.delay = delay
        self._began = time.perf_counter()
        self._enabled = sys.stderr.isatty()
        self._bar: Any = None
        self._task: Any = None
        self._logged = self._began

    def update(
        self,
        *,
        completed: int | None = None,
        total: int | None = None,
        description: str | None = None,
    ) -> None:
        """Record progress; draw it once the delay has passed on a terminal."""
        if completed is not None:
            self.completed = completed
        if total is not None:
            self.total = total or None
        if description is not None:
            self.description = description
        self._draw()

    def advance(self, step: int = 1) -> None:
        """Count ``step`` more units done."""
        self.update(completed=self.completed + step)

    def _draw(self) -> None:
        now = time.perf_counter()
        if not self._enabled:
            if now - self._logged >= LOG_EVERY:
                self._logged = now
                self._log(now)
            return
        if now - self._began < self.delay:
            return
        if self._bar is None:
            from rich.console import Console
            from rich.progress import Progress

            self._bar = Progress(console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.description, total=self.total)
        self._bar.update(
            self._task, completed=self.completed, total=self.total, description=self.description
        )

    def _log(self, now: float) -> None:
        done = f" ({self.completed:,} of {self.total:,})" if self.total else ""
        sys.stderr.write(f"[{now - self._began:.0f} s] {self.description}{done}\n")
        sys.stderr.flush()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def counting(line: ProgressLine, what: str, unit: str) -> Callable[[int], None]:
    """A listener for :func:`boardlab.core.progress.progress_scope` that shows a search's
    count on ``line``: ``"<what>: <count> <unit>, <rate> a second"``."""
    began = time.perf_counter()

    def listen(count: int) -> None:
        seconds = time.perf_counter() - began
        rate = f", {count / seconds:,.0f} a second" if seconds > 0 else ""
        line.update(description=f"{what}: {count:,} {unit}{rate}")

    return listen
