"""Judge layer: referee games between a program (player 1) and an opponent, and score them.

The judge trusts nothing the program says: it keeps the board itself with the rules,
reads the program's moves as tokens under a per-game deadline, and a program that
crashes, stalls, writes garbage or plays an illegal pit loses that game with the
reason. It never imports a solver: the opponent is handed in (the command line hands
in the perfect player); nor does it start processes: ``connect`` is handed in too (the
command line hands in :class:`boardlab.peers.ioiwari_channel.ProcessChannel`).
Scoring is the IOI's: 4 points a win, 2 a draw, 0 a loss.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.words import span
from boardlab.ioiwari.contestant import (
    Channel,
    Connect,
    Exit,
    ForfeitError,
    FunctionChannel,
    TimeLimitError,
)
from boardlab.ioiwari.formats import MAX_DIGITS, format_move, format_start
from boardlab.ioiwari.rules import IOI, Move, State, Variant

__all__ = [
    "POINTS",
    "GameRecord",
    "JudgeReport",
    "Opponent",
    "Verdict",
    "format_report",
    "judge",
    "referee",
    "run_function_game",
    "run_process_game",
    "select_starts",
]

#: An opponent: given the state (player 2 to move), its move.
Opponent = Callable[[State], Move]

#: The opponent's player number (the judged program is player 1).
OPPONENT = 2
#: IOI points of a result.
POINTS = {"win": 4, "draw": 2, "loss": 0}


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One judged game: its start, result, final banks, moves, and why it was lost."""

    start: tuple[int, ...]
    result: str
    banks: tuple[int, int] | None
    moves: tuple[int, ...]
    reason: str
    seconds: float
    cpu: float | None = None
    max_rss_kb: int | None = None

    @property
    def points(self) -> int:
        """4, 2 or 0."""
        return POINTS[self.result]

    def as_dict(self) -> dict[str, Any]:
        """The game as JSON-ready values."""
        return {
            "start": list(self.start),
            "result": self.result,
            "points": self.points,
            "banks": None if self.banks is None else list(self.banks),
            "moves": list(self.moves),
            "reason": self.reason or None,
            "seconds": round(self.seconds, 6),
            "cpu": self.cpu,
            "max_rss_kb": self.max_rss_kb,
        }


@dataclass(frozen=True, slots=True)
class JudgeReport:
    """Every game of a judging run, in the order of the starts."""

    command: tuple[str, ...]
    records: tuple[GameRecord, ...]
    time_limit: float
    jobs: int
    seconds: float

    def count(self, result: str) -> int:
        """How many games ended with ``result`` (``win``, ``draw`` or ``loss``)."""
        return sum(1 for record in self.records if record.result == result)

    @property
    def score(self) -> int:
        """IOI points earned."""
        return sum(record.points for record in self.records)

    @property
    def max_score(self) -> int:
        """IOI points of winning every game."""
        return POINTS["win"] * len(self.records)

    def as_dict(self) -> dict[str, Any]:
        """The whole run as JSON-ready values (``judge --json``)."""
        return {
            "command": list(self.command),
            "games": len(self.records),
            "time_limit": self.time_limit,
            "jobs": self.jobs,
            "seconds": round(self.seconds, 6),
            **{result: self.count(result) for result in POINTS},
            "score": self.score,
            "max_score": self.max_score,
            "records": [record.as_dict() for record in self.records],
        }


def select_starts(variant: Variant, spec: str, seed: int) -> list[tuple[int, ...]]:
    """``all`` starts in order, or ``N`` of them sampled with ``random.Random(seed)``.

    :raises BoardlabError: when ``spec`` is neither ``all`` nor a count in ``1..all``.
    """
    starts = variant.starts()
    if spec == "all":
        return starts
    if not spec.isdigit() or not 1 <= int(spec) <= len(starts):
        raise BoardlabError(
            f"the starts must be 'all' or a count from {span(1, len(starts))}, got {spec!r}"
        )
    return random.Random(seed).sample(starts, int(spec))


