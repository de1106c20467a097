"""A game reviewed move by move: the statement's worked example is perfect play, and on
random games each move's cost equals the best move's value less the chosen one's."""

from __future__ import annotations

import random

from boardlab.ioiwari.review import review
from boardlab.ioiwari.rules import IOI, Move, State
from boardlab.ioiwari.solver import MemoSolver, analyse


def test_the_statements_example_is_perfect_play() -> None:
    points = review(MemoSolver(IOI), State(IOI, (4, 3, 2, 4, 2, 3, 2)), [2, 3, 5, 4, 5, 7])
    assert [p.final_banks for p in points] == [(11, 9)] * 7
    assert not any(p.mistake for p in points)
    assert [p.mover for p in points] == [None, 1, 2, 1, 2, 1, 2]


def test_each_moves_cost_is_the_value_it_gives_away() -> None:
    solver = MemoSolver(IOI)
    rng = random.Random(5)
    mistakes = 0
    for _ in range(20):
        start = State(IOI, tuple(rng.choice(IOI.starts())))
        game = start.copy()
        pits: list[int] = []
        costs: list[int] = []
        while not game.is_over():
            found = analyse(solver, game.position())
            choice = rng.choice(found.moves)
            costs.append(found.value - choice.value)
            pits.append(choice.pit)
            game.play(Move(choice.pit))
        points = review(solver, start, pits)
        assert [p.lost for p in points[1:]] == costs
        assert points[-1].final_banks == tuple(game.banks)
        mistakes += sum(p.mistake for p in points)
    assert mistakes > 0  # random play does make mistakes
