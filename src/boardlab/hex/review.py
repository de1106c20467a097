"""Player layer: a game reviewed move by move, player 1's chance after every move.

Each position of the game (from the start to the last move) is judged by the exact
solver where it finishes within a slice (few empty cells), else by the engine's search
under a playout budget: its value for the side to move, turned into player 1's chance.
A move *turned* the game when the player favoured before it (proven, or by the search's
value on the other side of one half) is no longer favoured after it. Reproducible from
the seed (playout limits only).
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.limits import Limit
from boardlab.hex.rules import Move, Position

__all__ = ["ReviewPoint", "review"]

#: The solver is tried on positions with at most this many empty cells ...
SOLVE_EMPTY = 25
#: ... for at most this many seconds each (the engine judges what it does not finish).
SOLVE_SECONDS = 0.3


@dataclass(frozen=True, slots=True)
class ReviewPoint:
    """The game after ``ply`` moves: player 1's chance, and the winner where proven
    (``winner`` None when it is not)."""

    ply: int
    move: str | None
    chance: float
    winner: int | None
    turned: bool

    @property
    def proven(self) -> bool:
        """True when the winner is proven."""
        return self.winner is not None

    def as_dict(self) -> dict[str, object]:
        """The point as JSON-ready values."""
        return {
            "ply": self.ply,
            "move": self.move,
            "chance": round(self.chance, 4),
            "winner": self.winner,
            "proven": self.proven,
            "turned": self.turned,
        }


def _judge(position: Position, playouts: int, seed: int) -> tuple[float, int | None]:
    """Player 1's chance in ``position`` and the proven winner (None when not proven)."""
    from boardlab.hex.engine.search import DEFAULT_MAX_NODES, MIN_NODES
    from boardlab.hex.player import SolvingEngine
    from boardlab.hex.prover.solver import solve

    if position.winner is not None:
        return (1.0 if position.winner == 1 else 0.0), position.winner
    empty = sum(1 for value in position.board if value == 0)
    if empty <= SOLVE_EMPTY:
        solved = solve(position, Limit(time=SOLVE_SECONDS), all_moves=False)
        if solved.winner is not None:
            return (1.0 if solved.winner == 1 else 0.0), solved.winner
    # a playout adds at most one node a legal cell: a tree that size never fills, so the
    # result is the default engine's, without its arrays being made for every position
    cells = position.size * position.size
    nodes = max(MIN_NODES, min(DEFAULT_MAX_NODES, (playouts + 1) * cells))
    result = SolvingEngine(seed=seed, max_nodes=nodes).search(position, Limit(nodes=playouts))
    mover = position.to_move
    winner = None
    if result.proven:
        winner = mover if result.verdict == 1 else 3 - mover
    value = result.value if mover == 1 else 1.0 - result.value
    return value, winner


def _favoured(chance: float, winner: int | None) -> int:
    if winner is not None:
        return winner
    return 1 if chance >= 0.5 else 2  # noqa: PLR2004


def review(size: int, moves: list[Move], swap: bool, playouts: int, seed: int) -> list[ReviewPoint]:
    """Every position of the game of ``moves`` on an empty ``size`` board, judged.

    :raises IllegalMoveError: when a move is illegal.
    """
    position = Position(size, swap=swap)
    points: list[ReviewPoint] = []
    chance, winner = _judge(position, playouts, seed)
    points.append(ReviewPoint(0, None, chance, winner, False))
    for ply, played in enumerate(moves, start=1):
        position.play(played)
        before = _favoured(chance, winner)
        chance, winner = _judge(position, playouts, seed + ply)
        turned = _favoured(chance, winner) != before
        points.append(ReviewPoint(ply, str(played), chance, winner, turned))
    return points
