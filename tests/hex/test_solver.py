"""The exact solver against brute-force minimax on 3x3 and 4x4, and its limit handling."""

from __future__ import annotations

import random
from functools import cache

import pytest

from boardlab.core.limits import Limit
from boardlab.hex.board import DIRECTIONS
from boardlab.hex.prover.alphabeta import _ziggurats
from boardlab.hex.prover.solver import format_result, solve
from boardlab.hex.rules import Cell, Position, random_open_position


def brute_force_wins(position: Position) -> bool:
    """Plain minimax over every move, memoised on the board only (no pruning at all)."""

    @cache
    def wins(board: tuple[int, ...], to_move: int) -> bool:
        p = Position.from_stones(
            position.size,
            [Cell.of_index(i, position.size) for i, v in enumerate(board) if v == 1],
            [Cell.of_index(i, position.size) for i, v in enumerate(board) if v == 2],
            to_move,
        )
        for move in p.legal_indices():
            p.push_index(move)
            if p.winner == to_move or not wins(tuple(p.board), 3 - to_move):
                return True
            p.pop_index()
        return False

    return wins(tuple(position.board), position.to_move)


def brute_force_winning_moves(position: Position) -> set[int]:
    result = set()
    for move in position.legal_indices():
        p = position.copy()
        p.push_index(move)
        if p.winner == position.to_move or not brute_force_wins(p):
            result.add(move)
    return result


@pytest.mark.parametrize(
    ("size", "stones", "count"),
    [(2, 0, 1), (3, 0, 1), (3, 2, 25), (3, 3, 25), (4, 7, 8), (4, 8, 15)],
)
def test_solver_matches_brute_force(size: int, stones: int, count: int) -> None:
    rng = random.Random(size * 100 + stones)
    for _ in range(count):
        p = random_open_position(size, stones, rng)
        result = solve(p)
        assert result.complete
        expected = brute_force_winning_moves(p)
        assert {p.index(c) for c in result.winning_moves} == expected, repr(p)
        assert {p.index(c) for c in result.losing_moves} == set(p.legal_indices()) - expected
        assert result.winner == (p.to_move if expected else 3 - p.to_move)


def test_published_small_boards() -> None:
    """The first player wins every empty board; on 3x3 the centre wins and a1 loses."""
    for size in (1, 2, 3, 4):
        assert solve(Position(size)).winner == 1
    r3 = solve(Position(3))
    names = {str(cell) for cell in r3.winning_moves}
    assert "b2" in names and "a1" not in names
    assert format_result(r3).startswith("winner: black (player 1); winning moves: b2 a2 ")


def test_4x4_openings_have_the_180_degree_symmetry() -> None:
    r = solve(Position(4))
    win = {cell.index(4) for cell in r.winning_moves}
    assert {15 - i for i in win} == win
    assert len(win) + len(r.losing_moves) == 16


def test_limit_gives_an_honest_unknown() -> None:
    result = solve(Position(6), Limit(nodes=100))
    assert not result.complete
    if result.winner is None:
        assert result.winning_moves == ()


def template_holds(size: int, stone: tuple[int, int], carrier: list[tuple[int, int]]) -> bool:
    """Brute force: can player 2's ``stone`` reach row 0 inside ``carrier``, white second?"""
    cells = [stone, *carrier]

    def adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
        dr, dc = b[0] - a[0], b[1] - a[1]
        return (dr, dc) in DIRECTIONS

    def connected(owned: frozenset[tuple[int, int]]) -> bool:
        reached = {stone}
        todo = [stone]
        while todo:
            cell = todo.pop()
            if cell[0] == 0:
                return True
            for other in owned:
                if other not in reached and adjacent(cell, other):
                    reached.add(other)
                    todo.append(other)
        return False

    @cache
    def owner_wins(owned: frozenset[tuple[int, int]], taken: frozenset[tuple[int, int]]) -> bool:
        # the intruder is to move; the owner must stay connectable
        if connected(owned):
            return True
        free = [c for c in cells if c not in owned and c not in taken]
        for intrusion in free:
            after = taken | {intrusion}
            replies = [c for c in free if c != intrusion]
            if not any(owner_wins(owned | {reply}, after) for reply in replies) and not (
                connected(owned)
            ):
                return False
        return bool(free) or connected(owned)

    return all(0 <= r < size and 0 <= c < size for r, c in cells) and owner_wins(
        frozenset({stone}), frozenset()
    )


def test_ziggurats_hold_by_brute_force() -> None:
    """Alpha-beta's ziggurats (from the shared edge-template table) hold, and dropping any
    cell breaks them (they are minimal)."""
    zigs = _ziggurats()
    assert len(zigs) == 2
    for carrier in zigs:
        assert len(carrier) == 8
        assert template_holds(9, (2, 4), [(r, c + 4) for r, c in carrier])
        for k in range(len(carrier)):
            smaller = [(r, c + 4) for r, c in carrier[:k] + carrier[k + 1 :]]
            assert not template_holds(9, (2, 4), smaller)


def test_game_over_position() -> None:
    p = Position(2)
    for name in ["a1", "a2", "b1"]:
        p.play(Cell.parse(name))
    assert p.winner == 1
    assert solve(p).winner == 1
