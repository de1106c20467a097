"""The partitioned pass with each machine's shards on its own disk, simulated in one
process: a task placed on machine ``m`` sees the work folder's paths under ``m``'s own
folder only, and the driver's work folder holds no shard at all. A task placed on the
wrong machine, a task without a place, or the driver reading a shard's file would not
find the file the test expects, so the figures would not come out (or the engine
refuses the task)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.tasks import LocalEngine
from boardlab.pegs.boards import named_board
from boardlab.pegs.solver.levels import analyse, min_moves
from boardlab.pegs.solver.sharded import analyse_sharded
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.tables import Goal, make_problem


class MachinesEngine(LocalEngine):
    """Tasks run now, each on the machine its part is dealt to (``place`` mod
    ``machines``), with the work folder's paths turned into that machine's own folder."""

    local_files = True

    def __init__(self, workdir: Path, machines: int) -> None:
        self.workdir = str(workdir)
        self.roots = [workdir.parent / f"machine-{m}" for m in range(machines)]
        self.nodes = [f"machine-{m}" for m in range(machines)]
        self.placed: list[tuple[str, int]] = []

    def _on(self, value: Any, root: str) -> Any:
        if isinstance(value, str) and value.startswith(self.workdir):
            return root + value[len(self.workdir) :]
        if isinstance(value, (list, tuple)):
            return type(value)(self._on(v, root) for v in value)
        return value

    def _back(self, value: Any, root: str) -> Any:
        if isinstance(value, str) and value.startswith(root):
            return self.workdir + value[len(root) :]
        if isinstance(value, (list, tuple)):
            return type(value)(self._back(v, root) for v in value)
        return value

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any:
        assert place is not None, f"{fn.__name__} given no place"
        self.placed.append((fn.__name__, place))
        root = str(self.roots[place % len(self.roots)])
        result = fn(*self._on(list(args), root))
        result = self._back(result, root)
        return list(result) if returns > 1 else result


T6 = named_board("triangle-6")


def _files(folder: Path, pattern: str) -> list[Path]:
    return sorted(folder.glob(pattern))


@pytest.mark.parametrize("machines", [1, 3])
def test_each_machine_keeps_its_shards_and_the_figures_are_the_same(
    tmp_path: Path, machines: int
) -> None:
    problem = make_problem(T6, None, Goal(None, "ANY"))
    expected = analyse(problem)
    workdir = tmp_path / "driver"
    workdir.mkdir()
    engine = MachinesEngine(workdir, machines)
    found = analyse_sharded(problem, ShardedRun(engine, 5, workdir), keep_winning=True)
    assert found.levels == expected.levels
    assert found.solutions == expected.solutions
    assert found.finishes == expected.finishes
    assert found.games is not None and expected.games is not None
    assert found.games.total == expected.games.total
    assert found.games.shortest_jumps == expected.games.shortest_jumps
    assert min_moves(problem, analysis=found).moves == min_moves(problem).moves
    # the driver holds the marks of finished levels, no shard; nothing was routed on disk
    assert _files(workdir, "**/*.np[yz]") == []
    assert list(tmp_path.glob("**/from-*")) == []
    # shard j of every level on machine j mod machines, and only there
    for m, root in enumerate(engine.roots):
        for shard in _files(root, "*/shard-*.np[yz]"):
            assert int(shard.stem.split("-")[1]) % machines == m, shard
    assert {name for name, _ in engine.placed} >= {"task_expand", "task_merge", "task_sum"}


def test_a_stopped_run_on_machines_resumes(tmp_path: Path) -> None:
    problem = make_problem(T6, None, Goal(None, "ANY"))
    expected = analyse(problem)
    workdir = tmp_path / "driver"
    workdir.mkdir()
    run = ShardedRun(MachinesEngine(workdir, 3), 5, workdir)

    def interrupt(done: int, total: int, label: str) -> None:
        if label.startswith("positions with 8 pegs"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse_sharded(problem, run, progress=interrupt)
    assert (workdir / "level-09" / "done.json").exists()
    again = analyse_sharded(problem, ShardedRun(MachinesEngine(workdir, 3), 5, workdir))
    assert again.levels == expected.levels and again.solutions == expected.solutions
    assert again.games is not None and expected.games is not None
    assert again.games.total == expected.games.total
