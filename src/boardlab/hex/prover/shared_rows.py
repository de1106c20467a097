"""Kernel layer: the shared analyses table's row reads and writes, compiled with numba.

:class:`boardlab.hex.prover.shared.SharedAnalyses` looks a position up before every
analysis and writes a row after each, in the search's hot path; its ``_row`` and
``_digest`` in plain Python are kept there as the reference these kernels are tested
against. These do the same on the mapped array, without Python's big integers: the row of
a key (splitmix64 over black, white and the player, masked to the table's rows) and the
check word over a row's other words (splitmix64 chained over them, never 0).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit, jit_inline

__all__ = ["read_row", "write_row"]

#: The words of a row before its check word.
CHECKED = 15


@jit_inline
def _mix(value: np.uint64) -> np.uint64:
    """splitmix64 (:func:`boardlab.core.hashing.splitmix64`) on uint64 arithmetic."""
    z = value + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z if z != np.uint64(0) else np.uint64(1)


@jit_inline
def _row_of(black: np.uint64, white: np.uint64, player: np.uint64, mask: np.uint64) -> int:
    return int(_mix(_mix(black ^ _mix(white)) ^ player) & mask)


@jit
def write_row(table: npt.NDArray[np.uint64], words: npt.NDArray[np.uint64]) -> None:
    """Write ``words`` (a row's first :data:`CHECKED` words: black, white, the player in
    the low two bits of the third) into the key's row of ``table``, then its check (0
    first, so that a reader meanwhile sees a miss)."""
    mask = np.uint64(table.shape[0] - 1)
    row = _row_of(words[0], words[1], words[2] & np.uint64(3), mask)
    last = table.shape[1] - 1
    table[row, last] = np.uint64(0)
    check = np.uint64(0)
    for i in range(CHECKED):
        table[row, i] = words[i]
        check = _mix(check ^ words[i])
    table[row, last] = check


@jit
def read_row(
    table: npt.NDArray[np.uint64], key: npt.NDArray[np.uint64], out: npt.NDArray[np.uint64]
) -> bool:
    """Copy the row of ``key`` (black, white, player) into ``out`` and say True when it
    holds that position and its check holds; False (a miss) otherwise."""
    mask = np.uint64(table.shape[0] - 1)
    row = _row_of(key[0], key[1], key[2], mask)
    if table[row, 0] != key[0] or table[row, 1] != key[1]:
        return False
    if table[row, 2] & np.uint64(3) != key[2]:
        return False
    check = np.uint64(0)
    for i in range(CHECKED):
        out[i] = table[row, i]
        check = _mix(check ^ out[i])
    return bool(check == table[row, table.shape[1] - 1])
