"""The referee cannot be fooled: a failing peer never loses (or wins) without a proof.

The peer is a fake GTP program (``fake_gtp.py``) run as a subprocess, so the referee
meets exactly what MoHex sends: a refused ``genmove`` in a position the peer has won,
a crash, a genuine resignation, an occupied cell, a reply past its deadline.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from boardlab.hex.judge import Verdict, play_game, position_after
from boardlab.hex.match import SolverProver
from boardlab.peers.gtp_process import GtpProcess

FAKE = Path(__file__).with_name("fake_gtp.py")


class Scripted:
    """An in-process player replaying fixed moves."""

    def __init__(self, replies: Sequence[str], name: str = "scripted") -> None:
        self.replies = list(replies)
        self.name = name

    def new_game(self, size: int) -> None:
        pass

    def play(self, color: int, vertex: str) -> None:
        pass

    def genmove(self, color: int, seconds: float) -> str:
        return self.replies.pop(0)

    def close(self) -> None:
        pass


@pytest.fixture
def fake() -> Iterator[list[GtpProcess]]:
    started: list[GtpProcess] = []
    yield started
    for process in started:
        process.close()


def peer(started: list[GtpProcess], *answers: str, grace: float = 5.0) -> GtpProcess:
    process = GtpProcess([sys.executable, str(FAKE), *answers], timeout=10.0, grace=grace)
    started.append(process)
    return process


class Counting:
    """A prover that records what it was asked and answers a fixed verdict."""

    def __init__(self, verdict: Verdict | None) -> None:
        self.verdict = verdict
        self.asked: list[tuple[int, tuple[str, ...]]] = []

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        self.asked.append((size, tuple(moves)))
        return self.verdict


def test_a_refused_genmove_in_a_won_position_is_the_refusers_win(fake: list[GtpProcess]) -> None:
    # 3x3: black b2 wins; the peer (black) refuses to move after white's a1, as MoHex does
    # once its fill-in shows the game won. The old referee scored that as a black loss.
    record = play_game(peer(fake, "b2", "!refuse"), Scripted(["a1"]), 3, 1.0, SolverProver(10))
    assert record.decided_by == "proof"
    assert record.winner == 1
    assert "refused" in record.reason and "proven by boardlab's solver" in record.reason
    assert record.moves == ("b2", "a1")


def test_a_refusal_without_a_prover_is_void(fake: list[GtpProcess]) -> None:
    record = play_game(peer(fake, "b2", "!refuse"), Scripted(["a1"]), 3, 1.0)
    assert record.void and record.decided_by == "void" and record.winner is None
    assert "no prover" in record.reason


def test_a_prover_that_cannot_tell_leaves_the_game_void(fake: list[GtpProcess]) -> None:
    prover = Counting(None)
    record = play_game(Scripted(["b2"]), peer(fake, "!refuse"), 3, 1.0, prover)
    assert record.void and "no proof" in record.reason
    assert prover.asked == [(3, ("b2",))]


def test_a_crash_is_decided_by_the_position_not_by_the_crash(fake: list[GtpProcess]) -> None:
    # the crashing peer is black and winning: the proof gives it the game
    record = play_game(peer(fake, "b2", "!crash"), Scripted(["a1"]), 3, 1.0, SolverProver(10))
    assert (record.decided_by, record.winner) == ("proof", 1)
    assert "crashed" in record.reason
    # the crashing peer is white after black's winning centre: black wins, by proof
    record = play_game(Scripted(["b2"]), peer(fake, "!crash"), 3, 1.0, SolverProver(10))
    assert (record.decided_by, record.winner) == ("proof", 1)


def test_a_genuine_resignation_ends_the_game(fake: list[GtpProcess]) -> None:
    prover = Counting(Verdict(2, "nobody"))
    record = play_game(Scripted(["b2"]), peer(fake, "!resign"), 3, 1.0, prover)
    assert (record.decided_by, record.winner) == ("resignation", 1)
    assert record.reason == "fake resigned"
    assert prover.asked == []  # a resignation needs no proof


def test_an_occupied_cell_goes_to_the_prover(fake: list[GtpProcess]) -> None:
    prover = Counting(Verdict(1, "a test oracle"))
    record = play_game(Scripted(["b2", "c3"]), peer(fake, "b2"), 3, 1.0, prover)
    assert (record.decided_by, record.winner) == ("proof", 1)
    assert "occupied" in record.reason and prover.asked == [(3, ("b2",))]
    record = play_game(Scripted(["b2"]), peer(fake, "z9"), 3, 1.0)
    assert record.void and "bad move" in record.reason


def test_a_late_answer_goes_to_the_prover(fake: list[GtpProcess]) -> None:
    late = peer(fake, "!late", grace=0.3)
    record = play_game(Scripted(["b2"]), late, 3, 0.05, SolverProver(10))
    assert "did not answer" in record.reason
    assert (record.decided_by, record.winner) == ("proof", 1)


def test_a_refused_play_goes_to_the_prover(fake: list[GtpProcess]) -> None:
    record = play_game(Scripted(["b2"]), peer(fake, "!refuse-play"), 3, 1.0, SolverProver(10))
    assert "refused the legal move b2" in record.reason
    assert (record.decided_by, record.winner) == ("proof", 1)


def test_a_connection_needs_no_prover() -> None:
    prover = Counting(None)
    record = play_game(Scripted(["b1", "b2", "b3"]), Scripted(["a1", "a2"]), 3, 0.1, prover)
    assert (record.decided_by, record.winner) == ("connection", 1)
    assert record.reason == "black connected" and prover.asked == []


def test_the_solver_prover_refuses_what_it_cannot_prove() -> None:
    # 11x11 with one stone each: far beyond a 0.2 s proof
    assert SolverProver(0.2)(11, ("f6", "e5")) is None
    assert SolverProver(0.2)(3, ("b2", "b2")) is None  # not a legal game
    verdict = SolverProver(5)(3, ("b2",))
    assert verdict is not None and verdict.winner == 1
    assert position_after(3, ("b1", "a1", "b2", "a2", "b3")).winner == 1


@pytest.mark.parametrize("knows", ["", "time_settings", "time_settings,param_mohex"])
def test_the_time_a_move_is_sent_the_ways_the_peer_lists(
    fake: list[GtpProcess], tmp_path: Path, knows: str
) -> None:
    log = tmp_path / "heard.txt"
    options = [f"!log={log}", *([f"!knows={knows}"] if knows else [])]
    record = play_game(Scripted(["b2", "a1"]), peer(fake, *options, "c1", "!resign"), 3, 0.25)
    assert (record.decided_by, record.winner) == ("resignation", 1)
    heard = log.read_text().splitlines()
    told = [line for line in heard if line.split()[0] in ("time_settings", "param_mohex")]
    expected = {
        "": [],
        "time_settings": ["time_settings 0 1 4"],
        "time_settings,param_mohex": ["time_settings 0 1 4", "param_mohex max_time 0.25"],
    }[knows]
    assert told == expected  # once a game, before the first genmove, never unlisted
    if told:
        assert heard.index(told[-1]) < heard.index("genmove w")
    assert heard.count("list_commands") == 1


def test_a_peer_refusing_its_time_plays_on(fake: list[GtpProcess], tmp_path: Path) -> None:
    log = tmp_path / "heard.txt"
    options = [f"!log={log}", "!knows=time_settings,param_mohex", "!refuse-time"]
    process = peer(fake, *options, "c1", "!resign")
    record = play_game(Scripted(["b2", "a1"]), process, 3, 0.25)
    assert (record.decided_by, record.winner) == ("resignation", 1)
    assert record.moves == ("b2", "c1", "a1") and process.time_accepted == []
    assert "time_settings 0 1 4" in log.read_text()


@pytest.mark.parametrize("crash", ["!crash", "!orphan-crash"])
def test_a_crash_is_said_one_way(fake: list[GtpProcess], crash: str) -> None:
    # an engine that exits is reported as a crash with its exit status, whether its output
    # closed at once or a child it left kept the pipe open past the deadline
    record = play_game(Scripted(["b2"]), peer(fake, crash, grace=0.5), 3, 0.05)
    assert record.void
    crashed = "engine 'fake' crashed (exit status 1) on 'genmove w'"
    assert record.reason == f"fake failed: {crashed}; void (no prover of the position)"
