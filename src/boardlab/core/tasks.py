"""Core layer: the engine interface through which a solver hands its tasks to workers, and
the engine that runs them in this process.

A game describes parallel work as tasks (top-level functions and their arguments) and
runs them through any :class:`Engine`: in process (:class:`LocalEngine`), on local
worker processes or on a Ray cluster (:mod:`boardlab.cluster`). Only the interface
layer builds an engine that leaves the process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["Engine", "LocalEngine"]


class Engine(Protocol):
    """Runs tasks: :meth:`submit` returns handles the next tasks can take as arguments
    (``returns`` of them when ``returns > 1``), :meth:`fetch` their values,
    :meth:`wait_any` one of the handles whose task has finished (waiting for one). :meth:`share`
    hands back what a task may take in place of a value that many tasks are given (on a
    cluster, one copy in its object store). ``place`` names the part of the work a task
    belongs to (a shard): an engine whose machines keep their own files
    (``local_files``) runs every task of one part on the same machine, so that a task
    finds the files the part's earlier tasks wrote there; other engines ignore it."""

    workers: int
    local_files: bool

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any: ...

    def fetch(self, handles: list[Any]) -> list[Any]: ...

    def wait_any(self, handles: list[Any]) -> Any: ...

    def share(self, value: Any) -> Any: ...

    def close(self) -> None: ...


class LocalEngine:
    """Every task at once in this process, when it is submitted (its kernels use the
    process's cores); handles are the values themselves."""

    workers = 1
    local_files = False

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any:
        """``fn(*args)``, run now (a list of its ``returns`` values when more than one;
        ``place`` is accepted for the interface: one process sees every file)."""
        result = fn(*args)
        return list(result) if returns > 1 else result

    def fetch(self, handles: list[Any]) -> list[Any]:
        """The values (the handles themselves)."""
        return handles

    def wait_any(self, handles: list[Any]) -> Any:
        """The first handle: every task here is done when submitted."""
        return handles[0]

    def share(self, value: Any) -> Any:
        """``value`` itself: every task of this process sees the same object."""
        return value

    def close(self) -> None:
        """Nothing to stop."""
        return None
