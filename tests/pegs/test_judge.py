"""Tests of the peg judge on valid and invalid move lists."""

from __future__ import annotations

import pytest

from boardlab.pegs.boards import named_board
from boardlab.pegs.formats import parse_board_file, parse_goal
from boardlab.pegs.judge import judge_moves, judge_text
from boardlab.pegs.rules import Position
from boardlab.pegs.solver import make_problem, min_moves

STATEMENT_BOARD = "__OO_\n__OO_\nOOXOO\nOOOOX\n____X\n"


def test_statement_example_scores_three_with_tiebreak_zero() -> None:
    start = parse_board_file(STATEMENT_BOARD)
    verdict = judge_text(start, "E5 C5\nC3 C4\nC5 C3\n", walks=True)
    assert verdict.valid and verdict.solved
    assert (verdict.moves, verdict.jumps, verdict.walks) == (3, 2, 1)
    assert verdict.score == 3 and verdict.tiebreak == 0 and str(verdict.last_peg) == "C3"
    assert verdict.summary().startswith("valid: 3 moves (2 jumps, 1 walk), 1 peg left;")
    one = judge_text(Position(named_board("english")), "D2-D4\n")
    assert one.summary() == "valid: 1 move (1 jump, 0 walks), 31 pegs left"


def test_tiebreak_is_manhattan_distance_to_the_centre() -> None:
    start = parse_board_file(STATEMENT_BOARD)
    verdict = judge_text(start, "E5 C5\nC3 C4\nC4 B4\nC5 C4\nB4 D4\n", walks=True)
    assert verdict.solved and str(verdict.last_peg) == "D4"
    assert verdict.score == 5 and verdict.tiebreak == 2
    unfinished = judge_text(start, "E5 C5\nC3 C4\n", walks=True)
    assert unfinished.valid and unfinished.pegs_left == 2
    assert not unfinished.solved and unfinished.score is None


@pytest.mark.parametrize(
    ("moves", "line", "reason"),
    [
        ("E5 C5\nC3 C4\n", 2, "line 2: C3-C4: walks are not allowed here (jumps only)"),
        (
            "E5 C5\nnonsense\n",
            2,
            "line 2: not a move: 'nonsense' (expected FROM-TO or FROM TO, like D2-D4)",
        ),
        ("E5 E3\n", 1, "line 1: E5-E3: E3 is not a hole of the board"),
        ("D5 D3\n", 1, "line 1: D5-D3: no peg to jump over at D4"),
        ("D5 B5\n", 1, "line 1: D5-B5: B5 is not a hole of the board"),
        ("C3 A3\n", 1, "line 1: C3-A3: no peg to jump over at B3"),
        ("\n\nA3 C3\n", 3, "line 3: A3-C3: no peg at A3"),
    ],
)
def test_invalid_lists_name_the_first_fault(moves: str, line: int, reason: str) -> None:
    verdict = judge_text(parse_board_file(STATEMENT_BOARD), moves)
    assert not verdict.valid and verdict.score is None
    assert verdict.line == line
    assert verdict.reason == reason


def test_judge_moves_matches_judge_text() -> None:
    start = Position("english")
    moves = [start.board.parse_move(text) for text in ("5-17", "12-10", "3-11")]
    assert judge_moves(start, moves) == judge_text(start, "5-17\n12-10\n3-11\n")


def test_judge_does_not_touch_the_start() -> None:
    start = Position("english")
    judge_text(start, "5-17\n")
    assert start.peg_count == 32 and start.history == ()


def test_judge_reads_the_chains_that_minmoves_prints() -> None:
    board = named_board("triangle-6")
    result = min_moves(make_problem(board, goal=parse_goal(board, "ANY")))
    assert result.moves == 10
    chains = "".join(chain + "\n" for chain in result.chain_names())
    verdict = judge_text(Position("triangle-6"), chains)
    assert verdict.solved
    assert (verdict.turns, verdict.jumps) == (10, len(result.jumps)) == (10, 19)
    assert "on 10 lines (chains of jumps)" in verdict.summary()


@pytest.mark.parametrize(
    ("moves", "reason"),
    [
        ("5-17-5\n", "line 1: 17-5: no peg to jump over at 10"),
        ("D2-D4-C4\n", "line 1: not a chain of jumps: 'D2-D4-C4'"),
    ],
)
def test_a_broken_chain_names_its_line(moves: str, reason: str) -> None:
    verdict = judge_text(Position("english"), moves, walks=True)
    assert not verdict.valid and verdict.reason == reason
