"""Every game counted and the shortest game: the forward pass against slow references."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardlab.core.limits import Limit
from boardlab.core.tasks import LocalEngine
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.rules import Position
from boardlab.pegs.solver import kernel
from boardlab.pegs.solver.kernel_games import add_checked, dead_ends, sort_unique_counted, sum_where
from boardlab.pegs.solver.levels import analyse, enumerate_levels
from boardlab.pegs.solver.reference import (
    canon_slow,
    children_py,
    games_enumerated_py,
    games_py,
    lines_py,
    orbit_py,
    shortest_game_py,
)
from boardlab.pegs.solver.sharded import analyse_sharded
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.tables import Goal, Problem, make_problem

DATA = Path(__file__).parent / "data" / "solver"
T5 = named_board("triangle-5")
ANY = Goal(None, "ANY")


def _vacancy(board: Board, hole: str) -> int:
    return board.grid.full & ~(1 << board.index(board.parse_hole(hole)))


def _check_line(problem: Problem, jumps: int) -> None:
    """The shortest game is a legal line from the start, ``jumps`` long, to a dead end."""
    found = analyse(problem).games
    assert found is not None
    position = Position(problem.board, problem.start)
    for move in found.shortest:
        assert position.why_illegal(move) is None
        position.push(move)
    assert position.legal_jumps() == []
    assert found.shortest_jumps == jumps
    assert found.shortest_pegs == problem.start_pegs - jumps


@pytest.mark.parametrize("symmetry", [True, False])
def test_triangle_5_starts_match_the_memoised_reference(symmetry: bool) -> None:
    """One start of each orbit (and one more), one peg anywhere and back at the start."""
    for hole in ("A1", "B1", "C1", "C2", "E4"):
        s = T5.index(T5.parse_hole(hole))
        start = T5.grid.full & ~(1 << s)
        for goal in (ANY, Goal(1 << s, "back")):
            problem = make_problem(T5, start, goal, symmetry=symmetry)
            found = analyse(problem).games
            assert found is not None
            assert found.total == games_py(problem)
            assert found.shortest_jumps == shortest_game_py(problem)


def test_small_boards_match_the_enumeration_of_every_game() -> None:
    rect = parse_board_file((DATA / "rect3x5.txt").read_text(), "rect3x5.txt")
    t4 = named_board("triangle-4")
    problems = [
        make_problem(rect.board, rect.bits, ANY),
        make_problem(t4, _vacancy(t4, "A1"), ANY),
        make_problem(t4, _vacancy(t4, "C2"), ANY),
    ]
    for problem in problems:
        games, shortest = games_enumerated_py(problem)
        assert games == games_py(problem)  # the two references agree
        found = analyse(problem).games
        assert found is not None
        assert (found.total, found.shortest_jumps) == (games, shortest)
        _check_line(problem, shortest)


def test_a_goal_above_one_peg_still_counts_games_down_to_the_last_dead_end() -> None:
    problem = make_problem(T5, None, Goal(None, "ANY"))
    three = Goal(T5.bits([T5.parse_hole(h) for h in ("A1", "E1", "E5")]), "corners")
    wider = make_problem(T5, None, three)
    assert wider.goal.pegs == 3
    a, b = analyse(problem).games, analyse(wider).games
    assert a is not None and b is not None
    assert a == b
    assert enumerate_levels(wider, Limit().start()).keys() == set(range(3, 15))


def test_published_triangle_5_table_rows() -> None:
    """Durango Bill's 15-hole table (starts 1, 2, 4, 5 = A1, B1, C1, C2): solutions,
    back at the start, shortest game, and his "total possible games", which counts every
    winning game twice (a win and a dead end): our games + the solutions, every row."""
    rows = {
        "A1": (29_760, 6_816, 6, 598_390),
        "B1": (14_880, 720, 6, 309_423),
        "C1": (85_258, 51_452, 7, 1_234_826),
        "C2": (1_550, 0, 4, 139_396),
    }
    for hole, (solutions, back, shortest, published) in rows.items():
        start = _vacancy(T5, hole)
        found = analyse(make_problem(T5, start, ANY))
        games = found.games
        assert games is not None
        assert found.solutions == solutions
        assert games.shortest_jumps == shortest
        assert games.total + found.solutions == published
        index = T5.index(T5.parse_hole(hole))
        assert analyse(make_problem(T5, start, Goal(1 << index, hole))).solutions == back
    assert analyse(make_problem(T5, None, ANY)).games.total == 568_630  # type: ignore[union-attr]


def _counted(problem: Problem, parents: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple:
    mf, mo, mt = problem.masks
    children = kernel.expand(parents, mf, mo, mt, problem.table)
    offsets = kernel.jump_offsets(parents, mf | mo | mt, mf | mo)
    return sort_unique_counted(children, offsets, lo, hi, problem.board.size)


@pytest.mark.parametrize("hole", ["C1", "B1"])
def test_counted_levels_match_lines_of_play_times_orbits(hole: str) -> None:
    problem = make_problem(T5, _vacancy(T5, hole), ANY)
    lines = lines_py(problem)
    levels = enumerate_levels(problem, Limit().start())
    keys, lo, hi = levels[14], np.ones(1, np.uint64), np.zeros(1, np.uint64)
    for pegs in range(problem.start_pegs - 1, 0, -1):
        keys, lo, hi, overflow = _counted(problem, keys, lo, hi)
        assert not overflow
        assert (keys == levels[pegs]).all()  # the level sort_unique gives
        for key, low, high in zip(keys.tolist(), lo.tolist(), hi.tolist(), strict=True):
            assert canon_slow(problem, key) == key
            assert (high << 64 | low) == lines[key] * orbit_py(problem, key)


@pytest.mark.parametrize("board", ["triangle-5", "french"])
def test_counted_sums_of_weights_past_64_bits(board: str) -> None:
    """Parents' weights with high words (the pass then carries both words with each
    child) sum as Python's integers do, in bitmap buckets and in sorted ones."""
    problem = make_problem(named_board(board), None, ANY)
    mf, mo, mt = problem.masks
    keys = np.array([kernel.canon(np.uint64(problem.start), problem.table)], np.uint64)
    for _ in range(4):
        children = kernel.expand(keys, mf, mo, mt, problem.table)
        keys = kernel.sort_unique(children, problem.board.size)
    rng = np.random.default_rng(7)
    lo = rng.integers(0, 2**63, keys.size, dtype=np.uint64) * np.uint64(2)
    hi = rng.integers(0, 2**40, keys.size, dtype=np.uint64)
    level, out_lo, out_hi, overflow = _counted(problem, keys, lo, hi)
    assert not overflow
    sums: dict[int, int] = {}
    for parent, low, high in zip(keys.tolist(), lo.tolist(), hi.tolist(), strict=True):
        for child in children_py(problem, parent):
            form = canon_slow(problem, child)
            sums[form] = sums.get(form, 0) + (high << 64 | low)
    assert level.tolist() == sorted(sums)
    got = [h << 64 | low for low, h in zip(out_lo.tolist(), out_hi.tolist(), strict=True)]
    assert got == [sums[key] for key in level.tolist()]


