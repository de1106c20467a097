"""Core layer: a typed wrapper around numba's ``njit`` for kernel modules.

``mypy --strict`` cannot see through numba's decorators; :func:`jit` keeps the
decorated function's signature. numba is imported only when a kernel module is
imported, so commands that need no kernel never pay for it. Setting the
environment variable ``NUMBA_DISABLE_JIT=1`` runs every kernel as plain Python.

The compiled kernels are cached on disk, in a folder of the user's cache
(:func:`boardlab.core.cache.cache_dir`, then ``numba/<fingerprint>``) named by a
fingerprint of the package's sources (each module's path, size and modification time):
numba checks only a cached function's own file, so a kernel compiled with a callee from
another module inlined would otherwise outlive an edit of that callee (the prover's
analysis kept an edited H-search's old code). Folders of older sources are removed
once they are a day old and newer ones exist; ``NUMBA_CACHE_DIR``, when set, wins.

A cached kernel compiled by :func:`jit` (or its variants) never calls a
:func:`jit_parallel` one: such a caller, loaded from the cache by a later process, was
seen broken (a segmentation fault on its first call). Callers of parallel kernels are
plain Python, or parallel themselves; a test scans the package for the pattern.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from boardlab.core.cache import cache_dir

__all__ = ["jit", "jit_borrow", "jit_fast", "jit_inline", "jit_parallel", "kernel_cache_dir"]

F = TypeVar("F", bound=Callable[..., Any])

#: Cache folders of earlier sources kept beside the current one (the newest first);
#: older ones go once they are a day old.
_KEPT_FOLDERS = 3
_STALE_SECONDS = 86_400
_cache_chosen = False


def kernel_cache_dir(package: Path | None = None) -> Path:
    """The folder of the compiled kernels of the sources under ``package`` (this
    package by default; see the module), not created here."""
    if package is None:
        package = Path(__file__).resolve().parents[1]
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted(package.rglob("*.py")):
        stat = path.stat()
        digest.update(f"{path.relative_to(package)}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    return cache_dir() / "numba" / digest.hexdigest()


def _choose_cache() -> None:
    """Point numba's cache at :func:`kernel_cache_dir` (once, before the first kernel is
    decorated) unless ``NUMBA_CACHE_DIR`` is set or the folder cannot be made."""
    global _cache_chosen
    if _cache_chosen:
        return
    _cache_chosen = True
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    try:
        folder = kernel_cache_dir()
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
    except OSError:
        return  # numba's own choice: beside the sources, else its user folder
    from numba.core import config

    config.CACHE_DIR = str(folder)  # type: ignore[attr-defined]
    _prune(folder)


def _prune(current: Path) -> None:
    """Remove the cache folders of older sources: all but the newest few, a day old."""
    try:
        others = sorted(
            (p for p in current.parent.iterdir() if p.is_dir() and p != current),
            key=lambda p: p.stat().st_mtime,
            reverse=True,
        )
        now = time.time()
        for old in others[_KEPT_FOLDERS:]:
            if now - old.stat().st_mtime > _STALE_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return


def jit(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, nogil=True)``."""
    _choose_cache()
    from numba import njit

    return cast(F, njit(cache=True, nogil=True)(func))


def jit_borrow(func: F) -> F:
    """:func:`jit` without numba's reference counting (its ``_nrt=False``): for a small
    function in the hottest loops that reads and writes the arrays it is handed and
    allocates none (nor may anything it calls: numba compiles its callees the same way).
    Otherwise each array argument costs an atomic increment and decrement per call: the
    prover's analyses, replayed from MoHex's suite cases, ran 15-25 % faster without
    them in the H-search's list updates and the inferior-cell loops."""
    _choose_cache()
    from numba import njit

    options: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
    return cast(F, njit(**options)(func))


def jit_inline(func: F) -> F:
    """:func:`jit`, and inlined into its numba callers (numba's ``inline="always"``): for
    a small function called in the hottest loops, where the call itself costs (the
    callers take longer to compile)."""
    _choose_cache()
    from numba import njit

    return cast(F, njit(cache=True, nogil=True, inline="always")(func))


def jit_fast(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, nogil=True, fastmath=True)``: float
    sums may be reordered (vectorised); the same build gives the same results."""
    _choose_cache()
    from numba import njit

    return cast(F, njit(cache=True, nogil=True, fastmath=True)(func))


def jit_parallel(func: F) -> F:
    """Compile ``func`` with ``numba.njit(cache=True, parallel=True)`` (uses ``prange``)."""
    _choose_cache()
    from numba import njit

    return cast(F, njit(cache=True, parallel=True)(func))
