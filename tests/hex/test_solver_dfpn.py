"""The DFPN solver and its H-search kernel: twin equality, soundness against brute force,
and published small-board facts."""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache

import numpy as np
import pytest
from tests.hex.test_solver import brute_force_winning_moves

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex import _solver_kernel as k
from boardlab.hex.rules import Cell, Position, random_open_position
from boardlab.hex.solver import solve, solve_alphabeta, solve_dfpn

KF, KS, WORK = 8, 12, 200_000


def bits(p: Position) -> tuple[np.uint64, np.uint64]:
    black = sum(1 << i for i, v in enumerate(p.board) if v == 1)
    white = sum(1 << i for i, v in enumerate(p.board) if v == 2)
    return np.uint64(black), np.uint64(white)


def positions(size: int, count: int, seed: int) -> Iterator[Position]:
    rng = random.Random(seed)
    for _ in range(count):
        yield random_open_position(size, rng.randint(0, size * size // 2), rng)


@pytest.fixture
def python_twin(monkeypatch: pytest.MonkeyPatch) -> object:
    """The kernel module with every numba function replaced by its plain-Python source."""
    for name in ("_popcount", "_spread", "dead_cells", "_add_full", "_add_semi", "hsearch"):
        monkeypatch.setattr(k, name, getattr(k, name).py_func)
    return k.analyse.py_func


def test_python_twin_matches_the_kernel(python_twin: object) -> None:
    twin = python_twin
    assert callable(twin)
    for size in (2, 3, 4):
        nbr, lines = k.neighbour_masks(size)
        for p in positions(size, 12, size):
            black, white = bits(p)
            fast = k.analyse(size, nbr, lines, black, white, p.to_move, KF, KS, WORK)
            slow = twin(size, nbr, lines, black, white, p.to_move, KF, KS, WORK)
            assert (int(fast[0]), int(fast[1])) == (int(slow[0]), int(slow[1])), repr(p)


def connected(size: int, stones: int, player: int) -> bool:
    """Flood fill: do ``player``'s stones join its two edges?"""
    todo = [
        i
        for i in range(size * size)
        if stones >> i & 1 and (i % size == 0 if player == 1 else i < size)
    ]
    seen = set(todo)
    while todo:
        i = todo.pop()
        r, c = divmod(i, size)
        if (c if player == 1 else r) == size - 1:
            return True
        for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
            rr, cc = r + dr, c + dc
            j = rr * size + cc
            if 0 <= rr < size and 0 <= cc < size and stones >> j & 1 and j not in seen:
                seen.add(j)
                todo.append(j)
    return False


@cache
def mover_wins(size: int, black: int, white: int, mover: int) -> bool:
    """Plain minimax on bitsets with any side to move (no Hex knowledge)."""
    for i in range(size * size):
        if (black | white) >> i & 1:
            continue
        b, w = (black | 1 << i, white) if mover == 1 else (black, white | 1 << i)
        if connected(size, b if mover == 1 else w, mover) or not mover_wins(size, b, w, 3 - mover):
            return True
    return False


@pytest.mark.parametrize(("size", "low", "count"), [(3, 0, 40), (4, 6, 40)])
def test_virtual_connections_are_sound(size: int, low: int, count: int) -> None:
    """Against plain minimax: a semi connection wins for its owner to move, a full one
    even with the other side to move; a WIN or LOSS verdict is right; every live move
    outside the must-play region loses."""
    nbr, lines = k.neighbour_masks(size)
    checked = {"full": 0, "semi": 0, "outside": 0}
    rng = random.Random(10 + size)
    for _ in range(count):
        p = random_open_position(size, rng.randint(low, size * size // 2 + 1), rng)
        black, white = bits(p)
        b, w, mover = int(black), int(white), p.to_move
        own, opp = (black, white) if mover == 1 else (white, black)
        lo, hi = (lines[0], lines[1]) if mover == 1 else (lines[2], lines[3])
        full, semi, _ = k.hsearch(size, nbr, own, opp, lo, hi, KF, KS, WORK, False)
        wins = mover_wins(size, b, w, mover)
        if full or semi:
            assert wins, repr(p)
            checked["semi"] += 1
        if full:
            # the owner stays connected even when the other side moves first
            assert not mover_wins(size, b, w, 3 - mover), repr(p)
            checked["full"] += 1
        verdict, moves = k.analyse(size, nbr, lines, black, white, mover, KF, KS, WORK)
        assert verdict != k.WIN or wins, repr(p)
        assert verdict != k.LOSS or not wins, repr(p)
        if verdict == k.OPEN:
            dead = int(k.dead_cells(size, nbr, lines, black, white))
            for i in range(size * size):
                if (b | w | dead | int(moves)) >> i & 1:
                    continue
                child = (b | 1 << i, w) if mover == 1 else (b, w | 1 << i)
                assert mover_wins(size, *child, 3 - mover), (repr(p), i)
                checked["outside"] += 1
    assert checked["full"] and checked["semi"], checked  # the checks did run
    assert size < 4 or checked["outside"], checked


def test_dead_cells() -> None:
    # b2 on 3x3 surrounded by X on four consecutive sides is dead
    black = sum(1 << Cell.parse(c).index(3) for c in ("b1", "c1", "c2", "b3"))
    nbr, lines = k.neighbour_masks(3)
    dead = int(k.dead_cells(3, nbr, lines, np.uint64(black), np.uint64(0)))
    assert dead >> Cell.parse("b2").index(3) & 1
    assert not dead >> Cell.parse("a2").index(3) & 1


@pytest.mark.parametrize(("size", "stones", "count"), [(3, 2, 20), (4, 6, 10), (4, 8, 10)])
def test_dfpn_matches_brute_force_and_alphabeta(size: int, stones: int, count: int) -> None:
    rng = random.Random(size * 7 + stones)
    for _ in range(count):
        p = random_open_position(size, stones, rng)
        result = solve_dfpn(p)
        assert result.complete
        b, w = (int(x) for x in bits(p))
        mover = p.to_move
        expected = set()
        for i in p.legal_moves():
            cb, cw = (b | 1 << i, w) if mover == 1 else (b, w | 1 << i)
            if connected(size, cb if mover == 1 else cw, mover) or not mover_wins(
                size, cb, cw, 3 - mover
            ):
                expected.add(i)
        assert size > 3 or expected == brute_force_winning_moves(p)
        assert set(result.winning_moves) == expected, repr(p)
        assert set(result.losing_moves) == set(p.legal_moves()) - expected
        old = solve_alphabeta(p)
        assert set(old.winning_moves) == expected


def test_5x5_centre_opening_and_symmetric_openings() -> None:
    """The first player wins 5x5 with the centre; the winning openings are closed under the
    180-degree rotation; the acute corners a1 and e5 (two neighbours each) lose. The
    other openings are checked where the older alpha-beta solver decides them fast."""
    r = solve(Position(5), Limit(time=60), all_moves=False)
    assert r.winner == 1
    wins = set()
    for index in range(25):
        p = Position(5)
        p.push(index)
        result = solve(p, Limit(time=60), all_moves=False)
        assert result.winner is not None
        if result.winner == 1:
            wins.add(index)
    assert 12 in wins
    assert {24 - i for i in wins} == wins
    assert 0 not in wins and 24 not in wins


def test_dfpn_refuses_big_boards_and_honours_limits() -> None:
    with pytest.raises(BoardlabError):
        solve_dfpn(Position(9))
    r = solve(Position(7), Limit(nodes=1000))
    assert not r.complete and r.winner is None and r.nodes * 50 <= 1000
