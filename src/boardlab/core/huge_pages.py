"""Infrastructure layer: the big-array commands restart once with glibc's huge pages.

A level pass of peg solitaire allocates and frees arrays of hundreds of MB for every
level (inside numba kernels, through ``malloc``). glibc maps each such array afresh, and
the kernel then faults it in 4 KiB at a time: on the English board 1.2 million faults,
a third of the command's time. glibc's tunable ``glibc.malloc.hugetlb=1`` (glibc 2.35
on) makes ``malloc`` ask for transparent huge pages (``madvise``), 2 MiB at a time.
Tunables are read once, when a process starts, so a command that wants them restarts
itself (:func:`restart_with_huge_pages`, before any work) with the tunable added to
``GLIBC_TUNABLES``; the restarted process, and every process it starts, sees it there
and goes on. ``BOARDLAB_HUGE_PAGES=0`` turns the restart off; where the C library is not
glibc, or the system has no transparent huge pages, nothing happens.

>>> with_huge_pages({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}, glibc=True)["GLIBC_TUNABLES"]
'glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1'
>>> with_huge_pages({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}, glibc=True) is None
True
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

__all__ = ["OPT_OUT", "TUNABLE", "restart_with_huge_pages", "with_huge_pages"]

#: The glibc tunable that makes ``malloc`` use transparent huge pages.
TUNABLE = "glibc.malloc.hugetlb=1"
#: Set to ``0`` to keep a command from restarting for huge pages.
OPT_OUT = "BOARDLAB_HUGE_PAGES"
#: Where Linux says whether transparent huge pages may be used (``[never]``: not).
THP_SETTING = "/sys/kernel/mm/transparent_hugepage/enabled"


def _on_glibc() -> bool:
    """Whether this process runs on Linux with glibc."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") is not None
    except (ValueError, OSError):
        return False


def _huge_pages_possible() -> bool:
    """Whether the kernel lets a process ask for transparent huge pages."""
    try:
        with open(THP_SETTING, encoding="ascii") as setting:
            return "[never]" not in setting.read()
    except OSError:
        return False


def with_huge_pages(env: Mapping[str, str], glibc: bool | None = None) -> dict[str, str] | None:
    """``env`` with :data:`TUNABLE` added to ``GLIBC_TUNABLES``, or None when there is
    nothing to do: the environment already sets ``glibc.malloc.hugetlb`` (either way),
    :data:`OPT_OUT` is ``0``, or the C library is not glibc (``glibc``: known, else
    looked up)."""
    tunables = env.get("GLIBC_TUNABLES", "")
    if "glibc.malloc.hugetlb=" in tunables or env.get(OPT_OUT, "") == "0":
        return None
    if not (_on_glibc() if glibc is None else glibc):
        return None
    return {**env, "GLIBC_TUNABLES": f"{tunables}:{TUNABLE}" if tunables else TUNABLE}


def restart_with_huge_pages() -> None:
    """Replace this process by the same command with :data:`TUNABLE` set (see the module);
    return at once when it is set already, not wanted, or not possible here."""
    env = with_huge_pages(os.environ)
    if env is None or not _huge_pages_possible():
        return
    argv = [sys.executable, *sys.orig_argv[1:]]
    sys.stdout.flush()
    sys.stderr.flush()
    try:
        os.execve(sys.executable, argv, env)
    except OSError:
        return  # the restart is only a speed-up: go on as we are
