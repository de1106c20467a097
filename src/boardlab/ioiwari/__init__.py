"""Rules layer: Ioiwari (IOI 2001), its exact solver, the contest protocol and the judge.

The package root re-exports the rules only; import :mod:`boardlab.ioiwari.solver`,
:mod:`~boardlab.ioiwari.store`, :mod:`~boardlab.ioiwari.player` or
:mod:`~boardlab.ioiwari.judge` for the rest (they load nothing heavy until asked).
"""

from boardlab.ioiwari.rules import IOI, Move, Outcome, Position, State, Variant, sow

__all__ = ["IOI", "Move", "Outcome", "Position", "State", "Variant", "sow"]
