"""Judge layer: referee Hex games between players.

The referee trusts no player: every move is parsed and checked against the rules, and
a player that answers late, crashes, talks nonsense, plays an illegal move or resigns
loses the game (the reason is recorded). A player may be an engine in-process or a GTP
program in a subprocess (:class:`boardlab.peers.gtp_process.GtpProcess`, handed in by
the interface layer: this game starts no process).

Moves travel as GTP vertices in HexGui's orientation (black joins top and bottom); the
referee's board is in the IOI orientation, so vertices are transposed on the way.
This module never imports a search or a solver.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

__all__ = ["GameRecord", "Player", "play_game"]


def _vertex(index: int, size: int) -> str:
    return str(Cell.of_index(index, size).transposed())


def _index(text: str, size: int) -> int:
    return Cell.parse(text, size).transposed().index(size)


class Player(Protocol):
    """What the referee needs from a player."""

    name: str

    def new_game(self, size: int) -> None:
        """Start a new game on an empty ``size`` board."""

    def play(self, color: int, vertex: str) -> None:
        """Tell the player about a move (a GTP vertex)."""

    def genmove(self, color: int, seconds: float) -> str:
        """The player's move as a GTP vertex (or ``resign``), within ``seconds``."""

    def close(self) -> None:
        """Release resources."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One refereed game: the winner (1 = black), why, and the moves as GTP vertices."""

    size: int
    black: str
    white: str
    winner: int
    reason: str
    moves: tuple[str, ...]
    seconds: tuple[float, float]


def play_game(black: Player, white: Player, size: int, seconds: float) -> GameRecord:
    """Referee one game; each ``genmove`` gets ``seconds`` (plus the player's own grace).

    A player that fails in any way loses the game with the reason recorded.

    :raises BoardlabError: for a bad board size.
    """
    position = Position(size)
    players = {BLACK: black, WHITE: white}
    used = {BLACK: 0.0, WHITE: 0.0}
    moves: list[str] = []

    def finish(winner: int, reason: str) -> GameRecord:
        return GameRecord(
            size, black.name, white.name, winner, reason, tuple(moves), (used[BLACK], used[WHITE])
        )

    for color, player in players.items():
        try:
            player.new_game(size)
        except BoardlabError as exc:
            return finish(3 - color, f"{player.name} failed to start a game: {exc}")
    while position.winner is None:
        color = position.to_move
        player = players[color]
        started = time.perf_counter()
        try:
            reply = player.genmove(color, seconds)
        except BoardlabError as exc:
            return finish(3 - color, f"{player.name} failed: {exc}")
        used[color] += time.perf_counter() - started
        word = reply.strip().lower()
        if word == "resign":
            return finish(3 - color, f"{player.name} resigned")
        try:
            index = _index(word, size)
        except ParseError as exc:
            return finish(3 - color, f"{player.name} sent a bad move {reply!r}: {exc.message}")
        if position.board[index] != 0:
            return finish(3 - color, f"{player.name} played the occupied cell {word}")
        position.push_index(index)
        moves.append(_vertex(index, size))
        if position.winner is None:
            other = players[3 - color]
            try:
                other.play(color, moves[-1])
            except BoardlabError as exc:
                return finish(color, f"{other.name} refused a legal move: {exc}")
    return finish(position.winner, "connected")
