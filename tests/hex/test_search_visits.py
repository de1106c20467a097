"""The engine's search result shows its visit counts over the root's children."""

from __future__ import annotations

from boardlab.core.limits import Limit
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.rules import Position


def _open_position() -> Position:
    position = Position(7)
    for cell in (24, 17, 31):
        position.push_index(cell)
    return position


def test_the_visits_are_the_root_childrens() -> None:
    position = _open_position()
    engine = MctsEngine(seed=3, max_nodes=20_000, reuse=False)
    result = engine.search(position, Limit(nodes=300))
    cells = [cell for cell, _ in result.visits]
    assert cells == sorted(cells) and len(set(cells)) == len(cells)
    assert all(position.board[cell] == 0 and count > 0 for cell, count in result.visits)
    # every playout after the root's expansion goes through one child
    assert result.playouts - 5 <= sum(count for _, count in result.visits) <= result.playouts
    by_cell = dict(result.visits)
    assert by_cell[position.index(result.cell)] == max(by_cell.values())
    assert [(position.cell(c), v) for c, v in sorted(by_cell.items(), key=lambda x: -x[1])][
        : len(result.top)
    ] == [(cell, v) for cell, v, _ in result.top]
    again = MctsEngine(seed=3, max_nodes=20_000, reuse=False).search(position, Limit(nodes=300))
    assert again.visits == result.visits


def test_threads_sum_their_visits() -> None:
    position = _open_position()
    result = MctsEngine(seed=3, max_nodes=20_000, threads=2).search(position, Limit(nodes=400))
    assert result.playouts - 10 <= sum(v for _, v in result.visits) <= result.playouts


def test_a_move_found_without_a_tree_has_no_visits() -> None:
    position = Position(3)
    for cell in (0, 3, 1, 4):
        position.push_index(cell)
    result = MctsEngine(seed=0, max_nodes=1000).search(position, Limit(nodes=50))
    assert result.reason == "wins at once" and result.visits == ()
