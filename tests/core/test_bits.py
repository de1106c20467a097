"""The compiled bit counts against Python's own integers, and their Python twins."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.core.bits import popcount, trailing_zeros


def _words() -> list[int]:
    rng = random.Random(7)
    words = [0, 1, 2, 3, 1 << 63, (1 << 64) - 1, 0x8000_0000_0001]
    words += [1 << k for k in range(64)]
    words += [rng.getrandbits(64) for _ in range(200)]
    words += [rng.getrandbits(64) & rng.getrandbits(64) & rng.getrandbits(64) for _ in range(200)]
    return words


@pytest.mark.parametrize("count", [popcount, popcount.py_func])  # type: ignore[attr-defined]
def test_popcount_counts_the_set_bits(count: object) -> None:
    assert callable(count)
    for w in _words():
        assert count(np.uint64(w)) == bin(w).count("1"), hex(w)


@pytest.mark.parametrize("zeros", [trailing_zeros, trailing_zeros.py_func])  # type: ignore[attr-defined]
def test_trailing_zeros_is_the_lowest_set_bit(zeros: object) -> None:
    assert callable(zeros)
    for w in _words():
        expected = 64 if w == 0 else (w & -w).bit_length() - 1
        assert zeros(np.uint64(w)) == expected, hex(w)
