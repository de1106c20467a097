"""``MctsEngine(tree_fill=True)``: the tree nodes analysed for connections are filled in."""

from __future__ import annotations

import random

import numpy as np

from boardlab.core.limits import Limit
from boardlab.hex import connections as vc
from boardlab.hex.engine.search import MctsEngine, _vc_like, _vc_width
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Position, random_open_position

# an 11x11 middle game (cell indices, kept against MoHex) with captured pairs about
MIDDLE_GAME = (17, 18, 28, 40, 61, 62, 51, 42, 52, 53, 63, 64, 74, 75, 85, 86, 107, 49, 70, 96)


def fill_entries(pool: np.ndarray, at: int) -> dict[int, int]:
    """The cells and colours of the fill stored at ``pool[at]``."""
    return {int(e) >> 2: int(e) & 3 for e in pool[at + 1 : at + 1 + int(pool[at])]}


def walk(engine: MctsEngine) -> list[tuple[int, np.ndarray, int]]:
    """Every expanded node of the engine's last tree with the board it stands for (the
    root board, the moves, and the fills above it put on in order) before its own fill,
    and its player to move."""
    assert engine._tree is not None
    _, (nodes, _, _, fills, pool), root_board, player = engine._tree
    out = []
    stack = [(0, root_board.copy(), player)]
    while stack:
        node, board, to_move = stack.pop()
        if nodes[0, node] < 0:
            continue
        out.append((node, board, to_move))
        below = board.copy()
        if node and fills[node] > 0:
            for cell, colour in fill_entries(pool, int(fills[node])).items():
                if below[cell] == 0:
                    below[cell] = colour
        for c in range(int(nodes[0, node]), int(nodes[0, node] + nodes[1, node])):
            cell = int(nodes[2, c])
            if below[cell] != 0:
                continue  # a child a fill above left out
            child = below.copy()
            child[cell] = to_move
            stack.append((c, child, 3 - to_move))
    return out


def middle_game() -> Position:
    p = Position(11)
    for cell in MIDDLE_GAME:
        p.push_index(cell)
    return p


def test_each_stored_fill_is_the_fill_in_of_its_nodes_board() -> None:
    engine = MctsEngine(seed=5, tree_fill=True, knowledge_visits=40)
    engine.search(middle_game(), Limit(nodes=6000))
    assert engine._tree is not None
    _, (nodes, _, proof, fills, pool), _, _ = engine._tree
    kb = vc.knowledge(11, _vc_width(11))
    checked = 0
    for node, board, to_move in walk(engine):
        if node == 0 or fills[node] == 0:
            continue
        filled = vc.filled_board(11, kb.ring, kb.table, board, to_move, _vc_like(11))
        expected = {i: int(filled[i]) for i in range(121) if board[i] == 0 and filled[i] != 0}
        assert fill_entries(pool, int(fills[node])) == expected
        for c in range(int(nodes[0, node]), int(nodes[0, node] + nodes[1, node])):
            if int(nodes[2, c]) in expected:
                assert proof[c] == -1  # the children into filled cells are left out
        checked += 1
    assert checked >= 3


def test_without_tree_fill_no_fill_is_stored_and_with_it_the_search_is_reproducible() -> None:
    plain = MctsEngine(seed=5, knowledge_visits=40)
    plain.search(middle_game(), Limit(nodes=3000))
    assert plain._tree is not None
    assert plain._tree[1][3].shape == (1,)
    first = MctsEngine(seed=5, tree_fill=True, knowledge_visits=40)
    again = MctsEngine(seed=5, tree_fill=True, knowledge_visits=40)
    one = first.search(middle_game(), Limit(nodes=3000))
    two = again.search(middle_game(), Limit(nodes=3000))
    assert (one.cell, one.top) == (two.cell, two.top)


def test_the_next_search_starts_from_the_fills_on_the_way() -> None:
    engine = MctsEngine(seed=5, tree_fill=True, knowledge_visits=40)
    p = middle_game()
    engine.search(p, Limit(nodes=6000))
    assert engine._tree is not None
    _, (nodes, stats, _, fills, pool), _, _ = engine._tree
    # the most visited grandchild whose parent or itself holds a fill
    best = None
    for c in range(int(nodes[0, 0]), int(nodes[0, 0] + nodes[1, 0])):
        if nodes[0, c] < 0:
            continue
        for g in range(int(nodes[0, c]), int(nodes[0, c] + nodes[1, c])):
            filled = nodes[0, g] >= 0 and (fills[c] > 0 or fills[g] > 0)
            if filled and (best is None or stats[0, g] > stats[0, best[1]]):
                best = (c, g)
    assert best is not None
    c, g = best
    wanted: dict[int, int] = {}
    for node in (c, g):
        if fills[node] > 0:
            wanted.update(fill_entries(pool, int(fills[node])))
    q = p.copy()
    q.push_index(int(nodes[2, c]))
    q.push_index(int(nodes[2, g]))
    visits = float(stats[0, g])
    engine.search(q, Limit(nodes=1))
    _, (nodes2, stats2, *_), board2, _ = engine._tree
    assert stats2[0, 0] == visits + 1  # the reached subtree was kept
    for cell, colour in wanted.items():
        if q.board[cell] == 0:
            assert board2[cell] == colour  # filled on the new root board
    children = nodes2[2, int(nodes2[0, 0]) : int(nodes2[0, 0] + nodes2[1, 0])]
    assert (board2[children] == 0).all()


def test_proofs_with_tree_fill_agree_with_the_exact_solver() -> None:
    rng = random.Random(7)
    proven = 0
    for _ in range(12):
        p = random_open_position(6, rng.randrange(6, 12), rng)
        engine = MctsEngine(
            seed=rng.randrange(1000), tree_fill=True, knowledge_visits=8, solver_empties=0
        )
        result = engine.search(p, Limit(nodes=4000))
        if result.verdict == 0 or result.playouts == 0:
            continue
        exact = solve(p)
        assert exact.complete
        if result.verdict == 1:
            assert exact.winner == p.to_move
            assert result.cell in exact.winning_moves
        else:
            assert exact.winner != p.to_move
        proven += 1
    assert proven >= 3


def test_threads_sharing_the_tree_fill_it_in_too() -> None:
    engine = MctsEngine(seed=5, tree_fill=True, knowledge_visits=40, threads=2)
    p = middle_game()
    result = engine.search(p, Limit(nodes=4000))
    assert p.board[result.cell.index(11)] == 0
    assert engine._tree is not None
    fills = engine._tree[1][3]
    assert (fills > 0).any()
