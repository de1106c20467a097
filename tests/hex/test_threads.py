"""``MctsEngine(threads=k)``: k threads grow one tree (or, with ``shared_tree=False``, k
trees whose roots are summed)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import Cell
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.rules import Position, parse_move


def _position(size: int, moves: list[str]) -> Position:
    return Position.from_moves(size, [parse_move(m, size) for m in moves])


def _tree(engine: MctsEngine, position: Position, playouts: int) -> tuple[Any, ...]:
    """The tree of one tree search (with proofs) of ``position``: first, count, move,
    visits, wins, proof, nodes, playouts."""
    limit = Limit(nodes=playouts)
    engine._run(position, limit, limit.start(), 1.0)
    (first, count, move, visits, wins, proof, used), done = engine._last
    return first, count, move, visits, wins, proof, int(used[0]), done


def _check_consistent(engine: MctsEngine, tree: tuple[Any, ...]) -> None:
    """Every node reached from the root once, its visits at least its children's, no
    descent left under way, the node count exact."""
    first, count, _, visits, _, _, nodes, _ = tree
    seen = 0
    stack = [0]
    while stack:
        node = stack.pop()
        seen += 1
        if first[node] >= 0:
            children = range(int(first[node]), int(first[node] + count[node]))
            assert visits[node] >= sum(visits[c] for c in children), node
            stack.extend(children)
    assert seen == nodes  # no orphaned subtree: each node expanded by one thread
    assert not engine._losses.any()  # every virtual loss taken back


@pytest.mark.parametrize("hot", [0, 1, 2000])
def test_two_threads_grow_one_tree_of_exact_counts(hot: int) -> None:
    position = _position(7, ["d4"])
    engine = MctsEngine(seed=2, max_nodes=100_000, threads=2, hot_visits=hot)
    tree = _tree(engine, position, 3000)
    visits, wins, done = tree[3], tree[4], tree[7]
    assert done == 3000  # the playouts are handed out in batches: none over the limit
    assert visits[0] == 3000  # the root's visits added atomically: none lost
    # the hot nodes' kept counts all added: every playout went through one of the root's
    # children (it has them from the first) and was won by one side
    children = range(int(tree[0][0]), int(tree[0][0] + tree[1][0]))
    assert sum(visits[c] for c in children) == 3000
    assert sum(wins[c] for c in children) + wins[0] == 3000
    _check_consistent(engine, tree)
    result = MctsEngine(seed=2, max_nodes=100_000, threads=2, hot_visits=hot).search(
        position, Limit(nodes=3000)
    )
    assert result.playouts == 3000
    assert position.index_is_legal(position.index(result.cell))
    assert sum(v for _, v, _ in result.top) > 1500  # one tree: the root's visits in one place


def test_two_threads_find_a_win_in_one_through_the_tree() -> None:
    position = _position(4, ["d1", "b1", "a4", "a1", "b3", "a2"])
    engine = MctsEngine(seed=3, threads=2, connections=False, must_play=False)
    first, count, move, _, _, proof, *_ = _tree(engine, position, 2000)
    assert proof[0] == -1  # the root is lost for the player who moved into it
    won = [int(move[c]) for c in range(first[0], first[0] + count[0]) if proof[c] == 1]
    assert won == [position.index(Cell.parse("c2", 4))]


def test_two_threads_block_the_threat_and_prove_the_position_lost() -> None:
    # 5x5, black to move; white wins at e1 unless black blocks it there, and wins anyway
    moves = ["d2", "e3", "a1", "d4", "a5", "e2", "e5", "d5", "a3", "c3"]
    position = _position(5, moves)
    engine = MctsEngine(seed=4, threads=2, connections=False, must_play=False)
    result = engine.search(position, Limit(nodes=2000))
    assert str(result.cell) == "e1"
    # the tree alone proves every move lost, the block included (one thread needs
    # 4,000 to 8,000 playouts from these seeds)
    tree = _tree(engine, position, 12_000)
    first, count, _, _, _, proof, _, done = tree
    assert proof[0] == 1 and done < 12_000
    assert all(proof[c] == -1 for c in range(int(first[0]), int(first[0] + count[0])))
    _check_consistent(engine, tree)


def test_the_threads_prove_the_win_together() -> None:
    # 3x3, black to move: only the centre wins; the tree search alone must prove it
    for shared_tree in (True, False):
        engine = MctsEngine(
            seed=1, threads=2, connections=False, solver_empties=0, shared_tree=shared_tree
        )
        result = engine.search(Position(3), Limit(nodes=4000))
        assert result.verdict == 1
        assert str(result.cell) == "b2"


@pytest.mark.parametrize("hot", [0, 1, 2000])
def test_many_short_searches_on_a_shared_tree(hot: int) -> None:
    engine = MctsEngine(seed=5, max_nodes=20_000, threads=2, hot_visits=hot)
    games = 0
    position = Position(5)
    for k in range(40):
        limit = Limit(nodes=40 + k) if k % 4 else Limit(time=0.005)
        result = engine.search(position, limit)
        assert position.index_is_legal(position.index(result.cell))
        if result.nodes:
            assert result.playouts <= (limit.nodes or result.playouts)
            assert not engine._losses.any()
        position.push(result.cell)  # the next search reuses this tree
        if position.winner is not None:
            games += 1
            position = Position(5)
    assert games >= 1


def test_a_full_tree_still_searches_with_threads() -> None:
    # slabs of a small pool run short: the threads keep playing out from the leaves
    position = _position(9, ["e5"])
    engine = MctsEngine(seed=6, max_nodes=1000, threads=3, reuse=False)
    tree = _tree(engine, position, 2000)
    assert tree[7] == 2000
    assert tree[6] <= 1000
    _check_consistent(engine, tree)


def test_separate_trees_share_the_node_limit_and_sum_their_roots() -> None:
    position = _position(7, ["d4"])
    one = MctsEngine(seed=2).search(position, Limit(nodes=2000))
    two = MctsEngine(seed=2, threads=2, shared_tree=False).search(position, Limit(nodes=2000))
    assert one.playouts == 2000
    assert two.playouts == 2000  # 1,000 in each tree
    assert position.index_is_legal(position.index(two.cell))
    # the root's children carry the visits of both trees
    assert sum(v for _, v, _ in two.top) > 1000
    again = MctsEngine(seed=2, threads=2, shared_tree=False).search(position, Limit(nodes=2000))
    assert again.cell == two.cell


def test_hot_nodes_start_above_every_count_the_search_waits_for() -> None:
    engine = MctsEngine(hot_visits=1, knowledge_visits=300, net_visits=64)
    assert engine.params[17] == 301.0  # a node's count may jump past 300: it is analysed first
    assert MctsEngine(hot_visits=5000).params[17] == 5000.0
    assert MctsEngine().params[17] == 2000.0  # the default
    assert MctsEngine(hot_visits=0).params[17] == 0.0
    with pytest.raises(BoardlabError, match="hot_visits must be 0 or more"):
        MctsEngine(hot_visits=-1)


def test_threads_out_of_range_are_refused() -> None:
    with pytest.raises(BoardlabError, match="threads must be 1 to 64"):
        MctsEngine(threads=0)


def test_separate_trees_that_would_not_fit_in_memory_are_refused() -> None:
    from boardlab.core.memory import available_memory
    from boardlab.hex.engine.search import NODE_BYTES

    # two such trees need twice the free memory: the check holds while other processes
    # free or take memory (just over half of it had failed when a neighbour freed some)
    nodes = available_memory() // NODE_BYTES
    with pytest.raises(BoardlabError, match="search trees of .* nodes need up to"):
        MctsEngine(threads=2, max_nodes=nodes, shared_tree=False)
    assert MctsEngine(threads=2, max_nodes=nodes).threads == 2  # one shared tree: no check


def test_one_thread_leaves_the_tree_as_before() -> None:
    position = _position(7, ["d4"])
    engine = MctsEngine(seed=2, max_nodes=100_000)
    tree = _tree(engine, position, 1500)
    assert tree[3][0] == 1500
    _check_consistent(engine, tree)
    assert np.array_equal(engine._losses, np.zeros(1, np.int32))  # never touched
