"""Core layer: how far a long search has got, told to whoever listens in this thread.

A search counts its work (the positions it analysed, say) and calls :func:`report` now
and then; a front end that shows progress wraps the call that starts the search in
:func:`progress_scope` with a listener, which is told each count. Like
:func:`boardlab.core.limits.stop_scope`, it needs no argument threaded through the
layers in between; outside a scope (a worker process, a library call) a report costs one
lookup and goes nowhere.

>>> seen = []
>>> with progress_scope(seen.append):
...     report(256)
...     report(512)
>>> report(768)
>>> seen
[256, 512]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["Listener", "progress_scope", "report"]

#: What a listener is told: the work the search under way has done so far.
Listener = Callable[[int], object]

_LISTENER: ContextVar[Listener | None] = ContextVar("boardlab_progress", default=None)


@contextmanager
def progress_scope(listener: Listener) -> Iterator[None]:
    """Every :func:`report` made inside the block (in this thread) goes to ``listener``."""
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def report(count: int) -> None:
    """Tell the listener of the innermost :func:`progress_scope`, if any, of ``count``."""
    listener = _LISTENER.get()
    if listener is not None:
        listener(count)
