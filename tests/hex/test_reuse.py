"""Tree reuse: the subtree of the position reached is carried into the next search."""

from __future__ import annotations

import numpy as np

from boardlab.core.limits import Limit
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


def test_the_reached_subtree_becomes_the_new_root() -> None:
    engine = SolvingEngine(seed=4)
    p = Position(7)
    engine.search(p, Limit(nodes=3000))
    assert engine._tree is not None
    old_nodes, old_stats, _ = engine._tree[1]
    start = int(old_nodes[0, 0])
    child = start + int(np.argmax(old_stats[0, start : start + int(old_nodes[1, 0])]))
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
