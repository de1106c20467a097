"""Test layer: numba's threads shared out among the test workers that share the cores.

``make test`` runs one pytest worker a core (``-n auto``). Each worker's parallel kernels
(the peg-solitaire passes) would otherwise start a thread a core of their own, and with
numba's OpenMP layer the threads of one worker spin on cores the other workers need: on a
two-core machine the peg-solitaire shard tests took 2 min 11 s so, 48 s with one thread a
worker. So each worker (and every process its tests start) gets its share of the cores,
one thread at least, unless ``NUMBA_NUM_THREADS`` is set already (a run without workers
keeps numba's default). This module is read before any test module imports numba. The
parallel loops on several threads are tested on their own
(``tests/pegs/test_threads.py``, a process with two threads).
"""

from __future__ import annotations

import os


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# only in a worker: the controller's environment would be every worker's
if "PYTEST_XDIST_WORKER" in os.environ:
    _workers = max(1, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))
    os.environ.setdefault("NUMBA_NUM_THREADS", str(max(1, _cores() // _workers)))
