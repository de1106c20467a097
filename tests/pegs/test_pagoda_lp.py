"""Pagoda proofs found by integer programming, and their plain checker."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from boardlab.cli._pegs_args import read_board
from boardlab.pegs.boards import named_board
from boardlab.pegs.classes import position_class
from boardlab.pegs.solver.pagoda_lp import (
    check_pagoda_tree,
    goal_targets,
    prove_by_pagoda,
)
from boardlab.pegs.solver.reference import solvable_py
from boardlab.pegs.solver.tables import Goal, make_problem

DIAMOND = named_board("diamond")
DATA = Path(__file__).parent / "data" / "solver"


def _vacancy(board_hole: str) -> int:
    return DIAMOND.grid.full & ~(1 << DIAMOND.index(DIAMOND.parse_hole(board_hole)))


def _peg(hole: str) -> int:
    return 1 << DIAMOND.index(DIAMOND.parse_hole(hole))


def test_diamond_tip_start_is_out_after_its_only_first_jump() -> None:
    """A5 (a tip) has one first jump; after it a pagoda function rules out I5."""
    proof = prove_by_pagoda(DIAMOND, _vacancy("A5"), _peg("I5"))
    assert proof is not None and proof.first_jumps == 1
    assert check_pagoda_tree(DIAMOND, proof) is None


def test_checker_rejects_a_bad_function_and_a_bad_tree() -> None:
    proof = prove_by_pagoda(DIAMOND, _vacancy("D5"), _peg("F5"))
    assert proof is not None and check_pagoda_tree(DIAMOND, proof) is None
    ((position, weights),) = proof.leaves.items()
    # raise the weight of a hole that some jump lands in: no longer a pagoda function
    bad = list(weights)
    a, b, c = DIAMOND.grid.jumps[0]
    bad[c] = bad[a] + bad[b] + 1
    broken = dataclasses.replace(proof, leaves={position: tuple(bad)})
    assert "not a pagoda function" in (check_pagoda_tree(DIAMOND, broken) or "")
    # all-zero weights are a pagoda function but separate nothing
    zero = dataclasses.replace(proof, leaves={position: (0,) * DIAMOND.size})
    assert "not above" in (check_pagoda_tree(DIAMOND, zero) or "")
    # a proof without its leaf proves nothing
    empty = dataclasses.replace(proof, leaves={})
    assert "neither separated nor split" in (check_pagoda_tree(DIAMOND, empty) or "")


def test_every_proof_is_sound_against_brute_force() -> None:
    """On a 21-hole board small enough for brute force, every pair a proof rules out is
    truly impossible (a plain-Python search over every line of play), and every proof
    passes the checker."""
    board = read_board(str(DATA / "octagon21.txt")).board
    full = board.grid.full
    proven = 0
    for s in (0, 12):
        for e in range(board.size):
            start, goal = full & ~(1 << s), 1 << e
            if position_class(board, start) != position_class(board, goal):
                continue
            proof = prove_by_pagoda(board, start, goal)
            problem = make_problem(board, start, Goal(goal, "end"), symmetry=False)
            if proof is not None:
                proven += 1
                assert check_pagoda_tree(board, proof) is None
                assert not solvable_py(problem, start)
    assert proven >= 2


def test_targets_are_the_goal_with_jumps_undone() -> None:
    (one,) = goal_targets(DIAMOND, _peg("E5"), 0)
    assert one == _peg("E5")
    assert len(goal_targets(DIAMOND, _peg("E5"), 1)) == 4
    assert all(t.bit_count() == 3 for t in goal_targets(DIAMOND, _peg("E5"), 2))


@pytest.mark.parametrize("vacancy", ["A5", "D5"])
def test_diamond_starts_ruled_out_by_pagoda_functions(vacancy: str) -> None:
    """The diamond's A5 and D5 classes: every finishing hole the position class allows
    is ruled out by a checked pagoda proof, so no single peg can remain."""
    start = _vacancy(vacancy)
    ends = [
        e
        for e in range(DIAMOND.size)
        if position_class(DIAMOND, 1 << e) == position_class(DIAMOND, start)
    ]
    assert len(ends) == 5
    for e in ends:
        proof = prove_by_pagoda(DIAMOND, start, 1 << e)
        assert proof is not None, DIAMOND.hole_name(DIAMOND.cells[e])
        assert check_pagoda_tree(DIAMOND, proof) is None
