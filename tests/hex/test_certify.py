"""Certified virtual connections: every certificate is won by brute force, and the checker
refuses broken ones."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from boardlab.hex.proofcheck import _Bad, _Board, check_proof
from boardlab.hex.prover.certify import FIRST_EDGE, LAST_EDGE, certify, must_play


def _random_position(n: int, rng: random.Random) -> tuple[int, int]:
    cells = list(range(n * n))
    rng.shuffle(cells)
    k = rng.randint(0, n * n // 2)
    black = sum(1 << c for c in cells[: k // 2 + k % 2])
    white = sum(1 << c for c in cells[k // 2 + k % 2 : k])
    return black, white


@pytest.mark.parametrize("n", [3, 4])
def test_every_certified_connection_wins_for_either_side_to_move(n: int) -> None:
    """A certificate says the winner joins its edges whoever moves: played out by brute
    force, with the loser to move and with the winner to move, it does."""
    board = _Board(n)
    found = 0
    for black, white, winner, own, empty in _cases(board, n, 600 if n == 3 else 120):
        steps = certify(n, own, empty, board.edges[winner])
        if steps is None:
            continue
        found += 1
        assert board.connection_joins(own, winner, empty, steps)
        for to_move in (1, 2):
            assert board.wins(black, white, to_move, winner), (black, white, winner, steps)
    assert found >= 30


def _open_positions(
    board: _Board, n: int, count: int, seed: int = 0
) -> Iterator[tuple[int, int, int]]:
    """``(black, white, winner)`` for ``count`` random positions and each player neither
    side has joined yet (the seed ``n + seed``)."""
    rng = random.Random(n + seed)
    for _ in range(count):
        black, white = _random_position(n, rng)
        for winner in (1, 2):
            own, other = (black, white) if winner == 1 else (white, black)
            if not (board.joined(own, winner) or board.joined(other, 3 - winner)):
                yield black, white, winner


def _cases(
    board: _Board, n: int, count: int, seed: int = 0
) -> Iterator[tuple[int, int, int, int, int]]:
    """:func:`_open_positions` with the winner's stones and the empty cells:
    ``(black, white, winner, own, empty)``."""
    for black, white, winner in _open_positions(board, n, count, seed):
        own = black if winner == 1 else white
        yield black, white, winner, own, board.full & ~(black | white)


def _proof_of_black(
    version: int, black: int, white: int, to_move: int, nodes: list[list[Any]]
) -> dict[str, Any]:
    """A 4x4 proof file's contents that black wins the root ``black``/``white``."""
    return {
        "format": "boardlab-hex-proof",
        "version": version,
        "size": 4,
        "winner": 1,
        "root": {"black": black, "white": white, "to_move": to_move},
        "nodes": nodes,
    }


def _some_certificate() -> tuple[int, int, int, list[list[Any]]]:
    n = 4
    board = _Board(n)
    rng = random.Random(7)
    while True:
        black, white = _random_position(n, rng)
        empty = board.full & ~(black | white)
        if board.joined(black, 1) or board.joined(white, 2):
            continue
        steps = certify(n, black, empty, board.edges[1])
        if white and steps is not None and any(step[0] == "or" for step in steps):
            return black, white, empty, steps


