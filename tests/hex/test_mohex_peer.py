"""MoHex as a peer (:mod:`boardlab.peers.mohex`) leaves no folder behind: its player's
working folder goes with :meth:`MohexPlayer.close`, its prover's with each question.

A fake GTP program (``fake_gtp.py`` behind a small launcher) stands in for MoHex."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from boardlab.hex.rules import BLACK
from boardlab.peers.mohex import MohexPlayer, MohexProver

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
