"""Interface layer: giving the memory freed by a finished search back to the system.

glibc's ``malloc`` keeps what a program frees for its next allocations, in one arena per
thread that allocated at once; it hands a page back only when it lies at the top of its
arena's heap. A server whose worker threads each run large searches (tables of tens of
MB, numpy arrays freed when the search stops) so holds more and more freed but resident
memory between searches, scattered over its arenas. :func:`release_free_memory` asks
glibc to give back every free page of every arena (``malloc_trim(0)``); the job pool
calls it when a search ends. :func:`limit_arenas` caps how many arenas glibc makes (by
default eight per core): ``boardlab serve`` holds them to one per job slot, since with
more the free memory scattered over the arenas kept growing however often it was
trimmed. Where the C library is not glibc (macOS, Windows, musl) both do nothing.

>>> release_free_memory() in (True, False)
True
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from collections.abc import Callable

__all__ = ["limit_arenas", "release_free_memory"]

#: ``mallopt``'s parameter number for the most arenas (glibc's ``M_ARENA_MAX``).
M_ARENA_MAX = -8
#: The environment variable by which a user sets the arenas himself (glibc reads it).
ARENA_VARIABLE = "MALLOC_ARENA_MAX"


@functools.cache
def _libc() -> ctypes.CDLL | None:
    """The C library this process runs on, where it is glibc (None elsewhere)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None)
        libc.malloc_trim  # noqa: B018 (glibc's own; musl has none)
        libc.mallopt  # noqa: B018
    except (OSError, AttributeError):
        return None
    return libc


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where this process's C library has none."""
    libc = _libc()
    if libc is None:
        return None
    trim = libc.malloc_trim
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


@functools.cache
def _mallopt() -> Callable[[int, int], int] | None:
    """glibc's ``mallopt``, or None where this process's C library has none."""
    libc = _libc()
    if libc is None:
        return None
    option = libc.mallopt
    option.argtypes = [ctypes.c_int, ctypes.c_int]
    option.restype = ctypes.c_int
    return option


def limit_arenas(count: int) -> bool:
    """Let glibc make at most ``count`` (at least 1) malloc arenas from now on; whether
    the limit was set (not where the C library is not glibc, nor where the user set
    ``MALLOC_ARENA_MAX`` himself: his value stands)."""
    option = _mallopt()
    if option is None or os.environ.get(ARENA_VARIABLE):
        return False
    return option(M_ARENA_MAX, max(1, count)) == 1


def release_free_memory() -> bool:
    """Give the heap's free pages back to the system; whether there was a way to (glibc).

    The call runs without the GIL (ctypes lets it go), so other threads go on meanwhile.
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
