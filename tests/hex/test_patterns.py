"""The engine's move patterns against a plain-Python twin, and the shipped weights."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.limits import Limit
from boardlab.hex.board import DIRECTIONS
from boardlab.hex.engine import patterns as pat
from boardlab.hex.engine.search import pattern_weights
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Position, parse_move

BRIDGE_PAIRS = 3


def _state_py(board: list[int], n: int, row: int, col: int) -> int:
    """Player 1's view (it joins the columns) of square ``(row, col)``."""
    if 0 <= row < n and 0 <= col < n:
        return (pat.EMPTY, pat.OWN, pat.THEIRS)[board[row * n + col]]
    return pat.OWN_EDGE if not 0 <= col < n else pat.THEIR_EDGE


def features_py(board: list[int], n: int, player: int, last: int, cell: int) -> list[int]:
    """The features by their definition: player 2's position is transposed with its
    colours swapped, then read as player 1's."""
    if player == 2:
        swap = (0, 2, 1)
        board = [swap[board[(i % n) * n + i // n]] for i in range(n * n)]
        cell = (cell % n) * n + cell // n
        last = -1 if last < 0 else (last % n) * n + last // n
    row, col = divmod(cell, n)
    ring = [_state_py(board, n, row + dr, col + dc) for dr, dc in DIRECTIONS]
    code = sum(state * pat.STATES**k for k, state in enumerate(ring))
    turned = sum(ring[(k + 3) % 6] * pat.STATES**k for k in range(6))
    out = [pat.RING_BASE + min(code, turned)]
    for k in range(6):
        j = (k + 1) % 6
        dr = DIRECTIONS[k][0] + DIRECTIONS[j][0]
        dc = DIRECTIONS[k][1] + DIRECTIONS[j][1]
        bridge = _state_py(board, n, row + dr, col + dc)
        local = (bridge * pat.STATES + ring[k]) * pat.STATES + ring[j]
        out.append(pat.BRIDGE_BASE + (k % BRIDGE_PAIRS) * pat.BRIDGE_CODES + local)
    near = 0
    if last >= 0:
        offset = (last // n - row, last % n - col)
        adjacent = set(DIRECTIONS)
        bridges = {
            (a[0] + b[0], a[1] + b[1])
            for a, b in zip(DIRECTIONS, DIRECTIONS[1:] + DIRECTIONS[:1], strict=True)
        }
        two_steps = {(a[0] + b[0], a[1] + b[1]) for a in DIRECTIONS for b in DIRECTIONS}
        if offset in adjacent:
            near = 1
        elif offset in bridges:
            near = 2
        elif offset in two_steps and offset != (0, 0):
            near = 3
    out.append(pat.LAST_BASE + near)
    own = min(min(col, n - 1 - col), pat.EDGE_CAP)
    theirs = min(min(row, n - 1 - row), pat.EDGE_CAP)
    out.append(pat.EDGE_BASE + own * (pat.EDGE_CAP + 1) + theirs)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_features_match_the_twin_on_random_boards(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([3, 5, 7, 11])
    board = [rng.choice([0, 0, 1, 2]) for _ in range(n * n)]
    arr = np.array(board, np.int8)
    canon = pat.ring_canon_table()
    squares = pat.square_table(n)
    out = np.empty(pat.NUM_FEATURES, np.int32)
    for player in (1, 2):
        for cell in range(n * n):
            last = rng.randrange(-1, n * n)
            pat.features(arr, n, player, last, cell, canon, squares, out)
            assert out.tolist() == features_py(board, n, player, last, cell), (player, cell)
    assert all(0 <= i < pat.NUM_WEIGHTS for i in out)


def test_ring_classes_merge_each_ring_with_its_half_turn() -> None:
    canon = pat.ring_canon_table()
    assert canon.shape == (pat.RING_CODES,)
    assert (canon[canon] == canon).all()  # a class's representative is its own class
    assert 5**3 < len(set(canon.tolist())) < pat.RING_CODES


def test_the_shipped_weights_prefer_the_bridge_save() -> None:
    """White intrudes into black's bridge f5-g6 at f6 (our frame: black joins columns);
    of every empty cell, the weights score the saving cell g5 among the best few."""
    n = 11
    position = Position.from_moves(n, [parse_move(m, n) for m in ("f5", "c3", "g6", "f6")])
    weights, canon = pattern_weights()
    board = np.array(position.board, np.int8)
    cells = np.flatnonzero(board == 0).astype(np.int32)
    out = np.empty(cells.size)
    last = position.indices[-1]
    pat.scores(board, n, 1, last, cells, cells.size, weights, canon, pat.square_table(n), out)
    save = parse_move("g5", n)
    rank = int((out > out[np.flatnonzero(cells == position.index_of(save))[0]]).sum())
    assert rank < 3


def test_the_prior_off_and_on_both_search_reproducibly() -> None:
    position = Position.from_moves(7, [parse_move("d4", 7)])
    for prior in (0.0, 20.0):
        first = SolvingEngine(seed=3, prior=prior).search(position, Limit(nodes=3000))
        again = SolvingEngine(seed=3, prior=prior).search(position, Limit(nodes=3000))
        assert first.cell == again.cell


def test_the_engine_reads_another_weights_file_and_names_a_bad_one(tmp_path: Path) -> None:
    from boardlab.core.errors import BoardlabError
    from boardlab.hex.engine.patterns import NUM_WEIGHTS

    good = tmp_path / "good.npz"
    np.savez(good, weights=np.full(NUM_WEIGHTS, 0.5))
    weights, _ = pattern_weights(str(good))
    assert weights.shape == (NUM_WEIGHTS,) and float(weights[7]) == 0.5
    assert SolvingEngine(patterns=str(good)).patterns[0] is weights
    short = tmp_path / "short.npz"
    np.savez(short, weights=np.zeros(3))
    with pytest.raises(BoardlabError, match="short.npz: 3 weights"):
        pattern_weights(str(short))
    with pytest.raises(BoardlabError, match="cannot read the pattern weights"):
        SolvingEngine(patterns=str(tmp_path / "missing.npz"))
