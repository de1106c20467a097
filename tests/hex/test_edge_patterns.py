"""The edge templates and edge patterns of ``hex/connections.py``: each one, placed by the
tables at every edge, is won by its owner against any defence (the exact solver); no cell
of a pattern is spare; a broken pattern file is refused with one reason."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.limits import Limit
from boardlab.hex import connections as vc
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.solver import solve
from boardlab.hex.prover.wide import WideDfpn
from boardlab.hex.rules import BLACK, WHITE, Cell, Position


def template_position(
    size: int, edge: int, anchor: int, k: int, patterns: bool = False
) -> Position | None:
    """The position in which the stone on ``anchor`` hangs from the far side of ``edge``
    by a chain of its owner's stones, the ``k``-th entry's other stones are its owner's
    and its carrier is empty (as the table of the edge templates, or with ``patterns``
    of the edge patterns, places them), every other cell is the opponent's and the
    opponent moves; None when the entry does not fit there."""
    if patterns:
        per, table = len(vc.edge_patterns()), vc.edge_templates(size, 2, False, True)
    else:
        per, table = len(vc.EDGE_TEMPLATES), vc.edge_templates(size)
    at = 2 * ((edge * size * size + anchor) * per + k)

    def cells(words: np.ndarray) -> set[int]:
        return {i for i in range(size * size) if (int(words[0]) | int(words[1]) << 64) >> i & 1}

    carrier, stones = cells(table[at]), cells(table[at + 1])
    if not carrier:
        return None
    row, col = divmod(anchor, size)
    owner = BLACK if edge < 2 else WHITE
    chain = {
        0: [(row, c) for c in range(col, size)],
        1: [(row, c) for c in range(col + 1)],
        2: [(r, col) for r in range(row, size)],
        3: [(r, col) for r in range(row + 1)],
    }[edge]
    own = [Cell(r, c) for r, c in chain] + [Cell.of_index(i, size) for i in sorted(stones)]
    taken = {r * size + c for r, c in chain} | carrier | stones
    other = [Cell.of_index(i, size) for i in range(size * size) if i not in taken]
    black, white = (own, other) if owner == BLACK else (other, own)
    return Position.from_stones(size, black, white, to_move=3 - owner)


@pytest.mark.parametrize("k", range(len(vc.EDGE_TEMPLATES)))
def test_edge_templates_hold_at_every_edge(k: int) -> None:
    """Each template, placed by the engine's table toward each of the four edges on an
    8x8 board, is won by its owner with the opponent to move (the exact solver)."""
    size = 8
    placed = 0
    for edge in range(4):
        for anchor in range(size * size):
            position = template_position(size, edge, anchor, k)
            if position is None:
                continue
            placed += 1
            owner = 3 - position.to_move
            assert solve(position, Limit(nodes=2_000_000)).winner == owner, (edge, anchor)
            break  # one placement per edge (the others are the same shape shifted)
    assert placed == 4, placed


def pattern_cells(size: int, anchor: int, k: int) -> list[int]:
    """The carrier cells and other stones of the ``k``-th edge pattern placed toward
    edge 0 on ``anchor``."""
    per, table = len(vc.edge_patterns()), vc.edge_templates(size, 2, False, True)
    at = 2 * (anchor * per + k)
    words = int(table[at, 0]) | int(table[at + 1, 0])
    return [i for i in range(size * size) if words >> i & 1]


def given_away(position: Position, cell: int) -> Position:
    """``position`` with ``cell`` the side to move's stone instead of what it was."""
    size, mover = position.size, position.to_move
    stones = [
        [Cell.of_index(i, size) for i, v in enumerate(position.board) if v == colour]
        for colour in (BLACK, WHITE)
    ]
    for colour in (0, 1):
        stones[colour] = [c for c in stones[colour] if c.index(size) != cell]
    stones[mover - 1].append(Cell.of_index(cell, size))
    return Position.from_stones(size, stones[0], stones[1], to_move=mover)


def mirrored(offsets: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """The reflection that keeps an edge and its rows: ``(dr, dc) -> (dr, -dc - dr)``."""
    return tuple(sorted((dr, -dc - dr) for dr, dc in offsets))


@pytest.mark.parametrize("k", range(len(vc.edge_patterns())))
def test_edge_patterns_hold_at_every_edge_and_need_their_cells(
    k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each edge pattern (``hex/data/edge_patterns.json``), placed by the prover's table
    toward each of the four edges on an 8x8 board (11x11 where it does not fit), is won by
    its owner with the opponent to move (the exact solver, itself without the patterns);
    toward one edge, the owner loses when the opponent also has any one carrier
    cell or stone of it: no cell of it is spare (checked on one of each pattern and its
    mirror image, which the file holds too)."""
    monkeypatch.setattr(Dfpn, "edge_patterns", False)
    monkeypatch.setattr(WideDfpn, "edge_patterns", False)
    patterns = vc.edge_patterns()
    depth, stones, carrier = patterns[k]
    assert (0, 0) not in stones + carrier
    image = (depth, mirrored(stones), mirrored(carrier))
    assert image in patterns, "the file lacks the mirror image"
    size = next(
        size
        for size in (8, 11)
        if any(template_position(size, 0, a, k, patterns=True) for a in range(size * size))
    )
    placed = 0
    for edge in range(4):
        for anchor in range(size * size):
            position = template_position(size, edge, anchor, k, patterns=True)
            if position is None:
                continue
            placed += 1
            owner = 3 - position.to_move
            assert solve(position, Limit(nodes=20_000_000)).winner == owner, edge
            if edge == 0 and patterns.index(image) >= k:
                assert all(
                    solve(given_away(position, i), Limit(nodes=2_000_000)).winner != owner
                    for i in pattern_cells(size, anchor, k)
                )
            break
    assert placed == 4, placed


@pytest.mark.parametrize("text", ["", "[]", '{"x": 1}', '{"patterns": [{"depth": 3}]}'])
def test_a_broken_edge_pattern_file_is_refused_with_one_reason(text: str) -> None:
    with pytest.raises(ValueError, match="not an edge-pattern file"):
        vc.parse_edge_patterns(text)
