"""The peg passes' parallel loops on two numba threads give the figures of one thread.

The test workers run their kernels on one thread each (``tests/conftest.py``), so this
test starts a process with two threads and compares what it counts (the level pass, the
games, the sharded pass in memory) with this process's count of the same problems.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import astuple

from boardlab.core.tasks import LocalEngine
from boardlab.pegs.boards import named_board
from boardlab.pegs.solver.levels import Analysis, analyse
from boardlab.pegs.solver.sharded import analyse_sharded
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.tables import Goal, Problem, make_problem

BOARDS = ("triangle-6", "triangle-5")

_COUNT = """
import json, sys
import numba
sys.path.insert(0, {here!r})
import test_threads
assert numba.get_num_threads() == 2, numba.get_num_threads()
print(json.dumps(test_threads.counts()))
"""


def problem(name: str) -> Problem:
    """The board's own start, one peg anywhere as the goal."""
    return make_problem(named_board(name), None, Goal(None, "ANY"))


def figures(found: Analysis) -> list[object]:
    """What a pass counted, as plain JSON values."""
    games = found.games
    return [
        [list(astuple(level)) for level in found.levels],
        found.solutions,
        sorted(found.finishes.items()),
        None if games is None else [games.total, sorted(games.by_pegs.items())],
    ]


def counts() -> list[list[object]]:
    """The figures of the level pass and of the sharded pass in memory, each board."""
    found = []
    for name in BOARDS:
        p = problem(name)
        found.append(figures(analyse(p)))
        found.append(figures(analyse_sharded(p, ShardedRun(LocalEngine(), 3))))
    return found


def test_two_threads_count_what_one_thread_counts() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, NUMBA_NUM_THREADS="2")
    done = subprocess.run(
        [sys.executable, "-c", _COUNT.format(here=here)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    two = json.loads(done.stdout.strip().splitlines()[-1])
    one = counts()
    assert json.loads(json.dumps(one)) == two
    assert one[0][1] > 0  # triangle-6 has solutions: the comparison compares something
