"""Solver layer: an Ioiwari game reviewed move by move under perfect play.

For every position of a game (the start, then after each move) the exact evaluator
gives the final banks both players reach from there with perfect play. A move whose
mover ends up with a smaller final margin (own bank minus the other's) than perfect play
promised before it is a mistake; ``lost`` says by how many beads of margin.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from boardlab.ioiwari.rules import Move, State
from boardlab.ioiwari.solver import ValueOracle, analyse

__all__ = ["ReviewPoint", "review"]


@dataclass(frozen=True, slots=True)
class ReviewPoint:
    """The game after ``ply`` moves: the final banks under perfect play from there, and
    what the move that led here (``pit``, by ``mover``) cost its mover."""

    ply: int
    pit: int | None
    mover: int | None
    final_banks: tuple[int, int]
    lost: int

    @property
    def mistake(self) -> bool:
        """True when the move gave away some of its mover's final margin."""
        return self.lost > 0

    def as_dict(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "pit": self.pit,
            "mover": self.mover,
            "final_banks": list(self.final_banks),
            "lost": self.lost,
            "mistake": self.mistake,
        }


def _margin(banks: tuple[int, int], player: int) -> int:
    return banks[player - 1] - banks[2 - player]


def review(evaluator: ValueOracle, state: State, pits: Iterable[int]) -> list[ReviewPoint]:
    """Every position of the game that plays ``pits`` from ``state`` (not changed), with
    the perfect-play final banks and each move's cost.

    :raises IllegalMoveError: when a pit cannot be sown.
    """
    game = state.copy()
    banks = analyse(evaluator, game.position()).final_banks
    points = [ReviewPoint(0, None, None, banks, 0)]
    for ply, pit in enumerate(pits, start=1):
        mover = game.to_move
        before = _margin(banks, mover)
        game.play(Move(pit))
        banks = analyse(evaluator, game.position()).final_banks
        points.append(ReviewPoint(ply, pit, mover, banks, before - _margin(banks, mover)))
    return points
