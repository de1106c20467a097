"""Memory budgets: sizes as text, the machine's free memory and the process's size (psutil)."""

from __future__ import annotations

import os
import sys

import psutil
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.memory import (
    available_memory,
    default_budget,
    parse_size,
    peak_resident_memory,
    resident_memory,
)

MB = 2**20


def touched(size: int) -> bytearray:
    """``size`` bytes really in memory (every page written)."""
    block = bytearray(size)
    for offset in range(0, size, 4096):
        block[offset] = 1
    return block


def test_free_memory_is_what_the_machine_says() -> None:
    free = available_memory()
    assert 0 < free <= psutil.virtual_memory().total
    assert 0 < default_budget() < free


def test_resident_memory_follows_the_process() -> None:
    before = resident_memory()
    assert before == pytest.approx(psutil.Process().memory_info().rss, rel=0.2)
    block = touched(64 * MB)
    assert resident_memory() - before >= 48 * MB
    del block


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_a_forked_worker_reads_its_own_size() -> None:
    resident_memory()  # the parent's process handle is made before the fork
    pid = os.fork()
    if pid == 0:  # the child: grow by 64 MB; its own size must show it
        start = resident_memory()
        block = touched(64 * MB)
        os._exit(0 if resident_memory() - start >= 48 * MB and block else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("bad", ["", "12Q", "-1G", "0"])
def test_bad_sizes_are_named(bad: str) -> None:
    with pytest.raises(BoardlabError, match="--memory"):
        parse_size(bad)


def test_the_peak_resident_set_follows_the_process() -> None:
    block = touched(64 * MB)
    now = resident_memory()
    assert now >= 48 * MB
    # the kernel updates the peak lazily: it may trail the size now by a few pages
    assert peak_resident_memory() >= 0.9 * now
    del block
