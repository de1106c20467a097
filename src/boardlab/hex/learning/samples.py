"""Learning layer: a store's positions as the policy network reads them, with their targets.

:func:`position_planes` is the network's input for one position
(:func:`boardlab.hex.engine.network.input_planes` with the shipped move-pattern scores),
shared with ``scripts/hex_net_train.py``; :func:`encode` turns self-play games into
arrays in the mover's frame (player 2's board transposed, as the network sees it): the
policy target is the search's visit counts normalised (the move itself when the search
answered without a tree), the value target the prover's exact value where it settled
the position, else whether the mover went on to win. Plain numpy: no PyTorch.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardlab.hex.engine.network import PLANES, input_planes
from boardlab.hex.engine.patterns import scores, square_table
from boardlab.hex.engine.search import pattern_weights
from boardlab.hex.learning.store import GameRecord

__all__ = ["PositionSamples", "encode", "frame", "position_planes"]


def position_planes(
    board: npt.NDArray[np.int8], n: int, mover: int, last: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float64]]:
    """The network's input planes for ``mover`` to play on ``board`` (``last``: the
    opponent's last move, -1 for none) and each cell's move-pattern score (0 on the
    stones), in the board's frame."""
    weights, canon = pattern_weights()
    empty = np.flatnonzero(board == 0).astype(np.int32)
    score = np.zeros(n * n)
    out = np.zeros(empty.size)
    scores(board, n, mover, last, empty, empty.size, weights, canon, square_table(n), out)
    score[empty] = out
    planes = np.zeros((PLANES, n + 2, n + 2), np.float32)
    input_planes(board, n, mover, last, score, planes)
    return planes, score


def frame(cells: npt.NDArray[np.generic], n: int, mover: int) -> npt.NDArray[np.generic]:
    """A per-cell array in the mover's frame (transposed for player 2)."""
    return cells if mover == 1 else cells.reshape(n, n).T.ravel()


@dataclass(frozen=True, slots=True)
class PositionSamples:
    """Searched positions of one board size, in the mover's frame: ``planes`` (N,
    PLANES, n + 2, n + 2), ``policy`` (N, n*n: the visit distribution), ``legal`` (N,
    n*n), ``played`` (N: the move played), ``value`` (N: 1 when the mover wins, by the
    prover where ``proven``, else by the game's result) and the ``game`` each came from."""

    planes: npt.NDArray[np.float32]
    policy: npt.NDArray[np.float32]
    legal: npt.NDArray[np.bool_]
    played: npt.NDArray[np.int64]
    value: npt.NDArray[np.float32]
    proven: npt.NDArray[np.bool_]
    game: npt.NDArray[np.int64]

    @property
    def size(self) -> int:
        return int(self.played.size)


def encode(games: Iterable[GameRecord], size: int) -> PositionSamples:
    """The searched positions of the ``size x size`` games among ``games``."""
    n = size
    rows: list[tuple[object, ...]] = []
    for game in games:
        if game.size != n:
            continue
        board = np.zeros(n * n, np.int8)
        last = -1
        for number, ply in enumerate(game.plies):
            mover = 1 if number % 2 == 0 else 2
            if ply.visits is not None:
                planes, _ = position_planes(board, n, mover, last)
                policy = np.zeros(n * n, np.float32)
                if ply.visits:
                    for cell, count in ply.visits:
                        policy[cell] = count
                if policy.sum() <= 0:
                    policy[ply.move] = 1.0
                policy /= policy.sum()
                won = float(ply.label == 1) if ply.label else float(game.winner == mover)
                row, col = divmod(ply.move, n)
                rows.append(
                    (
                        planes,
                        frame(policy, n, mover),
                        frame(board == 0, n, mover),
                        ply.move if mover == 1 else col * n + row,
                        won,
                        ply.label != 0,
                        game.number,
                    )
                )
            board[ply.move] = mover
            last = ply.move
    side = n + 2
    if not rows:
        return PositionSamples(
            np.zeros((0, PLANES, side, side), np.float32),
            np.zeros((0, n * n), np.float32),
            np.zeros((0, n * n), np.bool_),
            np.zeros(0, np.int64),
            np.zeros(0, np.float32),
            np.zeros(0, np.bool_),
            np.zeros(0, np.int64),
        )
    columns = list(zip(*rows, strict=True))
    return PositionSamples(
        np.stack(columns[0]).astype(np.float32),
        np.stack(columns[1]).astype(np.float32),
        np.stack(columns[2]).astype(np.bool_),
        np.array(columns[3], np.int64),
        np.array(columns[4], np.float32),
        np.array(columns[5], np.bool_),
        np.array(columns[6], np.int64),
    )
