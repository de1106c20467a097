"""Regions settled by their local game (hex.prover.localfill): the fill against minimax on
small boards, the kernel's shortcut against a plain local game played out in full, and
the mixed fill of MoHex's puzzle 11x11-henderson-03."""

from __future__ import annotations

import random
from itertools import product

import numpy as np
import pytest
from tests.hex.test_farpairs import random_board
from tests.hex.test_solver_dfpn import mover_wins

from boardlab.hex import connections as vc
from boardlab.hex.board import edge_lines, neighbours, vertex_index
from boardlab.hex.cellsets import as_int, as_words
from boardlab.hex.formats import parse_sgf
from boardlab.hex.prover.localfill import MOST_OPEN, fill_local_games, settles
from boardlab.hex.rules import BLACK, WHITE

#: MoHex's regression puzzle 11x11-henderson-03 (black to move, black wins).
HENDERSON_03 = (
    "(;FF[4]GM[11]SZ[11];AB[h4][g5][g6][a7][c7][f7][b8][a9][a10][c10]"
    "AW[h5][f6][b7][e7][c8][e8][f8][b9][d10][a11]PL[B])"
)


@pytest.mark.parametrize("width", [1, 2])
def test_filling_settled_regions_keeps_the_value(width: int) -> None:
    rng = random.Random(30 + width)
    filled = mixed = 0
    for _ in range(200):
        size, black, white = random_board(rng)
        k = vc.knowledge(size, width)
        args = (size, k.nbr, k.lines, as_words(black, width), as_words(white, width))
        fb, fw = (as_int(x) for x in fill_local_games(*args))
        assert fb & black == black and fw & white == white and not fb & fw
        if (fb, fw) == (black, white):
            continue
        filled += 1
        mixed += fb != black and fw != white
        for mover in (BLACK, WHITE):
            given = mover_wins(size, black, white, mover)
            assert mover_wins(size, fb, fw, mover) == given, (size, black, white, mover)
    assert filled > 100 and mixed > 50  # mixed fills are tried, not only captured sets


def test_the_twin_fills_as_the_kernel_does() -> None:
    rng = random.Random(7)
    for _ in range(60):
        size, black, white = random_board(rng)
        k = vc.knowledge(size, 1)
        args = (size, k.nbr, k.lines, as_words(black, 1), as_words(white, 1))
        assert [as_int(x) for x in fill_local_games(*args)] == [
            as_int(x) for x in fill_local_games.py_func(*args)
        ]


def _nodes(size: int, black: int, white: int, region: list[int], player: int) -> dict:
    """The player's nodes around the region, as plain sets: ``name -> (cells next to it,
    is a stone or edge)``; a group on an edge is that edge."""
    nbr = neighbours(size)
    own, opp = (black, white) if player == BLACK else (white, black)
    lines = edge_lines(size)[:2] if player == BLACK else edge_lines(size)[2:]
    nodes: dict = {("edge", 0): (set(lines[0]), True), ("edge", 1): (set(lines[1]), True)}
    seen: set[int] = set()
    around = {j for i in region for j in nbr[i]} - set(region)
    for start in sorted(around):
        if not own >> start & 1 or start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for j in nbr[todo.pop()]:
                if own >> j & 1 and j not in group:
                    group.add(j)
                    todo.append(j)
        seen |= group
        near = {j for i in group for j in nbr[i]} - group
        on = [e for e in (0, 1) if group & set(lines[e])]
        if len(on) == 2:
            return {}
        if on:
            nodes[("edge", on[0])][0].update(near)
        else:
            nodes[("group", start)] = (near, True)
    for cell in sorted(around):
        if not (own | opp) >> cell & 1:
            nodes[("empty", cell)] = (set(nbr[cell]), False)
    return nodes


def _joined(size: int, nodes: dict, region: list[int], mine: set[int], u: object) -> set:
    """The nodes reached from ``u`` over the player's cells ``mine`` of the region and
    the nodes, never passing through an empty node."""
    nbr = neighbours(size)

    def touches(a: object, b: object) -> bool:
        if isinstance(a, int) and isinstance(b, int):
            return b in nbr[a]
        if isinstance(a, int):
            return a in nodes[b][0]
        if isinstance(b, int):
            return b in nodes[a][0]
        if a[0] == "empty":  # type: ignore[index]
            return a[1] in nodes[b][0]  # type: ignore[index]
        if b[0] == "empty":  # type: ignore[index]
            return b[1] in nodes[a][0]  # type: ignore[index]
        return False

    reached, todo = {u}, [u]
    while todo:
        at = todo.pop()
        if at != u and not isinstance(at, int) and not nodes[at][1]:
            continue  # an empty node ends a chain
        for other in list(nodes) + sorted(mine):
            if other not in reached and touches(at, other):
                reached.add(other)
                todo.append(other)
    return {v for v in reached if not isinstance(v, int)}


