"""Interface layer: matches of our engine against other players, colours alternated.

:class:`EnginePlayer` wraps :class:`~boardlab.hex.player.SolvingEngine` as a
:class:`~boardlab.hex.judge.Player` working in-process; the games themselves are
refereed by :func:`boardlab.hex.judge.play_game`, which checks every move.
:class:`SolverProver` is the referee's prover made of boardlab's own exact solver: a
game where a player failed is decided only when the solver proves its position.
:func:`game_folder` and :func:`save_game` keep a match's games as HexGui SGF files.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import (
    GameRecord,
    Player,
    Prover,
    Verdict,
    color_name,
    play_game,
    position_after,
)
from boardlab.hex.player import SolvingEngine, warm_up
from boardlab.hex.rules import BLACK, WHITE, Position

__all__ = ["EnginePlayer", "MatchResult", "SolverProver", "game_folder", "run_match", "save_game"]


class SolverProver:
    """The referee's prover made of boardlab's exact solver, ``seconds`` a position.

    It answers only what the solver proves (DFPN up to 8x8, alpha-beta above); a
    position it cannot finish in time gets None, and so does a bad move list.
    """

    def __init__(self, seconds: float = 10.0) -> None:
        self.seconds = seconds

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        from boardlab.hex.prover.solver import solve

        try:
            position = position_after(size, moves)
            if position.winner is not None:
                return Verdict(position.winner, "the board (already connected)")
            result = solve(position, Limit(time=self.seconds), all_moves=False)
        except BoardlabError:
            return None
        if result.winner is None:
            return None
        return Verdict(result.winner, f"boardlab's solver ({result.nodes} nodes)")


class EnginePlayer:
    """Our engine as a referee's player (GTP vertices in HexGui's orientation)."""

    def __init__(self, engine: MctsEngine | None = None, name: str = "boardlab") -> None:
        self.engine = engine or SolvingEngine()
        self.name = name
        self.position = Position(1)

    def new_game(self, size: int) -> None:
        warm_up(size)
        self.position = Position(size)

    def play(self, color: int, vertex: str) -> None:
        index = vertex_index(vertex, self.position.size)
        if self.position.to_move != color or not self.position.index_is_legal(index):
            raise ProtocolError(f"illegal move {vertex} for {color_name(color)}")
        self.position.push_index(index)

    def genmove(self, color: int, seconds: float) -> str:
        if self.position.to_move != color:
            raise ProtocolError(f"asked to move for {color_name(color)} out of turn")
        result = self.engine.search(self.position, Limit(time=seconds))
        self.position.push(result.cell)
        return result.cell.vertex()

    def close(self) -> None:
        pass


@dataclass(slots=True)
class MatchResult:
    """Wins of our engine by colour over the decided games, the void ones apart, and every
    game record."""

    games: list[GameRecord] = field(default_factory=list)
    wins_as: dict[int, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    played_as: dict[int, int] = field(default_factory=lambda: {BLACK: 0, WHITE: 0})
    void: int = 0

    def table(self, ours: str, theirs: str) -> list[str]:
        """A small text table of the results."""
        lines = [f"{'colour of ' + ours:<22} {'games':>6} {'wins':>6} {'win %':>7}"]
        for color, label in ((BLACK, "black (first)"), (WHITE, "white (second)")):
            games = self.played_as[color]
            wins = self.wins_as[color]
            rate = f"{100 * wins / games:.0f}" if games else "-"
            lines.append(f"{label:<22} {games:>6} {wins:>6} {rate:>7}")
        total = sum(self.played_as.values())
        lines.append(f"{'total vs ' + theirs:<22} {total:>6} {sum(self.wins_as.values()):>6}")
        if self.void:
            lines.append(f"{'void (no proof)':<22} {self.void:>6}")
        return lines


def run_match(
    ours: Player,
    theirs: Player,
    size: int,
    games: int,
    seconds: float,
    report: Callable[[int, GameRecord, bool], None] | None = None,
    prover: Prover | None = None,
) -> MatchResult:
    """Play ``games`` games, our engine black in the even-numbered ones; a game where a
    player failed is decided by ``prover`` or counted void."""
    result = MatchResult()
    for number in range(games):
        ours_black = number % 2 == 0
        black, white = (ours, theirs) if ours_black else (theirs, ours)
        record = play_game(black, white, size, seconds, prover)
        color = BLACK if ours_black else WHITE
        result.games.append(record)
        if record.void:
            result.void += 1
        else:
            result.played_as[color] += 1
        if record.winner == color:
            result.wins_as[color] += 1
        if report is not None:
            report(number, record, ours_black)
    return result


def game_folder(folder: Path) -> Path:
    """``folder``, where a match keeps its games, once it is known to be writable (it is
    made when the first game ends, so a match that cannot start leaves nothing behind).

    :raises BoardlabError: when it is a file or cannot be written.
    """
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
        raise BoardlabError(f"cannot write games into the folder {str(folder)!r}")
    return folder


def save_game(
    folder: Path, number: int, record: GameRecord, ours_black: bool, application: str
) -> Path:
    """Write game ``number`` (from 0) of a match as ``game-NN-boardlab-black.sgf`` (or
    ``-white``, the colour of boardlab), whole or not at all (a temporary file renamed),
    ``application`` named in the SGF as its maker; the path written.

    :raises BoardlabError: when the file cannot be written.
    """
    side = "black" if ours_black else "white"
    path = folder / f"game-{number + 1:02d}-boardlab-{side}.sgf"
    part = path.with_name(path.name + ".part")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        part.write_text(format_game_sgf(record, application), encoding="utf-8")
        part.replace(path)
    except OSError as exc:
        raise BoardlabError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    return path