def test_a_broken_certificate_is_refused() -> None:
    board = _Board(4)
    black, _, empty, steps = _some_certificate()
    assert board.connection_joins(black, 1, empty, steps)
    broken = []
    last_or = max(i for i, step in enumerate(steps) if step[0] == "or")
    bad = copy.deepcopy(steps)
    bad[last_or] = bad[last_or][:2]  # an or of one semi connection
    broken.append(bad)
    bad = copy.deepcopy(steps)
    bad[last_or] = ["or", bad[last_or][1], bad[last_or][1]]  # the same semi twice
    broken.append(bad)
    broken.append(steps[:-1])  # the last step gone: the edges are not joined
    touch = next(i for i, step in enumerate(steps) if step[0] == "t" and min(step[1:]) >= 0)
    bad = copy.deepcopy(steps)
    a = bad[touch][1]
    near = board.spread(board._groups(black).get(a, 1 << a))
    far = next(c for c in range(16) if empty >> c & 1 and not near >> c & 1)
    bad[touch] = ["t", a, far]  # two nodes that do not touch
    broken.append(bad)
    bad = copy.deepcopy(steps)
    bad.append(["and", len(steps), 0, FIRST_EDGE])  # a reference forward
    broken.append(bad)
    white_cell = next(c for c in range(16) if not (black | empty) >> c & 1)
    bad = copy.deepcopy(steps)
    bad[touch] = ["t", white_cell, bad[touch][2]]  # a loser's stone as a node
    broken.append(bad)
    for bad in broken:
        with pytest.raises(_Bad):
            board.connection_joins(black, 1, empty, bad)


def test_a_connection_leaf_the_loser_wins_is_refused() -> None:
    """A proof whose root is a connection leaf copied from another position."""
    black, white, empty, steps = _some_certificate()
    good = _proof_of_black(2, black, white, 2, [[(1 << 16) - 1, [], [], steps]])
    assert check_proof(good).ok
    assert check_proof(good).leaves["connection"] == 1
    # the cells of the carrier given to white: the same steps no longer hold
    bad = copy.deepcopy(good)
    carrier_cell = next(
        step[3] for step in steps if step[0] == "and" and step[3] >= 0 and empty >> step[3] & 1
    )
    bad["nodes"][0][0] = (1 << 16) - 1 - (1 << carrier_cell)
    assert not check_proof(bad).ok
    # moves and a connection on one node
    bad = copy.deepcopy(good)
    bad["nodes"] = [[(1 << 16) - 1, [[0, 1]], [], steps], [0, [], []]]
    assert not check_proof(bad).ok
    assert LAST_EDGE == -2


@pytest.mark.parametrize("n", [3, 4])
def test_every_certified_semi_connection_wins_with_the_winner_to_move(n: int) -> None:
    """With ``semi`` a certificate may end at a semi connection between the edges: played
    out by brute force with the winner to move, the winner wins; the checker takes it with
    the winner to move only."""
    board = _Board(n)
    semis = 0
    for black, white, winner, own, empty in _cases(board, n, 600 if n == 3 else 160, 10):
        steps = certify(n, own, empty, board.edges[winner], semi=True)
        if steps is None:
            assert certify(n, own, empty, board.edges[winner]) is None
            continue
        assert board.connection_joins(own, winner, empty, steps, semi=True)
        assert board.wins(black, white, winner, winner), (black, white, winner, steps)
        try:
            board.connection_joins(own, winner, empty, steps)
        except _Bad:
            semis += 1  # a semi one: not enough with the loser to move
            assert steps[-1][0] == "and" and empty >> steps[-1][3] & 1
    assert semis >= 10


def test_a_semi_connection_leaf_holds_with_the_winner_to_move_only() -> None:
    """The same semi certificate on a leaf: OK with the winner to move, refused with the
    loser to move."""
    n = 4
    board = _Board(n)
    for black, white, winner in _open_positions(board, n, 10_000):
        empty = board.full & ~(black | white)
        steps = certify(n, black, empty, board.edges[1], semi=True) if winner == 1 else None
        if steps is not None and certify(n, black, empty, board.edges[1]) is None:
            break
    assert steps is not None
    proof = _proof_of_black(3, black, white, 1, [[(1 << 16) - 1, [], [], steps]])
    assert check_proof(proof).ok
    proof["root"]["to_move"] = 2
    answer = check_proof(proof)
    assert not answer.ok  # with the loser to move it narrows the loser's moves, no leaf
    assert "have no answer" in answer.line()


