"""Core layer: bit tricks on ``uint64`` words for the numba kernels (compiled on import).

Imported by kernel modules only, so commands that need no kernel never load numba.
"""

from __future__ import annotations

import numpy as np

from boardlab.core.jit import jit

__all__ = ["popcount"]


@jit
def popcount(x: np.uint64) -> int:
    """The set bits of a ``uint64`` word."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return int(x & np.uint64(127))
