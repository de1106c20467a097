"""Cluster layer: tasks on worker processes of this machine, no extra needed.

:class:`ProcessEngine` has the engine interface of this package (``submit``, ``fetch``,
``share``, ``close``, ``workers``): each task is a top-level function run by one of ``workers``
processes, forked where the platform can (so the caller's compiled kernels come along and
its main module need not be import-safe), else spawned. Tasks queue in submission order.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from boardlab.core.errors import BoardlabError

__all__ = ["ProcessEngine"]


class ProcessEngine:
    """``workers`` processes on this machine.

    :raises BoardlabError: when ``workers`` is not positive.
    """

    local_files = False

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise BoardlabError(f"a process engine needs at least 1 worker, got {workers}")
        self.workers = workers
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any:
        """A handle of ``fn(*args)`` run by a worker (``returns`` and ``place`` are
        accepted for the interface: the value comes back whole, and every worker of this
        machine sees every file)."""
        return self._pool.submit(fn, *args)

    def fetch(self, handles: list[Any]) -> list[Any]:
        """The values of the tasks, in order (waiting for them)."""
        futures: list[Future[Any]] = handles
        return [future.result() for future in futures]

    def share(self, value: Any) -> Any:
        """``value`` itself (each task's arguments go to its worker whole)."""
        return value

    def close(self) -> None:
        """Stop the workers (tasks not started are dropped)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
