"""Solver layer: the partitioned level pass from end to end (:mod:`.shards`'s
forward and backward passes, then, with one peg anywhere as the goal, the solutions by
finishing hole of :mod:`.shards_finish`).

The modules of the pass, each importing only those before it: ``shards_store``
(results in memory or in a work folder), ``shards_tasks`` (the tasks an engine
runs), ``shards`` (the forward and backward passes), ``shards_games`` (the games), ``shards_finish``
(solutions by finishing hole), and this one.
"""

from __future__ import annotations

from dataclasses import replace

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.pegs.solver.levels import Analysis, Progress
from boardlab.pegs.solver.shards import ShardedRun, level_passes
from boardlab.pegs.solver.shards_finish import finishes_sharded
from boardlab.pegs.solver.shards_store import Handle, prepare_workdir
from boardlab.pegs.solver.tables import Problem

__all__ = ["analyse_sharded"]


def analyse_sharded(
    problem: Problem,
    run: ShardedRun,
    limit: Limit | None = None,
    progress: Progress | None = None,
    keep_winning: bool = False,
    *,
    games: bool = True,
) -> Analysis:
    """:func:`boardlab.pegs.solver.levels.analyse`, partitioned (see the module docstring).

    With ``keep_winning`` the winning positions of every level are gathered (sorted) into
    the result, as :func:`min_moves` needs; otherwise ``winning`` is empty.

    :raises LimitExceededError: when the time budget runs out, a
        :class:`~boardlab.core.errors.ResourceLimitError` when the memory or disk budget
        does (levels finished in a work folder are kept for a later run).
    :raises BoardlabError: for a bad work folder.
    """
    if run.workdir is not None:
        prepare_workdir(run.workdir, problem, run.shards)
    budget = (limit or Limit()).start()
    try:
        wins: dict[int, list[Handle]] = {}
        found = level_passes(problem, run, budget, progress, keep_winning, wins, games)
        if problem.goal.bits is None:
            finishes = finishes_sharded(problem, run, wins, budget, progress)
            found = replace(found, finishes=finishes, seconds=budget.elapsed)
        return found
    except OSError as exc:  # a full disk, a folder removed under the run
        where = f" in {run.workdir}" if run.workdir is not None else ""
        raise BoardlabError(
            f"cannot keep the shards{where}: {exc.strerror or exc}; the finished levels "
            "are kept, the unfinished one is done again on the next run"
        ) from None
