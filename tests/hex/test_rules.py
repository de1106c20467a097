"""Hex rules: cells, adjacency, win detection with undo, against a flood-fill oracle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.errors import BoardlabError, IllegalMoveError, ParseError
from boardlab.hex.rules import BLACK, WHITE, Cell, Position, bridge_table, neighbours


def flood_winner(board: list[int], size: int) -> int | None:
    """Independent oracle: BFS over (row, col) pairs with the statement's six offsets."""
    for player in (BLACK, WHITE):
        start = [(r, 0) for r in range(size)] if player == BLACK else [(0, c) for c in range(size)]
        todo = [rc for rc in start if board[rc[0] * size + rc[1]] == player]
        seen = set(todo)
        while todo:
            r, c = todo.pop()
            if (c if player == BLACK else r) == size - 1:
                return player
            for rr, cc in (
                (r, c - 1),
                (r, c + 1),
                (r - 1, c),
                (r - 1, c + 1),
                (r + 1, c - 1),
                (r + 1, c),
            ):
                inside = 0 <= rr < size and 0 <= cc < size
                if inside and (rr, cc) not in seen and board[rr * size + cc] == player:
                    seen.add((rr, cc))
                    todo.append((rr, cc))
    return None


@pytest.mark.parametrize(("text", "row", "col"), [("a1", 0, 0), ("c5", 4, 2), ("z26", 25, 25)])
def test_cell_names(text: str, row: int, col: int) -> None:
    cell = Cell.parse(text)
    assert (cell.row, cell.col) == (row, col)
    assert str(cell) == text
    assert Cell.parse(str(cell)) == cell
    assert eval(repr(cell)) == cell


@pytest.mark.parametrize("bad", ["", "a", "1a", "a0", "aa1", "a-1", "é1"])
def test_bad_cell_names(bad: str) -> None:
    with pytest.raises(ParseError):
        Cell.parse(bad)


def test_cell_off_board_and_ioi() -> None:
    with pytest.raises(ParseError, match="off the 5x5 board"):
        Cell.parse("f1", 5)
    assert Cell.from_ioi(2, 3) == Cell(1, 2)
    assert Cell(1, 2).ioi() == (2, 3)


@pytest.mark.parametrize("size", [0, 27, -1])
def test_size_out_of_range(size: int) -> None:
    with pytest.raises(BoardlabError, match="board size must be in 1..26"):
        Position(size)


def test_adjacency_is_the_statements() -> None:
    size = 5
    centre = Cell(2, 2).index(size)
    expected = {Cell(r, c).index(size) for r, c in [(2, 1), (2, 3), (1, 2), (1, 3), (3, 1), (3, 2)]}
    assert set(neighbours(size)[centre]) == expected
    assert set(neighbours(size)[0]) == {1, size}  # a1 touches b1 and a2 only
    for i, ns in enumerate(neighbours(size)):
        for j in ns:
            assert i in neighbours(size)[j]


def test_player_one_joins_columns_player_two_rows() -> None:
    p = Position(3)
    for name in ["a2", "a1", "b2", "b1", "c2"]:
        p.play(Cell.parse(name))
    assert p.winner == BLACK
    assert sorted(p.winning_chain()) == [3, 4, 5]
    q = Position(3)
    for name in ["a1", "b1", "c1", "b2", "a3", "b3"]:
        q.play(Cell.parse(name))
    assert q.winner == WHITE


def test_illegal_moves() -> None:
    p = Position(3)
    p.play(Cell(0, 0))
    with pytest.raises(IllegalMoveError, match="already occupied"):
        p.play(Cell(0, 0))
    with pytest.raises(IllegalMoveError, match="off the"):
        p.play(Cell(3, 0))
    p.pop()
    with pytest.raises(IllegalMoveError, match="no move to undo"):
        p.pop()


def test_from_stones_balance() -> None:
    with pytest.raises(BoardlabError, match="unbalanced"):
        Position.from_stones(3, [], [Cell(0, 0)])
    with pytest.raises(IllegalMoveError, match="two stones"):
        Position.from_stones(3, [Cell(0, 0)], [Cell(0, 0)])
    assert Position.from_stones(3, [Cell(0, 0)], []).to_move == WHITE


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.randoms(use_true_random=False))
def test_random_games_match_oracle_and_undo(size: int, rng: random.Random) -> None:
    p = Position(size)
    snapshots = []
    while p.winner is None:
        snapshots.append((p.board.copy(), p.to_move))
        p.play(rng.choice(p.legal_moves()))
        assert p.winner == flood_winner(p.board, size)
        if p.winner is None:
            assert flood_winner(p.board, size) is None
    # a full board always has exactly one winner
    full = p.copy()
    while any(v == 0 for v in full.board):
        full.board[full.board.index(0)] = rng.choice([1, 2])
    assert flood_winner(full.board, size) is not None
    while p.history:
        p.pop()
        board, to_move = snapshots.pop()
        assert (p.board, p.to_move, p.winner) == (board, to_move, None)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 8), st.randoms(use_true_random=False))
def test_transpose_swaps_the_winner_roles(size: int, rng: random.Random) -> None:
    p = Position(size)
    while p.winner is None:
        p.play(rng.choice(p.legal_moves()))
    t = p.transposed()
    # in the transposed board the same owner's stones join the other pair of edges
    swapped = [0 if v == 0 else 3 - v for v in t.board]
    assert flood_winner(swapped, size) == 3 - p.winner


def test_bridge_table() -> None:
    size = 5
    table = bridge_table(size)
    centre = Cell(2, 2).index(size)
    interior = [t for t in table[centre] if t[1] >= 0]
    assert len(interior) == 6
    for a, b, y in interior:
        common = set(neighbours(size)[a]) & set(neighbours(size)[b])
        assert common == {centre, y}
    # b2 with a1/a2 empty: an edge bridge of player 1 to the left edge, carriers a2, a3
    b2 = Cell(1, 1).index(size)
    edge = [t for t in table[Cell(1, 0).index(size)] if t[0] == b2 and t[1] == -1]
    assert edge == [(b2, -1, Cell(2, 0).index(size))]
