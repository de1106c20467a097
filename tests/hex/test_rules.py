"""Hex rules: cells, adjacency, win detection with undo, against a flood-fill oracle."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.errors import BoardlabError, IllegalMoveError, ParseError
from boardlab.hex.rules import (
    BLACK,
    SWAP,
    SWAP_MOVE,
    WHITE,
    Cell,
    Position,
    bridge_table,
    neighbours,
)


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
    with pytest.raises(BoardlabError, match="board size must be 1 to 26"):
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
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        p.pop()


def test_from_stones_balance() -> None:
    with pytest.raises(BoardlabError, match="unbalanced"):
        Position.from_stones(3, [], [Cell(0, 0)])
    with pytest.raises(BoardlabError, match="two stones") as raised:
        Position.from_stones(3, [Cell(0, 0)], [Cell(0, 0)])
    assert not isinstance(raised.value, IllegalMoveError)  # a bad setup is not a move
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


# -- the swap rule ---------------------------------------------------------------------------


def test_swap_is_off_by_default() -> None:
    p = Position(5)
    p.play(Cell.parse("c3"))
    assert not p.can_swap() and not p.is_legal(SWAP_MOVE)
    with pytest.raises(IllegalMoveError, match="swap rule is off"):
        p.play(SWAP_MOVE)
    assert p.stones(BLACK) == [Cell.parse("c3")] and p.to_move == WHITE


def test_swap_only_as_the_second_move() -> None:
    p = Position(5, swap=True)
    assert not p.can_swap()
    with pytest.raises(IllegalMoveError, match="answer to player 1's first stone"):
        p.play(SWAP_MOVE)
    p.play(Cell.parse("b2"))
    assert p.can_swap() and p.is_legal(SWAP_MOVE)
    p.play(Cell.parse("d4"))
    assert not p.can_swap()
    with pytest.raises(IllegalMoveError, match="answer to player 1's first stone"):
        p.play(SWAP_MOVE)
    p.play(Cell.parse("a1"))
    with pytest.raises(IllegalMoveError, match="answer to player 1's first stone"):
        p.play(SWAP_MOVE)
    # a swap cannot be swapped back
    q = Position(5, swap=True)
    q.play(Cell.parse("b2"))
    q.play(SWAP_MOVE)
    assert not q.can_swap()
    with pytest.raises(IllegalMoveError):
        q.play(SWAP_MOVE)


def test_swap_needs_an_empty_start() -> None:
    p = Position.from_stones(5, [Cell.parse("a1")], [Cell.parse("e5")])
    p.swap = True
    p.play(Cell.parse("c3"))
    assert not p.can_swap()
    with pytest.raises(IllegalMoveError, match="did not start from the empty board"):
        p.play(SWAP_MOVE)
    # a setup without stones is an empty start
    q = Position.from_stones(5, [], [])
    q.swap = True
    q.play(Cell.parse("c3"))
    assert q.can_swap()
    # white's stone first (white to move at the start) cannot be swapped by black
    r = Position.from_stones(5, [], [], to_move=WHITE)
    r.swap = True
    r.play(Cell.parse("c3"))
    assert not r.can_swap()


def test_no_swap_after_a_winning_first_stone() -> None:
    p = Position(1, swap=True)
    p.play(Cell.parse("a1"))
    assert p.winner == BLACK and not p.can_swap()
    with pytest.raises(IllegalMoveError, match="game is over"):
        p.play(SWAP_MOVE)


@pytest.mark.parametrize("size", [2, 3, 5])
def test_swap_mirrors_the_stone_for_every_first_move(size: int) -> None:
    for first in range(size * size):
        p = Position(size, swap=True)
        p.play_index(first)
        before = (p.board.copy(), p.to_move, p.winner)
        p.play(SWAP_MOVE)
        row, col = divmod(first, size)
        assert p.stones(BLACK) == [] and p.stones(WHITE) == [Cell(col, row)]
        assert p.to_move == BLACK and p.indices == [first, SWAP] and p.winner is None
        assert p.pop() == SWAP_MOVE
        assert (p.board, p.to_move, p.winner) == before and p.indices == [first]
        assert p.can_swap()


def test_swapped_stone_keeps_its_edges() -> None:
    # player 1's stone on its own left edge (column a) becomes player 2's stone on its own
    # top edge (row 1); the engine sees the same game with the roles exchanged
    p = Position(5, swap=True)
    p.play(Cell.parse("a3"))
    assert p.swapped_cell() == Cell.parse("c1").index(5)
    p.play(SWAP_MOVE)
    assert p.stones(WHITE) == [Cell.parse("c1")]
    assert p.transposed().board == [
        0 if v == 0 else 3 - v for v in Position.from_stones(5, [Cell.parse("a3")], []).board
    ]
    with pytest.raises(IllegalMoveError):
        p.swapped_cell()


def test_copy_keeps_the_swap_state() -> None:
    p = Position(4, swap=True)
    p.play(Cell.parse("b2"))
    q = p.copy()
    assert q.swap and q.start_empty and q.can_swap()
    q.play(SWAP_MOVE)
    assert p.stones(BLACK) == [Cell.parse("b2")]  # the copy is independent
    r = q.copy()
    r.pop()
    assert r.stones(BLACK) == [Cell.parse("b2")] and q.stones(BLACK) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 8), st.booleans(), st.randoms(use_true_random=False))
def test_games_with_a_swap_match_oracle_and_undo(size: int, swap: bool, rng: random.Random) -> None:
    p = Position(size, swap=True)
    snapshots: list[tuple[list[int], int]] = []
    while p.winner is None:
        snapshots.append((p.board.copy(), p.to_move))
        if swap and p.can_swap():
            p.play(SWAP_MOVE)
        else:
            p.play(rng.choice([move for move in p.legal_moves() if move != SWAP_MOVE]))
        assert p.winner == flood_winner(p.board, size)
    assert (SWAP_MOVE in p.history) == swap
    while len(p.history) > 1:
        p.pop()
        board, to_move = snapshots.pop()
        assert (p.board, p.to_move, p.winner) == (board, to_move, None)
    # play on from the first stone the other way (swap or not): the undone state must
    # still detect wins exactly
    assert p.can_swap()
    if not swap:
        p.play(SWAP_MOVE)
    while p.winner is None:
        p.play(rng.choice(p.legal_moves()))
        assert p.winner == flood_winner(p.board, size)
    while p.history:
        p.pop()
    assert p.board == [0] * size * size and p.to_move == BLACK
