"""Interface layer: keeping the server's event loop answering while searches use every core.

Two things made ``GET /api/health`` wait a tenth of a second and more beside running
searches on a small machine, both measured in a soak of every endpoint:

* **The collector.** Python's full garbage collection walks every object the process
  tracks; after the first searches have imported the game modules (numba, scipy and
  OR-tools come with them) that is about 150,000 objects, and with the cores busy one full
  collection held the interpreter for 80 to 140 ms. :func:`freeze_new_code` moves the
  objects that exist once the modules are loaded out of the collector's sight
  (``gc.freeze``): it collects and freezes only when a module was imported since the last
  time, so the pause is paid during the first searches and never again.
* **The scheduler.** A search's thread runs its kernels without the interpreter lock, on
  every core it can get; :func:`lowered_priority` runs it at a lower priority than the
  threads that answer the short requests (``nice`` :data:`JOB_NICE` for that thread, on
  Linux), so the event loop gets a core at once when a request comes.

>>> with lowered_priority():
...     pass
>>> freeze_new_code() in (True, False)
True
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
import threading
from collections.abc import Iterator

__all__ = ["JOB_NICE", "freeze_new_code", "lowered_priority"]

#: How much lower a search's thread runs than the rest of the server (a ``nice`` step).
JOB_NICE = 5

_frozen_modules = 0
_freeze_lock = threading.Lock()


def freeze_new_code() -> bool:
    """Collect once and freeze what survives when a module was imported since the last
    freeze (a search's first use of a game); whether it froze. Garbage is collected before
    the freeze, so none is kept for ever; what a later search makes is collected as usual."""
    global _frozen_modules
    with _freeze_lock:
        loaded = len(sys.modules)
        if loaded == _frozen_modules:
            return False
        gc.collect()
        gc.freeze()
        _frozen_modules = loaded
        return True


def _thread_id() -> int | None:
    """This thread's id for ``setpriority`` (Linux only: elsewhere it names the process)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "setpriority"):
        return None
    return threading.get_native_id()


@contextlib.contextmanager
def lowered_priority(step: int = JOB_NICE) -> Iterator[None]:
    """Run the block in this thread at ``step`` lower priority; put it back after, where
    the system lets a thread raise its priority again (otherwise the thread stays lower:
    a worker thread that later answers a short request does it at the searches' priority)."""
    tid = _thread_id()
    if tid is None:
        yield
        return
    try:
        before = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, before + step))
    except OSError:
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, tid, before)
