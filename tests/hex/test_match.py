"""The referee and matches: in-process players, a GTP subprocess, broken engines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boardlab.core.errors import ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.judge import play_game
from boardlab.hex.match import EnginePlayer, run_match
from boardlab.hex.player import SolvingEngine
from boardlab.peers.gtp_process import GtpProcess


class Scripted:
    """A player that replays fixed answers (to test the referee's checks)."""

    def __init__(self, replies: list[str], name: str = "scripted") -> None:
        self.replies = list(replies)
        self.name = name
        self.heard: list[str] = []

    def new_game(self, size: int) -> None:
        pass

    def play(self, color: int, vertex: str) -> None:
        self.heard.append(vertex)

    def genmove(self, color: int, seconds: float) -> str:
        return self.replies.pop(0)

    def close(self) -> None:
        pass


def test_referee_checks_moves() -> None:
    # a bad move is no resignation: without a prover the game is void
    good = Scripted(["a1", "b1", "c1"], "good")
    bad = Scripted(["a1"], "bad")
    record = play_game(good, bad, 3, 0.1)
    assert record.void and "occupied" in record.reason
    record = play_game(Scripted(["z9"], "x"), Scripted([]), 3, 0.1)
    assert record.void and "bad move" in record.reason
    record = play_game(Scripted(["resign"], "x"), Scripted([]), 3, 0.1)
    assert record.winner == 2 and record.reason == "x resigned"
    assert record.decided_by == "resignation"


def test_gtp_black_joins_top_and_bottom_in_the_referee() -> None:
    black = Scripted(["b1", "b2", "b3"], "black")
    white = Scripted(["a1", "a2"], "white")
    record = play_game(black, white, 3, 0.1)
    assert record.winner == 1 and record.decided_by == "connection"
    assert record.moves == ("b1", "a1", "b2", "a2", "b3")
    assert white.heard == ["b1", "b2"]


def test_engine_beats_a_random_player() -> None:
    import random

    class RandomPlayer(Scripted):
        def __init__(self) -> None:
            super().__init__([], "random")
            self.taken: set[str] = set()
            self.rng = random.Random(0)
            self.size = 0

        def new_game(self, size: int) -> None:
            self.size = size
            self.taken = set()

        def play(self, color: int, vertex: str) -> None:
            self.taken.add(vertex)

        def genmove(self, color: int, seconds: float) -> str:
            letters = "abcdefghijklmnopqrstuvwxyz"
            free = [
                f"{letters[c]}{r + 1}"
                for r in range(self.size)
                for c in range(self.size)
                if f"{letters[c]}{r + 1}" not in self.taken
            ]
            move = self.rng.choice(free)
            self.taken.add(move)
            return move

    class Counted(EnginePlayer):
        """The engine at a playout limit, so that a loaded machine plays the same moves."""

        def genmove(self, color: int, seconds: float) -> str:
            result = self.engine.search(self.position, Limit(nodes=2_000))
            self.position.push(result.cell)
            return result.cell.vertex()

    result = run_match(
        Counted(SolvingEngine(seed=1, max_nodes=100_000)), RandomPlayer(), 5, 2, 0.05
    )
    assert result.wins_as == {1: 1, 2: 1}
    assert "black (first)" in "\n".join(result.table("boardlab", "random"))


def test_match_against_a_gtp_subprocess() -> None:
    command = [sys.executable, "-m", "boardlab", "hex", "gtp", "--time", "0.02", "--seed", "5"]
    theirs = GtpProcess(command, timeout=60.0)
    try:
        assert theirs.name == "boardlab-hex"
        ours = EnginePlayer(SolvingEngine(seed=2, max_nodes=100_000))
        result = run_match(ours, theirs, 4, 2, 0.02)
    finally:
        theirs.close()
    assert sum(result.played_as.values()) == 2
    for record in result.games:
        assert record.decided_by == "connection"


def test_broken_engines_never_hang(tmp_path: Path) -> None:
    silent = tmp_path / "silent.py"
    silent.write_text(
        "import sys, time\nfor line in sys.stdin:\n"
        "    if line.startswith('name'):\n"
        "        print('= silent\\n', flush=True)\n"
        "    elif line.startswith('genmove'):\n        time.sleep(30)\n"
        "    else:\n        print('= \\n', flush=True)\n"
    )
    engine = GtpProcess([sys.executable, str(silent)], timeout=5.0, grace=0.3)
    try:
        record = play_game(engine, Scripted([]), 3, 0.1)
    finally:
        engine.close()
    assert record.void and "did not answer" in record.reason
    with pytest.raises(ProtocolError, match="cannot start engine"):
        GtpProcess(["/nonexistent/engine"])
    crash = tmp_path / "crash.py"
    crash.write_text("import sys\nsys.exit(3)\n")
    with pytest.raises(ProtocolError, match=r"crashed \(exit status 3\) on 'name'"):
        GtpProcess([sys.executable, str(crash)], timeout=5.0)


def test_a_dead_engine_closes_quietly(tmp_path: Path) -> None:
    # an engine that dies after its name: later commands fail with a ProtocolError, and
    # closing it (with unsent bytes in the pipe) raises nothing
    dying = tmp_path / "dying.py"
    dying.write_text("import sys\nsys.stdin.readline()\nprint('= dying\\n', flush=True)\n")
    engine = GtpProcess([sys.executable, str(dying)], timeout=5.0)
    for _ in range(3):
        with pytest.raises(ProtocolError):
            engine.new_game(5)
    engine.close()


def test_save_game_and_game_folder_in_the_hex_room(tmp_path: Path) -> None:
    from boardlab.core.errors import BoardlabError
    from boardlab.hex.formats import format_game_sgf
    from boardlab.hex.match import game_folder, save_game

    record = play_game(Scripted(["b2", "b1", "b3"]), Scripted(["a1", "a2"]), 3, 0.1)
    folder = game_folder(tmp_path / "new" / "games")  # made only when a game is saved
    assert not folder.exists()
    path = save_game(folder, 0, record, True, "a test")
    assert path == folder / "game-01-boardlab-black.sgf"
    assert path.read_text(encoding="utf-8") == format_game_sgf(record, "a test")
    assert [p.name for p in folder.iterdir()] == [path.name]  # no .part left
    assert save_game(folder, 11, record, False, "a test").name == "game-12-boardlab-white.sgf"
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(BoardlabError, match="cannot write games into the folder"):
        game_folder(blocker / "games")