@pytest.mark.parametrize("n", [3, 4])
def test_every_must_play_region_is_sound(n: int) -> None:
    """With the loser to move, every loser's move outside the region :func:`must_play`
    names is lost for the loser (played out by brute force), and the checker finds the
    same region in the derivation."""
    board = _Board(n)
    narrowed = 0
    for black, white, winner, own, empty in _cases(board, n, 600 if n == 3 else 200, 20):
        found = must_play(n, own, empty, board.edges[winner])
        if found is None:
            continue
        steps, cells = found
        region = board.must_play(own, winner, empty, steps)
        if region is None:  # a full connection: the loser's every move loses
            assert cells == 0
            assert board.wins(black, white, 3 - winner, winner)
            continue
        assert region == cells and cells & ~empty == 0
        narrowed += cells != empty
        rest = empty & ~cells
        while rest:
            move = rest & -rest
            rest ^= move
            after = (black | move, white) if winner == 2 else (black, white | move)
            assert board.wins(*after, winner, winner), (black, white, winner, move)
    assert narrowed >= 10


def _narrowed_position() -> tuple[int, int, int, list[list[Any]]]:
    """A 4x4 position black wins with white to move, at most 10 empty cells, where
    black has semi connections of its edges but no full one."""
    n = 4
    board = _Board(n)
    for black, white, winner in _open_positions(board, n, 20_000, 30):
        empty = board.full & ~(black | white)
        if winner != 1 or empty.bit_count() > 10:  # its children are played out
            continue
        found = must_play(n, black, empty, board.edges[1])
        if found is not None and found[1] and board.wins(black, white, 2, 1):
            return black, white, found[1], found[0]
    raise AssertionError("no narrowed position found")


def test_a_must_play_node_answers_its_region_only() -> None:
    """A node with the loser to move and semi connections answers the loser's moves in
    their carriers' intersection only: OK when black wins each; refused when one is left
    out or when a carrier cell is given to the loser."""
    black, white, region, steps = _narrowed_position()
    full = (1 << 16) - 1
    nodes: list[list[Any]] = [[full, [], [], steps]]
    for cell in range(16):
        if region >> cell & 1:
            nodes[0][1].append([cell, len(nodes)])
            nodes.append([full, [], []])  # at most 9 empty cells: played out
    proof = _proof_of_black(4, black, white, 2, nodes)
    assert check_proof(proof).ok, check_proof(proof).line()
    left_out = copy.deepcopy(proof)
    left_out["nodes"][0][1].pop()
    assert "have no answer" in check_proof(left_out).line()
    carrier_cell = (region & -region).bit_length() - 1  # in every carrier
    taken = copy.deepcopy(proof)
    taken["nodes"][0][0] = full & ~(1 << carrier_cell)
    assert not check_proof(taken).ok
    winner_to_move = copy.deepcopy(proof)
    winner_to_move["root"]["to_move"] = 1
    assert not check_proof(winner_to_move).ok


@pytest.mark.parametrize("n", [4, 5, 6])
def test_the_compiled_certifier_agrees_with_the_reference(n: int) -> None:
    """The compiled search finds a connection where the plain Python one does (a few
    differences allowed: their lists keep different connections when carriers tie), and
    every certificate and must-play region it writes passes the checker."""
    board = _Board(n)
    asked = differ = 0
    for _, _, winner, own, empty in _cases(board, n, 120, 40):
        lines = board.edges[winner]
        for semi in (False, True):
            fast = certify(n, own, empty, lines, semi=semi)
            slow = certify(n, own, empty, lines, semi=semi, compiled=False)
            asked += 1
            differ += (fast is None) != (slow is None)
            if fast is not None:
                assert board.connection_joins(own, winner, empty, fast, semi=semi)
        fast_region = must_play(n, own, empty, lines)
        slow_region = must_play(n, own, empty, lines, compiled=False)
        asked += 1
        differ += (fast_region is None) != (slow_region is None)
        if fast_region is not None:
            steps, cells = fast_region
            assert (board.must_play(own, winner, empty, steps) or 0) == cells
    assert asked >= 300
    assert differ <= asked // 100
