"""The partitioned level pass (shards, work folder, Ray) against the in-process pass."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError, LimitExceededError, ResourceLimitError
from boardlab.core.limits import Limit
from boardlab.core.tasks import Engine, LocalEngine
from boardlab.pegs.boards import named_board
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.solver.kernel_shards import (
    add_weights,
    merge_unique,
    parents_of,
    shard_of,
    shard_order,
)
from boardlab.pegs.solver.levels import Analysis, analyse, enumerate_levels, min_moves
from boardlab.pegs.solver.reference import (
    canon_slow,
    paths_py,
    weight_py,
    winning_weights_py,
)
from boardlab.pegs.solver.sharded import analyse_sharded
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.tables import Goal, Problem, make_problem

DATA = Path(__file__).parent / "data" / "solver"


def _problems() -> list[Problem]:
    t5, t6 = named_board("triangle-5"), named_board("triangle-6")
    octagon = parse_board_file((DATA / "octagon21.txt").read_text(), "octagon21.txt")
    return [
        make_problem(t5, None, Goal(None, "ANY")),
        make_problem(t5, None, Goal(1 << t5.index(t5.parse_hole("D1")), "D1")),
        make_problem(octagon.board, octagon.bits, Goal(None, "ANY")),
        make_problem(t6, None, Goal(None, "ANY")),
    ]


PROBLEMS = _problems()
IDS = [f"{p.board.name}-{p.goal.text}" for p in PROBLEMS]


def _same(a: Analysis, b: Analysis) -> None:
    assert a.levels == b.levels
    assert a.solutions == b.solutions
    assert a.finishes == b.finishes
    assert a.games is not None and b.games is not None
    assert (a.games.total, a.games.by_pegs) == (b.games.total, b.games.by_pegs)
    assert a.games.shortest_jumps == b.games.shortest_jumps


def test_shards_cover_every_value_once() -> None:
    values = np.arange(1, 50_000, 7, dtype=np.uint64) * np.uint64(0x10001)
    ids = shard_of(values, 13)
    assert ids.min() >= 0 and ids.max() < 13
    assert (shard_of(values, 13) == ids).all()  # a pure function of the value
    counts = np.bincount(ids, minlength=13)
    assert counts.min() > values.size / 13 / 2  # spread, not piled on one shard


@pytest.mark.parametrize("extras", [0, 1, 2])
def test_route_groups_by_shard_keeping_the_order(extras: int) -> None:
    """Each shard's part is the values of that shard (with the arrays aligned with
    them), in their order: what a stable sort by shard gives."""
    from boardlab.pegs.solver.shards_tasks import route

    rng = np.random.default_rng(extras)
    values = rng.integers(0, 2**40, 20_000, dtype=np.uint64)
    aligned = [rng.integers(0, 2**63, values.size, dtype=np.uint64) for _ in range(extras)]
    parts = route(values, 7, *aligned)
    ids = shard_of(values, 7)
    for j, part in enumerate(parts):
        mine = ids == j
        got = (part,) if not extras else part
        assert [list(g) for g in got] == [list(a[mine]) for a in (values, *aligned)]


@pytest.mark.parametrize("problem", PROBLEMS[:3], ids=IDS[:3])
def test_pushed_weights_match_the_twin(problem: Problem) -> None:
    """parents_of + add_weights give paths x orbit size for every position (the twin
    counts paths by brute force)."""
    levels = enumerate_levels(problem, Limit().start())
    paths = paths_py(problem)
    for pegs in range(problem.goal.pegs + 1, problem.start_pegs + 1):
        wins, lo, hi = winning_weights_py(problem, paths, levels[pegs - 1])
        keys, plo, phi = parents_of(wins, lo, hi, *problem.masks, problem.table)
        expected: Counter[int] = Counter()
        for child in map(int, wins):  # every jump undone, by brute force
            for a, b, c in problem.board.grid.jumps:
                if not child >> a & 1 and not child >> b & 1 and child >> c & 1:
                    parent = child ^ (1 << a) ^ (1 << b) ^ (1 << c)
                    expected[canon_slow(problem, parent)] += 1
        assert Counter(int(k) for k in keys) == expected
        out_lo, out_hi = add_weights(levels[pegs], keys, plo, phi)
        got = [int(h) << 64 | int(v) for v, h in zip(out_lo, out_hi, strict=True)]
        assert got == [weight_py(problem, paths, int(x)) for x in levels[pegs]]


@pytest.mark.parametrize("runs", [0, 1, 2, 3, 7, 16])
def test_merge_unique_of_sorted_runs_matches_numpy(runs: int) -> None:
    rng = np.random.default_rng(runs)
    parts = [np.unique(rng.integers(0, 500, rng.integers(0, 80))) for _ in range(runs)]
    values = np.concatenate([np.zeros(0, np.uint64), *[p.astype(np.uint64) for p in parts]])
    starts = np.cumsum([0] + [p.size for p in parts]).astype(np.int64)
    assert merge_unique(values, starts).tolist() == np.unique(values).tolist()


def test_shard_order_groups_by_shard_and_keeps_order() -> None:
    values = np.arange(3, 40_000, 11, dtype=np.uint64)
    order, starts = shard_order(values, 5)
    ids = shard_of(values, 5)
    assert sorted(order.tolist()) == list(range(values.size))
    for j in range(5):
        group = order[starts[j] : starts[j + 1]]
        assert (ids[group] == j).all() and (np.diff(group) > 0).all()


def test_add_weights_carries_into_the_high_word() -> None:
    level = np.array([5, 9], np.uint64)
    top = np.uint64((1 << 64) - 1)
    keys = np.array([9, 9, 5, 7], np.uint64)  # 7 is not in the level: dropped
    lo = np.array([top, 3, 1, 1], np.uint64)
    hi = np.array([0, 1, 0, 0], np.uint64)
    out_lo, out_hi = add_weights(level, keys, lo, hi)
    assert [int(h) << 64 | int(v) for v, h in zip(out_lo, out_hi, strict=True)] == [
        1,
        (1 << 64) - 1 + 3 + (1 << 64),
    ]


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
@pytest.mark.parametrize("shards", [1, 3, 16])
def test_sharded_pass_in_memory_matches_the_in_process_pass(problem: Problem, shards: int) -> None:
    expected = analyse(problem)
    found = analyse_sharded(problem, ShardedRun(LocalEngine(), shards), keep_winning=True)
    _same(found, expected)
    for pegs, winning in expected.winning.items():
        assert (found.winning[pegs] == winning).all()


def test_minimum_moves_from_the_sharded_pass(tmp_path: Path) -> None:
    problem = PROBLEMS[0]
    found = analyse_sharded(problem, ShardedRun(LocalEngine(), 4, tmp_path), keep_winning=True)
    assert min_moves(problem, analysis=found).moves == min_moves(problem).moves


def test_sharded_pass_on_disk_resumes_from_finished_levels(tmp_path: Path) -> None:
    problem = PROBLEMS[3]
    expected = analyse(problem)
    run = ShardedRun(LocalEngine(), 5, tmp_path)

    def interrupt(done: int, total: int, label: str) -> None:
        if label.startswith("positions with 8 pegs"):  # Ctrl-C in the middle of the pass
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse_sharded(problem, run, progress=interrupt)
    assert (tmp_path / "level-09" / "done.json").exists()
    assert not (tmp_path / "level-07").exists()
    _same(analyse_sharded(problem, run), expected)
    marks = sorted(p.parent.name for p in tmp_path.glob("*-*/done.json"))
    assert "level-10" in marks and "wins-15" in marks
    assert not list(tmp_path.glob("**/*.part"))
    # a half-written level (no done.json, a broken shard) is done again, not trusted
    (tmp_path / "level-10" / "done.json").unlink()
    (tmp_path / "level-10" / "shard-0000.npy").write_bytes(b"broken")
    (tmp_path / "wins-12" / "done.json").unlink()
    _same(analyse_sharded(problem, run), expected)
    assert (tmp_path / "level-10" / "done.json").exists()


def test_a_stopped_levels_stale_files_are_cleared_and_a_finished_level_kept(
    tmp_path: Path,
) -> None:
    from boardlab.pegs.solver import shards_store as store

    stopped = tmp_path / "games-17"
    stopped.mkdir()
    (stopped / "from-0003-to-0001.npz").write_bytes(b"x" * 100)
    (stopped / "sum-0001.npz").write_bytes(b"x")
    assert store.level_folder(tmp_path, "games", 17) == stopped
    assert list(stopped.iterdir()) == []
    finished = tmp_path / "games-18"
    finished.mkdir()
    (finished / "shard-0000.npz").write_bytes(b"kept")
    (finished / "done.json").write_text("{}")
    store.level_folder(tmp_path, "games", 18)
    assert sorted(p.name for p in finished.iterdir()) == ["done.json", "shard-0000.npz"]


def test_a_work_folder_of_another_run_is_refused(tmp_path: Path) -> None:
    analyse_sharded(PROBLEMS[0], ShardedRun(LocalEngine(), 4, tmp_path))
    with pytest.raises(BoardlabError, match="another run"):
        analyse_sharded(PROBLEMS[1], ShardedRun(LocalEngine(), 4, tmp_path))
    with pytest.raises(BoardlabError, match="does not exist"):
        analyse_sharded(PROBLEMS[0], ShardedRun(LocalEngine(), 4, tmp_path / "missing"))


def test_memory_budget_stops_before_a_level_that_would_not_fit() -> None:
    """The library says which budget ran out and names no option of the command line."""
    with pytest.raises(ResourceLimitError, match="over the memory budget of 97.7 kB") as one:
        analyse(PROBLEMS[3], memory=100_000)
    with pytest.raises(ResourceLimitError, match="over the memory budget of") as two:
        analyse_sharded(PROBLEMS[3], ShardedRun(LocalEngine(), 2, None, 100_000))
    for caught in (one, two):
        assert caught.value.resource == "memory" and isinstance(caught.value, LimitExceededError)
        assert "--" not in str(caught.value)
    _same(analyse(PROBLEMS[0], memory=10**9), analyse(PROBLEMS[0]))


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        ((), "give --workdir DIR to keep the levels on disk in shards, or more --memory"),
        (("--shards", "2"), "give --workdir DIR or more --memory"),
        (("--workdir", "WORKDIR", "--shards", "2"), "give more shards (--shards) or more --memory"),
    ],
)
def test_the_cli_names_its_options_when_memory_runs_out(
    args: tuple[str, ...], hint: str, tmp_path: Path
) -> None:
    args = tuple(str(tmp_path) if arg == "WORKDIR" else arg for arg in args)
    done = _cli("count", "triangle-6", "--goal", "ANY", "--memory", "64K", *args)
    assert done.returncode == 2 and done.stdout == ""
    assert "over the memory budget of 64.0 kB" in done.stderr and hint in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "boardlab", "pegs", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_cli_figures_are_the_same_in_shards_on_disk(tmp_path: Path) -> None:
    plain = _cli("count", "triangle-5", "--goal", "ANY", "--json")
    sharded = _cli(
        "count", "triangle-5", "--goal", "ANY", "--json", "--workdir", str(tmp_path),
        "--shards", "3",
    )  # fmt: skip
    assert plain.returncode == sharded.returncode == 0, sharded.stderr
    drop = ("seconds",)
    first, second = json.loads(plain.stdout), json.loads(sharded.stdout)
    assert {k: v for k, v in first.items() if k not in drop} == {
        k: v for k, v in second.items() if k not in drop
    }
    moves = _cli("minmoves", "triangle-5", "--goal", "ANY", "--json", "--shards", "2")
    assert (
        json.loads(moves.stdout)["min_moves"]
        == json.loads(_cli("minmoves", "triangle-5", "--goal", "ANY", "--json").stdout)["min_moves"]
    )


def test_cli_count_with_min_moves_in_shards() -> None:
    """``count --min-moves`` in the partitioned pass: the figures of the in-process one."""
    args = ("count", "triangle-5", "--start", "C1", "--goal", "ANY", "--min-moves", "--json")
    plain, sharded = _cli(*args), _cli(*args, "--shards", "2")
    assert plain.returncode == sharded.returncode == 0, sharded.stderr
    first, second = json.loads(plain.stdout), json.loads(sharded.stdout)
    for record in (first, second, first["minmoves"], second["minmoves"]):
        del record["seconds"]
    assert first == second and first["minmoves"]["min_moves"] == 9


def test_a_disk_budget_stops_the_pass_keeping_its_finished_levels(tmp_path: Path) -> None:
    from boardlab.pegs.solver.shards_store import DiskBudget, folder_size

    problem = PROBLEMS[3]
    whole = tmp_path / "whole"
    whole.mkdir()
    expected = analyse_sharded(problem, ShardedRun(LocalEngine(), 4, whole))
    needed = folder_size(whole)
    folder = tmp_path / "budget"
    folder.mkdir()
    for limit in (needed // 300, needed // 60):  # in the lines of play, before a level
        with pytest.raises(ResourceLimitError, match="disk budget of") as stop:
            analyse_sharded(
                problem, ShardedRun(LocalEngine(), 4, folder, disk=DiskBudget(limit, folder))
            )
        assert stop.value.resource == "disk"
        assert list(folder.glob("*/done.json"))  # what it finished is kept
    resumed = ShardedRun(LocalEngine(), 4, folder, disk=DiskBudget(2 * needed, folder))
    _same(analyse_sharded(problem, resumed), expected)


def test_the_table_disk_budget_counts_every_start_folder(tmp_path: Path) -> None:
    done = _cli("table", "triangle-6", "--workdir", str(tmp_path), "--disk", "64K", "--json")
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "disk budget of 64.0 kB" in line and "starts finished before it" in line
    assert json.loads(done.stdout)["stopped"]
    # a file beside the start folders counts too: nothing is left for the first level
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "other.bin").write_bytes(b"x" * 2**20)
    done = _cli("table", "triangle-6", "--workdir", str(fresh), "--disk", "1M")
    assert done.returncode == 2
    assert "only 0.0 kB left of the disk budget of 1.0 MB" in done.stderr


def test_cli_table_drop_shards_with_local_disks_is_refused(tmp_path: Path) -> None:
    done = _cli(
        "table", "triangle-5", "--workdir", str(tmp_path), "--drop-shards", "--local-disks",
        "--workers", "1",
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "--drop-shards cannot reach the shards" in line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--workdir", "/no/such/folder"), "no such folder"),
        (("--address", "127.0.0.1:1"), "cannot reach the Ray cluster"),
        (("--address", "nowhere"), "HOST:PORT"),
        (("--memory", "lots"), "--memory"),
        (("--memory", "64K"), "memory"),
        (("--shards", "0"), "--shards"),
        (("--workers", "0"), "--workers"),
        (("--disk", "lots"), "--disk: expected a size"),
        (("--disk", "1G"), "--disk is the budget of a work folder: give --workdir DIR"),
        (("--local-disks", "--workers", "2"), "--local-disks needs --workdir and a Ray cluster"),
        (("--local-disks", "--workdir", "/tmp"), "--local-disks needs --workdir and a Ray"),
    ],
)
def test_cli_bad_cluster_options_give_one_line_and_status_2(
    args: tuple[str, ...], message: str
) -> None:
    done = _cli("count", "triangle-6", "--goal", "ANY", *args)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert done.stdout == ""


def test_a_stopped_pass_without_a_time_limit_says_what_stopped_it() -> None:
    """Both passes end through ``Budget.check``; its copies once raised TypeError
    formatting the missing time limit when only a node limit was given."""
    from boardlab.core.limits import Stop, stop_scope

    stop = Stop()
    stop.cancel("the client went away")
    with stop_scope(stop):
        for run in (
            lambda: analyse(PROBLEMS[0], Limit(nodes=10**9)),
            lambda: analyse_sharded(PROBLEMS[0], ShardedRun(LocalEngine(), 2), Limit(nodes=10**9)),
        ):
            with pytest.raises(
                LimitExceededError, match=r"search stopped \(the client went away\)"
            ):
                run()


def test_the_in_process_pass_never_imports_ray() -> None:
    code = (
        "import sys; from boardlab.cli import main; "
        "main(['pegs', 'count', 'triangle-4', '--goal', 'ANY']); "
        "assert 'ray' not in sys.modules, 'ray imported'"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr


# -- Ray: a local two-worker cluster started here -----------------------------------------
# (one xdist worker runs these tests: one cluster, not one per worker on a two-core machine)


@pytest.fixture(scope="module")
def ray_engine() -> Iterator[Engine]:
    pytest.importorskip("ray", reason="the cluster extra (pip install 'boardlab[cluster]')")
    from boardlab.cluster.ray_engine import RayEngine

    engine = RayEngine(workers=2)
    yield engine
    engine.close()


@pytest.mark.xdist_group("ray")
@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_ray_pass_matches_the_in_process_pass(ray_engine: Engine, problem: Problem) -> None:
    assert ray_engine.workers == 2
    found = analyse_sharded(problem, ShardedRun(ray_engine, 4), keep_winning=True)
    expected = analyse(problem)
    _same(found, expected)
    for pegs, winning in expected.winning.items():
        assert (found.winning[pegs] == winning).all()


@pytest.mark.xdist_group("ray")
def test_ray_pass_with_shards_on_disk(ray_engine: Engine, tmp_path: Path) -> None:
    problem = PROBLEMS[3]
    _same(analyse_sharded(problem, ShardedRun(ray_engine, 6, tmp_path)), analyse(problem))
    assert sorted(os.listdir(tmp_path / "level-10")) == ["done.json"] + [
        f"shard-{j:04d}.npy" for j in range(6)
    ]


@pytest.mark.xdist_group("ray")
def test_ray_pass_resumes_a_stopped_run_from_its_work_folder(
    ray_engine: Engine, tmp_path: Path
) -> None:
    """A resumed run hands the finished levels' files to the cluster as they are."""
    problem = PROBLEMS[3]
    run = ShardedRun(ray_engine, 5, tmp_path)

    def interrupt(done: int, total: int, label: str) -> None:
        if label.startswith("positions with 8 pegs"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse_sharded(problem, run, progress=interrupt)
    assert (tmp_path / "level-09" / "done.json").exists()
    _same(analyse_sharded(problem, run), analyse(problem))


def test_ray_engine_fetch_passes_plain_values_through(ray_engine: Engine) -> None:
    ref = ray_engine.submit(_double, (3,))
    assert ray_engine.fetch(["a/shard-0000.npy", ref, 7]) == ["a/shard-0000.npy", 6, 7]


def _double(value: int) -> int:
    return 2 * value


def test_a_full_disk_gives_one_line_and_leaves_no_level_a_resume_would_trust(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    from boardlab.pegs.solver import shards_store

    problem = PROBLEMS[0]
    real_save = shards_store.save
    saved = [0]

    def filling(value: object, path: str | None) -> object:
        saved[0] += 1
        if saved[0] > 40:  # the disk fills up in the middle of a level
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_save(value, path)

    monkeypatch.setattr(shards_store, "save", filling)
    run = ShardedRun(LocalEngine(), 5, tmp_path)
    with pytest.raises(BoardlabError, match="No space left on device"):
        analyse_sharded(problem, run)
    finished = {p.parent.name for p in tmp_path.glob("*-*/done.json")}
    started = {p.name for p in tmp_path.glob("*-*") if p.is_dir()}  # levels, games
    assert finished and started - finished  # levels kept, the one cut short not marked
    monkeypatch.setattr(shards_store, "save", real_save)
    _same(analyse_sharded(problem, run), analyse(problem))  # the resume finishes the job
