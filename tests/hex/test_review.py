"""A game reviewed move by move: every proven point agrees with brute force, a move
that throws a won game away is marked, and the review is reproducible from its seed."""

from __future__ import annotations

import pytest
from tests.hex.test_solver import brute_force_winning_moves

from boardlab.core.limits import Limit
from boardlab.hex.prover.solver import solve
from boardlab.hex.review import analyse, review
from boardlab.hex.rules import Position, parse_move, parse_move_name


def winner_by_brute_force(position: Position) -> int:
    if position.winner is not None:
        return position.winner
    mover = position.to_move
    return mover if brute_force_winning_moves(position) else 3 - mover


def test_every_point_of_a_3x3_game_is_proven_right() -> None:
    names = ["a1", "b1", "c1", "a2", "b2", "c2"]  # HexGui's names, as the review gives them
    moves = [parse_move_name(name, 3) for name in names]
    points = review(3, moves, False, playouts=200, seed=1)
    assert [p.ply for p in points] == list(range(len(names) + 1))
    assert [p.move for p in points] == [None, *names]
    position = Position(3)
    for point, played in zip(points, [None, *moves], strict=True):
        if played is not None:
            position.play(played)
        expected = winner_by_brute_force(position)
        assert point.winner == expected and point.proven, point
        assert point.chance == (1.0 if expected == 1 else 0.0)


def test_the_moves_that_turn_the_game_are_marked() -> None:
    # the empty 3x3 board is red's; a1 throws it away, blue's b1 gives it back, red's c1
    # throws it away again (brute force decides every position)
    names = ["a1", "b1", "c1"]
    position = Position(3)
    winners = [winner_by_brute_force(position)]
    for name in names:
        position.play(parse_move(name, 3))
        winners.append(winner_by_brute_force(position))
    assert winners == [1, 2, 1, 2]
    points = review(3, [parse_move(n, 3) for n in names], False, playouts=200, seed=2)
    assert [p.turned for p in points] == [False, True, True, True]
    quiet = review(3, [parse_move(n, 3) for n in ["b2", "a3"]], False, playouts=200, seed=2)
    assert [p.turned for p in quiet] == [False, False, False]


def test_a_review_is_reproducible_from_its_seed() -> None:
    names = ["f6", "e7", "g5", "d8", "h4"]  # 11x11: the engine judges, not the solver
    moves = [parse_move(name, 11) for name in names]
    first = review(11, moves, False, playouts=300, seed=5)
    again = review(11, moves, False, playouts=300, seed=5)
    assert first == again
    assert all(p.winner is None and not p.proven and 0.0 < p.chance < 1.0 for p in first)


#: An 11x11 game in which red's f10 (move 11) loses: blue's win is proven from there on.
LOST_AT_11 = [
    "g6",
    "f6",
    "e8",
    "d8",
    "e7",
    "d7",
    "k3",
    "e5",
    "e4",
    "f4",
    "f10",
    "c9",
    "c1",
    "e1",
    "h5",
    "f1",
]


def test_a_proven_game_stays_proven_and_the_losing_move_is_marked() -> None:
    # the engine proves blue's win only with blue to move (after red's moves); the proof
    # carries through red's moves and through blue's proven moves
    points = review(11, [parse_move(n, 11) for n in LOST_AT_11], False, playouts=500, seed=7)
    first = next(p.ply for p in points if p.proven)
    assert first == 11 and points[first].winner == 2
    assert all(p.winner == 2 and p.chance == 0.0 for p in points[first:]), points[first:]
    assert points[first].turned
    assert [p.ply for p in points if p.turned and p.ply > first] == []


#: The 4x4 position of a page report: red to move wins only with d2.
ONLY_D2 = ["b3", "a1", "c2", "d4", "b2", "d1", "c3", "d3"]


def test_every_point_agrees_with_the_solver() -> None:
    moves = [parse_move(n, 4) for n in ONLY_D2]
    points = review(4, moves, False, playouts=200, seed=3)
    position = Position(4)
    for point, played in zip(points, [None, *moves], strict=True):
        if played is not None:
            position.play(played)
        exact = solve(position, Limit(time=10), all_moves=False)
        if exact.winner is not None or position.winner is not None:
            assert point.winner == (position.winner or exact.winner), point
            assert point.chance == (1.0 if point.winner == 1 else 0.0)


def test_analysis_agrees_with_the_solver() -> None:
    position = Position.from_moves(4, [parse_move(n, 4) for n in ONLY_D2])
    exact = solve(position, Limit(time=10))
    assert [str(c) for c in exact.winning_moves] == ["d2"] and exact.winner == 1
    # the analysis names the cells as HexGui does: the IOI d2 is HexGui's b4
    found = analyse(position, Limit(nodes=300), seed=1)
    assert found["proven"] and found["verdict"] == 1 and found["win_rate"] == 1.0
    assert found["move"] == "b4" and found["reason"] == "proven by the exact solver"
    rates = {entry["move"]: entry["win_rate"] for entry in found["top"]}
    assert rates["b4"] == 1.0
    lost = {c.vertex() for c in exact.losing_moves}
    assert lost and all(rates[m] == 0.0 for m in rates if m in lost)
    assert found["solver"]["winning_moves"] == ["b4"]
    # past the solver's size the engine's view stands, marked unproven
    big = analyse(Position(9), Limit(nodes=200), seed=1)
    assert big["solver"] is None and not big["proven"]


def test_a_proven_loss_shows_every_move_at_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine proved the side to move lost (most resistant move c3) on a board past
    the solver's size: every move loses, whatever its playouts' win rate was."""
    from boardlab.hex.board import Cell
    from boardlab.hex.engine.search import SearchResult
    from boardlab.hex.player import SolvingEngine

    top = ((Cell(2, 2), 40, 0.11), (Cell(3, 2), 30, 0.12), (Cell(4, 2), 20, 0.11))
    lost = SearchResult(Cell(2, 2), 0.11, -1, 90, 90, 0.1, top, "proven loss; most resistant move")
    monkeypatch.setattr(SolvingEngine, "search", lambda self, position, limit: lost)
    found = analyse(Position(9), Limit(nodes=100), seed=1)
    assert found["verdict"] == -1 and found["solver"] is None
    assert [e["win_rate"] for e in found["top"]] == [0.0] * 3
    assert all(e["proven"] for e in found["top"])
    assert [e["visits"] for e in found["top"]] == [40, 30, 20]
