"""Check the partitioned peg pass with each machine's shards on its own disk, on a real
Ray cluster of several nodes started on this machine (``ray.cluster_utils``).

Starts a head node and ``--nodes - 1`` more (one CPU each), runs the sharded pass with
``RayEngine(address, local_files=True)`` and a work folder, and checks: the figures
(levels, solutions, finishing holes, games, the fewest moves) equal the in-process
pass's; no routed part was written to disk; and a task the engine is given for shard
``j`` runs on node ``j mod nodes`` (a probe a shard reports the node it ran on). That
every task of the pass is given its shard is tested without Ray
(``tests/pegs/test_shards_machines.py``, machines simulated with folders of their own).
The nodes share this machine's disk, so the check is of the placement, which is what
keeps a shard's files on one machine of a real cluster. Needs the ``cluster`` extra;
run from the repository root:

    .venv/bin/python benchmarks/check_pegs_local_disks.py [--nodes 3] [--shards 6]

Exit status 0 when every check holds, 1 when one fails, 2 without Ray.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path


def node_of() -> str:
    """The id of the Ray node this task runs on."""
    import ray

    return str(ray.get_runtime_context().get_node_id())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=3, help="Ray nodes to start (default 3)")
    parser.add_argument("--shards", type=int, default=6, help="shards a level (default 6)")
    parser.add_argument("--board", default="triangle-6", help="board (default triangle-6)")
    args = parser.parse_args(argv)
    try:
        import ray
        from ray.cluster_utils import Cluster
    except ImportError:
        print("check_pegs_local_disks: needs Ray: pip install 'boardlab[cluster]'", file=sys.stderr)
        return 2
    from boardlab.cluster.ray_engine import RayEngine
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver.levels import analyse, min_moves
    from boardlab.pegs.solver.sharded import analyse_sharded
    from boardlab.pegs.solver.shards import ShardedRun
    from boardlab.pegs.solver.tables import Goal, make_problem

    problem = make_problem(named_board(args.board), None, Goal(None, "ANY"))
    expected = analyse(problem)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    for _ in range(args.nodes - 1):
        cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    failures: list[str] = []
    try:
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        engine = RayEngine(address="auto", local_files=True)
        with tempfile.TemporaryDirectory() as folder:
            workdir = Path(folder)
            run = ShardedRun(engine, args.shards, workdir)
            found = analyse_sharded(problem, run, keep_winning=True)
            routed = list(workdir.glob("**/from-*"))
            shard_files = list(workdir.glob("*/shard-*.np[yz]"))
        checks = {
            "levels": found.levels == expected.levels,
            "solutions": found.solutions == expected.solutions,
            "finishing holes": found.finishes == expected.finishes,
            "games": (found.games and found.games.total)
            == (expected.games and expected.games.total),
            "fewest moves": min_moves(problem, analysis=found).moves == min_moves(problem).moves,
            "no routed part on disk": not routed,
            "shards written": bool(shard_files),
        }
        failures += [name for name, ok in checks.items() if not ok]
        probes = [engine.submit(node_of, (), place=j) for j in range(args.shards)]
        for j, node in enumerate(engine.fetch(probes)):
            want = engine.nodes[j % len(engine.nodes)]
            if node != want:
                failures.append(f"shard {j}'s task ran on node {node[:8]}, not {want[:8]}")
        placed = len(probes)
        if len(set(engine.fetch(probes))) != min(args.nodes, args.shards):
            failures.append("the shards' tasks did not use every node")
        print(
            f"{len(engine.nodes)} nodes, {args.shards} shards, {args.board}: {placed} shard "
            f"probes on their nodes; {len(shard_files)} shard files written"
        )
        engine.close()
    finally:
        ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]
    for failure in failures:
        print(f"  FAILED: {failure}")
    print("every check holds" if not failures else f"{len(failures)} checks failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
