"""Solutions by finishing hole: the forward pass of path counts against brute force."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.limits import Limit
from boardlab.core.tasks import LocalEngine
from boardlab.pegs.boards import named_board
from boardlab.pegs.solver.finish import by_hole
from boardlab.pegs.solver.kernel_shards import children_of
from boardlab.pegs.solver.levels import analyse, enumerate_levels
from boardlab.pegs.solver.reference import canon_slow, children_py, finishes_py
from boardlab.pegs.solver.sharded import analyse_sharded
from boardlab.pegs.solver.shards import ShardedRun
from boardlab.pegs.solver.tables import Goal, Problem, make_problem


def _diamond_of_english() -> Problem:
    """English, the 12 holes one or two steps from the centre: the whole group of 8 fixes
    it, and its solutions end in the centre and in four holes of one orbit."""
    board = named_board("english")
    home = board.home
    assert home is not None
    bits = sum(
        1 << board.index(c)
        for c in board.cells
        if 1 <= abs(c.row - home.row) + abs(c.col - home.col) <= 2
    )
    return make_problem(board, bits, Goal(None, "ANY"))


def _problems() -> list[Problem]:
    t5 = named_board("triangle-5")

    def vacancy(hole: str) -> int:
        return t5.bits(c for c in t5.cells if c != t5.parse_hole(hole))

    return [
        make_problem(t5, None, Goal(None, "ANY")),
        make_problem(t5, vacancy("C1"), Goal(None, "ANY")),
        make_problem(t5, vacancy("B1"), Goal(None, "ANY")),  # no symmetry fixes B1
        _diamond_of_english(),
    ]


PROBLEMS = _problems()
IDS = ["triangle-5", "triangle-5-C1", "triangle-5-B1", "english-diamond12"]


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
@pytest.mark.parametrize("symmetry", [True, False])
def test_solutions_by_finishing_hole_match_brute_force(problem: Problem, symmetry: bool) -> None:
    problem = make_problem(problem.board, problem.start, problem.goal, symmetry=symmetry)
    found = analyse(problem)
    expected = finishes_py(problem)
    assert found.finishes == expected
    assert sum(found.finishes.values()) == found.solutions > 0
    assert len(expected) > 1  # the split over holes is what is tested


def test_the_group_splits_classes_over_several_holes() -> None:
    problem = _diamond_of_english()
    assert len(problem.group) == 8
    counts = Counter(analyse(problem).finishes.values())
    assert sorted(counts.values()) == [1, 4]  # the centre, and four holes with one count


@pytest.mark.parametrize("problem", PROBLEMS[:3], ids=IDS[:3])
def test_children_of_pushes_every_jump_with_its_parent_weight(problem: Problem) -> None:
    levels = enumerate_levels(problem, Limit().start())
    for pegs in range(problem.goal.pegs + 1, problem.start_pegs + 1):
        level = levels[pegs]
        lo = np.arange(1, level.size + 1, dtype=np.uint64)
        hi = lo * np.uint64(3)
        keys, plo, phi = children_of(level, lo, hi, *problem.masks, problem.table)
        expected: Counter[tuple[int, int, int]] = Counter()
        for i, parent in enumerate(map(int, level)):
            for child in children_py(problem, parent):
                expected[(canon_slow(problem, child), i + 1, 3 * (i + 1))] += 1
        got = Counter(zip(map(int, keys), map(int, plo), map(int, phi), strict=True))
        assert got == expected


def test_a_count_that_does_not_split_evenly_is_an_error() -> None:
    problem = _diamond_of_english()
    home = problem.board.home
    assert home is not None
    corner = np.array([1 << problem.board.index(problem.board.parse_hole("C2"))], np.uint64)
    key = np.array([canon_slow(problem, int(corner[0]))], np.uint64)
    assert by_hole(problem, key, np.array([8], np.uint64), np.zeros(1, np.uint64)) == {
        h: 1 for h in sorted(int(x).bit_length() - 1 for x in _orbit(problem, int(key[0])))
    }
    with pytest.raises(ArithmeticError):
        by_hole(problem, key, np.array([6], np.uint64), np.zeros(1, np.uint64))


def _orbit(problem: Problem, bits: int) -> set[int]:
    from boardlab.core.grid import permute_bits

    return {permute_bits(bits, perm) for perm in problem.group}


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
@pytest.mark.parametrize("shards", [1, 3])
def test_sharded_finishes_match_the_in_process_pass(
    problem: Problem, shards: int, tmp_path: Path
) -> None:
    expected = analyse(problem).finishes
    assert analyse_sharded(problem, ShardedRun(LocalEngine(), shards)).finishes == expected
    run = ShardedRun(LocalEngine(), shards, tmp_path)
    assert analyse_sharded(problem, run).finishes == expected
    assert (tmp_path / f"paths-{problem.goal.pegs:02d}" / "done.json").exists()


def test_the_counts_from_the_start_resume_in_a_work_folder(tmp_path: Path) -> None:
    problem = PROBLEMS[3]
    expected = analyse(problem).finishes
    run = ShardedRun(LocalEngine(), 4, tmp_path)

    def interrupt(done: int, total: int, label: str) -> None:
        if label == "paths from the start to 5 pegs":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analyse_sharded(problem, run, progress=interrupt)
    assert (tmp_path / "paths-05" / "done.json").exists()
    assert not (tmp_path / "paths-04").exists()
    (tmp_path / "paths-05" / "done.json").unlink()  # half-written: done again
    (tmp_path / "paths-05" / "shard-0000.npz").write_bytes(b"broken")
    assert analyse_sharded(problem, run).finishes == expected


def test_cli_prints_the_solutions_by_finishing_hole() -> None:
    command = [sys.executable, "-m", "boardlab", "pegs", "count", "triangle-5", "--goal", "ANY"]
    text = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "by finishing hole: A1 6,816, D1 3,408, D4 3,408, E3 16,128\n" in text
    record = json.loads(
        subprocess.run([*command, "--json"], capture_output=True, text=True, check=True).stdout
    )
    assert record["solutions_by_hole"] == {
        "A1": "6816", "D1": "3408", "D4": "3408", "E3": "16128"
    }  # fmt: skip
