"""Root parallelism: ``MctsEngine(threads=k)`` runs k trees and sums their roots."""

from __future__ import annotations

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.rules import Position, parse_move


def test_two_trees_share_the_node_limit_and_sum_their_roots() -> None:
    position = Position.from_moves(7, [parse_move("d4", 7)])
    one = MctsEngine(seed=2).search(position, Limit(nodes=2000))
    two = MctsEngine(seed=2, threads=2).search(position, Limit(nodes=2000))
    assert one.playouts == 2000
    assert two.playouts == 2000  # 1,000 in each tree
    assert position.index_is_legal(position.index(two.cell))
    # the root's children carry the visits of both trees
    assert sum(v for _, v, _ in two.top) > 1000
    again = MctsEngine(seed=2, threads=2).search(position, Limit(nodes=2000))
    assert again.cell == two.cell


def test_the_trees_prove_the_win_together() -> None:
    # 3x3, black to move: only the centre wins; the tree search alone must prove it
    engine = MctsEngine(seed=1, threads=2, connections=False, solver_empties=0)
    result = engine.search(Position(3), Limit(nodes=4000))
    assert result.verdict == 1
    assert str(result.cell) == "b2"


def test_threads_out_of_range_are_refused() -> None:
    with pytest.raises(BoardlabError, match="threads must be 1 to 64"):
        MctsEngine(threads=0)


def test_threads_whose_trees_would_not_fit_in_memory_are_refused() -> None:
    from boardlab.core.memory import available_memory
    from boardlab.hex.engine.search import NODE_BYTES

    # two such trees need twice the free memory: the check holds while other processes
    # free or take memory (just over half of it had failed when a neighbour freed some)
    nodes = available_memory() // NODE_BYTES
    with pytest.raises(BoardlabError, match="search trees of .* nodes need up to"):
        MctsEngine(threads=2, max_nodes=nodes)
