"""Tests of the rules: useful cells, the expedition state (push/pop), the score."""

from __future__ import annotations

import random

import pytest

from boardlab.core.errors import IllegalMoveError
from boardlab.mars.formats import SAMPLE_MAP, format_moves, parse_map
from boardlab.mars.rules import Expedition, best_score, percent_of_best, useful_cells
from boardlab.mars.solver import solve
from boardlab.mars.values import EAST, SOUTH, Step

from .conftest import all_paths, random_map


def test_useful_cells_are_the_union_of_all_paths() -> None:
    rng = random.Random(3)
    for _ in range(200):
        mars = random_map(rng, max_side=6)
        on_paths = set().union(*all_paths(mars)) if all_paths(mars) else set()
        useful = useful_cells(mars)
        marked = {
            (x + 1, y + 1) for y in range(mars.height) for x in range(mars.width) if useful[y][x]
        }
        assert marked == on_paths, str(mars)


def test_push_pop_restores_the_state() -> None:
    mars = parse_map(SAMPLE_MAP)
    expedition = Expedition(mars)
    before = (list(expedition.positions), list(expedition.carried), dict(expedition.owner))
    route = [Step(1, int(d)) for d in "1011100000011111"]
    for step in route:
        expedition.play(step)
    assert expedition.positions[1] == (10, 8) and expedition.carried[1] == 2
    snapshot = expedition.copy()
    for _ in route:
        expedition.pop()
    assert (expedition.positions, expedition.carried, expedition.owner) == (
        before[0],
        before[1],
        before[2],
    )
    assert snapshot.score_now().delivered == 2


def test_play_refuses_illegal_steps() -> None:
    expedition = Expedition(parse_map(SAMPLE_MAP))
    with pytest.raises(IllegalMoveError, match="unknown vehicle 3"):
        expedition.play(Step(3, EAST))
    for _ in range(2):
        expedition.play(Step(1, SOUTH))
    assert expedition.steps_of(1) == [Step(1, EAST)]
    with pytest.raises(IllegalMoveError, match="onto rough terrain"):
        expedition.play(Step(1, SOUTH))


def test_advance_matches_why_illegal_and_push() -> None:
    rng = random.Random(8)
    for _ in range(50):
        mars = random_map(rng, max_side=5)
        fast, slow = Expedition(mars), Expedition(mars)
        for _ in range(12):
            step = Step(rng.randint(1, mars.vehicles + 1), rng.randint(0, 1))
            reason = slow.why_illegal(step)
            assert fast.advance(step.vehicle, step.direction) == reason
            if reason is None:
                slow.push(step)
        assert fast.positions == slow.positions and fast.owner == slow.owner


def test_score_formula() -> None:
    assert best_score(3, 4, True) == 7 and best_score(3, 4, False) == -3
    assert percent_of_best(7, 7) == 100.0 and percent_of_best(3, 6) == 50.0
    assert percent_of_best(-1, 6) == 0.0 and percent_of_best(-3, -3) == 100.0


def test_steps_and_text_agree() -> None:
    solution = solve(parse_map(SAMPLE_MAP))
    assert format_moves(solution.steps()) == solution.moves_text()
    assert [len(r.cells()) for r in solution.routes] == [17, 17]
