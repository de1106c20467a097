"""The progress reports a search makes, and who hears them."""

from __future__ import annotations

import threading

from boardlab.core.progress import progress_scope, report


def test_reports_reach_the_innermost_listener_and_no_other() -> None:
    outer: list[int] = []
    inner: list[int] = []
    with progress_scope(outer.append):
        report(1)
        with progress_scope(inner.append):
            report(2)
        report(3)
    report(4)  # outside every scope: goes nowhere
    assert outer == [1, 3]
    assert inner == [2]


def test_another_thread_does_not_hear_this_threads_listener() -> None:
    heard: list[int] = []
    with progress_scope(heard.append):
        worker = threading.Thread(target=report, args=(7,))
        worker.start()
        worker.join()
        report(8)
    assert heard == [8]
