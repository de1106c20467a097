"""Core layer: memory budgets: sizes written as text, the memory this machine has free.

The machine's free memory and the process's size come from psutil (Linux, macOS and
Windows alike), not from files read by hand.

>>> parse_size("512M"), parse_size("2g"), parse_size("1.5 GB"), parse_size("4096")
(536870912, 2147483648, 1610612736, 4096)
>>> format_size(3 * 2**30 // 2), format_size(5 * 2**20), format_size(300)
('1.5 GB', '5.0 MB', '0.3 kB')
"""

from __future__ import annotations

import functools
import os
import re
import sys

import psutil

from boardlab.core.errors import BoardlabError

__all__ = [
    "available_memory",
    "default_budget",
    "format_size",
    "parse_size",
    "peak_resident_memory",
    "resident_memory",
]

_UNITS = {"": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)i?b?\s*", re.IGNORECASE)
#: The share of the free memory a search may take when no budget is given.
DEFAULT_SHARE = 0.8


def parse_size(text: str, what: str = "--memory") -> int:
    """Bytes from ``text``: a number with an optional unit K, M, G or T (powers of 1024).

    :raises BoardlabError: when ``text`` is not such a size or is zero.
    """
    match = _SIZE.fullmatch(text)
    if match is None:
        raise BoardlabError(f"{what}: expected a size such as 512M or 8G, got {text!r}")
    size = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if size <= 0:
        raise BoardlabError(f"{what}: the size must be positive, got {text!r}")
    return size


def format_size(size: int) -> str:
    """``size`` bytes in GB, MB or kB, with one decimal."""
    for unit, scale in (("GB", 2**30), ("MB", 2**20)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size / 2**10:.1f} kB"


def available_memory() -> int:
    """Bytes of memory free for a new allocation without swapping (psutil's
    ``available``: Linux's ``MemAvailable``, the free and inactive pages elsewhere)."""
    return int(psutil.virtual_memory().available)


def default_budget() -> int:
    """The memory a search may use when not told: most of what is free now."""
    return int(available_memory() * DEFAULT_SHARE)


@functools.lru_cache(maxsize=1)
def _process(pid: int) -> psutil.Process:
    """The process ``pid`` as psutil sees it, made once (a memory check runs often); keyed
    by the pid so a forked worker reads its own size, not its parent's."""
    return psutil.Process(pid)


def resident_memory() -> int:
    """Bytes of memory this process holds now (its resident set)."""
    return int(_process(os.getpid()).memory_info().rss)


def peak_resident_memory() -> int:
    """Bytes of memory this process has held at most so far (its peak resident set, which
    Linux counts in kilobytes and macOS in bytes)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak if sys.platform == "darwin" else peak * 1024)
