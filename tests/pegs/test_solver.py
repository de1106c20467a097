"""The solver against published figures (triangle-5 and -6, French 37, the English game)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardlab.core.errors import BoardlabError, LimitExceededError
from boardlab.core.limits import Limit
from boardlab.pegs.boards import named_board
from boardlab.pegs.classes import position_class
from boardlab.pegs.judge import judge_moves
from boardlab.pegs.rules import Position
from boardlab.pegs.solver import (
    analyse,
    class_proof,
    classify,
    make_problem,
    min_moves,
    parse_goal,
    solve,
)
from boardlab.pegs.solver.beam import beam_search

DATA = Path(__file__).parent / "data" / "solver"
#: A node budget well above what these searches need (the largest, Wiegleb's game and
#: the French single vacancies, take about 2 million), so no test depends on the clock.
NODES = 20_000_000


def _figures() -> list[tuple[str, str, str, int]]:
    rows = []
    for line in (DATA / "figures.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            board, vacancy, goal, count = line.split()
            rows.append((board, vacancy, goal, int(count)))
    return rows


@pytest.mark.parametrize(("name", "vacancy", "goal", "expected"), _figures())
def test_published_solution_counts(name: str, vacancy: str, goal: str, expected: int) -> None:
    board = named_board(name)
    start = board.grid.full & ~(1 << board.index(board.parse_hole(vacancy)))
    found = analyse(make_problem(board, start, parse_goal(board, goal)))
    assert found.solutions == expected


@pytest.mark.parametrize(("side", "expected"), [(4, 5), (5, 9), (6, 9)])
def test_triangle_minimum_moves_oeis_a127500(side: int, expected: int) -> None:
    board = named_board(f"triangle-{side}")
    best = None
    seen = set()
    for s in range(board.size):
        orbit = min(perm[s] for perm in board.symmetries())
        if orbit in seen:
            continue
        seen.add(orbit)
        problem = make_problem(board, board.grid.full & ~(1 << s), parse_goal(board, "ANY"))
        if class_proof(problem) is not None:
            continue
        result = min_moves(problem)
        if result.moves is not None and (best is None or result.moves < best):
            best = result.moves
    assert best == expected


def test_french_centre_start_is_impossible_by_position_class() -> None:
    board = named_board("french")
    result = solve(make_problem(board, goal=parse_goal(board, "ANY")))
    assert not result.solved and result.proven
    assert "position class" in result.reason and result.nodes == 0


def test_french_exactly_16_single_vacancies_end_with_one_peg() -> None:
    board = named_board("french")
    verdicts = classify(board, Limit(nodes=NODES)).starts
    solvable = [v for v in verdicts if v.solvable]
    assert len(solvable) == 16
    assert all(
        v.solvable is False and "position class" in v.reason for v in verdicts if not v.solvable
    )
    for verdict in solvable:
        start = board.grid.full & ~(1 << board.index(verdict.vacancy))
        for end in verdict.ends:
            assert position_class(board, start) == position_class(board, 1 << board.index(end))


def test_french_every_start_and_finish_is_decided() -> None:
    """Every (single vacancy, single peg) pair of the French board: four finishing holes
    for each of the 16 starts, none left open."""
    board = named_board("french")
    verdicts = classify(board, Limit(nodes=NODES), every_end=True).starts
    assert not any(v.open for v in verdicts)
    ends = {board.hole_name(v.vacancy): {board.hole_name(e) for e in v.ends} for v in verdicts}
    assert ends["C1"] == {"B4", "E1", "E4", "E7"}
    assert ends["D3"] == {"A5", "D2", "D5", "G5"}
    assert sum(len(e) == 4 for e in ends.values()) == 16


def test_counts_decide_what_the_searches_leave_open() -> None:
    """With one node a search, every search runs out; the level pass decides instead."""
    board = named_board("triangle-5")
    starved = classify(board, Limit(nodes=1), every_end=True).starts
    full = classify(board, Limit(nodes=NODES), every_end=True).starts
    assert [(v.vacancy, v.solvable, v.ends, v.open) for v in starved] == [
        (v.vacancy, v.solvable, v.ends, v.open) for v in full
    ]
    assert not any(v.open for v in full)


def test_english_central_game_is_solved_and_judged() -> None:
    board = named_board("english")
    result = solve(make_problem(board))
    assert result.solved and len(result.moves) == 31
    verdict = judge_moves(Position(board), list(result.moves))
    assert verdict.valid and verdict.solved and verdict.last_peg == board.home


@pytest.mark.parametrize(
    ("name", "solvable"),
    [("asymmetric", True), ("diamond", False), ("french", False), ("wiegleb", True)],
)
def test_every_named_board_standard_game(name: str, solvable: bool) -> None:
    board = named_board(name)
    result = solve(make_problem(board), Limit(nodes=NODES))
    assert result.solved == solvable and result.proven
    if solvable:
        verdict = judge_moves(Position(board), list(result.moves))
        assert verdict.valid and verdict.solved and verdict.last_peg == board.home


def test_beam_search_solves_the_english_game() -> None:
    board = named_board("english")
    moves = beam_search(make_problem(board), 2000)
    assert moves is not None
    verdict = judge_moves(Position(board), list(moves))
    assert verdict.valid and verdict.solved and verdict.last_peg == board.home


def test_bad_problems_are_one_clear_error() -> None:
    board = named_board("english")
    with pytest.raises(BoardlabError, match="not a hole"):
        parse_goal(board, "A1")
    two = board.bits([board.parse_hole("D4"), board.parse_hole("C4")])
    with pytest.raises(BoardlabError, match="goal has 2 pegs but the start only 1"):
        make_problem(
            board,
            1 << board.index(board.home),
            parse_goal(board, (DATA / "english-two.txt").read_text(), "english-two.txt"),
        )
    assert two.bit_count() == 2


def test_time_limit_is_honoured() -> None:
    board = named_board("french")
    start = board.grid.full & ~(1 << board.index(board.parse_hole("C4")))
    problem = make_problem(board, start, parse_goal(board, "E7"))
    with pytest.raises(LimitExceededError) as caught:
        solve(problem, Limit(nodes=1000))
    found = solve(problem, Limit(nodes=1000), undecided=True)
    assert not found.solved and not found.proven and found.moves == ()
    same_until_the_clock = " and ".join(found.reason.split(" and ")[:-1])  # seconds differ
    assert str(caught.value).startswith(same_until_the_clock) and found.nodes >= 1000
    assert found.as_dict()["reason"].startswith(f"search limit reached after {found.nodes} nodes")


def test_solutions_pass_2_to_the_64_on_a_board_file() -> None:
    board = named_board("triangle-5")
    found = analyse(make_problem(board, goal=parse_goal(board, "ANY")))
    assert found.solutions == 29760 and found.classes == 1544 and found.boards == 3016


def test_pagoda_cuts_are_sound_and_checked() -> None:
    board = named_board("english")
    problem = make_problem(board)
    centre = board.index(board.home)
    # Weight 1 on the centre and the four holes two steps from it: every jump into one
    # of them starts on another (the English board has no other way in).
    row, col = board.grid.cells[centre]
    marked = {(row, col), (row - 2, col), (row + 2, col), (row, col - 2), (row, col + 2)}
    weights = [int(cell in marked) for cell in board.grid.cells]
    result = solve(problem, pagodas=[weights])
    assert result.solved
    assert judge_moves(Position(board), list(result.moves)).solved
    with pytest.raises(BoardlabError, match="not a pagoda"):
        solve(problem, pagodas=[[0] * centre + [5] + [0] * (board.size - centre - 1)])
    with pytest.raises(BoardlabError, match="needs 33 weights"):
        solve(problem, pagodas=[[1, 2]])