@dataclass(frozen=True, slots=True)
class Verdict:
    """How a refereed game ended: the final state and, for a forfeit, its kind and reason."""

    state: State
    reason: str = ""
    kind: str = ""  # "" (played out), "ended" (output ended), "time" or "protocol"


def referee(
    channel: Channel,
    start: Sequence[int],
    opponent: Opponent,
    variant: Variant,
    deadline: float,
) -> Verdict:
    """Play one game through ``channel`` until every pit is empty or the program forfeits.

    :raises BoardlabError: when the opponent itself plays an illegal move.
    """
    state = State(variant, start)
    channel.send(format_start(start))
    while not state.is_over():
        number = len(state.history) // 2 + 1
        if state.to_move == OPPONENT:
            move = opponent(state)
            state.play(move)
            channel.send(format_move(move.pit))
            continue
        try:
            token = channel.read_token(deadline)
        except TimeLimitError:
            return Verdict(state, f"no move {number} within the time limit", "time")
        except ForfeitError as exc:
            return Verdict(state, f"move {number}: {exc}", "protocol")
        if token is None:
            return Verdict(state, f"output ended before move {number}", "ended")
        text = token[1:] if token[:1] in "+-" else token
        if not text.isdigit() or not text.isascii() or len(text) > MAX_DIGITS:
            return Verdict(
                state, f"move {number}: wrote {token[:40]!r}, not a pit label", "protocol"
            )
        pit = int(token)
        if not 1 <= pit <= variant.pits:
            reason = f"move {number}: pit {pit} does not exist (pits are {span(1, variant.pits)})"
            return Verdict(state, reason, "protocol")
        if state.pits[pit - 1] == 0:
            return Verdict(state, f"move {number}: pit {pit} is empty", "protocol")
        state.push(Move(pit))
    return Verdict(state)


def _record(start: Sequence[int], verdict: Verdict, exit_info: Exit, wall: float) -> GameRecord:
    state = verdict.state
    moves = tuple(move.pit for move in state.history)
    if verdict.kind:
        reason = verdict.reason
        if verdict.kind == "ended":
            detail = exit_info.describe()
            if exit_info.stderr_tail:
                detail += f"; stderr: {exit_info.stderr_tail}"
            reason += f" ({detail})"
        return GameRecord(
            tuple(start), "loss", None, moves, reason, wall, exit_info.cpu, exit_info.max_rss_kb
        )
    outcome = state.outcome()
    assert outcome is not None
    result = {1: "win", 0: "draw", 2: "loss"}[outcome.winner]
    note = "" if not exit_info.killed else "did not exit after the game (killed)"
    return GameRecord(
        tuple(start),
        result,
        outcome.banks,
        moves,
        note,
        wall,
        exit_info.cpu,
        exit_info.max_rss_kb,
    )


def run_process_game(
    command: Sequence[str],
    start: Sequence[int],
    opponent: Opponent,
    variant: Variant = IOI,
    time_limit: float = 2.0,
    *,
    connect: Connect,
) -> GameRecord:
    """One game against a fresh process of ``command``; never waits past ``time_limit``.

    ``connect(command)`` starts the program and returns its channel.

    :raises BoardlabError: when the opponent plays an illegal move (a bug of the judge).
    """
    started = time.perf_counter()
    deadline = started + time_limit
    try:
        channel = connect(command)
    except OSError as exc:
        reason = f"cannot start {command[0]!r}: {exc.strerror or exc}"
        return GameRecord(tuple(start), "loss", None, (), reason, 0.0)
    verdict: Verdict | None = None
    try:
        verdict = referee(channel, start, opponent, variant, deadline)
    finally:
        # a program that finished may exit until the deadline, one whose output ended gets
        # a moment to report its exit status, one that broke the protocol is stopped at once
        kind = "protocol" if verdict is None else verdict.kind
        now = time.perf_counter()
        grace = {"": deadline, "ended": min(deadline, now + 1.0)}.get(kind, now)
        exit_info = channel.finish(grace)
    return _record(start, verdict, exit_info, time.perf_counter() - started)


