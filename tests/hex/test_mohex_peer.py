"""MoHex as a peer (:mod:`boardlab.peers.mohex`) leaves no folder behind: its player's
working folder goes with :meth:`MohexPlayer.close`, its prover's with each question; a
question on a position sends the settings, the moves in turn and the side to move.

A fake GTP program (``fake_gtp.py`` behind a small launcher) stands in for MoHex."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.mohex import MohexPlayer, MohexProver, ask_on_position, solved_winner

FAKE = Path(__file__).with_name("fake_gtp.py")


def _launcher(folder: Path, *answers: str) -> str:
    """An executable that runs the fake peer with ``answers`` (MoHex's binary stand-in)."""
    script = folder / "fake-mohex"
    words = " ".join(["!knows=param_mohex,dfpn-solve-state", *answers])
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE}" {words}\n')
    script.chmod(0o755)
    return str(script)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Python's temporary folder pointed at an empty folder of the test's."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_the_player_removes_its_folder_when_closed(tmp_path: Path, scratch: Path) -> None:
    player = MohexPlayer(_launcher(tmp_path, "a1", "b2"), 1.0, None)
    assert list(scratch.iterdir()) == []  # nothing made before a game
    player.new_game(3)
    assert player.genmove(BLACK, 1.0).lower() == "a1"
    assert len(list(scratch.iterdir())) == 1  # MoHex's working folder, while it runs
    player.close()
    assert list(scratch.iterdir()) == []
    player.new_game(3)  # a later game starts a fresh process in a fresh folder
    assert len(list(scratch.iterdir())) == 1
    player.close()
    assert list(scratch.iterdir()) == []


def test_the_prover_leaves_no_folder(tmp_path: Path, scratch: Path) -> None:
    prover = MohexProver(_launcher(tmp_path), seconds=5.0)
    assert prover(3, ["a1", "b2"]) is None  # the fake answers no winner
    assert list(scratch.iterdir()) == []
    assert MohexProver(str(tmp_path / "missing"), seconds=5.0)(3, []) is None
    assert list(scratch.iterdir()) == []


def test_a_question_on_a_position_plays_the_moves_in_turn_and_asks_for_the_side_to_move(
    tmp_path: Path, scratch: Path
) -> None:
    log = tmp_path / "log.txt"
    binary = _launcher(tmp_path, f"!log={log}")
    found = ask_on_position(
        binary, 3, ["a1", "b2", "c3"], "dfpn-solve-state", 5.0, ["param_mohex x 1"]
    )
    assert found is not None and found[0] == "" and found[1] >= 0.0
    sent = log.read_text(encoding="utf-8").splitlines()
    asked = [line for line in sent if line.startswith(("play", "dfpn", "param"))]
    assert asked == [
        "param_mohex x 1",
        "play b a1",
        "play w b2",
        "play b c3",
        "dfpn-solve-state w",
    ]
    assert list(scratch.iterdir()) == []  # its folder goes with the answer
    refusing = _launcher(tmp_path, "!refuse-play")
    assert ask_on_position(refusing, 3, ["a1"], "dfpn-solve-state", 5.0) is None
    assert list(scratch.iterdir()) == []


def test_a_solved_state_names_its_winner() -> None:
    assert solved_winner("black") == BLACK and solved_winner(" White\n") == WHITE
    assert solved_winner("empty") is None and solved_winner("") is None
