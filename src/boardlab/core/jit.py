"""Core layer: a typed wrapper around numba's ``njit`` for kernel modules.

``mypy --strict`` cannot see through numba's decorators; :func:`jit` keeps the
decorated function's signature. numba is imported only when a kernel module is
imported, so commands that need no kernel never pay for it. Setting the
environment variable ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["jit", "jit_borrow", "jit_fast", "jit_inline", "jit_parallel"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, nogil=True)``."""
    from numba import njit

    return cast(F, njit(cache=True, nogil=True)(func))


def jit_borrow(func: F) -> F:
    """:func:`jit` without numba's reference counting (its ``_nrt=False``): for a small
    function in the hottest loops that reads and writes the arrays it is handed and
    allocates none (nor may anything it calls: numba compiles its callees the same way).
    Otherwise each array argument costs an atomic increment and decrement per call: the
    prover's analyses, replayed from MoHex's suite cases, ran 15-25 % faster without
    them in the H-search's list updates and the inferior-cell loops."""
    from numba import njit

    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    return cast(F, njit(**options)(func))


def jit_inline(func: F) -> F:
    """:func:`jit`, and inlined into its numba callers (numba's ``inline="always"``): for
    a small function called in the hottest loops, where the call itself costs (the
    callers take longer to compile)."""
    from numba import njit

    return cast(F, njit(cache=True, nogil=True, inline="always")(func))


def jit_fast(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, nogil=True, fastmath=True)``: float
    sums may be reordered (vectorised); the same build gives the same results."""
    from numba import njit

    return cast(F, njit(cache=True, nogil=True, fastmath=True)(func))


def jit_parallel(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, parallel=True)`` (uses ``prange``)."""
    from numba import njit

    return cast(F, njit(cache=True, parallel=True)(func))
