"""The plain solver honours its time limit and outside stop in every phase.

The depth-first slices run in pieces and the beam search in chunks of parents, with a
look at the budget between any two; these tests stop them through node limits and a
:class:`Stop` cancelled at a chosen point, so none depends on the clock except one
generous check on Wiegleb's game (4 s before, for a limit of 0.5 s).
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

import numpy as np
import pytest

from boardlab.core.errors import LimitExceededError
from boardlab.core.limits import Limit, Stop, stop_scope
from boardlab.pegs.boards import named_board
from boardlab.pegs.formats import parse_goal
from boardlab.pegs.solver import Goal, Solution, beam, kernel, make_problem, solve
from boardlab.pegs.solver import search as solver_module
from boardlab.pegs.solver.beam import beam_search

NODES = 20_000_000


def _counting_expand(monkeypatch: pytest.MonkeyPatch, stop: Stop | None = None) -> list[int]:
    """Count the beam's calls of ``expand`` (the children each made); cancel ``stop`` at
    the first."""
    calls: list[int] = []
    expand = kernel.expand

    def counted(*args: Any) -> Any:
        children = expand(*args)
        calls.append(int(children.size))
        if stop is not None:
            stop.cancel("test")
        return children

    monkeypatch.setattr(kernel, "expand", counted)
    return calls


def test_beam_search_stops_when_its_node_budget_runs_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    problem = make_problem(named_board("english"))
    whole = beam_search(problem, 2000)
    assert whole is not None
    assert beam_search(problem, 2000, Limit(nodes=10**9).start()) == whole
    calls = _counting_expand(monkeypatch)
    assert beam_search(problem, 2000, Limit(nodes=1).start()) is None
    assert len(calls) == 1  # the first chunk's children spend the budget
    calls.clear()
    assert beam_search(problem, 2000, Limit(nodes=5_000).start()) is None
    assert sum(calls[:-1]) < 5_000 <= sum(calls)


def test_beam_search_stops_when_the_outside_stop_is_set(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = Stop()
    calls = _counting_expand(monkeypatch, stop)
    with stop_scope(stop):
        budget = Limit().start()
    assert beam_search(make_problem(named_board("english")), 2000, budget) is None
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("name", "width", "chunk"), [("english", 300, 7), ("english", 2000, 150), ("french", 500, 60)]
)
def test_beam_levels_in_chunks_are_the_same(
    monkeypatch: pytest.MonkeyPatch, name: str, width: int, chunk: int
) -> None:
    board = named_board(name)
    start = board.grid.full & ~(1 << board.index(board.parse_hole("C4")))
    problem = make_problem(board, start, parse_goal(board, "ANY"))
    whole = beam_search(problem, width)
    monkeypatch.setattr(beam, "_CHUNK", chunk)
    assert beam_search(problem, width) == whole


def test_best_keeps_the_nearest_then_the_smallest_values() -> None:
    values = np.arange(10, dtype=np.uint64) * np.uint64(3)
    table = np.zeros((1, 256), dtype=np.int64)
    for v in range(256):
        table[0, v] = v % 4
    best = beam._best(values, 4, table)  # scores 0 3 2 1 0 3 2 1 0 3
    assert best.tolist() == [0, 9, 12, 24]  # the three of score 0, then 9 before 21


def _answer(problem: solver_module.Problem, limit: Limit) -> Solution | str:
    try:
        return solve(problem, limit)
    except LimitExceededError as exc:
        return str(exc).split(" and ")[0]


def _without_seconds(found: Solution | str) -> object:
    if isinstance(found, str):
        return found
    return (found.solved, found.moves, found.proven, found.reason, found.nodes)


def test_slices_in_small_pieces_search_the_same_nodes(monkeypatch: pytest.MonkeyPatch) -> None:
    triangle = named_board("triangle-5")
    french = named_board("french")
    cases = [
        (make_problem(named_board("english")), Limit(nodes=NODES)),  # solved, 74,729 nodes
        (  # exhausted after 5,233 nodes
            make_problem(
                triangle,
                triangle.grid.full & ~(1 << triangle.index(triangle.parse_hole("A1"))),
                Goal(1 << triangle.index(triangle.parse_hole("C2")), "C2"),
            ),
            Limit(nodes=NODES),
        ),
        (  # the node limit runs out
            make_problem(
                french,
                french.grid.full & ~(1 << french.index(french.parse_hole("C4"))),
                parse_goal(french, "E7"),
            ),
            Limit(nodes=123_457),
        ),
    ]
    whole = [_without_seconds(_answer(problem, limit)) for problem, limit in cases]
    assert isinstance(whole[0], tuple) and whole[0][0] and whole[0][4] == 74_729
    assert isinstance(whole[1], tuple) and whole[1][3].startswith(
        "no line of play works: every one of the 5,233 positions"
    )
    assert whole[2] == "search limit reached after 123457 nodes"
    monkeypatch.setattr(solver_module, "_PIECE_SECONDS", 1e-9)
    monkeypatch.setattr(solver_module, "_FIRST_PIECE", 1)
    pieces = [_without_seconds(_answer(problem, limit)) for problem, limit in cases]
    assert pieces == whole


def test_a_stop_ends_the_depth_first_search_inside_a_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Cancelled after 300,000 nodes of one search, the search ends within a piece; whole
    slices would have run on to 2 million nodes (and the beam)."""
    monkeypatch.setattr(solver_module, "_MAX_PIECE", 50_000)
    stop = Stop()
    searched: list[int] = []
    run = solver_module._Search.run

    def watched(search: solver_module._Search, step: int) -> tuple[int, int]:
        answer = run(search, step)
        searched.append(search.nodes)
        if search.nodes >= 300_000:
            stop.cancel("test")
        return answer

    monkeypatch.setattr(solver_module._Search, "run", watched)
    with stop_scope(stop), pytest.raises(LimitExceededError):
        solve(make_problem(named_board("wiegleb")), Limit(nodes=NODES))
    assert 300_000 <= max(searched) < 400_000


def test_a_stop_ends_the_beam_search_inside_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wiegleb's game reaches the beam after 2 million nodes; a stop set during its first
    chunk ends it there (it used to run the whole beam and answer solved)."""
    stop = Stop()
    calls = _counting_expand(monkeypatch, stop)
    with stop_scope(stop), pytest.raises(LimitExceededError, match="after 2016013 nodes"):
        solve(make_problem(named_board("wiegleb")), Limit(nodes=NODES))
    assert len(calls) == 1


def test_wiegleb_with_half_a_second_returns_in_time() -> None:
    """Before: 4 s (the beam of width 20,000 ran whatever time was left)."""
    board = named_board("wiegleb")
    problem = make_problem(board)
    with pytest.raises(LimitExceededError):
        solve(problem, Limit(nodes=50_000))  # compile, and the first touch of the tables
    began = time.perf_counter()
    with contextlib.suppress(LimitExceededError):  # a quiet machine may finish in time
        solve(problem, Limit(time=0.5))
    assert time.perf_counter() - began < 3.0
