"""Learning layer: a small seeded match between two networks of the engine, with its 95 % interval.

Games come in pairs: both take the same first stone (drawn from the balanced opening's
candidates by the match's seed) and each network plays black in one of them, so the
opening's own bias cancels. Both engines are :class:`~boardlab.hex.player.SolvingEngine`
under the same playout limit, seeded from the match's seed and the game's number: the
same seed gives the same games.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from boardlab.core.limits import Limit
from boardlab.hex.board import rotated
from boardlab.hex.engine.opening import opening_candidates
from boardlab.hex.learning.selfplay import game_seed
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Position

__all__ = ["MatchScore", "play_match", "wilson"]

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959964


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (``(0, 1)`` with no games)."""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class MatchScore:
    """The first network's wins of ``games`` and the 95 % interval of its win rate."""

    wins: int
    games: int
    low: float
    high: float

    @property
    def score(self) -> float:
        return self.wins / self.games if self.games else 0.5

    def line(self) -> str:
        return (
            f"{self.wins} of {self.games} games ({100 * self.score:.0f} %, 95 % interval "
            f"{100 * self.low:.0f}-{100 * self.high:.0f} %)"
        )


def _game(size: int, first: int, black: SolvingEngine, white: SolvingEngine, playouts: int) -> int:
    position = Position(size)
    position.push_index(first)
    limit = Limit(nodes=playouts)
    while position.winner is None:
        engine = black if position.to_move == 1 else white
        position.push_index(position.index(engine.search(position, limit).cell))
    return position.winner


def play_match(
    network: str, other: str, size: int, pairs: int, playouts: int, seed: int = 0
) -> MatchScore:
    """``network`` against ``other`` (network files; empty: the one shipped) in ``pairs``
    pairs of games on ``size x size`` at ``playouts`` a move."""
    nodes = max(1000, min(3_000_000, (playouts + 1) * size * size))
    wins = 0
    for pair in range(pairs):
        seed_k = game_seed(seed, pair)
        rng = random.Random(seed_k)
        first = rng.choice(opening_candidates(size))
        if rng.random() < 0.5:  # noqa: PLR2004
            first = rotated(first, size)
        for ours_black in (True, False):
            ours = SolvingEngine(seed=seed_k, max_nodes=nodes, network=network)
            theirs = SolvingEngine(seed=seed_k + 1, max_nodes=nodes, network=other)
            black, white = (ours, theirs) if ours_black else (theirs, ours)
            # the first stone is black's, so the side to move after it is white
            winner = _game(size, first, black, white, playouts)
            wins += int(winner == (1 if ours_black else 2))
    low, high = wilson(wins, 2 * pairs)
    return MatchScore(wins, 2 * pairs, low, high)
