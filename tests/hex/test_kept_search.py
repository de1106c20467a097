"""A DFPN search kept from one solve to the next (as the playing engine keeps it over a
game) gives the answers a fresh search gives, and refuses a board of another size."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.player import SolvingEngine
from boardlab.hex.prover.solver import new_search, solve
from boardlab.hex.rules import Cell, Position, random_open_position


@pytest.mark.parametrize("size", [5, 9])
def test_a_kept_search_answers_as_a_fresh_one(size: int) -> None:
    kept = new_search(size)
    rng = random.Random(size)
    stones = 10 if size == 5 else 60
    for _ in range(6):
        position = random_open_position(size, rng.randrange(stones - 4, stones), rng)
        fresh = solve(position, Limit(nodes=2_000_000))
        again = solve(position, Limit(nodes=2_000_000), search=kept)
        assert fresh.complete and again.complete
        assert (again.winner, again.winning_moves) == (fresh.winner, fresh.winning_moves)
    assert kept.analysed > 0


def test_a_kept_search_of_another_size_is_refused() -> None:
    with pytest.raises(BoardlabError, match="kept search of 5x5"):
        solve(Position(6), Limit(nodes=1000), search=new_search(5))
    with pytest.raises(BoardlabError, match="up to 11x11, not 13x13"):
        new_search(13)
    with pytest.raises(BoardlabError, match="checkpoint is kept by a fresh search only"):
        solve(Position(5), Limit(nodes=1000), checkpoint=Path("x.ckpt"), search=new_search(5))


def test_the_engine_keeps_its_search_between_moves() -> None:
    engine = SolvingEngine(seed=1, solver_empties=30, connections=False)
    position = Position(5)
    for cell in ("c3", "b3", "c2"):
        position.push_index(position.index(Cell.parse(cell, 5)))
    engine.search(position, Limit(nodes=2000))
    kept = engine._kept_search
    assert kept is not None and kept.analysed > 0
    position.push_index(position.index(Cell.parse("b4", 5)))
    engine.search(position, Limit(nodes=2000))
    assert engine._kept_search is kept
