"""Learning layer: the self-play store, one text line a game, in chunks compressed once full.

A run's folder holds ``run.json`` (the settings every game was played with, checked
when a run resumes) and its games in chunks of :data:`CHUNK_GAMES`: the chunk being
written is ``games-NNNNN.txt``, a full one ``games-NNNNN.txt.gz``. A game is one line::

    NUMBER SIZE WINNER PLY PLY ...

``NUMBER`` counts the run's games from 0, ``WINNER`` is ``B`` or ``W`` and each ``PLY``
is ``MOVE[LABEL][:VISITS]``: ``MOVE`` the cell index played; ``LABEL`` ``+`` or ``-``
when the prover settled the position before the move (a win or a loss for the side to
move; absent: not settled); ``VISITS`` the search's visit counts over the root's
children as ``CELL.COUNT`` pairs joined by commas. ``:`` with nothing after it is a
move the search found without a tree (a win at once, a forced block, a proven virtual
connection: the move is its whole distribution); a ply without ``:`` was not searched
(the random first stone, or a fast search of a run with deep searches). Every line is
written and flushed to disk whole, so a stopped run loses at most the game it was
playing; a torn last line is dropped when it resumes.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError

__all__ = [
    "CHUNK_GAMES",
    "FORMAT",
    "GameRecord",
    "Ply",
    "Store",
    "StoreSummary",
    "format_game",
    "parse_game",
    "read_games",
    "summarise",
]

#: The format's name and version, kept in ``run.json``.
FORMAT = "boardlab-hex-selfplay 1"
#: Games a chunk holds before it is compressed.
CHUNK_GAMES = 200
_MANIFEST = "run.json"
_WINNERS = {"B": 1, "W": 2}


@dataclass(frozen=True, slots=True)
class Ply:
    """One move of a game: the cell index ``move``; ``visits`` the search's ``(cell,
    count)`` pairs over the root's children (``()`` when it answered without a tree,
    None when the move was not searched); ``label`` the prover's value of the position
    before the move for the side to move (+1, -1; 0 when unsettled)."""

    move: int
    visits: tuple[tuple[int, int], ...] | None
    label: int = 0


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One self-play game: its number in the run, board size, winner (1 or 2) and plies
    (black moves first)."""

    number: int
    size: int
    winner: int
    plies: tuple[Ply, ...]


def format_game(game: GameRecord) -> str:
    """The game's line (without its newline)."""
    words = [str(game.number), str(game.size), "BW"[game.winner - 1]]
    for ply in game.plies:
        word = str(ply.move) + {1: "+", -1: "-", 0: ""}[ply.label]
        if ply.visits is not None:
            word += ":" + ",".join(f"{cell}.{count}" for cell, count in ply.visits)
        words.append(word)
    return " ".join(words)


def _ply(word: str, cells: int) -> Ply:
    head, colon, tail = word.partition(":")
    label = 0
    if head.endswith(("+", "-")):
        label = 1 if head[-1] == "+" else -1
        head = head[:-1]
    move = int(head)
    if not 0 <= move < cells:
        raise ValueError(f"cell {move} is off the board")
    visits: tuple[tuple[int, int], ...] | None = None
    if colon:
        pairs = []
        for item in tail.split(",") if tail else []:
            cell, dot, count = item.partition(".")
            if not dot or not 0 <= int(cell) < cells or int(count) < 0:
                raise ValueError(f"bad visit count {item!r}")
            pairs.append((int(cell), int(count)))
        visits = tuple(pairs)
    return Ply(move, visits, label)


def parse_game(line: str, where: str = "line") -> GameRecord:
    """The game of one line.

    :raises BoardlabError: naming ``where`` when the line is not a game.
    """
    words = line.split()
    try:
        if len(words) < 3 or words[2] not in _WINNERS:  # noqa: PLR2004
            raise ValueError("expected NUMBER SIZE WINNER PLY ...")
        number, size = int(words[0]), int(words[1])
        if number < 0 or not 1 <= size <= 26:  # noqa: PLR2004
            raise ValueError("bad game number or board size")
        plies = tuple(_ply(word, size * size) for word in words[3:])
    except ValueError as exc:
        raise BoardlabError(f"{where}: not a self-play game: {exc}") from None
    return GameRecord(number, size, _WINNERS[words[2]], plies)


def _chunks(folder: Path) -> list[tuple[int, Path]]:
    """The folder's chunk files in order (a compressed one before a plain one of the
    same number)."""
    found = []
    for path in folder.glob("games-*.txt*"):
        stem = path.name.removesuffix(".gz").removesuffix(".txt").removeprefix("games-")
        if stem.isdigit() and path.name.endswith((".txt", ".txt.gz")):
            found.append((int(stem), 0 if path.name.endswith(".gz") else 1, path))
    return [(number, path) for number, _, path in sorted(found)]


def _lines(path: Path) -> list[str]:
    if path.name.endswith(".gz"):
        with gzip.open(path, "rt", encoding="ascii") as stream:
            return stream.read().splitlines()
    text = path.read_text(encoding="ascii")
    return text.splitlines()


