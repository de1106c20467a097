"""Captured regions (``hex/prover/regions.py``): filling one never changes a position's value
(plain minimax on 4x4, every candidate region, both captors, both sides to move), the
11x11 pocket MoHex's suite turns on is found, and the search stops when told to."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.hex.test_solver_dfpn import mover_wins, stored_proofs_hold

from boardlab.core.limits import Limit
from boardlab.hex.board import vertex, vertex_index
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.regions import (
    candidate_regions,
    candidate_regions_reference,
    captured,
    region_fill,
)
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Cell, Position, random_open_position

# these modules share the cached minimax oracle: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("minimax")


def bits(cells: tuple[int, ...] | list[int]) -> int:
    return sum(1 << c for c in cells)


@pytest.mark.parametrize(("size", "stones", "count", "seed"), [(4, 6, 40, 1), (4, 8, 60, 2)])
def test_filling_a_captured_region_keeps_the_value(
    size: int, stones: int, count: int, seed: int
) -> None:
    rng = random.Random(seed)
    filled = 0
    for _ in range(count):
        position = random_open_position(size, stones, rng)
        board = list(position.board)
        black = bits([c for c, v in enumerate(board) if v == 1])
        white = bits([c for c, v in enumerate(board) if v == 2])
        for region in candidate_regions(size, board, max_cells=8):
            for player in (1, 2):
                if not captured(size, board, region, player):
                    continue
                filled += 1
                fb, fw = (
                    (black | bits(region), white) if player == 1 else (black, white | bits(region))
                )
                for mover in (1, 2):
                    assert mover_wins(size, black, white, mover) == mover_wins(
                        size, fb, fw, mover
                    ), (board, region, player, mover)
    assert filled >= 10  # the check saw captured regions, not only refusals


def test_a_region_two_opponent_groups_can_meet_in_is_not_captured() -> None:
    # 3x3: black's stones b1 and b3 with white's a2 and c2 around the empty b2 and the
    # rest; white on b2 joins a2 to c2 (its edges), so b2 alone is no black capture
    size = 3
    board = [0] * 9
    for name, colour in (("b1", 1), ("b3", 1), ("a2", 2), ("c2", 2)):
        board[vertex_index(name, size)] = colour
    b2 = vertex_index("b2", size)
    assert not captured(size, board, [b2], 1)


# Benzene's 11x11 puzzle "henderson 85" (white to move; MoHex's suite, case 154):
# the stones as HexGui names them
HENDERSON_85_BLACK = [
    "d3",
    "h3",
    "e4",
    "f4",
    "i4",
    "d5",
    "f5",
    "i5",
    "a6",
    "f6",
    "g6",
    "j6",
    "d7",
    "f7",
    "j7",
    "c8",
    "g8",
    "h8",
    "c9",
    "b10",
    "h10",
]
HENDERSON_85_WHITE = [
    "e3",
    "f3",
    "g3",
    "i3",
    "d4",
    "g4",
    "e5",
    "g5",
    "h5",
    "d6",
    "e6",
    "c7",
    "e7",
    "g7",
    "h7",
    "i7",
    "i8",
    "b9",
    "d9",
    "e10",
]


def test_the_pocket_of_henderson_85_is_black_s() -> None:
    # black's connection from f7's group down to its edge holds the pocket under it:
    # MoHex's combinatorial decomposition there, plus the cells below g8 it fills in
    size = 11
    black = bits([vertex_index(v, size) for v in HENDERSON_85_BLACK])
    white = bits([vertex_index(v, size) for v in HENDERSON_85_WHITE])
    fill = region_fill(size, black, white)
    assert fill.white == 0
    found = sorted(vertex(c, size) for c in range(size * size) if fill.black >> c & 1)
    assert found == sorted(["d8", "e8", "f8", "e9", "f9", "d10", "f10", "g9", "g10", "h9"])


def test_region_fill_stops_when_out_of_time() -> None:
    size = 11
    black = bits([vertex_index(v, size) for v in HENDERSON_85_BLACK])
    white = bits([vertex_index(v, size) for v in HENDERSON_85_WHITE])
    assert region_fill(size, black, white, out_of_time=lambda: True).cells == 0


def test_candidates_are_small_cut_off_parts() -> None:
    size = 4
    position = random_open_position(size, 6, random.Random(3))
    board = list(position.board)
    for region in candidate_regions(size, board, max_cells=5, max_cut=1):
        assert 2 <= len(region) <= 5
        assert all(board[c] == 0 for c in region)


def brute_winning_moves(position: Position) -> set[int]:
    n = position.size
    black = bits([c for c, v in enumerate(position.board) if v == 1])
    white = bits([c for c, v in enumerate(position.board) if v == 2])
    mover = position.to_move
    found = set()
    for m in position.legal_indices():
        after = (black | 1 << m, white) if mover == 1 else (black, white | 1 << m)
        if not mover_wins(n, *after, 3 - mover):
            found.add(m)
    return found


def test_a_move_on_a_pair_the_regions_rest_on_is_judged_as_given() -> None:
    # 5x5, black to move: black's region d1 d2 e1 c3 is found with the kernel's captured
    # pairs filled; a stone of a pair's other player breaks it, so the moves there are
    # classified on the position as given (on the filled one, b5 and c4 came out winning)
    board = [2, 1, 0, 2, 0, 1, 0, 1, 2, 0, 1, 2, 0, 0, 2, 0, 0, 0, 2, 0, 0, 1, 1, 1, 2]
    size = 5
    position = Position.from_stones(
        size,
        [Cell.of_index(c, size) for c, v in enumerate(board) if v == 1],
        [Cell.of_index(c, size) for c, v in enumerate(board) if v == 2],
        1,
    )
    fill = region_fill(
        size,
        bits([c for c, v in enumerate(board) if v == 1]),
        bits([c for c, v in enumerate(board) if v == 2]),
    )
    assert fill.cells and fill.pairs
    result = solve(position, Limit(time=60))
    assert {position.index(c) for c in result.winning_moves} == brute_winning_moves(position)


def positions_with_regions(
    size: int, rng: random.Random, count: int
) -> Iterator[tuple[Position, int, int]]:
    """``count`` random positions (10 or 12 empty cells) with a captured region, each
    with its black and white stones."""
    found = 0
    while found < count:
        position = random_open_position(size, rng.choice((size * size - 12, size * size - 10)), rng)
        black = bits([c for c, v in enumerate(position.board) if v == 1])
        white = bits([c for c, v in enumerate(position.board) if v == 2])
        if region_fill(size, black, white).cells:
            found += 1
            yield position, black, white


@pytest.mark.parametrize(("size", "seed"), [(4, 11), (5, 12)])
def test_solving_with_regions_matches_minimax(size: int, seed: int) -> None:
    # positions with a captured region: every move classified, the first win, and
    # MoHex's question, each against plain minimax
    for position, _, _ in positions_with_regions(size, random.Random(seed), 12):
        expected = brute_winning_moves(position)
        every = solve(position, Limit(time=60))
        assert {position.index(c) for c in every.winning_moves} == expected
        first = {position.index(c) for c in solve(position, all_moves=False).winning_moves}
        asked = {position.index(c) for c in solve(position, mustplay=True).winning_moves}
        for found in (first, asked):
            assert found <= expected
            assert bool(found) == bool(expected)


def test_regions_found_by_cell_sets_are_the_plain_ones() -> None:
    rng = random.Random(5)
    for size in (3, 5, 7, 9, 11):
        for _ in range(6):
            board = list(random_open_position(size, rng.randrange(size * size // 2), rng).board)
            for cut in (0, 1, 2):
                assert candidate_regions(size, board, max_cut=cut) == (
                    candidate_regions_reference(size, board, max_cut=cut)
                )


class _Recording(Dfpn):
    """A search that fills the regions of every position it analyses (the root's too)
    and notes those it filled something in."""

    region_depth = 99

    def __init__(self, size: int) -> None:
        super().__init__(size, Limit().start())
        self.filled: list[tuple[int, int]] = []

    def fill_regions(self, black: int, white: int) -> tuple[int, int, int]:
        out = super().fill_regions(black, white)
        if out[2]:
            self.filled.append((black, white))
        return out


@pytest.mark.parametrize(("size", "seed"), [(4, 21), (5, 22)])
def test_proofs_of_positions_with_regions_filled_hold(size: int, seed: int) -> None:
    """A search that fills the captured regions of the positions it analyses (by
    default only the root's children) gets every value right and stores only proofs
    that hold by plain minimax (the winner still wins when the loser gets every empty
    cell outside the proof), those of the filled positions included."""
    filled_keys = 0
    for position, black, white in positions_with_regions(size, random.Random(seed), 6):
        search = _Recording(size)
        mover = position.to_move
        won = search.prove(black, white, mover, below=1)  # the root counts as filled
        assert won == mover_wins(size, black, white, mover)
        filled = {search.key(b, w, p) for b, w in search.filled for p in (1, 2)}
        filled_keys += len(filled.intersection(stored_proofs_hold(search, size)))
    assert filled_keys >= 6, filled_keys


def test_the_compiled_local_game_agrees_with_the_plain_one() -> None:
    from boardlab.hex.prover import regions

    rng = random.Random(4)
    games = kept = 0
    for size in (4, 5, 7, 9):
        for _ in range(8):
            stones = rng.randrange(size * size // 4, size * size * 2 // 3)
            board = list(random_open_position(size, stones, rng).board)
            for region in candidate_regions(size, board)[:30]:
                for player in (1, 2):
                    local = regions._local_game(size, board, region, player)
                    fast = regions._played_out(local, player, regions.MAX_STATES)
                    assert fast == regions._plays_out(local, player, regions.MAX_STATES)
                    games += 1
                    kept += fast
    assert games > 500 and kept > 20, (games, kept)


def test_the_compiled_local_games_are_the_plain_ones_region_for_region() -> None:
    from boardlab.hex.prover import regions

    rng = random.Random(7)
    compared = inside = 0
    for size in (3, 4, 5, 7, 9, 11):
        for _ in range(6):
            board = [rng.choice((0, 0, 0, 1, 2)) for _ in range(size * size)]
            found = candidate_regions(size, board)
            for player in (1, 2):
                games = regions._local_games(size, board, found, player)
                assert len(games) == len(found)
                for region, game in zip(found, games, strict=True):
                    assert game == regions._local_game(size, board, region, player)
                    compared += 1
                    inside += bool(game.inside[1] | game.inside[2])
    assert compared > 1000 and inside > 20, (compared, inside)


def test_the_regions_held_at_once_are_the_ones_held_one_by_one() -> None:
    """The batched path of :func:`region_fill` (shapes keyed by their bytes) takes the
    same regions as settling each candidate in turn with the plain local game."""
    from boardlab.hex.prover import regions

    rng = random.Random(11)
    compared = held = 0
    for size in (4, 5, 7, 9, 11):
        for _ in range(8):
            board = [rng.choice((0, 0, 0, 1, 2)) for _ in range(size * size)]
            for player in (1, 2):
                taken = 0
                for region in candidate_regions(size, board):
                    cells = sum(1 << c for c in region)
                    local = regions._local_game(size, board, region, player)
                    if not cells & taken and regions._plays_out(local, player, regions.MAX_STATES):
                        taken |= cells
                got, stopped = regions._held_regions(size, board, player, 0, None)
                assert (got, stopped) == (taken, False)
                compared += 1
                held += bool(taken)
    assert compared == 80 and held > 10, (compared, held)
