"""Core layer: the engine interface through which a solver hands its tasks to workers.

A game describes parallel work as tasks (top-level functions and their arguments) and
runs them through any :class:`Engine`: in process (the peg pass's ``LocalEngine``), on
local worker processes or on a Ray cluster (:mod:`boardlab.cluster`). Only the interface
layer builds an engine that leaves the process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

__all__ = ["Engine"]


class Engine(Protocol):
    """Runs tasks: :meth:`submit` returns handles the next tasks can take as arguments
    (``returns`` of them when ``returns > 1``), :meth:`fetch` their values."""

    workers: int

    def submit(self, fn: Callable[..., Any], args: Sequence[Any], returns: int = 1) -> Any: ...

    def fetch(self, handles: list[Any]) -> list[Any]: ...

    def close(self) -> None: ...
