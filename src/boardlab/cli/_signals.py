"""Interface layer: a long command stopped by Ctrl-C or ``kill`` ends as its time limit would.

Inside :func:`stop_on_signal`, the first SIGINT or SIGTERM cancels the
:class:`~boardlab.core.limits.Stop` of a :func:`~boardlab.core.limits.stop_scope`, so
every search started in the block ends at its next budget check, keeps what it proved
(a proof search publishes its store, the command prints what it has) and the command
exits as it does when its limits run out; a second signal stops the process at once
(KeyboardInterrupt). A SIGINT the process was started ignoring (``nohup``, a background
job) stays ignored. Signals reach only the main thread, so elsewhere the block runs
without them. Worker processes forked inside the block inherit the handler: a signal to
the whole process group (Ctrl-C in a terminal), or to this process alone (which passes
it on to them), stops their searches the same way; a repeated signal does not stop a
worker, and only this process writes the line. The second signal to this process kills
its workers before it stops.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from boardlab.core.limits import Stop, stop_scope

__all__ = ["stop_on_signal"]

_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def stop_on_signal(what: str) -> Iterator[Stop]:
    """Run the block under a :class:`Stop` that SIGINT and SIGTERM cancel (see above);
    ``what`` names the work in the line written to stderr when it is stopped."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        with stop_scope(stop):
            yield stop
        return

    owner = os.getpid()

    def stopping(number: int, frame: FrameType | None) -> None:
        name = signal.Signals(number).name
        if os.getpid() != owner:  # a worker forked inside the block: its searches stop too
            stop.cancel(f"stopped by {name}")
            return
        if stop.cancelled:
            _signal_workers(signal.SIGKILL)
            raise KeyboardInterrupt(name)
        stop.cancel(f"stopped by {name}")
        _signal_workers(number)
        sys.stderr.write(
            f"boardlab: {name}: stopping {what} and keeping what it proved (again to stop now)\n"
        )
        sys.stderr.flush()

    before = {number: signal.getsignal(number) for number in _SIGNALS}
    for number in _SIGNALS:
        if before[number] is not signal.SIG_IGN:
            signal.signal(number, stopping)
    try:
        with stop_scope(stop):
            yield stop
    finally:
        for number, handler in before.items():
            if handler is not None:
                signal.signal(number, handler)


def _signal_workers(number: int) -> None:
    """Send signal ``number`` to this process's worker processes (those of
    :mod:`multiprocessing`, as :class:`boardlab.cluster.process_engine.ProcessEngine`
    starts them), so that a ``kill`` of this process alone reaches their searches too."""
    for child in multiprocessing.active_children():
        if child.pid is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, number)
