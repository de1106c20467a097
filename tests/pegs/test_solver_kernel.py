"""Solver kernels against their pure-Python twins on small boards."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.limits import Limit
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.solver import analyse, kernel, min_moves, solve
from boardlab.pegs.solver.levels import enumerate_levels
from boardlab.pegs.solver.reference import (
    canon_py,
    canon_slow,
    levels_py,
    min_moves_py,
    orbit_py,
    paths_py,
    solvable_py,
    weight_py,
    winning_weights_py,
)
from boardlab.pegs.solver.tables import Goal, Problem, make_problem

DATA = Path(__file__).parent / "data" / "solver"


def _vacancy(board: Board, hole: str) -> int:
    return board.grid.full & ~(1 << board.index(board.parse_hole(hole)))


def _small_problems() -> list[Problem]:
    t4, t5 = named_board("triangle-4"), named_board("triangle-5")
    square, octagon, rect = (
        parse_board_file((DATA / name).read_text(), str(DATA / name))
        for name in ("square16.txt", "octagon21.txt", "rect3x5.txt")
    )
    return [
        make_problem(t4, _vacancy(t4, "B1"), Goal(None, "ANY")),
        make_problem(t5, None, Goal(None, "ANY")),
        make_problem(t5, _vacancy(t5, "C1"), Goal(None, "ANY")),
        make_problem(t5, None, Goal(1 << t5.index(t5.parse_hole("D1")), "D1")),
        make_problem(square.board, square.bits, Goal(None, "ANY")),
        make_problem(octagon.board, octagon.bits, Goal(None, "ANY")),
        make_problem(rect.board, rect.bits, Goal(None, "ANY")),
    ]


PROBLEMS = _small_problems()
IDS = [f"{p.board.name}-{p.start:x}-{p.goal.text}" for p in PROBLEMS]


@given(st.integers(min_value=0, max_value=(1 << 33) - 1))
@settings(max_examples=200, deadline=None)
def test_canon_matches_slow_canon_on_english(bits: int) -> None:
    problem = make_problem(named_board("english"), goal=Goal(None, "ANY"))
    assert int(kernel.canon(np.uint64(bits), problem.table)) == canon_slow(problem, bits)
    assert canon_py(bits, problem.table) == canon_slow(problem, bits)


@given(st.lists(st.integers(min_value=0, max_value=(1 << 64) - 1), max_size=3000))
@settings(max_examples=60, deadline=None)
def test_sort_unique_matches_numpy(values: list[int]) -> None:
    array = np.array(values, dtype=np.uint64)
    for nbits in (64, 20):
        data = array if nbits == 64 else array & np.uint64((1 << 20) - 1)
        assert kernel.sort_unique(data, nbits).tolist() == np.unique(data).tolist()


@given(st.integers(min_value=0, max_value=(1 << 12) - 1), st.integers(min_value=0, max_value=99))
@settings(max_examples=25, deadline=None)
def test_sort_unique_dense_buckets_match_numpy(low: int, seed: int) -> None:
    """Many values sharing their top bits take the bitmap path (33 and 26 bits)."""
    rng = np.random.default_rng(seed)
    for nbits in (33, 26, 22):
        top = np.uint64(low % (1 << 12)) << np.uint64(nbits - 12)
        values = rng.integers(0, 1 << (nbits - 12), 5000, dtype=np.uint64) | top
        values = np.concatenate([values, values[:2000], rng.integers(0, 1 << nbits, 50,
                                 dtype=np.uint64)])  # fmt: skip
        assert kernel.sort_unique(values, nbits).tolist() == np.unique(values).tolist()


@given(st.integers(min_value=0, max_value=(1 << 33) - 1))
@settings(max_examples=100, deadline=None)
def test_child_canon_through_jump_images_on_english(bits: int) -> None:
    problem = make_problem(named_board("english"), goal=Goal(None, "ANY"))
    mf, mo, mt = problem.masks
    table = problem.table
    jimg = kernel.jump_images(mf, mo, mt, table)
    images = np.empty(table.shape[0], dtype=np.uint64)
    kernel.images_of(np.uint64(bits), table, images)
    for j in range(mf.size):
        child = bits ^ int(mf[j] | mo[j] | mt[j])  # legal or not: images are linear
        assert int(kernel.canon_moved(images, jimg, j)) == canon_slow(problem, child)


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_parent_weights_match_the_twin(problem: Problem) -> None:
    """count_parents gives paths x orbit size for every position, from the winning
    positions one peg below (found by the twin)."""
    levels = enumerate_levels(problem, Limit().start())
    paths = paths_py(problem)
    mf, mo, mt = problem.masks
    for pegs in range(problem.goal.pegs + 1, problem.start_pegs + 1):
        wins, lo, hi = winning_weights_py(problem, paths, levels[pegs - 1])
        out_lo, out_hi = kernel.count_parents(
            wins, lo, hi, levels[pegs], mf, mo, mt, problem.table, problem.board.size
        )
        got = [int(h) << 64 | int(v) for v, h in zip(out_lo, out_hi, strict=True)]
        assert got == [weight_py(problem, paths, int(x)) for x in levels[pegs]]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 2**45), max_size=300),
    st.lists(st.integers(0, 2**64 - 1), max_size=100),
    st.integers(0, 2**32),
)
def test_locate_finds_what_a_binary_search_finds(
    values: list[int], others: list[int], seed: int
) -> None:
    level = np.unique(np.array(values, np.uint64))
    rng = np.random.default_rng(seed)
    picked = level[rng.integers(0, level.size, 200)] if level.size else level
    keys = np.concatenate([picked, np.array(others, np.uint64), picked + np.uint64(1)])
    expected = [int(np.searchsorted(level, k)) if k in level else -1 for k in keys]
    assert kernel.locate(level, keys).tolist() == expected


def test_popcount() -> None:
    for bits in (0, 1, 0b1011, (1 << 64) - 1, 0x8000000000000001):
        assert kernel.popcount(np.uint64(bits)) == bits.bit_count()


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_levels_and_counts_match_the_twins(problem: Problem) -> None:
    found = analyse(problem)
    boards = levels_py(problem)
    paths = paths_py(problem)
    for level in found.levels:
        plain = boards[level.pegs]
        assert level.boards == len(plain)
        classes = {canon_slow(problem, b) for b in plain}
        assert level.classes == len(classes)
        assert sum(orbit_py(problem, c) for c in classes) == len(plain)
        winning = {b for b in plain if paths(b) > 0}
        assert level.win_boards == len(winning)
        assert level.win_classes == len({canon_slow(problem, b) for b in winning})
        assert sorted(found.winning[level.pegs].tolist()) == sorted(
            {canon_slow(problem, b) for b in winning}
        )
    assert found.solutions == paths(problem.start)


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_min_moves_matches_breadth_first_search(problem: Problem) -> None:
    expected = min_moves_py(problem)
    result = min_moves(problem)
    assert result.moves == expected
    if expected is not None:
        assert len(result.chains) == expected
        bits = problem.start
        for chain in result.chains:
            for earlier, later in itertools.pairwise(chain):
                assert earlier.dst == later.src  # one peg moves in each chain
            for jump in chain:
                a, b, c = (problem.board.index(x) for x in (jump.src, jump.over, jump.dst))
                assert bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
                bits ^= (1 << a) | (1 << b) | (1 << c)
        assert problem.goal.reached(bits)


@pytest.mark.parametrize("problem", PROBLEMS, ids=IDS)
def test_depth_first_search_agrees_with_the_twin(problem: Problem) -> None:
    result = solve(problem)
    assert result.proven
    assert result.solved == solvable_py(problem, problem.start)
    bits = problem.start
    for jump in result.moves:
        a, b, c = (problem.board.index(x) for x in (jump.src, jump.over, jump.dst))
        assert bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
        bits ^= (1 << a) | (1 << b) | (1 << c)
    if result.solved:
        assert problem.goal.reached(bits)


def test_every_start_and_finish_of_triangle_5_agrees_with_the_twin() -> None:
    board = named_board("triangle-5")
    for e in range(board.size):
        paths = paths_py(make_problem(board, board.start, Goal(1 << e, str(e))))
        for s in range(board.size):
            start = board.grid.full & ~(1 << s)
            problem = make_problem(board, start, Goal(1 << e, str(e)))
            assert solve(problem).solved == (paths(start) > 0), (s, e)


def test_path_counts_carry_past_64_bits() -> None:
    board = named_board("triangle-4")
    problem = make_problem(board, goal=Goal(None, "ANY"), symmetry=False)
    mf, mo, mt = problem.masks
    parent = _vacancy(board, "A1")
    children = sorted(
        parent ^ (1 << a) ^ (1 << b) ^ (1 << c)
        for a, b, c in board.grid.jumps
        if parent >> a & 1 and parent >> b & 1 and not parent >> c & 1
    )
    assert len(children) == 2
    below = np.array(children, dtype=np.uint64)
    big = (1 << 64) - 3
    lo = np.array([big, big], dtype=np.uint64)
    hi = np.array([0, 5], dtype=np.uint64)
    level = np.array([parent], dtype=np.uint64)
    out_lo, out_hi = kernel.count_parents(
        below, lo, hi, level, mf, mo, mt, problem.table, board.size
    )
    total = int(out_hi[0]) << 64 | int(out_lo[0])
    assert total == 2 * big + (5 << 64)
