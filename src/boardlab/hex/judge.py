"""Judge layer: referee Hex games between players, trusting none of them.

Every move is parsed and checked against the rules. A game is decided in exactly three
ways (:class:`GameRecord.decided_by`):

- ``connection``: a player joined its two edges on the referee's board;
- ``resignation``: a player answered ``resign`` itself;
- ``proof``: a player failed (crashed, refused ``genmove`` or a legal move, answered
  late, sent a bad or occupied cell) and a *prover* handed in by the caller proved the
  winner of the position where it failed.

A failure that no prover decides leaves the game ``void``: it counts for nobody. A
refused ``genmove`` in particular is never read as a resignation (MoHex refuses it in
positions it has already *won*). A player may be an engine in-process or a GTP program
in a subprocess (:class:`boardlab.peers.gtp_process.GtpProcess`, handed in by the
interface layer: this module starts no process and imports no search or solver).

Moves travel as GTP vertices in HexGui's orientation (black joins top and bottom); the
referee's board is in the IOI orientation, so vertices are transposed on the way.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.hex.board import vertex, vertex_index
from boardlab.hex.rules import BLACK, WHITE, Position, color_name

__all__ = [
    "Decision",
    "GameRecord",
    "Player",
    "Prover",
    "Verdict",
    "color_name",
    "play_game",
    "position_after",
]

#: How a refereed game ended.
Decision = Literal["connection", "resignation", "proof", "void"]


def position_after(size: int, moves: Sequence[str]) -> Position:
    """The referee's position after ``moves`` (GTP vertices, black first), each checked.

    :raises ParseError: for a bad vertex; :raises IllegalMoveError: for an illegal move.
    """
    position = Position(size)
    for move in moves:
        position.play_index(vertex_index(move, size))
    return position


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
class Verdict:
    """A prover's answer: the winner of a position and who proved it (with what)."""

    winner: int
    by: str


class Prover(Protocol):
    """Proves the winner of the position after ``moves`` (GTP vertices, black first),
    the next side to move; None when it cannot tell. It must never raise."""

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None: ...


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One refereed game.

    ``winner`` is 1 (black) or 2 (white), None for a void game; ``decided_by`` says how
    (:data:`Decision`); ``reason`` is the story in words (who failed how, who proved
    what); ``moves`` are GTP vertices, black first; ``seconds`` each side's thinking time;
    ``move_seconds`` the wall time of each move's ``genmove`` in the order of ``moves``
    (empty for a record made from a file).
    """

    size: int
    black: str
    white: str
    winner: int | None
    decided_by: Decision
    reason: str
    moves: tuple[str, ...]
    seconds: tuple[float, float]
    move_seconds: tuple[float, ...] = ()

    @property
    def void(self) -> bool:
        """True when nobody won: a player failed and no prover decided the position."""
        return self.winner is None


def play_game(
    black: Player,
    white: Player,
    size: int,
    seconds: float,
    prover: Prover | None = None,
) -> GameRecord:
    """Referee one game; each ``genmove`` gets ``seconds`` (plus the player's own grace).

    A failing player does not lose by its failure: the position where it failed goes
    to ``prover`` (without one, or when it cannot tell, the game is void).

    :raises BoardlabError: for a bad board size.
    """
    position = Position(size)
    players = {BLACK: black, WHITE: white}
    used = {BLACK: 0.0, WHITE: 0.0}
    moves: list[str] = []
    took: list[float] = []

    def finish(winner: int | None, decided_by: Decision, reason: str) -> GameRecord:
        return GameRecord(
            size,
            black.name,
            white.name,
            winner,
            decided_by,
            reason,
            tuple(moves),
            (used[BLACK], used[WHITE]),
            tuple(took),
        )

    def failed(fault: str) -> GameRecord:
        verdict = None if prover is None else prover(size, tuple(moves))
        if verdict is None:
            why = "no prover" if prover is None else "no proof"
            return finish(None, "void", f"{fault}; void ({why} of the position)")
        winner = color_name(verdict.winner)
        return finish(verdict.winner, "proof", f"{fault}; {winner} wins, proven by {verdict.by}")

    for player in players.values():
        try:
            player.new_game(size)
        except BoardlabError as exc:
            return failed(f"{player.name} failed to start a game: {exc}")
    while position.winner is None:
        color = position.to_move
        player = players[color]
        started = time.perf_counter()
        try:
            reply = player.genmove(color, seconds)
        except BoardlabError as exc:
            return failed(f"{player.name} failed: {exc}")
        finally:
            spent = time.perf_counter() - started
            used[color] += spent
        word = reply.strip().lower()
        if word == "resign":
            return finish(3 - color, "resignation", f"{player.name} resigned")
        try:
            index = vertex_index(word, size)
        except ParseError as exc:
            return failed(f"{player.name} sent a bad move {reply!r}: {exc.message}")
        if position.board[index] != 0:
            return failed(f"{player.name} played the occupied cell {word}")
        position.push_index(index)
        moves.append(vertex(index, size))
        took.append(spent)
        if position.winner is None:
            other = players[3 - color]
            try:
                other.play(color, moves[-1])
            except BoardlabError as exc:
                return failed(f"{other.name} refused the legal move {moves[-1]}: {exc}")
    return finish(position.winner, "connection", f"{color_name(position.winner)} connected")
