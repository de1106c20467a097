"""Regions captured through a virtual connection (``hex/prover/vcfill.py``): the numba
finder agrees with the plain-Python reference, filling what it finds never changes a
position's value (plain minimax on 4x4 and 5x5, both sides to move), and the solver
with the fill at every analysed position answers as without it on 6x6 positions where
it fills something."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.hex.test_solver_dfpn import connected, mover_wins

from boardlab.core.limits import Limit
from boardlab.hex import board
from boardlab.hex import connections as vc
from boardlab.hex.cellsets import as_int, as_words, join, row
from boardlab.hex.hsearch import FULL_ROW, PENDING_ROW, hsearch
from boardlab.hex.prover import verdicts
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.inferior import dead_regions
from boardlab.hex.prover.solver import solve
from boardlab.hex.prover.vcfill import vc_captured, vc_captured_reference
from boardlab.hex.rules import BLACK, Cell, Position, random_open_position

# these modules share the cached minimax oracle: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("minimax")

KF, KS, WORK = 8, 12, 200_000


def stones(p: Position) -> tuple[int, int]:
    black = sum(1 << i for i, v in enumerate(p.board) if v == 1)
    white = sum(1 << i for i, v in enumerate(p.board) if v == 2)
    return black, white


def connections_of(table: np.ndarray) -> list[tuple[int, int, int]]:
    """The full connections of a one-word H-search table as ``(a, b, carrier)``."""
    out = []
    for code, carrier in table[1:]:
        kind, a, b = int(code) & 255, int(code) >> 8 & 255, int(code) >> 16 & 255
        if kind in (FULL_ROW, PENDING_ROW):
            out.append((a, b, int(carrier)))
    return out


def fills(size: int, black: int, white: int) -> list[tuple[int, int, int, int]]:
    """For each player: ``(player, fast, reference, base)``, the regions the kernel and
    the reference find for it on the position with the captured pairs filled and the dead
    cells given to it (``base``: that position's own stones, dead cells included)."""
    k = vc.knowledge(size, 1)
    b, w = vc.fill_captured(size, k.ring, k.table, as_words(black, 1), as_words(white, 1))
    edges = tuple(row(k.lines, i, b) for i in range(4))
    dead = dead_regions(size, k.ring, k.table, edges, b, w)
    none = np.empty((0, 2), np.uint64)
    out = []
    for player in (1, 2):
        own, opp = (join(b, dead), w) if player == 1 else (join(w, dead), b)
        e = 0 if player == 1 else 2
        lo, hi = row(k.lines, e, b), row(k.lines, e + 1, b)
        olo, ohi = row(k.lines, 2 - e, b), row(k.lines, 3 - e, b)
        table = hsearch(
            size, k.nbr, own, opp, lo, hi, KF, KS, WORK, False, none, True,
            np.empty((0, 1), np.uint64), e,
        )[-1]  # fmt: skip
        fast = as_int(vc_captured(size, k.nbr, own, opp, lo, hi, olo, ohi, table))
        slow = vc_captured_reference(
            size, as_int(own), as_int(opp), (e, e + 1), (2 - e, 3 - e), connections_of(table)
        )
        out.append((player, fast, slow, as_int(own)))
    return out


def won(size: int, black: int, white: int) -> bool:
    return connected(size, black, 1) or connected(size, white, 2)


def opponent_things(size: int, regions: int, own: int, opponent: int, player: int) -> int:
    """The most things of the opponent of ``player`` (its groups not inside a region, its
    edges) that touch one region of ``regions`` (``own``: the player's stones)."""
    around, lines = board.neighbours(size), board.edge_lines(size)
    edges = (2, 3) if player == 1 else (0, 1)
    cells = {c for c in range(size * size) if regions >> c & 1}
    most = 0
    while cells:
        start = cells.pop()
        region, todo = {start}, [start]
        while todo:
            for d in around[todo.pop()]:
                if d in cells:
                    cells.remove(d)
                    region.add(d)
                    todo.append(d)
        touched = {("edge", k) for k in edges if region & set(lines[k])}
        for start in {d for c in region for d in around[c] if opponent >> d & 1}:
            group, todo = {start}, [start]
            while todo:
                for d in around[todo.pop()]:
                    if opponent >> d & 1 and d not in group:
                        group.add(d)
                        todo.append(d)
            on = [k for k in edges if group & set(lines[k])]
            liberties = {d for c in group for d in around[c] if not (own | opponent) >> d & 1}
            if on:
                touched.add(("edge", on[0]))
            elif not liberties <= region:
                touched.add(("group", min(group)))
        most = max(most, len(touched))
    return most


def filled_positions(
    size: int, want: int, seed: int, several: bool = False
) -> list[tuple[Position, int, int, int]]:
    """``want`` random positions, not won, in which the kernel fills a region for some
    player (with ``several``, a region that several things of the opponent touch):
    ``(position, player, regions, base)`` (see :func:`fills`); every finding checked
    against the reference on the way."""
    rng = random.Random(seed)
    found: list[tuple[Position, int, int, int]] = []
    for _ in range(200 * want):
        p = random_open_position(size, rng.randint(size, size * size * 2 // 3), rng)
        black, white = stones(p)
        for player, fast, slow, base in fills(size, black, white):
            assert fast & ~slow == 0, (repr(p), player)  # the reference finds at least as much
            own = (base, white) if player == 1 else (black, base)
            other = white if player == 1 else black
            if several and opponent_things(size, fast, base, other, player) < 2:
                continue
            if fast and not won(size, *own):
                found.append((p, player, fast, base))
        if len(found) >= want:
            return found
    raise AssertionError(f"only {len(found)} positions with a region filled")


@pytest.mark.parametrize(
    ("size", "want", "seed", "several"), [(4, 20, 3, False), (5, 10, 4, False), (5, 8, 5, True)]
)
def test_filling_a_region_captured_by_a_connection_keeps_the_value(
    size: int, want: int, seed: int, several: bool
) -> None:
    """``several``: regions that two or more things of the opponent touch, filled because
    the connections cut those things apart inside the region (the rule's second form)."""
    for p, player, regions, base in filled_positions(size, want, seed, several):
        black, white = stones(p)
        # the base position (pairs and dead cells given to the captor) and the same with
        # the regions filled have the same winner, for either side to move
        other = white if player == 1 else black
        fb, fw = (base, other) if player == 1 else (other, base)
        gb, gw = (fb | regions, fw) if player == 1 else (fb, fw | regions)
        for mover in (1, 2):
            assert mover_wins(size, fb, fw, mover) == mover_wins(size, gb, gw, mover), (
                repr(p),
                player,
                mover,
            )


def test_a_region_two_opponent_things_touch_is_not_filled() -> None:
    # 3x3, black (columns) b1, b3 and white (rows) a2, c2 around the empty b2: white on
    # b2 joins a2 to c2, two white things, so b2 is no black region
    p = Position.from_stones(
        3, [Cell.parse("b1"), Cell.parse("b3")], [Cell.parse("a2"), Cell.parse("c2")], BLACK
    )
    black, white = stones(p)
    b2 = 1 << Cell.parse("b2").index(3)
    for player, fast, slow, _ in fills(3, black, white):
        assert not fast & b2 and not slow & b2, player


#: 6x6 positions ``(black, white, mover)`` a DFPN search reached in which the analysis
#: fills a region through a connection (found by solving random 6x6 openings with the
#: fill on and comparing each analysis with the one without): on 4x4 and 5x5 the solver's
#: other rules settle every position where the rule applies first.
REACHED = [
    (34633419808, 15770681344, 2),
    (34633416704, 15770648576, 2),
    (35773221920, 13572866048, 2),
    (17580576, 42000, 1),
]


def position(size: int, black: int, white: int, mover: int) -> Position:
    cells = range(size * size)
    return Position.from_stones(
        size,
        [Cell.of_index(i, size) for i in cells if black >> i & 1],
        [Cell.of_index(i, size) for i in cells if white >> i & 1],
        mover,
    )


@pytest.mark.parametrize(("black", "white", "mover"), REACHED)
def test_solver_with_the_fill_on_6x6(
    black: int, white: int, mover: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis fills something here; the filled position has the winner of the
    given one for either side to move, and the solver with the fill names the same
    winning moves as without it (the search without it is checked against minimax in
    ``test_solver_dfpn.py``)."""
    k = vc.knowledge(6, 1)
    none = np.empty((0, 2), np.uint64)
    args = (6, k.nbr, k.lines, k.ring, k.table, as_words(black, 1), as_words(white, 1), mover)
    rest = (KF, KS, WORK, none, True, none, np.empty((0, 1), np.uint64), False)
    plain, filled = (verdicts.analyse(*args, *rest, fill, False, False) for fill in (False, True))
    fb, fw = as_int(filled[3]), as_int(filled[4])
    assert (fb, fw) != (as_int(plain[3]), as_int(plain[4]))  # the rule fills something
    limit = Limit(nodes=200_000)
    for side in (1, 2):
        given, reduced = (
            solve(position(6, black, white, side), limit),
            solve(position(6, fb, fw, side), limit),
        )
        assert given.complete and reduced.complete
        assert given.winner == reduced.winner, side
    without = solve(position(6, black, white, mover), limit)
    monkeypatch.setattr(Dfpn, "vc_fill_from", 1)  # from 8x8 on by default
    with_fill = solve(position(6, black, white, mover), limit)
    assert with_fill.complete and without.complete
    assert with_fill.winner == without.winner
    assert with_fill.winning_moves == without.winning_moves
