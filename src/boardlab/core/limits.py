"""Core layer: the time and node budget handed to every search.

>>> budget = Limit(time=None, nodes=10).start()
>>> budget.exhausted(nodes=9), budget.exhausted(nodes=10)
(False, True)
"""

from __future__ import annotations

import time as _time
from dataclasses import dataclass, field

from boardlab.core.errors import BoardlabError

__all__ = ["Budget", "Limit"]


@dataclass(frozen=True, slots=True)
class Limit:
    """How long a search may run: seconds of wall time and/or nodes (None = no bound)."""

    time: float | None = None
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise BoardlabError(f"time limit must be positive, got {self.time}")
        if self.nodes is not None and self.nodes <= 0:
            raise BoardlabError(f"node limit must be positive, got {self.nodes}")

    def start(self) -> Budget:
        """A running budget whose clock starts now."""
        return Budget(self)


@dataclass(slots=True)
class Budget:
    """A :class:`Limit` with its clock running."""

    limit: Limit
    started: float = field(default_factory=_time.perf_counter)

    @property
    def elapsed(self) -> float:
        """Seconds since the budget started."""
        return _time.perf_counter() - self.started

    @property
    def remaining(self) -> float | None:
        """Seconds left (never negative), or None without a time bound."""
        if self.limit.time is None:
            return None
        return max(0.0, self.limit.time - self.elapsed)

    def deadline(self) -> float | None:
        """The ``time.perf_counter()`` value at which time runs out, or None."""
        return None if self.limit.time is None else self.started + self.limit.time

    def exhausted(self, nodes: int = 0) -> bool:
        """True once the time or the node count has reached the limit."""
        if self.limit.nodes is not None and nodes >= self.limit.nodes:
            return True
        return self.limit.time is not None and self.elapsed >= self.limit.time
