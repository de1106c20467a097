"""Core layer: splitmix64, the one 64-bit mixing function of the package (plain Python).

Used where an integer must be spread over 64 bits: the engine's random seed of a search
(:mod:`boardlab.hex.engine.search`) and the row and check of the prover's shared table
of analyses (:mod:`boardlab.hex.prover.shared`).
"""

from __future__ import annotations

__all__ = ["splitmix64"]

_MASK = (1 << 64) - 1


def splitmix64(value: int) -> int:
    """Vigna's splitmix64 step on ``value``: the golden-ratio increment, then its
    finaliser; never 0 (a 0 becomes 1, so the result may seed a xorshift state)."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return (z ^ (z >> 31)) or 1
