"""Learning layer: seeded, resumable self-play of boardlab's Hex engine, its positions labelled.

Game ``k`` of a run is played from a seed made of the run's seed and ``k`` alone, so a
run gives the same games however often it is stopped and resumed: the board size is
drawn from the run's sizes, the first stone from the balanced opening's candidate cells
(:func:`boardlab.hex.engine.opening.opening_candidates`, or their half turns), the
next ``sample_plies`` moves in proportion to the search's visit counts (for variety),
and every later move is the engine's choice (:class:`~boardlab.hex.player.SolvingEngine`
under a playout limit, one tree, reused between moves). Each searched position keeps the
search's visit counts over the root's children. With ``deep_playouts``, a seeded share
``deep_share`` of the moves is searched with that many playouts and only those keep
their visit counts (the others are played from a fast search and stored as unsearched):
KataGo's playout cap randomisation, targets from a deeper search than most moves cost.
After the game, positions are given to the prover
(:func:`~boardlab.hex.player.proven_value`) from the last one back, within
``label_nodes`` nodes each, until ``label_misses`` in a row are not settled: the ones it
settles carry their exact value.
"""

from __future__ import annotations

import hashlib
import random
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import asdict, dataclass
from itertools import accumulate
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import rotated
from boardlab.hex.engine.opening import opening_candidates
from boardlab.hex.engine.search import MIN_NODES
from boardlab.hex.learning.store import GameRecord, Ply, Store
from boardlab.hex.player import SolvingEngine, proven_value
from boardlab.hex.rules import Position

__all__ = ["MAX_SIZE", "MIN_SIZE", "SelfPlay", "game_seed", "play_game", "run"]

#: The board sizes self-play accepts.
MIN_SIZE, MAX_SIZE = 2, 19


def game_seed(seed: int, number: int) -> int:
    """The seed of game ``number`` of a run seeded with ``seed``."""
    digest = hashlib.sha256(f"hex-selfplay:{seed}:{number}".encode()).digest()
    return int.from_bytes(digest[:7], "big")


def _file_digest(path: str) -> str:
    if not path:
        return ""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as exc:
        raise BoardlabError(f"{path}: cannot read the network: {exc.strerror}") from None


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """A self-play run's settings: board ``sizes`` (one drawn a game), ``playouts`` a
    search, the run's ``seed``, ``sample_plies`` moves after the first stone drawn from
    the visit counts, the prover's ``label_nodes`` a position and ``label_misses`` (the
    unsettled positions in a row that end the labelling), the engine's ``network`` file
    (empty: the one shipped) and its SHA-256 ``network_sha``; ``deep_playouts`` (0: off)
    for the share ``deep_share`` of the moves whose visit counts are kept.

    :raises BoardlabError: when a setting is out of range.
    """

    sizes: tuple[int, ...] = (11,)
    playouts: int = 400
    seed: int = 0
    sample_plies: int = 4
    label_nodes: int = 2000
    label_misses: int = 2
    network: str = ""
    network_sha: str = ""
    deep_playouts: int = 0
    deep_share: float = 0.25

    def __post_init__(self) -> None:
        if not self.sizes or any(not MIN_SIZE <= n <= MAX_SIZE for n in self.sizes):
            raise BoardlabError(f"board sizes must be {MIN_SIZE} to {MAX_SIZE}, got {self.sizes}")
        if self.playouts < 1:
            raise BoardlabError(f"playouts must be at least 1, got {self.playouts}")
        if self.sample_plies < 0 or self.label_nodes < 0 or self.label_misses < 1:
            raise BoardlabError("sample plies and label nodes must be 0 or more, misses 1 or more")
        if self.deep_playouts < 0 or not 0.0 < self.deep_share <= 1.0:
            raise BoardlabError(
                f"deep playouts must be 0 or more and their share in (0, 1], got "
                f"{self.deep_playouts} and {self.deep_share}"
            )
        if self.network and not self.network_sha:
            object.__setattr__(self, "network_sha", _file_digest(self.network))

    def settings(self) -> dict[str, object]:
        """The settings as ``run.json`` keeps them."""
        values = asdict(self)
        values["sizes"] = list(self.sizes)
        if not self.deep_playouts:  # the runs made before deep searches read the same
            del values["deep_playouts"], values["deep_share"]
        return values


def _engine(settings: SelfPlay, seed: int, size: int) -> SolvingEngine:
    most = max(settings.playouts, settings.deep_playouts)
    nodes = max(MIN_NODES, min(3_000_000, (most + 1) * size * size))
    return SolvingEngine(seed=seed, max_nodes=nodes, network=settings.network)


def _sampled(visits: tuple[tuple[int, int], ...], rng: random.Random) -> int:
    """A cell drawn in proportion to its visits (the counts are positive)."""
    bounds = list(accumulate(count for _, count in visits))
    return visits[bisect_right(bounds, rng.randrange(bounds[-1]))][0]


def play_game(settings: SelfPlay, number: int) -> GameRecord:
    """Game ``number`` of a run with ``settings`` (the same game every time)."""
    seed = game_seed(settings.seed, number)
    rng = random.Random(seed)
    size = rng.choice(settings.sizes)
    position = Position(size)
    engine = _engine(settings, seed, size)
    first = rng.choice(opening_candidates(size))
    if rng.random() < 0.5:  # noqa: PLR2004
        first = rotated(first, size)
    moves: list[tuple[int, tuple[tuple[int, int], ...] | None]] = [(first, None)]
    position.push_index(first)
    fast = Limit(nodes=settings.playouts)
    deep = Limit(nodes=settings.deep_playouts) if settings.deep_playouts else fast
    while position.winner is None:
        kept = not settings.deep_playouts or rng.random() < settings.deep_share
        result = engine.search(position, deep if kept else fast)
        move = position.index(result.cell)
        if len(moves) <= settings.sample_plies and not result.proven and result.visits:
            move = _sampled(result.visits, rng)
        moves.append((move, result.visits if kept else None))
        position.push_index(move)
    labels = _labels(settings, size, [move for move, _ in moves])
    plies = tuple(
        Ply(move, visits, label) for (move, visits), label in zip(moves, labels, strict=True)
    )
    return GameRecord(number, size, position.winner, plies)


def _labels(settings: SelfPlay, size: int, moves: list[int]) -> list[int]:
    """The prover's value of the position before each move (0: unsettled), asked from
    the last position back until ``label_misses`` in a row are unsettled."""
    labels = [0] * len(moves)
    if settings.label_nodes == 0:
        return labels
    limit = Limit(nodes=settings.label_nodes)
    misses = 0
    for ply in range(len(moves) - 1, -1, -1):
        position = Position(size)
        for move in moves[:ply]:
            position.push_index(move)
        value = proven_value(position, limit)
        if value is None:
            misses += 1
            if misses >= settings.label_misses:
                break
            continue
        misses = 0
        labels[ply] = value
    return labels


def run(
    folder: Path,
    settings: SelfPlay,
    games: int,
    report: Callable[[GameRecord, Store], None] | None = None,
) -> Store:
    """Play a run's games up to ``games`` in ``folder``, resuming it where it stopped;
    ``report`` is told of each game written. Returns the store.

    :raises BoardlabError: when the folder holds another run or cannot be written.
    """
    store = Store(folder, settings.settings())
    while store.games < games:
        game = play_game(settings, store.games)
        store.append(game)
        if report is not None:
            report(game, store)
    return store
