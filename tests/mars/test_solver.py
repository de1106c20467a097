"""Tests of the optimal solver against brute force, its certificate and the edge cases."""

from __future__ import annotations

import itertools
import random

import pytest

from boardlab.mars.formats import SAMPLE_MAP, parse_map
from boardlab.mars.judge import judge
from boardlab.mars.rules import Expedition, useful_cells
from boardlab.mars.solver import Solution, build_network, flow_networkx, flow_ortools, solve
from boardlab.mars.values import ROCK

from .conftest import brute_force_best, random_map, reaches


def check_plan(solution: Solution) -> None:
    """The plan replays legally, every vehicle arrives and it scores the best (100%)."""
    mars = solution.mars
    verdict = judge(mars, solution.moves_text(), best=solution.best)
    assert verdict.legal, verdict.reason
    assert verdict.score == solution.best
    assert verdict.percent == 100.0
    if solution.reachable:
        assert verdict.arrived == mars.vehicles
        assert verdict.delivered == solution.max_rocks
        assert sum(r.vehicles for r in solution.routes) == mars.vehicles
        assert sum(r.new_rocks for r in solution.routes) == solution.max_rocks
        # each route's first vehicle is credited with exactly the rocks it was planned for
        expedition = Expedition(mars)
        for step in solution.steps():
            expedition.play(step)
        for route in solution.routes:
            assert expedition.carried[route.first_vehicle] == route.new_rocks


def check_certificate(solution: Solution) -> None:
    """The certificate's groups are antichains partitioning the collectible rocks."""
    mars, cert = solution.mars, solution.certificate
    if not solution.reachable:
        assert cert is None
        return
    assert cert is not None and cert.reduced_costs_ok
    assert cert.bound == cert.group_bound == solution.max_rocks
    useful = useful_cells(mars)
    collectible = sorted(
        (x, y)
        for y in range(1, mars.height + 1)
        for x in range(1, mars.width + 1)
        if mars.at(x, y) == ROCK and useful[y - 1][x - 1]
    )
    assert sorted(c for g in cert.groups for c in g) == collectible
    assert cert.unreachable_rocks == mars.rocks - len(collectible)
    for group in cert.groups:
        for a, b in itertools.permutations(group, 2):
            assert not reaches(mars, a, b), (a, b, group)
    assert sum(min(len(g), mars.vehicles) for g in cert.groups) == solution.max_rocks


def test_sample_optimum_is_five_points() -> None:
    solution = solve(parse_map(SAMPLE_MAP))
    assert (solution.max_rocks, solution.best) == (3, 5)
    assert solution.proven and solution.method == "min-cost flow"
    assert solution.certificate is not None and solution.certificate.levels == 1
    check_plan(solution)
    check_certificate(solution)


@pytest.mark.parametrize("seed", range(6))
def test_brute_force_agrees_on_random_small_maps(seed: int) -> None:
    rng = random.Random(seed)
    levelled = 0
    for _ in range(40):
        mars = random_map(rng)
        expected = brute_force_best(mars)
        for backend in ("auto", "ortools"):
            solution = solve(mars, backend=backend)
            assert solution.best == expected, (backend, str(mars))
            check_plan(solution)
            check_certificate(solution)
            if solution.certificate is not None and solution.certificate.levels > 0:
                levelled += 1
    assert levelled > 0  # some maps need the dual's levels, not just the trivial bound


def test_networkx_backend_agrees() -> None:
    rng = random.Random(99)
    for _ in range(25):
        mars = random_map(rng)
        solution = solve(mars, backend="networkx")
        assert solution.best == brute_force_best(mars)
        check_plan(solution)


def test_both_flow_libraries_find_the_same_cost() -> None:
    rng = random.Random(5)
    for _ in range(10):
        mars = random_map(rng, max_side=12, max_vehicles=6)
        net = build_network(mars)
        if not useful_cells(mars)[-1][-1]:
            continue
        assert flow_ortools(net)[0] == flow_networkx(net)[0]


def test_medium_maps_auto_equals_min_cost_flow() -> None:
    rng = random.Random(11)
    for _ in range(12):
        mars = random_map(rng, max_side=20, max_vehicles=12)
        auto, flow = solve(mars), solve(mars, backend="ortools")
        assert auto.best == flow.best
        check_plan(auto)
        check_certificate(flow)


def test_one_by_one_map() -> None:
    clear = solve(parse_map("3\n1\n1\n0\n"))
    assert (clear.best, clear.moves_text()) == (3, "")
    rock = solve(parse_map("3\n1\n1\n2\n"))
    assert (rock.max_rocks, rock.best, rock.moves_text()) == (1, 4, "")
    check_plan(rock)


def test_single_row_and_single_column() -> None:
    row = solve(parse_map("2\n5\n1\n0 2 0 2 2\n"))
    assert (row.max_rocks, row.best) == (3, 5)
    assert row.moves_text() == "1 1\n" * 4 + "2 1\n" * 4
    column = solve(parse_map("1\n1\n4\n0\n2\n0\n0\n"))
    assert column.moves_text() == "1 0\n" * 3 and column.best == 2
    check_plan(row)
    check_plan(column)


def test_unreachable_transmitter_keeps_everyone_home() -> None:
    mars = parse_map("4\n3\n3\n0 2 2\n1 1 1\n2 0 0\n")
    solution = solve(mars)
    assert not solution.reachable and solution.best == -4
    assert solution.moves_text() == "" and solution.proven
    assert brute_force_best(mars) == -4
    check_plan(solution)
    assert judge(mars, "1 1\n2 1\n", best=solution.best).percent == 100.0


def test_no_rocks() -> None:
    solution = solve(parse_map("3\n3\n3\n0 0 0\n0 1 0\n0 0 0\n"))
    assert (solution.max_rocks, solution.best, len(solution.routes)) == (0, 3, 1)
    check_plan(solution)


def test_more_vehicles_than_useful_paths() -> None:
    mars = parse_map("999\n3\n3\n0 2 0\n0 1 0\n2 0 0\n")
    solution = solve(mars)
    assert (solution.max_rocks, solution.best) == (2, 1001)
    assert solution.cover == 2 and solution.method == "chain cover"
    assert [r.vehicles for r in solution.routes] == [998, 1]
    check_plan(solution)
    check_certificate(solution)


def test_rocks_off_every_path_are_not_counted() -> None:
    mars = parse_map("2\n3\n3\n0 0 1\n0 1 2\n0 0 0\n")
    solution = solve(mars)
    assert solution.max_rocks == 0 and solution.certificate is not None
    assert solution.certificate.unreachable_rocks == 1


def test_unknown_backend_is_an_error() -> None:
    from boardlab.core.errors import BoardlabError

    with pytest.raises(BoardlabError, match="unknown flow backend"):
        solve(parse_map(SAMPLE_MAP), backend="simplex")
