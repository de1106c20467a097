"""Core layer: a typed wrapper around numba's ``njit`` for kernel modules.

``mypy --strict`` cannot see through numba's decorators; :func:`jit` keeps the
decorated function's signature. numba is imported only when a kernel module is
imported, so commands that need no kernel never pay for it. Setting the
environment variable ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["jit", "jit_fast", "jit_inline", "jit_parallel"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, nogil=True)``."""
    from numba import njit

    return cast(F, njit(cache=True, nogil=True)(func))


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
