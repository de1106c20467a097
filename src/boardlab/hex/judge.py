"""Judge layer: referee Hex games between players, including GTP engines in subprocesses.

The referee trusts no player: every move is parsed and checked against the rules, and
a player that answers late, crashes, talks nonsense, plays an illegal move or resigns
loses the game (the reason is recorded). A GTP subprocess is read with a deadline on
every reply, so a hung engine never hangs the referee; it is killed at the end.

Moves travel as GTP vertices in HexGui's orientation (black joins top and bottom); the
referee's board is in the IOI orientation, so vertices are transposed on the way.
This module never imports a search or a solver.
"""

from __future__ import annotations

import os
import selectors
import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import Protocol

from boardlab.core.errors import BoardlabError, ParseError, ProtocolError
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

__all__ = ["GameRecord", "GtpProcess", "Player", "play_game"]

MAX_REPLY = 1 << 20


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


class GtpProcess:
    """A GTP engine run as a subprocess, every reply read with a deadline.

    :raises ProtocolError: when the program cannot be started.
    """

    def __init__(self, command: str | list[str], timeout: float = 10.0, grace: float = 2.0) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ProtocolError("empty engine command")
        self.name = os.path.basename(argv[0])
        self.timeout = timeout
        self.grace = grace
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
        except OSError as exc:
            raise ProtocolError(f"cannot start engine {argv[0]!r}: {exc.strerror or exc}") from None
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        assert self.process.stdout is not None
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        try:
            self.name = self.command("name", timeout) or self.name
        except ProtocolError:
            self.close()
            raise

    def command(self, line: str, timeout: float | None = None) -> str:
        """Send ``line`` and return the reply text.

        :raises ProtocolError: on a ``?`` reply, a timeout, a closed pipe or a malformed reply.
        """
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode())
            stdin.flush()
        except OSError:
            raise ProtocolError(f"engine {self.name!r} closed its input (crashed?)") from None
        deadline = time.perf_counter() + (self.timeout if timeout is None else timeout)
        while b"\n\n" not in self._buffer.replace(b"\r", b""):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise ProtocolError(f"engine {self.name!r} did not answer {line!r} in time")
            if not self._selector.select(remaining):
                continue
            assert self.process.stdout is not None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise ProtocolError(f"engine {self.name!r} closed its output (crashed?)")
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                raise ProtocolError(f"engine {self.name!r} sent a reply over {MAX_REPLY} bytes")
        text = self._buffer.replace(b"\r", b"").decode("utf-8", "replace")
        reply, _, rest = text.partition("\n\n")
        self._buffer = rest.encode()
        reply = reply.strip()
        if reply.startswith("?"):
            raise ProtocolError(f"engine {self.name!r} refused {line!r}: {reply[1:].strip()}")
        if not reply.startswith("="):
            raise ProtocolError(f"engine {self.name!r} sent a malformed reply {reply[:60]!r}")
        return reply[1:].strip()  # no ids are sent, so none come back

    def new_game(self, size: int) -> None:
        self.command(f"boardsize {size}")
        self.command("clear_board")

    def play(self, color: int, vertex: str) -> None:
        self.command(f"play {'b' if color == BLACK else 'w'} {vertex}")

    def genmove(self, color: int, seconds: float) -> str:
        return self.command(f"genmove {'b' if color == BLACK else 'w'}", seconds + self.grace)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(b"quit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()


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
        position.push(index)
        moves.append(_vertex(index, size))
        if position.winner is None:
            other = players[3 - color]
            try:
                other.play(color, moves[-1])
            except BoardlabError as exc:
                return finish(color, f"{other.name} refused a legal move: {exc}")
    return finish(position.winner, "connected")
