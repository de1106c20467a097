"""Interface layer: giving the memory freed by a finished search back to the system.

glibc's ``malloc`` keeps what a program frees for its next allocations, in one arena per
thread that allocated at once; it hands a page back only when it lies at the top of its
arena's heap. A server whose worker threads each run large searches (tables of tens of
MB, numpy arrays freed when the search stops) so holds more and more freed but resident
memory between searches, scattered over its arenas. :func:`release_free_memory` asks
glibc to give back every free page of every arena (``malloc_trim(0)``); the job pool
calls it when a search ends and no other runs. Where the C library is not glibc (macOS,
Windows, musl) it does nothing.

>>> release_free_memory() in (True, False)
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import sys
from collections.abc import Callable

__all__ = ["release_free_memory"]


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where this process's C library has none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)  # the C library this process already runs on
        trim = libc.malloc_trim
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_free_memory() -> bool:
    """Give the heap's free pages back to the system; whether there was a way to (glibc).

    The call runs without the GIL (ctypes lets it go), so other threads go on meanwhile.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