def read_games(folder: Path) -> Iterator[GameRecord]:
    """Every finished game of a run's folder, in order (a torn last line is skipped).

    :raises BoardlabError: when a chunk cannot be read or a line is not a game.
    """
    seen: set[int] = set()
    for number, path in _chunks(folder):
        if number in seen:
            continue  # a chunk compressed but its plain file not yet removed
        seen.add(number)
        try:
            text = path.read_text(encoding="ascii") if path.suffix == ".txt" else None
            lines = _lines(path) if text is None else text.split("\n")
        except (OSError, EOFError, UnicodeDecodeError) as exc:
            raise BoardlabError(f"{path}: cannot read the games: {exc}") from None
        if text is not None:
            lines = lines[:-1]  # the text after the last newline is not a finished game
        for k, line in enumerate(lines, 1):
            if line.strip():
                yield parse_game(line, f"{path}:{k}")


@dataclass(frozen=True, slots=True)
class StoreSummary:
    """What a run's folder holds: games, positions (plies), searched positions, positions
    the prover settled, and a SHA-256 of the games' lines (each with its newline), which
    does not depend on how they are chunked or compressed."""

    games: int
    positions: int
    searched: int
    labelled: int
    checksum: str

    def line(self) -> str:
        """The summary in one line."""
        return (
            f"{self.games} games, {self.positions} positions ({self.searched} searched, "
            f"{self.labelled} settled by the prover), sha256 {self.checksum[:16]}"
        )


def summarise(folder: Path) -> StoreSummary:
    """The summary of a run's folder (see :class:`StoreSummary`)."""
    digest = hashlib.sha256()
    games = positions = searched = labelled = 0
    for game in read_games(folder):
        digest.update((format_game(game) + "\n").encode("ascii"))
        games += 1
        positions += len(game.plies)
        searched += sum(1 for ply in game.plies if ply.visits is not None)
        labelled += sum(1 for ply in game.plies if ply.label)
    return StoreSummary(games, positions, searched, labelled, digest.hexdigest())


def _sync(stream: Any) -> None:
    stream.flush()
    os.fsync(stream.fileno())


class Store:
    """A run's folder, open for appending games; opening it resumes the run.

    ``settings`` (JSON values) are written to ``run.json`` on a new run and must equal
    those there on a resumed one. Opening drops a torn last line, removes what an
    interrupted compression left and checks the games are numbered 0, 1, 2, ...;
    :attr:`games` is how many are finished, the number of the next.

    :raises BoardlabError: when the folder holds another run, or games that do not read.
    """

    def __init__(
        self, folder: Path, settings: dict[str, Any], chunk_games: int = CHUNK_GAMES
    ) -> None:
        self.folder = folder
        self.chunk_games = chunk_games
        manifest = {"format": FORMAT, **settings}
        path = folder / _MANIFEST
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if path.exists():
                stored = json.loads(path.read_text())
                differ = sorted(
                    key
                    for key in set(stored) | set(manifest)
                    if stored.get(key) != manifest.get(key)
                )
                if differ:
                    raise BoardlabError(
                        f"{folder}: holds a run with other settings ({', '.join(differ)}); "
                        "resume it with its own or use another folder"
                    )
            else:
                partial = path.with_suffix(".part")
                partial.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
                partial.replace(path)
            self._tidy()
        except OSError as exc:
            raise BoardlabError(f"{folder}: cannot open the store: {exc}") from None
        except json.JSONDecodeError as exc:
            raise BoardlabError(f"{path}: not a run's settings: {exc}") from None
        self.games = 0
        for game in read_games(folder):
            if game.number != self.games:
                raise BoardlabError(
                    f"{folder}: game {game.number} found where game {self.games} was expected"
                )
            self.games += 1

    def _tidy(self) -> None:
        """Remove what an interrupted write left: partial chunks, a plain chunk already
        compressed, and the text after the open chunk's last newline."""
        for partial in self.folder.glob("games-*.part"):
            partial.unlink()
        chunks = _chunks(self.folder)
        compressed = {number for number, path in chunks if path.name.endswith(".gz")}
        for number, path in chunks:
            if path.suffix != ".txt":
                continue
            if number in compressed:
                path.unlink()
                continue
            data = path.read_bytes()
            keep = data[: data.rfind(b"\n") + 1]
            if keep != data:
                with open(path, "r+b") as stream:
                    stream.truncate(len(keep))
                    _sync(stream)

    def _chunk_path(self, chunk: int, compressed: bool) -> Path:
        return self.folder / f"games-{chunk:05d}.txt{'.gz' if compressed else ''}"

    def append(self, game: GameRecord) -> None:
        """Write one finished game (it must be number :attr:`games`), flushed to disk;
        a chunk that is full is compressed.

        :raises BoardlabError: when the game is out of turn or cannot be written.
        """
        if game.number != self.games:
            raise BoardlabError(f"game {game.number} given where game {self.games} is next")
        chunk = game.number // self.chunk_games
        path = self._chunk_path(chunk, False)
        try:
            with open(path, "a", encoding="ascii") as stream:
                stream.write(format_game(game) + "\n")
                _sync(stream)
            self.games += 1
            if self.games % self.chunk_games == 0:
                self._compress(chunk, path)
        except OSError as exc:
            raise BoardlabError(f"{path}: cannot write the game: {exc}") from None

    def _compress(self, chunk: int, plain: Path) -> None:
        target = self._chunk_path(chunk, True)
        partial = target.with_name(target.name.replace(".txt.gz", ".part"))
        with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as out:
            out.write(plain.read_bytes())
        with open(partial, "rb") as stream:
            os.fsync(stream.fileno())
        partial.replace(target)
        plain.unlink()
