"""Tree reuse: the subtree of the position reached is carried into the next search."""

from __future__ import annotations

import numpy as np

from boardlab.core.limits import Limit
from boardlab.hex.engine.search import MctsEngine, _board_after, _filled, root_connections
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Position


def subtree(nodes: np.ndarray, stats: np.ndarray, node: int, depth: int) -> object:
    """The moves, visits and children of ``node`` down to ``depth``, as nested tuples."""
    first, count = int(nodes[0, node]), int(nodes[1, node])
    children = (
        ()
        if first < 0 or depth == 0
        else tuple(subtree(nodes, stats, first + k, depth - 1) for k in range(count))
    )
    return (float(stats[0, node]), float(stats[1, node]), children)


def most_visited_child(nodes: np.ndarray, stats: np.ndarray) -> int:
    """The root's child with the most visits in a tree's ``nodes`` and ``stats`` rows."""
    start = int(nodes[0, 0])
    return start + int(np.argmax(stats[0, start : start + int(nodes[1, 0])]))


def test_the_reached_subtree_becomes_the_new_root() -> None:
    engine = SolvingEngine(seed=4)
    p = Position(7)
    engine.search(p, Limit(nodes=3000))
    assert engine._tree is not None
    old_nodes, old_stats, _ = engine._tree[1]
    child = most_visited_child(old_nodes, old_stats)
    p.push_index(int(old_nodes[2, child]))
    expected = subtree(old_nodes, old_stats, child, 3)
    assert engine._reusable((7, *p.indices)) == child
    result = engine.search(p, Limit(nodes=1))
    nodes, stats, _ = engine._tree[1]
    assert result.playouts == 1
    assert stats[0, 0] == expected[0] + 1  # the old visits and the one new playout
    # the old subtree, one playout later: same shape, same moves
    assert int(nodes[1, 0]) == int(old_nodes[1, child])
    assert list(nodes[2, int(nodes[0, 0]) : int(nodes[0, 0]) + int(nodes[1, 0])]) == list(
        old_nodes[2, int(old_nodes[0, child]) : int(old_nodes[0, child]) + int(old_nodes[1, child])]
    )


def test_no_reuse_across_sizes_or_after_an_undo() -> None:
    engine = SolvingEngine(seed=4)
    engine.search(Position(7), Limit(nodes=500))
    assert engine._reusable((9, 3)) is None  # another board size
    q = Position(7)
    q.push_index(3)
    engine.search(q, Limit(nodes=500))
    assert engine._reusable((7,)) is None  # back to before the root
    assert engine._reusable((7, 4, 5)) is None  # another first move


def test_reuse_off_repeats_the_fresh_search() -> None:
    p = Position(6)
    p.push_index(14)
    fresh = SolvingEngine(seed=9).search(p, Limit(nodes=2000))
    engine = SolvingEngine(seed=9, reuse=False)
    engine.search(Position(6), Limit(nodes=2000))
    engine._searches = 0
    again = engine.search(p, Limit(nodes=2000))
    assert (again.cell, again.top) == (fresh.cell, fresh.top)


# an 11x11 middle game (cell indices, kept against MoHex) where the root board gets its
# captured pairs and dead cells filled in before the search
MIDDLE_GAME = (17, 18, 28, 40, 61, 62, 51, 42, 52, 53, 63, 64, 74, 75, 85, 86, 107, 49, 70, 96)
MIDDLE_GAME += (106, 95, 105, 90, 69, 94, 104, 82, 91, 68)


