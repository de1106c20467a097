"""The server's event loop keeps its share: a search's thread runs at a lower priority and
the collector stops walking the loaded modules."""

from __future__ import annotations

import gc
import os
import sys
import threading
import types

import pytest

from boardlab.core.limits import Stop
from boardlab.web._jobs import JobPool, Owner
from boardlab.web._share import JOB_NICE, freeze_new_code, lowered_priority

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="per-thread priorities are Linux's"
)


def own_priority() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@linux_only
def test_a_search_runs_at_a_lower_priority_than_the_thread_that_asked() -> None:
    before = own_priority()
    pool = JobPool(slots=1, waiting=0, seconds=5.0)
    during = pool.run(Owner("127.0.0.1"), Stop(), own_priority)
    assert during == min(19, before + JOB_NICE)
    if os.geteuid() == 0:  # only a privileged thread may raise its priority again
        assert own_priority() == before


@linux_only
def test_lowered_priority_touches_only_its_own_thread() -> None:
    seen: list[int] = []
    go = threading.Event()

    def record() -> None:
        go.wait(5)
        seen.append(own_priority())

    other = threading.Thread(target=record)
    other.start()  # made before: a new thread takes its maker's priority
    with lowered_priority():
        go.set()
        other.join()
        inside = own_priority()
    assert seen[0] < inside


def test_the_collector_freezes_only_after_a_new_module() -> None:
    freeze_new_code()
    frozen = gc.get_freeze_count()
    assert not freeze_new_code()  # nothing imported since
    name = "boardlab_test_share_new_module"
    sys.modules[name] = types.ModuleType(name)
    try:
        assert freeze_new_code()
        assert gc.get_freeze_count() >= frozen
    finally:
        del sys.modules[name]
