"""Interface layer: the options of ``pegs count`` and ``pegs minmoves`` that take the level
pass past one process: shards, a work folder on disk, memory and disk budgets, a Ray
cluster.

Without ``--workers``, ``--address``, ``--workdir`` or ``--shards`` the in-process pass
runs (and Ray is never imported); every pass stops with one line before a level that
would not fit in ``--memory`` (default: most of the free memory).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from boardlab.core.limits import Limit
    from boardlab.core.tasks import Engine
    from boardlab.pegs.solver.levels import Analysis, Progress
    from boardlab.pegs.solver.shards_store import DiskBudget
    from boardlab.pegs.solver.tables import Problem

__all__ = ["add_cluster_arguments", "run_analysis"]

#: More shards than this would leave too little in each (and too many files).
MAX_SHARDS = 4096
#: Without --shards: this many shards a worker, and at least MIN_SHARDS.
SHARDS_PER_WORKER = 2
MIN_SHARDS = 4


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--address``, ``--workdir``, ``--local-disks``, ``--shards``,
    ``--memory`` and ``--disk``."""
    group = parser.add_argument_group("large boards (the partitioned level pass)")
    group.add_argument(
        "--workers",
        type=int,
        metavar="N",
        help="run the pass on a local Ray cluster of N workers (pip install 'boardlab[cluster]')",
    )
    group.add_argument(
        "--address", metavar="ADDR", help="run the pass on the running Ray cluster at ADDR"
    )
    group.add_argument(
        "--workdir",
        metavar="DIR",
        help="keep every level in shards on disk in DIR (an existing folder); "
        "a run stopped early resumes there from its last finished level",
    )
    group.add_argument(
        "--local-disks",
        action="store_true",
        help="with --address and --workdir: each machine of the cluster keeps its shards "
        "in DIR on its own disk (DIR must exist on every machine); shard j's tasks all run "
        "on the same machine, what crosses machines goes through Ray's object store",
    )
    group.add_argument(
        "--shards",
        type=int,
        metavar="N",
        help="shards per level in the partitioned pass (default: 2 a worker, at least 4; "
        "more when a level's shard would not fit in --memory)",
    )
    group.add_argument(
        "--memory",
        metavar="SIZE",
        help="memory budget, e.g. 8G (default: 80%% of the free memory); "
        "a level that would not fit stops the pass with a message",
    )
    group.add_argument(
        "--disk",
        metavar="SIZE",
        help="with --workdir: the most the work folder may hold, e.g. 100G (default: the "
        "free disk); a level that would not fit stops the pass with a message, the "
        "finished levels kept",
    )


def _partitioned(args: argparse.Namespace) -> bool:
    return any(
        getattr(args, name, None) is not None
        for name in ("workers", "address", "workdir", "shards")
    )


def _ray_engine(workers: int | None, address: str | None, local_disks: bool = False) -> Engine:
    """The Ray engine ``--workers`` / ``--address`` ask for; its errors in the words of
    these options (the cluster layer names none).

    :raises BoardlabError: when Ray is missing, ``--workers`` is not positive, or the
        cluster cannot be reached.
    """
    from boardlab.cluster.ray_engine import RayEngine, ray_available
    from boardlab.core.errors import BoardlabError

    if not ray_available():
        raise BoardlabError("--workers and --address need Ray: pip install 'boardlab[cluster]'")
    if workers is not None and workers < 1:
        raise BoardlabError(f"--workers must be at least 1, got {workers}")
    try:
        return RayEngine(workers, address, local_files=local_disks)
    except BoardlabError as exc:
        option = "--address" if address is not None else "--workers"
        raise BoardlabError(f"{option}: {exc}") from None


def run_analysis(
    args: argparse.Namespace,
    problem: Problem,
    limit: Limit,
    progress: Progress,
    keep_winning: bool = False,
    games: bool = True,
) -> Analysis:
    """The level pass the options ask for: in process, or partitioned (locally or on Ray);
    with ``games``, every complete game counted too.

    :raises BoardlabError: for bad options, a bad work folder or an unreachable cluster.
    :raises LimitExceededError: when time, memory or disk runs out (finished levels in a
        work folder are kept); out of memory, the message names the options that help.
    """
    from boardlab.core.errors import ResourceLimitError
    from boardlab.core.memory import default_budget, parse_size

    memory = parse_size(args.memory) if args.memory is not None else default_budget()
    disk = _disk_budget(args)
    try:
        return _analysis(args, problem, limit, progress, keep_winning, memory, disk, games)
    except ResourceLimitError as exc:
        if exc.resource != "memory":
            raise
        raise ResourceLimitError(f"{exc}; give {_room_hint(args)}", resource="memory") from None


def _room_hint(args: argparse.Namespace) -> str:
    """The options that make room for a level that ran out of ``--memory``."""
    if not _partitioned(args):
        return "--workdir DIR to keep the levels on disk in shards, or more --memory"
    more = "more shards (--shards)" if args.workdir is not None else "--workdir DIR"
    return f"{more} or more --memory"


def _disk_budget(args: argparse.Namespace) -> DiskBudget | None:
    """The work folder's budget ``--disk`` gives (counted over ``args.disk_root`` when
    the command keeps several work folders in one, as ``pegs table`` does).

    :raises BoardlabError: for a bad size, or ``--disk`` without ``--workdir``.
    """
    from boardlab.core.errors import BoardlabError
    from boardlab.core.memory import parse_size
    from boardlab.pegs.solver.shards_store import DiskBudget

    if getattr(args, "disk", None) is None:
        return None
    limit = parse_size(args.disk, "--disk")
    if args.workdir is None:
        raise BoardlabError("--disk is the budget of a work folder: give --workdir DIR")
    return DiskBudget(limit, Path(getattr(args, "disk_root", None) or args.workdir))


def _analysis(
    args: argparse.Namespace,
    problem: Problem,
    limit: Limit,
    progress: Progress,
    keep_winning: bool,
    memory: int,
    disk: DiskBudget | None,
    games: bool,
) -> Analysis:
    """The pass of :func:`run_analysis` within ``memory`` bytes and the ``disk`` budget."""
    from boardlab.core.errors import BoardlabError
    from boardlab.pegs.solver.levels import analyse

    if not _partitioned(args):
        return analyse(problem, limit, progress, memory, games=games)
    from boardlab.core.tasks import LocalEngine
    from boardlab.pegs.solver.sharded import analyse_sharded
    from boardlab.pegs.solver.shards import ShardedRun

    if args.shards is not None and not 1 <= args.shards <= MAX_SHARDS:
        raise BoardlabError(f"--shards must be between 1 and {MAX_SHARDS}, got {args.shards}")
    workdir = None if args.workdir is None else Path(args.workdir)
    if workdir is not None and not workdir.is_dir():
        raise BoardlabError(f"--workdir {workdir}: no such folder")
    local_disks = getattr(args, "local_disks", False)
    if local_disks and (workdir is None or (args.workers is None and args.address is None)):
        raise BoardlabError(
            "--local-disks needs --workdir and a Ray cluster (--address or --workers)"
        )
    engine: Engine
    if args.workers is not None or args.address is not None:
        engine = _ray_engine(args.workers, args.address, local_disks)
    else:
        engine = LocalEngine()
    # few large tasks pay best (each task and each routed part costs a fixed overhead)
    shards = args.shards or max(MIN_SHARDS, SHARDS_PER_WORKER * engine.workers)
    try:
        run = ShardedRun(engine, shards, workdir, memory, disk)
        return analyse_sharded(
            problem, run, limit, progress, keep_winning=keep_winning, games=games
        )
    finally:
        engine.close()