def test_counted_levels_on_a_board_of_sorted_buckets() -> None:
    """Past 36 holes every bucket is sorted, not marked in a bitmap: the same sums."""
    problem = make_problem(named_board("french"), None, ANY)
    keys = np.array([kernel.canon(np.uint64(problem.start), problem.table)], np.uint64)
    lo, hi = np.ones(1, np.uint64), np.zeros(1, np.uint64)
    for _ in range(5):
        children = kernel.expand(keys, *problem.masks, problem.table)
        level = kernel.sort_unique(children, problem.board.size)
        keys, lo, hi, overflow = _counted(problem, keys, lo, hi)
        assert not overflow and (keys == level).all()
    lines = lines_py(
        make_problem(problem.board, problem.start, Goal(None, "ANY"), symmetry=False), depth=5
    )
    for key, low, high in zip(keys.tolist(), lo.tolist(), hi.tolist(), strict=True):
        assert (high << 64 | low) == lines[key] * orbit_py(problem, key)


def test_dead_ends_and_their_sum() -> None:
    problem = make_problem(T5, None, ANY)
    levels = enumerate_levels(problem, Limit().start())
    mf, mo, mt = problem.masks
    for level in levels.values():
        dead = dead_ends(level, *problem.masks)
        offsets = kernel.jump_offsets(level, mf | mo | mt, mf | mo)
        for key, flag in zip(level.tolist(), dead.tolist(), strict=True):
            position = Position(T5, key)
            assert flag == (position.legal_jumps() == [])
        # the forward pass reads the dead ends off the offsets it expands with
        assert (dead == (offsets[1:] == offsets[:-1])).all()
        children = kernel.expand_at(level, offsets, mf, mo, mt, problem.table)
        assert (children == kernel.expand(level, mf, mo, mt, problem.table)).all()
        for i, key in enumerate(level.tolist()):
            mine = children[offsets[i] : offsets[i + 1]].tolist()
            assert mine == [canon_slow(problem, c) for c in children_py(problem, key)]
    top = np.uint64(2**64 - 1)
    lo = np.array([top, top, 5, top], np.uint64)
    hi = np.array([top, top, 0, 7], np.uint64)
    low, high, carry = sum_where(lo, hi, np.array([True, True, False, False]))
    assert (carry << 128 | int(high) << 64 | int(low)) == 2 * (2**128 - 1)


def test_sums_past_2_128_are_reported() -> None:
    top = np.uint64(2**64 - 1)
    level = np.array([9], np.uint64)
    keys = np.array([9, 9], np.uint64)
    lo, hi, overflow = add_checked(
        level, keys, np.array([top, 1], np.uint64), np.array([1, 0], np.uint64)
    )
    assert not overflow and (int(hi[0]), int(lo[0])) == (2, 0)
    *_, overflow = add_checked(
        level, keys, np.array([top, 1], np.uint64), np.array([top, 0], np.uint64)
    )
    assert overflow
    problem = make_problem(T5, None, ANY)
    parents = enumerate_levels(problem, Limit().start())[11]
    children = kernel.expand(parents, *problem.masks, problem.table)
    assert np.unique(children).size < children.size  # two jumps meet in one class
    ones = np.ones(parents.size, np.uint64)
    *_, overflow = _counted(problem, parents, ones, 0 * ones)
    assert not overflow
    full = np.full(parents.size, top, np.uint64)
    *_, overflow = _counted(problem, parents, full, full)
    assert overflow