def _serves(size: int, nodes: dict, region: list[int], mine: set[int], f: set[int]) -> bool:
    nbr = neighbours(size)
    rest = set(f)
    while rest:
        comp = {rest.pop()}
        todo = list(comp)
        while todo:
            for j in nbr[todo.pop()]:
                if j in rest:
                    rest.discard(j)
                    comp.add(j)
                    todo.append(j)
        touched = [u for u in nodes if any(c in nodes[u][0] for c in comp)]
        for u in touched:
            if not set(touched) <= _joined(size, nodes, region, mine, u):
                return False
    return True


def _owner_keeps(size: int, nodes: dict, region: list[int], f: set[int]) -> bool:
    """The local game in full: the opponent moves first in the region, the owner answers
    each move there; does the owner end with cells serving it as well as ``f``?"""

    def play(mine: frozenset[int], theirs: frozenset[int]) -> bool:
        free = [c for c in region if c not in mine | theirs]
        if not free:
            return _serves(size, nodes, region, set(mine), f)
        if len(theirs) == len(mine):  # the opponent to move
            return all(play(mine, theirs | {c}) for c in free)
        return any(play(mine | {c}, theirs) for c in free)

    return play(frozenset(), frozenset())


def settled_fillings(size: int, black: int, white: int, region: list[int]) -> list[int]:
    """Every filling (mask of black cells) both local games keep, in plain Python."""
    by_black = _nodes(size, black, white, region, BLACK)
    by_white = _nodes(size, black, white, region, WHITE)
    if not by_black or not by_white:
        return []
    found = []
    for bits in product((0, 1), repeat=len(region)):
        f = sum(bit << i for i, bit in enumerate(bits))
        blacks = {c for i, c in enumerate(region) if bits[i]}
        whites = set(region) - blacks
        if _owner_keeps(size, by_black, region, blacks) and _owner_keeps(
            size, by_white, region, whites
        ):
            found.append(f)
    return sorted(found)


def test_the_kernel_settles_what_the_full_local_game_settles() -> None:
    """The kernel's shortcut (every cell of a pair, or two of three, held alone must
    serve) against the local game played out move by move."""
    rng = random.Random(3)
    checked = settled = 0
    for _ in range(400):
        size, black, white = random_board(rng)
        nbr = neighbours(size)
        empty = [c for c in range(size * size) if not (black | white) >> c & 1]
        if len(empty) < 2:
            continue
        x = rng.choice(empty)
        region = [x]
        for _ in range(rng.choice([1, 2])):
            grow = sorted({j for i in region for j in nbr[i] if j in empty} - set(region))
            if grow:
                region.append(rng.choice(grow))
        if len(region) < 2:
            continue
        taken = black | white | sum(1 << c for c in region)
        if any(sum(1 for j in nbr[i] if not taken >> j & 1) > MOST_OPEN for i in region):
            continue
        k = vc.knowledge(size, 1)
        got = settles(
            size, k.nbr, k.lines, as_words(black, 1), as_words(white, 1), np.array(region)
        )
        want = settled_fillings(size, black, white, region)
        checked += 1
        settled += bool(want)
        assert (got >= 0) == bool(want), (size, black, white, region, got, want)
        assert got < 0 or got == want[0], (size, black, white, region, got, want)
    assert checked > 150 and settled > 50


def test_the_mixed_fill_of_henderson_03() -> None:
    """Black fills c9 and white d9 and e9 (as MoHex 2.0 does): white on c9 is answered at
    d9, which joins black's c10 group to d8 as c9 would; black on any of the three is
    answered in the pair left, and black's stone joins nothing new. With the fill the
    prover needs about 1,000 positions instead of 13,000."""
    p = parse_sgf(HENDERSON_03)
    n = p.size
    black = sum(1 << i for i, v in enumerate(p.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(p.board) if v == WHITE)
    k = vc.knowledge(n, 2)
    fb, fw = (
        as_int(x)
        for x in fill_local_games(n, k.nbr, k.lines, as_words(black, 2), as_words(white, 2))
    )
    assert fb >> vertex_index("c9", n) & 1
    assert fw >> vertex_index("d9", n) & 1 and fw >> vertex_index("e9", n) & 1
    region = [vertex_index(name, n) for name in ("c9", "d9", "e9")]
    # d9 black with c9 and e9 white serves both players the same, as do two more
    assert settled_fillings(n, black, white, region) == [0b001, 0b010, 0b011, 0b101]
