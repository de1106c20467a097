"""Tests of the judge: the statement's sample, illegal answers, and judge(solve(map))."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from boardlab.mars.formats import SAMPLE_MAP, SAMPLE_MOVES, parse_map
from boardlab.mars.judge import judge
from boardlab.mars.solver import solve
from boardlab.mars.values import MarsMap

from .conftest import map_strategy

SAMPLE = parse_map(SAMPLE_MAP)
ROUTE_ONE = "".join(f"1 {d}\n" for d in "1011100000011111")  # vehicle 1 in the sample


def test_statement_sample_output_scores_five_of_five() -> None:
    verdict = judge(SAMPLE, SAMPLE_MOVES, best=5)
    assert verdict.legal
    assert (verdict.delivered, verdict.arrived, verdict.not_arrived) == (3, 2, 0)
    assert (verdict.score, verdict.percent) == (5, 100.0)


def test_scanned_sample_without_its_last_lines_strands_vehicle_two() -> None:
    scanned = "".join(SAMPLE_MOVES.splitlines(keepends=True)[:29])
    verdict = judge(SAMPLE, scanned, best=5)
    # vehicle 2 stops 3 cells short and loses its rock: 2 samples + 1 - 1 = 2 points
    assert (verdict.delivered, verdict.arrived, verdict.not_arrived) == (2, 1, 1)
    assert (verdict.score, verdict.percent) == (2, 40.0)


def test_a_stranded_vehicle_that_took_a_rock_first_loses_it() -> None:
    mars = parse_map("2\n3\n1\n0 2 0\n")
    # vehicle 1 takes the rock and stops; vehicle 2 passes the empty cell and arrives
    verdict = judge(mars, "1 1\n2 1\n2 1\n", best=3)
    assert (verdict.delivered, verdict.arrived, verdict.score) == (0, 1, 0)
    both = judge(mars, "2 1\n2 1\n1 1\n1 1\n", best=3)
    assert (both.delivered, both.arrived, both.score, both.percent) == (1, 2, 3, 100.0)


def test_rock_under_the_pod_goes_to_vehicle_one() -> None:
    mars = parse_map("2\n2\n1\n2 0\n")
    assert judge(mars, "2 1\n", best=3).delivered == 0
    assert judge(mars, "1 1\n2 1\n", best=3).score == 3


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        (
            "1 1\n1 1\n1 1\n1 1\n1 1\n1 0\n",
            "line 6: vehicle 1 at (6, 1) moves south onto rough terrain (6, 2)",
        ),
        (ROUTE_ONE + "1 0\n", "line 17: vehicle 1 at (10, 8) moves south off the grid"),
        ("1 1\n" * 10, "line 10: vehicle 1 at (10, 1) moves east off the grid"),
        ("3 1\n", "line 1: unknown vehicle 3 (the pod releases 1 to 2)"),
        ("1 1\n0 1\n", "line 2: unknown vehicle 0 (the pod releases 1 to 2)"),
        ("1 1\nhello\n", "line 2: expected 'VEHICLE DIRECTION', got 'hello'"),
        ("1 5\n", "line 1: direction must be 0 (south) or 1 (east), got '5'"),
        ("1,1\n", "line 1: expected 'VEHICLE DIRECTION', got '1,1'"),
    ],
)
def test_illegal_answers_score_zero_with_reason(moves: str, reason: str) -> None:
    verdict = judge(SAMPLE, moves, best=5)
    assert not verdict.legal
    assert verdict.reason == reason
    assert (verdict.score, verdict.percent) == (0, 0.0)
    assert verdict.lines()[0] == f"ILLEGAL: {reason}"


def test_empty_answer_and_clamping() -> None:
    verdict = judge(SAMPLE, "", best=5)
    assert verdict.legal and verdict.score == -2 and verdict.percent == 0.0
    assert judge(SAMPLE, "\n\n", best=None).percent is None


def test_blank_lines_are_skipped() -> None:
    spaced = SAMPLE_MOVES.replace("\n", "\n\n")
    assert judge(SAMPLE, spaced, best=5).percent == 100.0


@settings(max_examples=60, deadline=None)
@given(map_strategy(max_side=8, max_vehicles=5))
def test_judge_of_solve_is_one_hundred_percent(mars: MarsMap) -> None:
    solution = solve(mars, certify=False)
    verdict = judge(mars, solution.moves_text(), best=solution.best)
    assert verdict.legal and verdict.percent == 100.0


def test_judge_never_imports_the_solver() -> None:
    import subprocess
    import sys

    code = (
        "import sys, boardlab.mars.judge\n"
        "print(sorted(m for m in sys.modules if m.startswith(('boardlab.mars.solver', 'ortools'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
