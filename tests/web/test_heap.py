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
    _clear()
    trim = _heap._malloc_trim()
    if sys.platform.startswith("linux") and "glibc" in " ".join(_platform_libc()):
        assert trim is not None
        assert _heap.release_free_memory() is True
    elif not sys.platform.startswith("linux"):
        assert trim is None


def test_malloc_trim_is_none_off_linux(monkeypatch: pytest.MonkeyPatch) -> None:
    _clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert _heap._malloc_trim() is None
        assert _heap.release_free_memory() is False
    finally:
        monkeypatch.undo()
        _clear()


def _platform_libc() -> tuple[str, str]:
    import platform

    return platform.libc_ver()


def test_limit_arenas_sets_glibcs_option(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[int, int]] = []

    def mallopt(param: int, value: int) -> int:
        calls.append((param, value))
        return 1

    monkeypatch.delenv(_heap.ARENA_VARIABLE, raising=False)
    monkeypatch.setattr(_heap, "_mallopt", lambda: mallopt)
    assert _heap.limit_arenas(3) is True
    assert _heap.limit_arenas(0) is True  # at least one arena
    assert calls == [(_heap.M_ARENA_MAX, 3), (_heap.M_ARENA_MAX, 1)]
    monkeypatch.setenv(_heap.ARENA_VARIABLE, "4")  # the user's own setting stands
    assert _heap.limit_arenas(2) is False
    assert len(calls) == 2
    monkeypatch.setattr(_heap, "_mallopt", lambda: None)  # not glibc: a no-op
    monkeypatch.delenv(_heap.ARENA_VARIABLE)
    assert _heap.limit_arenas(2) is False


def test_serve_limits_the_arenas_to_its_slots(monkeypatch: pytest.MonkeyPatch) -> None:
    from boardlab.web import app as web_app

    asked: list[int] = []
    monkeypatch.setattr(web_app, "limit_arenas", asked.append)

    class StoppedError(Exception):
        pass

    def no_server(*args: object, **kwargs: object) -> None:
        raise StoppedError

    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", no_server)
    with pytest.raises(StoppedError):
        web_app.serve(port=0, slots=3)
    assert asked == [3]


def _clear() -> None:
    for cached in (_heap._libc, _heap._malloc_trim, _heap._mallopt):
        cached.cache_clear()
