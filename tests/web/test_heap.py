"""The job pool hands the memory a finished search freed back to the system."""

from __future__ import annotations

import sys
import threading
import time

import pytest

from boardlab.core.limits import Stop
from boardlab.web import _heap
from boardlab.web._jobs import JobCancelledError, JobPool, Owner

A = Owner("127.0.0.1")
HANG = 30.0  # seconds: a hang guard, never a measurement


def test_release_runs_after_each_job_that_ran() -> None:
    released: list[int] = []
    pool = JobPool(slots=1, waiting=0, seconds=5.0, release=lambda: released.append(pool.running))
    assert pool.run(A, Stop(), lambda: 42) == 42
    assert released == [0]  # once, after the job left its slot

    def fails() -> None:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        pool.run(A, Stop(), fails)
    assert released == [0, 0]  # a job that fails frees its memory too


def test_release_skipped_for_a_job_that_never_ran() -> None:
    released: list[str] = []
    pool = JobPool(slots=1, waiting=1, seconds=HANG, release=lambda: released.append("x"))
    started, go = threading.Event(), threading.Event()

    def busy() -> None:
        started.set()
        go.wait(HANG)

    first = threading.Thread(target=pool.run, args=(A, Stop(), busy))
    first.start()
    assert started.wait(HANG)
    stop = Stop()
    waiting = threading.Thread(target=lambda: _expect_cancelled(pool, stop))
    waiting.start()
    while pool.queued == 0:
        time.sleep(0.01)
    stop.cancel("gone")  # cancelled while it waited for the slot: it never ran
    waiting.join(HANG)
    assert released == []
    go.set()
    first.join(HANG)
    assert released == ["x"]  # the job that ran, once


def _expect_cancelled(pool: JobPool, stop: Stop) -> None:
    with pytest.raises(JobCancelledError):
        pool.run(Owner("10.0.0.2"), stop, lambda: 1)


def test_release_free_memory_asks_glibc_or_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(_heap, "_malloc_trim", lambda: calls.append)
    assert _heap.release_free_memory() is True
    assert calls == [0]  # malloc_trim(0): every arena, keeping no pad
    monkeypatch.setattr(_heap, "_malloc_trim", lambda: None)
    assert _heap.release_free_memory() is False  # not glibc: a no-op


def test_malloc_trim_is_found_on_glibc_only() -> None:
    _heap._malloc_trim.cache_clear()
    trim = _heap._malloc_trim()
    if sys.platform.startswith("linux") and "glibc" in " ".join(_platform_libc()):
        assert trim is not None
        assert _heap.release_free_memory() is True
    elif not sys.platform.startswith("linux"):
        assert trim is None


def test_malloc_trim_is_none_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    _heap._malloc_trim.cache_clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert _heap._malloc_trim() is None
        assert _heap.release_free_memory() is False
    finally:
        monkeypatch.undo()
        _heap._malloc_trim.cache_clear()


def _platform_libc() -> tuple[str, str]:
    import platform

    return platform.libc_ver()
