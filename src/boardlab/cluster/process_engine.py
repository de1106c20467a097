"""Cluster layer: tasks on worker processes of this machine, no extra needed.

:class:`ProcessEngine` has the engine interface of this package (``submit``, ``fetch``,
``share``, ``close``, ``workers``): each task is a top-level function run by one of ``workers``
processes, forked where the platform can (so the caller's compiled kernels come along and
its main module need not be import-safe), else spawned. Tasks queue in submission order;
a *pinned* engine runs the tasks of one place in one process of their own.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Any

from boardlab.core.errors import BoardlabError

__all__ = ["ProcessEngine"]


class ProcessEngine:
    """``workers`` processes on this machine.

    :raises BoardlabError: when ``workers`` is not positive.
    """

    local_files = False

    def __init__(self, workers: int, pinned: bool = False) -> None:
        if workers < 1:
            raise BoardlabError(f"a process engine needs at least 1 worker, got {workers}")
        self.workers = workers
        self.pinned = pinned
        methods = multiprocessing.get_all_start_methods()
        self._context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=self._context)
        self._own: dict[int, ProcessPoolExecutor] = {}  # pinned: a process of each place

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any:
        """A handle of ``fn(*args)`` run by a worker (``returns`` is accepted for the
        interface: the value comes back whole). Every worker of this machine sees every
        file; when the engine is ``pinned``, a task given ``place`` runs in the process
        of its place (``place`` modulo ``workers``, one of its own), so what a worker
        keeps in memory between tasks serves that place's next task."""
        if self.pinned and place is not None:
            slot = place % self.workers
            own = self._own.get(slot)
            if own is None:
                own = ProcessPoolExecutor(max_workers=1, mp_context=self._context)
                self._own[slot] = own
            return own.submit(fn, *args)
        return self._pool.submit(fn, *args)

    def fetch(self, handles: list[Any]) -> list[Any]:
        """The values of the tasks, in order (waiting for them)."""
        futures: list[Future[Any]] = handles
        return [future.result() for future in futures]

    def wait_any(self, handles: list[Any]) -> Any:
        """One of the handles whose task has finished (the first in order), waiting for
        one to finish."""
        futures: list[Future[Any]] = handles
        done, _ = wait(futures, return_when=FIRST_COMPLETED)
        return next(future for future in futures if future in done)

    def share(self, value: Any) -> Any:
        """``value`` itself (each task's arguments go to its worker whole)."""
        return value

    def close(self) -> None:
        """Stop the workers (tasks not started are dropped)."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        for own in self._own.values():
            own.shutdown(wait=True, cancel_futures=True)
