"""Interface layer: one engine-vs-engine game with fixed playouts, reproducible.

Both sides are :class:`~boardlab.hex.player.SolvingEngine` (seeds ``seed`` and
``seed + 1``) choosing with :func:`~boardlab.hex.player.choose_move` under a playout
limit, so the same arguments give the same game on any machine. ``hex selfplay`` and
the demo print it; the web and the benchmarks may call it as well.

>>> game = self_play(2, 50, seed=0)
>>> game.winner, len(game.moves) >= 2, game.position.winner == game.winner
(1, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.player import SolvingEngine, choose_move
from boardlab.hex.rules import Position, Swap, check_size

__all__ = ["SelfPlayGame", "self_play"]


@dataclass(frozen=True, slots=True)
class SelfPlayGame:
    """A finished self-play game: the final position and the moves as HexGui names
    them (``swap`` for the swap)."""

    position: Position
    moves: tuple[str, ...]

    @property
    def winner(self) -> int:
        """1 (black) or 2 (white): a finished Hex game always has one."""
        assert self.position.winner is not None
        return self.position.winner


def self_play(size: int, playouts: int, seed: int = 0, swap: bool = False) -> SelfPlayGame:
    """Play one game on a ``size`` board, ``playouts`` playouts a move for both sides,
    with the swap rule when ``swap``.

    :raises BoardlabError: for a bad size or fewer than one playout.
    """
    if playouts < 1:
        raise BoardlabError(f"playouts must be at least 1, got {playouts}")
    position = Position(check_size(size), swap=swap)
    engines = {1: SolvingEngine(seed=seed), 2: SolvingEngine(seed=seed + 1)}
    moves: list[str] = []
    while position.winner is None:
        engine = engines[position.to_move]
        move = choose_move(engine, position, Limit(nodes=playouts)).move
        position.push(move)
        moves.append("swap" if isinstance(move, Swap) else move.vertex())
    return SelfPlayGame(position, tuple(moves))