def run_function_game(
    feed: Callable[[str], list[str]],
    start: Sequence[int],
    opponent: Opponent,
    variant: Variant = IOI,
    time_limit: float = 2.0,
) -> GameRecord:
    """One game against an in-process player (same referee as for a process).

    :raises BoardlabError: when the opponent plays an illegal move (a bug of the judge).
    """
    started = time.perf_counter()
    channel = FunctionChannel(feed)
    verdict = referee(channel, start, opponent, variant, started + time_limit)
    exit_info = channel.finish(started + time_limit)
    return _record(start, verdict, exit_info, time.perf_counter() - started)


def judge(
    command: Sequence[str],
    starts: Sequence[Sequence[int]],
    opponent_for: Callable[[int, Sequence[int]], Opponent],
    variant: Variant = IOI,
    *,
    connect: Connect,
    time_limit: float = 2.0,
    jobs: int = 2,
    on_record: Callable[[GameRecord], None] | None = None,
) -> JudgeReport:
    """Run one process of ``command`` per start, ``jobs`` at a time, and score every game.

    ``opponent_for(index, start)`` makes a fresh opponent for each game;
    ``connect(command)`` starts one process and returns its channel.

    :raises BoardlabError: when ``jobs`` or ``time_limit`` is not positive.
    """
    if jobs < 1:
        raise BoardlabError(f"the games at once must be at least 1, got {jobs}")
    if not time_limit > 0:
        raise BoardlabError(f"the time limit must be positive, got {time_limit}")
    started = time.perf_counter()

    def one(index: int) -> GameRecord:
        start = starts[index]
        record = run_process_game(
            command, start, opponent_for(index, start), variant, time_limit, connect=connect
        )
        if on_record is not None:
            on_record(record)
        return record

    if jobs == 1:
        records = [one(i) for i in range(len(starts))]
    else:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            records = list(pool.map(one, range(len(starts))))
    return JudgeReport(
        tuple(command), tuple(records), time_limit, jobs, time.perf_counter() - started
    )


def format_report(report: JudgeReport, *, show: str = "failures") -> list[str]:
    """The judge's table; ``show`` lists ``failures`` (losses and draws), ``all`` or ``none``."""
    games = len(report.records)
    lines = [
        f"program     {' '.join(report.command)}",
        f"games       {games}, {report.time_limit:g} s a game, {report.jobs} at a time, "
        f"{report.seconds:.1f} s in all",
        "",
        "result   games  points",
    ]
    for result in ("win", "draw", "loss"):
        count = report.count(result)
        lines.append(f"{result:<6} {count:>7} {count * POINTS[result]:>7}")
    percent = 100.0 * report.score / report.max_score if report.max_score else 0.0
    lines.append(f"score  {report.score:>7} / {report.max_score} ({percent:.1f}%)")
    walls = [r.seconds for r in report.records]
    cpus = [r.cpu for r in report.records if r.cpu is not None]
    rss = [r.max_rss_kb for r in report.records if r.max_rss_kb is not None]
    if walls:
        text = f"slowest     {max(walls):.2f} s wall"
        if cpus:
            text += f", {max(cpus):.2f} s CPU"
        if rss:
            text += f"; largest peak RSS {max(rss) / 1024:.1f} MB"
        lines.append(text)
    listed = [
        r
        for r in report.records
        if show == "all" or (show == "failures" and (r.result != "win" or r.reason))
    ]
    if listed:
        lines.append("")
    for record in listed:
        banks = f"{record.banks[0]}:{record.banks[1]}" if record.banks else "-"
        moves = " ".join(map(str, record.moves)) or "-"
        line = f"{record.result:<5} {format_start(record.start)}  banks {banks}  moves {moves}"
        if record.reason:
            line += f"  -- {record.reason}"
        lines.append(line)
    return lines