def test_the_sharded_pass_counts_the_same_games_in_memory_and_on_disk() -> None:
    wider = Goal(T5.bits([T5.parse_hole(h) for h in ("A1", "E1", "E5")]), "corners")
    for start, goal, shards in ((_vacancy(T5, "C1"), ANY, 3), (None, wider, 1)):
        problem = make_problem(T5, start, goal)
        expected = analyse(problem).games
        assert expected is not None
        with tempfile.TemporaryDirectory() as folder:
            for workdir in (None, Path(folder), Path(folder)):  # the third run resumes
                found = analyse_sharded(problem, ShardedRun(LocalEngine(), shards, workdir)).games
                assert found is not None
                assert (found.total, found.by_pegs) == (expected.total, expected.by_pegs)
                assert found.shortest_jumps == expected.shortest_jumps
            kept = sorted(p.parent.name for p in Path(folder).glob("games-*/shard-*.npz"))
            assert len(set(kept)) == 1  # only the last level keeps its counts


def test_the_pushes_in_waves_of_one_shard_count_the_same_games(monkeypatch: Any) -> None:
    from boardlab.pegs.solver import shards_games

    monkeypatch.setattr(shards_games, "_wave_size", lambda *_: 1)
    problem = make_problem(T5, _vacancy(T5, "C1"), ANY)
    expected = analyse(problem).games
    assert expected is not None
    with tempfile.TemporaryDirectory() as folder:
        found = analyse_sharded(problem, ShardedRun(LocalEngine(), 4, Path(folder))).games
        assert found is not None
        assert (found.total, found.by_pegs) == (expected.total, expected.by_pegs)
        assert not list(Path(folder).glob("games-*/sum-*.npz"))
        assert not list(Path(folder).glob("games-*/from-*.npz"))


@pytest.mark.parametrize("groups", [1, 3, 64])
def test_counted_levels_in_reused_work_arrays(groups: int) -> None:
    """The forward pass keeps its work arrays from level to level: longer than a level
    needs, holding the last level's leftovers, and any number of thread groups give the
    same level and sums as fresh arrays."""
    from boardlab.pegs.solver.kernel_games import sort_unique_counted_in

    problem = make_problem(T5, _vacancy(T5, "C1"), ANY)
    mf, mo, mt = problem.masks
    keys = np.array([kernel.canon(np.uint64(problem.start), problem.table)], np.uint64)
    lo, hi = np.ones(1, np.uint64), np.zeros(1, np.uint64)
    rng = np.random.default_rng(5)
    size = 4096
    buffer = rng.integers(0, 2**63, size, dtype=np.uint64)
    spread = rng.integers(0, 2**63, size, dtype=np.uint64)
    wlo = rng.integers(0, 2**63, size, dtype=np.uint64)
    whi = rng.integers(0, 2**63, size, dtype=np.uint64)
    while keys.size:
        offsets = kernel.jump_offsets(keys, mf | mo | mt, mf | mo)
        count = int(offsets[-1])
        assert count <= size
        children = buffer[:count]
        kernel.expand_into(keys, offsets, mf, mo, mt, problem.table, children)
        assert (children == kernel.expand_at(keys, offsets, mf, mo, mt, problem.table)).all()
        fresh = sort_unique_counted(children.copy(), offsets, lo, hi, problem.board.size)
        reused = sort_unique_counted_in(
            children, offsets, lo, hi, problem.board.size, spread, wlo, whi, groups
        )
        for mine, theirs in zip(reused, fresh, strict=True):
            assert np.array_equal(mine, theirs)
        keys, lo, hi, _ = reused


def test_the_work_arrays_kept_are_counted_for_the_memory_budget() -> None:
    """Past the largest level the forward pass keeps arrays larger than a level needs:
    ``work_bytes`` gives what they hold (for the memory check), not the level's share."""
    from boardlab.pegs.solver.games import WORK_BYTES_PER_CHILD, ForwardCounts

    forward = ForwardCounts(make_problem(T5, _vacancy(T5, "C1"), ANY))
    assert forward.work_bytes(100) == 125 * WORK_BYTES_PER_CHILD  # a quarter to grow
    largest = 0
    mf, mo, mt = forward.problem.masks
    while forward.keys.size:
        offsets = kernel.jump_offsets(forward.keys, mf | mo | mt, mf | mo)
        largest = max(largest, int(offsets[-1]))
        forward.expand()
    kept = forward.work_bytes(1)
    assert kept >= largest * WORK_BYTES_PER_CHILD > WORK_BYTES_PER_CHILD
    forward.release()
    assert forward.work_bytes(1) == WORK_BYTES_PER_CHILD