def test_a_tree_grown_on_a_filled_board_is_reused_less_the_newly_filled_cells() -> None:
    p = Position(11)
    for cell in MIDDLE_GAME:
        p.push_index(cell)
    given = np.array(p.board, np.int8)
    assert (_filled(given, 11, p.to_move) != given).any()
    engine = MctsEngine(seed=3)
    engine.search(p, Limit(nodes=20_000))
    assert engine._tree is not None
    _, (nodes, stats, _), board, player = engine._tree
    # two moves after which the fill-in takes cells it did not take before
    pairs = []
    for c in range(int(nodes[0, 0]), int(nodes[0, 0] + nodes[1, 0])):
        if nodes[0, c] < 0:
            continue
        for g in range(int(nodes[0, c]), int(nodes[0, c] + nodes[1, c])):
            if nodes[0, g] < 0:
                continue
            moves = (int(nodes[2, c]), int(nodes[2, g]))
            q = p.copy()
            for cell in moves:
                q.push_index(cell)
            new = np.array(q.board, np.int8)
            new = _filled(new, 11, q.to_move)
            grown = _board_after(board, player, moves)
            if (new != grown).any() and (new[grown != 0] == grown[grown != 0]).all():
                # a position the root's virtual connections decide is answered without a
                # tree: its H-search asked only of the pairs the fill-in check keeps
                verdict = root_connections(q, engine.edge_templates, bool(engine.params[15]))[0]
                children = nodes[2, int(nodes[0, g]) : int(nodes[0, g] + nodes[1, g])]
                # one whose node has a child on a newly filled cell, to see it left out
                if verdict == 0 and (new[children] != 0).any():
                    pairs.append((g, q, new, [int(cell) for cell in children]))
    assert pairs
    g, q, new, old_children = pairs[0]
    old_visits = float(stats[0, g])
    engine.search(q, Limit(nodes=1))
    _, (nodes2, stats2, _), board2, _ = engine._tree
    assert (board2 == new).all()
    assert stats2[0, 0] == old_visits + 1  # the reached subtree kept, one playout later
    kept = list(nodes2[2, int(nodes2[0, 0]) : int(nodes2[0, 0] + nodes2[1, 0])])
    assert kept == [cell for cell in old_children if new[cell] == 0]
    assert len(kept) < len(old_children)  # a newly filled cell's move left out
    # no node of the copied tree moves into a cell the new root board fills
    expanded = np.flatnonzero(nodes2[0] >= 0)
    for node in expanded:
        children = nodes2[2, int(nodes2[0, node]) : int(nodes2[0, node] + nodes2[1, node])]
        assert (new[children] == 0).all()


def test_a_thinly_visited_node_is_kept_without_its_children() -> None:
    from boardlab.hex.engine import kernel

    engine = MctsEngine(seed=5, reuse_visits=0)
    p = Position(7)
    engine.search(p, Limit(nodes=4000))
    assert engine._tree is not None
    nodes, stats, proof = engine._tree[1]
    child = most_visited_child(nodes, stats)
    blocked = np.zeros(49, np.int8)
    blocked[int(nodes[2, child])] = 1

    def copied(keep: float) -> tuple[int, np.ndarray, np.ndarray]:
        dst = np.zeros_like(nodes)
        dst_stats = np.zeros_like(stats)
        dst_proof = np.zeros_like(proof)
        used = kernel.reroot(child, nodes, stats, proof, dst, dst_stats, dst_proof, blocked, keep)
        return used, dst, dst_stats

    everything, whole, whole_stats = copied(0.0)
    used, dst, dst_stats = copied(16.0)
    assert 0 < used < everything
    # the root keeps its children whatever its visits; below it a node keeps them only
    # with at least 16 visits, and then exactly as the whole copy has them
    assert int(dst[0, 0]) == 1 and int(dst[1, 0]) == int(whole[1, 0])
    thin = thick = 0
    stack = [(0, 0)]  # (node in the pruned copy, node in the whole copy)
    while stack:
        a, b = stack.pop()
        assert (dst_stats[:, a] == whole_stats[:, b]).all()
        if a and dst_stats[0, a] < 16:
            assert int(dst[0, a]) == -1
            thin += int(whole[0, b]) >= 0
            continue
        if int(whole[0, b]) < 0:
            assert int(dst[0, a]) == -1
            continue
        thick += a != 0
        assert int(dst[1, a]) == int(whole[1, b])
        for k in range(int(dst[1, a])):
            ca, cb = int(dst[0, a]) + k, int(whole[0, b]) + k
            assert int(dst[2, ca]) == int(whole[2, cb])
            stack.append((ca, cb))
    assert thin > 0 and thick > 0


def test_the_kept_tree_keeps_what_the_analysis_and_the_network_found() -> None:
    # a node the kernel has analysed or evaluated keeps its children whatever reuse_visits
    assert MctsEngine(reuse_visits=16)._keep_visits() == 16
    assert MctsEngine(reuse_visits=16, knowledge_visits=8)._keep_visits() == 8
    assert MctsEngine(reuse_visits=16, net_visits=10)._keep_visits() == 10
    assert MctsEngine(reuse_visits=0)._keep_visits() == 0
