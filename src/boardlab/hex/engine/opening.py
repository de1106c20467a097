"""Engine layer: the opening move of the Hex engine under the swap rule.

Under the swap rule (:data:`boardlab.hex.rules.SWAP_MOVE`) player 1's first move is
:func:`balanced_opening`: the outer cell whose estimated value is nearest one half, by
the engine's own searches of player 2's reply. Player 2's decision to swap, which asks
the prover on small boards, is composed above both rooms in :mod:`boardlab.hex.player`.
"""

from __future__ import annotations

from boardlab.core.limits import Limit
from boardlab.hex.board import rotated
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.rules import Position

__all__ = ["OPENING_PLAYOUTS", "balanced_opening", "opening_candidates"]

#: Playouts shared by all candidates of :func:`balanced_opening` (each gets 200..600).
OPENING_PLAYOUTS = 12_000


def opening_candidates(size: int) -> list[int]:
    """Cells on the two outer rings of the board, one of each pair related by the
    180-degree turn (which keeps a position's value), in index order.
    """
    found = []
    for index in range(size * size):
        row, col = divmod(index, size)
        if min(row, col, size - 1 - row, size - 1 - col) > 1:
            continue
        if rotated(index, size) < index:
            continue
        found.append(index)
    return found


def balanced_opening(
    size: int, seed: int = 0, playouts: int = OPENING_PLAYOUTS
) -> tuple[int, float]:
    """Player 1's first move under the swap rule and its estimated chance for player 1.

    Every cell of :func:`opening_candidates` gets an equal share of ``playouts`` (at
    least 200, at most 600): a search of player 2's reply by an engine seeded with
    ``seed`` (so the choice is reproducible), giving player 1's chance as in
    :func:`boardlab.hex.player.decide_swap`. The cell whose chance is nearest one half
    wins (the first in index order on a tie): the opponent gains little by swapping it or
    by leaving it.
    On a 1x1 board the only cell is returned with chance 1.
    """
    candidates = opening_candidates(size)
    if len(candidates) == 1:
        return candidates[0], 1.0
    share = max(200, min(600, playouts // len(candidates)))
    max_nodes = max(1000, min(1_000_000, (share + 1) * size * size))
    best, best_chance = candidates[0], -1.0
    for cell in candidates:
        position = Position(size)
        position.push_index(cell)
        engine = MctsEngine(seed=seed, max_nodes=max_nodes, solver_empties=0)
        result = engine.search(position, Limit(nodes=share))
        chance = 1.0 - result.value
        if abs(chance - 0.5) < abs(best_chance - 0.5):
            best, best_chance = cell, chance
    return best, best_chance
