"""The atomic array updates: exact under two threads, the plain twins' values alone."""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt
from numba import njit

from boardlab.core.atomics import atomic_add, compare_and_swap, release_fence


@njit(nogil=True, cache=False)
def _hammer(
    counts: npt.NDArray[np.int32],
    sums: npt.NDArray[np.float64],
    claims: npt.NDArray[np.int8],
    rounds: int,
) -> int:
    won = 0
    for i in range(rounds):
        atomic_add(counts, i % 2, 1)
        atomic_add(sums, 0, 0.5)
        atomic_add(counts, 2, -1)
        if compare_and_swap(claims, i, 0, 1) == 0:
            won += 1
        release_fence()
    return won


def test_two_threads_lose_no_update_and_claim_each_slot_once() -> None:
    rounds = 200_000
    counts = np.zeros(3, np.int32)
    sums = np.zeros(1, np.float64)
    claims = np.zeros(rounds, np.int8)
    _hammer(counts, sums, np.zeros(rounds, np.int8), 10)  # compiled before the threads
    counts[:] = 0
    sums[:] = 0
    won: list[int] = []
    threads = [
        threading.Thread(target=lambda: won.append(_hammer(counts, sums, claims, rounds)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counts.tolist() == [rounds, rounds, -2 * rounds]
    assert sums[0] == rounds  # 2 * rounds halves, each exact in binary
    assert sum(won) == rounds  # every slot claimed by exactly one thread
    assert bool((claims == 1).all())


def test_the_plain_twins_give_the_kernels_values() -> None:
    counts = np.zeros(3, np.int32)
    sums = np.zeros(1, np.float64)
    claims = np.zeros(5, np.int8)
    won = _hammer.py_func(counts, sums, claims, 5)
    compiled = (np.zeros(3, np.int32), np.zeros(1, np.float64), np.zeros(5, np.int8))
    assert _hammer(*compiled, 5) == won == 5
    assert counts.tolist() == compiled[0].tolist() == [3, 2, -5]
    assert sums[0] == compiled[1][0] == 2.5
    assert compare_and_swap(claims, 0, 0, 7) == 1  # held 1, not 0: untouched
    assert claims[0] == 1
