"""A game reviewed move by move: every proven point agrees with brute force, a move
that throws a won game away is marked, and the review is reproducible from its seed."""

from __future__ import annotations

from tests.hex.test_solver import brute_force_winning_moves

from boardlab.hex.review import review
from boardlab.hex.rules import Position, parse_move


def winner_by_brute_force(position: Position) -> int:
    if position.winner is not None:
        return position.winner
    mover = position.to_move
    return mover if brute_force_winning_moves(position) else 3 - mover


def test_every_point_of_a_3x3_game_is_proven_right() -> None:
    names = ["a1", "b1", "c1", "a2", "b2", "c2"]
    moves = [parse_move(name, 3) for name in names]
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
