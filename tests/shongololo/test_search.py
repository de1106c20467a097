"""Kernels against their pure-Python twins, the published optima, the solver on every size."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardlab.core.limits import Limit
from boardlab.shongololo.blocks import Box
from boardlab.shongololo.constructions import build_spine, layouts
from boardlab.shongololo.exact import exact_search, reference_optimum, search_from
from boardlab.shongololo.judge import judge_actions
from boardlab.shongololo.leaves import (
    Plan,
    best_leaves,
    check_spine,
    plan_actions,
    reference_leaves,
)
from boardlab.shongololo.rules import upper_bound
from boardlab.shongololo.solver import Solver


def random_spine(box: Box, rng: random.Random) -> list[int]:
    """A random induced path from 1 1 1 (grown until stuck or a random length)."""
    spine = [0]
    on = {0}
    for _ in range(rng.randrange(1, box.volume + 1)):
        here = box.block(spine[-1])
        options = []
        for nxt in box.neighbours(here):
            cell = box.index(nxt)
            if cell in on:
                continue
            touching = [box.index(o) for o in box.neighbours(nxt) if box.index(o) in on]
            if touching == [spine[-1]]:
                options.append(cell)
        if not options:
            break
        spine.append(rng.choice(options))
        on.add(spine[-1])
    return spine


@pytest.mark.parametrize("seed", range(12))
def test_leaves_kernel_matches_reference(seed: int) -> None:
    rng = random.Random(seed)
    box = Box(rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6))
    spine = random_spine(box, rng)
    check_spine(box, spine)
    fast = best_leaves(box, spine)
    slow = reference_leaves(box, spine)
    assert len(fast) == len(slow)
    verdict = judge_actions(box, plan_actions(Plan(box, tuple(spine), tuple(fast))))
    assert verdict.valid, verdict.summary()
    assert verdict.eaten == len(spine) + len(fast)


def test_leaves_are_optimal_by_brute_force() -> None:
    rng = random.Random(5)
    for _ in range(20):
        box = Box(rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 3))
        spine = random_spine(box, rng)
        on = set(spine)
        cand = [
            c
            for c in range(box.volume)
            if c not in on and sum(box.index(o) in on for o in box.neighbours(box.block(c))) == 1
        ]
        best = 0
        for mask in range(1 << len(cand)):
            chosen = {cand[i] for i in range(len(cand)) if mask >> i & 1}
            if all(
                box.index(o) not in chosen for c in chosen for o in box.neighbours(box.block(c))
            ):
                best = max(best, len(chosen))
        assert len(best_leaves(box, spine)) == best


@pytest.mark.parametrize(
    "sides", [(1, 1, 1), (1, 1, 3), (2, 2, 2), (2, 3, 2), (1, 4, 4), (3, 3, 3), (1, 2, 5)]
)
def test_exact_kernel_matches_twin(sides: tuple[int, int, int]) -> None:
    box = Box(*sides)
    result = exact_search(box)
    assert result.proven
    assert (result.eaten, result.nodes) == reference_optimum(box)


#: Exact optima from exhaustive search (the issue's table).
PUBLISHED = [
    ((2, 2, 2), 5),
    ((2, 3, 2), 8),
    ((3, 3, 3), 18),
    ((2, 4, 4), 20),
    ((3, 3, 4), 23),
    ((2, 4, 5), 26),
    ((1, 5, 5), 19),
]

#: Node budget of the exact searches: the published optima need at most 11 000 nodes, so
#: these tests pass or fail with the code, never with the machine's load.
NODES = 1_000_000
#: Largest fruit ``quick`` also runs a round of local search on.
QUICK_LOCAL_VOLUME = 10_000


@pytest.mark.parametrize(("sides", "optimum"), PUBLISHED)
def test_published_optima(sides: tuple[int, int, int], optimum: int) -> None:
    box = Box(*sides)
    result = exact_search(box, Limit(nodes=NODES))
    assert result.proven and result.eaten == optimum
    verdict = judge_actions(box, result.actions)
    assert verdict.valid and verdict.eaten == optimum <= upper_bound(box)


@pytest.mark.parametrize(("sides", "optimum"), PUBLISHED)
def test_published_optima_in_any_axis_order(sides: tuple[int, int, int], optimum: int) -> None:
    box = Box(sides[2], sides[0], sides[1])
    assert exact_search(box, Limit(nodes=NODES)).eaten == optimum


def test_exact_search_keeps_a_better_incumbent_and_honours_node_limits() -> None:
    box = Box(2, 3, 2)
    best = exact_search(box)
    again = exact_search(box, incumbent=best.actions)
    assert again.proven and again.eaten == 8 and again.actions == best.actions
    partial = exact_search(Box(4, 4, 4), Limit(nodes=50))
    assert not partial.proven and partial.nodes <= 50
    assert judge_actions(partial.box, partial.actions).valid


def test_search_from_a_prefix_completes_it() -> None:
    box = Box(3, 3, 3)
    best = exact_search(box)
    moves = [i for i, a in enumerate(best.actions) if a.kind == "M"]
    prefix = best.actions[: moves[2] + 1]
    result = search_from(box, prefix)
    assert result.proven and result.eaten == 18
    assert result.actions[: len(prefix)] == prefix


@pytest.mark.parametrize("sides", [(32, 32, 32), (10, 10, 10), (7, 9, 11), (1, 32, 32), (2, 3, 30)])
def test_constructions_are_induced_paths(sides: tuple[int, int, int]) -> None:
    box = Box(*sides)
    for layout in layouts(box)[:4]:
        check_spine(box, build_spine(box, layout, random.Random(1)))


DEGENERATE = [
    (1, 1, 1),
    (1, 1, 32),
    (32, 1, 1),
    (1, 32, 1),
    (1, 32, 32),
    (32, 32, 1),
    (2, 1, 1),
    (2, 2, 1),
    (32, 2, 2),
]


def quick(box: Box, seed: int = 0) -> int:
    # one round of local search costs about 9 s on 32x32x32 (each reroute re-scores every
    # leaf), so the largest fruits check the construction alone
    rounds = 1 if box.volume <= QUICK_LOCAL_VOLUME else 0
    solution = Solver(Limit(nodes=2_000), seed, construction_rounds=1, local_rounds=rounds).solve(
        box
    )
    verdict = judge_actions(box, solution.actions)
    assert verdict.valid, verdict.summary()
    assert verdict.eaten == solution.eaten <= solution.bound == upper_bound(box)
    return solution.eaten


@pytest.mark.parametrize("sides", DEGENERATE)
def test_degenerate_sizes_are_legal(sides: tuple[int, int, int]) -> None:
    box = Box(*sides)
    eaten = quick(box)
    if 1 in sides and sides.count(1) >= 2:
        assert eaten == box.volume  # a rod can be eaten whole


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 32), st.integers(1, 32), st.integers(1, 32), st.integers(0, 3))
def test_every_size_gives_a_legal_run(length: int, width: int, height: int, seed: int) -> None:
    quick(Box(length, width, height), seed)


def test_solver_is_reproducible_from_its_seed() -> None:
    box = Box(9, 8, 7)
    runs = [
        Solver(Limit(nodes=20_000), 4, construction_rounds=2, local_rounds=5).solve(box).actions
        for _ in range(2)
    ]
    assert runs[0] == runs[1]


def test_small_fruits_are_solved_exactly() -> None:
    solution = Solver(Limit(nodes=NODES)).solve(Box(2, 4, 5))
    assert solution.proven and solution.eaten == 26


def test_large_fruit_is_dense() -> None:
    box = Box(20, 20, 20)
    solution = Solver(Limit(nodes=100_000), construction_rounds=3, local_rounds=0).solve(box)
    # measured 90.6 % of the bound with this budget; the test only asks for 85 %
    assert solution.eaten >= 0.85 * upper_bound(box)
