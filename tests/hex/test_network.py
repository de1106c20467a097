"""The policy network's forward pass (numba) against its plain-numpy reference, and its use in
the engine."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import Cell
from boardlab.hex.engine import network as net_mod
from boardlab.hex.engine.network import PLANES, TAPS, Network, pack
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.rules import Position


def random_network(rng: np.random.Generator, channels: int, layers: int) -> Network:
    return pack(
        {
            "first": rng.normal(size=(len(TAPS), PLANES, channels)).astype(np.float32) * 0.5,
            "first_bias": rng.normal(size=channels).astype(np.float32) * 0.1,
            "hidden": rng.normal(size=(layers, len(TAPS), channels, channels)).astype(np.float32)
            * 0.2,
            "hidden_bias": rng.normal(size=(layers, channels)).astype(np.float32) * 0.1,
            "head": rng.normal(size=channels).astype(np.float32),
            "head_bias": np.array([0.3], np.float32),
            "alpha": np.array([0.7], np.float32),
            "value": rng.normal(size=channels).astype(np.float32),
            "value_bias": np.array([-0.2], np.float32),
        }
    )


def random_board(rng: np.random.Generator, n: int) -> np.ndarray:
    board = np.zeros(n * n, np.int8)
    stones = rng.integers(0, n * n // 2 + 1)
    cells = rng.permutation(n * n)[:stones]
    board[cells] = np.where(np.arange(stones) % 2 == 0, 1, 2)
    return board


def engine_logits(
    net: Network, board: np.ndarray, n: int, player: int, last: int, pattern: np.ndarray
) -> np.ndarray:
    planes = np.zeros((PLANES, n + 2, n + 2), np.float32)
    net_mod.input_planes(board, n, player, last, pattern, planes)
    return net.logits(planes, n, player)


@pytest.mark.parametrize(("n", "channels", "layers"), [(1, 3, 0), (4, 5, 1), (7, 8, 2), (11, 6, 2)])
def test_forward_pass_matches_the_reference(n: int, channels: int, layers: int) -> None:
    rng = np.random.default_rng(n * 100 + channels)
    net = random_network(rng, channels, layers)
    for trial in range(6):
        board = random_board(rng, n)
        player = 1 + trial % 2
        stones = np.flatnonzero(board)
        last = int(stones[0]) if stones.size and trial % 3 else -1
        pattern = rng.normal(size=n * n)
        got = engine_logits(net, board, n, player, last, pattern)
        want = net_mod.reference_logits(net, board, n, player, last, pattern)
        assert np.allclose(got, want, atol=1e-4), (n, trial, np.abs(got - want).max())


def test_the_two_players_see_the_same_position_in_their_own_frames() -> None:
    # player 2 on a board is player 1 on its transpose with the colours swapped
    rng = np.random.default_rng(5)
    n = 6
    net = random_network(rng, 4, 1)
    board = random_board(rng, n)
    pattern = rng.normal(size=n * n)
    transposed = board.reshape(n, n).T.ravel().copy()
    swapped = np.where(transposed == 0, 0, 3 - transposed).astype(np.int8)
    last = int(np.flatnonzero(board)[0])
    row, col = divmod(last, n)
    as_second = engine_logits(net, board, n, 2, last, pattern)
    as_first = engine_logits(net, swapped, n, 1, col * n + row, pattern.reshape(n, n).T.ravel())
    assert np.allclose(as_second[:-1].reshape(n, n).T.ravel(), as_first[:-1], atol=1e-5)
    assert abs(as_second[-1] - as_first[-1]) < 1e-5


def test_input_planes_hold_the_edges_and_stones() -> None:
    n = 3
    board = np.array([1, 0, 0, 0, 2, 0, 0, 0, 0], np.int8)
    planes = np.zeros((PLANES, n + 2, n + 2), np.float32)
    net_mod.input_planes(board, n, 1, 4, np.arange(9, dtype=np.float64), planes)
    own, theirs, empty = planes[0], planes[1], planes[2]
    assert own[1:4, 0].all() and own[1:4, 4].all() and own[1, 1] == 1.0
    assert theirs[0, 1:4].all() and theirs[4, 1:4].all() and theirs[2, 2] == 1.0
    assert empty.sum() == 7 and planes[3].sum() == 9 and planes[4, 2, 2] == 1.0
    # the pattern plane is centred on the empty cells' mean
    assert abs(float(planes[5][empty == 1].sum())) < 1e-5


def test_bad_weights_are_refused_in_one_line() -> None:
    rng = np.random.default_rng(1)
    arrays = {
        "first": np.zeros((len(TAPS), PLANES, 4), np.float32),
        "first_bias": np.zeros(4, np.float32),
        "hidden": np.zeros((1, len(TAPS), 4, 3), np.float32),
        "hidden_bias": np.zeros((1, 4), np.float32),
        "head": rng.normal(size=4).astype(np.float32),
        "head_bias": np.zeros(1, np.float32),
        "alpha": np.ones(1, np.float32),
    }
    with pytest.raises(BoardlabError, match="hidden has shape"):
        pack(arrays)
    del arrays["head"]
    with pytest.raises(BoardlabError, match="no array 'head'"):
        pack(arrays)


def test_the_shipped_network_loads_with_its_card() -> None:
    net = net_mod.load_network()
    assert net.channels > 0 and "held-out top-1" in net.card
    with pytest.raises(BoardlabError, match="cannot read the network"):
        net_mod.load_network("/nonexistent/policy.npz")


def test_the_network_changes_the_search_and_stays_reproducible() -> None:
    position = Position(7)
    for cell in ("d4", "c5", "e3"):
        position.play(Cell.parse(cell))
    runs = []
    for visits in (0, 8, 8):
        engine = MctsEngine(seed=3, net_visits=visits, connections=False, policy_weight=1.0)
        result = engine.search(position, Limit(nodes=3000))
        runs.append([(str(c), v) for c, v, _ in result.top])
    assert runs[1] == runs[2]
    assert runs[0] != runs[1]


def test_the_value_head_moves_the_search(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    net = random_network(rng, 4, 1)
    path = tmp_path / "valued.npz"
    np.savez(
        path,
        first=net.first,
        first_bias=net.first_bias,
        hidden=net.hidden,
        hidden_bias=net.hidden_bias,
        head=net.head,
        head_bias=np.array([net.head_bias]),
        alpha=np.array([net.alpha]),
        value=net.value,
        value_bias=np.array([net.value_bias]),
        card=np.array("random weights"),
    )
    assert net_mod.load_network(str(path)).has_value
    position = Position(6)
    position.play(Cell.parse("c3"))
    runs = []
    for value_visits in (0.0, 30.0, 30.0):
        engine = MctsEngine(
            seed=5, net_visits=4, connections=False, network=str(path), value_visits=value_visits
        )
        result = engine.search(position, Limit(nodes=2000))
        runs.append([(str(c), v) for c, v, _ in result.top])
    assert runs[1] == runs[2]
    assert runs[0] != runs[1]


def test_the_default_policy_weight_follows_the_board_size() -> None:
    from boardlab.hex.engine.search import default_policy_weight

    assert default_policy_weight(11) == 1.0 and default_policy_weight(12) == 1.0
    assert default_policy_weight(13) == 3.0 and default_policy_weight(19) == 3.0
    for size, weight, other in ((13, 3.0, 1.0), (9, 1.0, 3.0)):
        position = Position(size)
        for cell in ("d4", "c5", "e3"):
            position.play(Cell.parse(cell))
        runs = []
        for given in (None, weight, other):
            engine = MctsEngine(seed=5, net_visits=8, connections=False, policy_weight=given)
            result = engine.search(position, Limit(nodes=2000))
            runs.append([(str(c), v) for c, v, _ in result.top])
        assert runs[0] == runs[1], size
        assert runs[0] != runs[2], size
