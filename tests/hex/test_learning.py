"""The learning room (hex/learning): the self-play store's round trip and resume, seeded
self-play, the prover's labels, the training samples and the seeded match."""

from __future__ import annotations

import gzip

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.learning.match import play_match, wilson
from boardlab.hex.learning.samples import encode
from boardlab.hex.learning.selfplay import SelfPlay, play_game, run
from boardlab.hex.learning.store import (
    GameRecord,
    Ply,
    Store,
    format_game,
    parse_game,
    read_games,
    summarise,
)
from boardlab.hex.player import proven_value
from boardlab.hex.rules import Position

TINY = SelfPlay(sizes=(3, 4), playouts=24, seed=5, sample_plies=2, label_nodes=300)


def _game(number: int) -> GameRecord:
    return GameRecord(
        number,
        3,
        2,
        (
            Ply(4, None),
            Ply(0, ((0, 7), (1, 2), (8, 1)), 0),
            Ply(2, (), -1),
            Ply(1, ((1, 3),), 1),
        ),
    )


def test_a_game_line_reads_back_as_written() -> None:
    game = _game(7)
    line = format_game(game)
    assert line == "7 3 W 4 0:0.7,1.2,8.1 2-: 1+:1.3"
    assert parse_game(line) == game


@pytest.mark.parametrize(
    "line", ["", "1 3", "x 3 B", "1 3 X 0", "1 3 B 9", "1 3 B 0:9.1", "1 3 B 0:1", "1 3 B 0:1.-2"]
)
def test_a_bad_line_is_one_clear_error(line: str) -> None:
    with pytest.raises(BoardlabError, match="games.txt:3: not a self-play game"):
        parse_game(line, "games.txt:3")


def test_the_store_chunks_compresses_and_resumes(tmp_path: pytest.TempPathFactory) -> None:
    folder = tmp_path / "run"  # type: ignore[operator]
    store = Store(folder, {"seed": 1}, chunk_games=2)
    for k in range(3):
        store.append(_game(k))
    with pytest.raises(BoardlabError, match="game 5 given where game 3 is next"):
        store.append(_game(5))
    assert sorted(p.name for p in folder.iterdir()) == [
        "games-00000.txt.gz",
        "games-00001.txt",
        "run.json",
    ]
    with gzip.open(folder / "games-00000.txt.gz", "rt") as stream:
        assert stream.read() == format_game(_game(0)) + "\n" + format_game(_game(1)) + "\n"
    # a run stopped while writing a game: the torn line is dropped on resume
    with open(folder / "games-00001.txt", "a") as stream:
        stream.write("3 3 B 4 0:0.")
    assert [g.number for g in read_games(folder)] == [0, 1, 2]
    resumed = Store(folder, {"seed": 1}, chunk_games=2)
    assert resumed.games == 3
    resumed.append(_game(3))
    assert [g for g in read_games(folder)] == [_game(k) for k in range(4)]
    assert summarise(folder).games == 4
    with pytest.raises(BoardlabError, match=r"other settings \(seed\)"):
        Store(folder, {"seed": 2})


def test_a_compression_cut_short_is_tidied(tmp_path: pytest.TempPathFactory) -> None:
    folder = tmp_path / "run"  # type: ignore[operator]
    store = Store(folder, {}, chunk_games=2)
    store.append(_game(0))
    plain = (folder / "games-00000.txt").read_bytes()
    store.append(_game(1))
    # stopped after the compressed chunk was in place, before its plain file went
    (folder / "games-00000.txt").write_bytes(plain)
    (folder / "games-00001.part").write_bytes(b"half")
    assert [g.number for g in read_games(folder)] == [0, 1]
    assert Store(folder, {}, chunk_games=2).games == 2
    assert sorted(p.name for p in folder.iterdir()) == ["games-00000.txt.gz", "run.json"]


def test_games_out_of_order_are_refused(tmp_path: pytest.TempPathFactory) -> None:
    folder = tmp_path / "run"  # type: ignore[operator]
    folder.mkdir()
    (folder / "games-00000.txt").write_text(format_game(_game(1)) + "\n")
    with pytest.raises(BoardlabError, match="game 1 found where game 0 was expected"):
        Store(folder, {})


def test_selfplay_is_seeded_and_a_resumed_run_loses_nothing(
    tmp_path: pytest.TempPathFactory,
) -> None:
    whole = tmp_path / "whole"  # type: ignore[operator]
    run(whole, TINY, 4)
    parts = tmp_path / "parts"  # type: ignore[operator]
    seen: list[int] = []
    run(parts, TINY, 2, lambda game, store: seen.append(game.number))
    with open(parts / "games-00000.txt", "a") as stream:
        stream.write("2 4 B 5:")  # a game cut off mid-line
    run(parts, TINY, 4, lambda game, store: seen.append(game.number))
    assert seen == [0, 1, 2, 3]
    assert summarise(parts) == summarise(whole)
    assert list(read_games(parts)) == list(read_games(whole))
    other = tmp_path / "other"  # type: ignore[operator]
    run(other, SelfPlay(sizes=(3, 4), playouts=24, seed=6, sample_plies=2, label_nodes=300), 4)
    assert summarise(other).checksum != summarise(whole).checksum
    with pytest.raises(BoardlabError, match="other settings"):
        run(whole, SelfPlay(sizes=(3, 4), playouts=25, seed=5), 5)


def _replay(game: GameRecord, plies: int) -> Position:
    position = Position(game.size)
    for ply in game.plies[:plies]:
        position.push_index(ply.move)
    return position


def test_a_selfplay_game_is_legal_whole_and_labelled_exactly() -> None:
    labelled = 0
    for number in range(3):
        game = play_game(TINY, number)
        assert game == play_game(TINY, number)
        final = _replay(game, len(game.plies))
        assert final.winner == game.winner
        assert game.plies[0].visits is None  # the random first stone
        assert all(ply.visits is not None for ply in game.plies[1:])
        assert game.plies[-1].label == 1  # the mover wins with the last move
        for k, ply in enumerate(game.plies):
            if ply.visits:
                assert all(_replay(game, k).board[cell] == 0 for cell, _ in ply.visits)
            if ply.label:
                labelled += 1
                exact = proven_value(_replay(game, k), Limit(nodes=200_000))
                assert exact == ply.label
    assert labelled > 3


def test_samples_are_in_the_movers_frame() -> None:
    games = [play_game(TINY, k) for k in range(4)]
    for n in (3, 4):
        own = [g for g in games if g.size == n]
        samples = encode(games, n)
        searched = sum(1 for g in own for p in g.plies if p.visits is not None)
        assert samples.size == searched
        assert samples.planes.shape == (searched, 6, n + 2, n + 2)
        assert np.allclose(samples.policy.sum(axis=1), 1.0)
        assert not (samples.policy * ~samples.legal).any()
        assert samples.legal[np.arange(samples.size), samples.played].all()
        # the empty plane, read in the mover's frame, is the legal mask
        empty = samples.planes[:, 2, 1:-1, 1:-1].reshape(samples.size, -1)
        assert (empty.astype(bool) == samples.legal).all()
        k = 0
        for game in own:
            for number, ply in enumerate(game.plies):
                if ply.visits is None:
                    continue
                mover = 1 + number % 2
                if ply.label:
                    assert samples.proven[k] and samples.value[k] == float(ply.label == 1)
                else:
                    assert samples.value[k] == float(game.winner == mover)
                row, col = divmod(ply.move, n)
                assert samples.played[k] == (ply.move if mover == 1 else col * n + row)
                k += 1


def test_the_wilson_interval() -> None:
    low, high = wilson(10, 20)
    assert low == pytest.approx(0.2993, abs=1e-4) and high == pytest.approx(0.7007, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(5, 5)[1] == 1.0


def test_a_seeded_match() -> None:
    score = play_match("", "", 3, 1, 20, seed=3)
    assert score.games == 2
    assert score == play_match("", "", 3, 1, 20, seed=3)
    assert score.low <= score.score <= score.high


def test_deep_searches_keep_the_only_targets_of_a_seeded_share() -> None:
    deep = SelfPlay(sizes=(5,), playouts=8, seed=3, sample_plies=0, label_nodes=0,
                    deep_playouts=200, deep_share=0.5)  # fmt: skip
    games = [play_game(deep, k) for k in range(4)]
    assert games == [play_game(deep, k) for k in range(4)]  # seeded
    kept = [ply for game in games for ply in game.plies[1:] if ply.visits is not None]
    dropped = [ply for game in games for ply in game.plies[1:] if ply.visits is None]
    assert kept and dropped  # some moves of each kind
    # a deep search's visits add up to about its playouts (a proven root may stop sooner)
    assert max(sum(count for _, count in ply.visits or ()) for ply in kept) > 50
    assert "deep_playouts" in deep.settings()
    assert "deep_playouts" not in TINY.settings()  # older runs' settings read the same
    with pytest.raises(BoardlabError, match="deep playouts"):
        SelfPlay(deep_playouts=100, deep_share=0.0)


def test_settings_out_of_range_are_refused() -> None:
    with pytest.raises(BoardlabError, match="board sizes"):
        SelfPlay(sizes=(1,))
    with pytest.raises(BoardlabError, match="playouts"):
        SelfPlay(playouts=0)
    with pytest.raises(BoardlabError, match="cannot read the network"):
        SelfPlay(network="/nonexistent/net.npz")


def test_the_selfplay_script_resumes_and_refuses_another_run(
    tmp_path: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util
    import sys
    from pathlib import Path

    scripts = Path(__file__).resolve().parents[2] / "scripts"
    spec = importlib.util.spec_from_file_location("hex_selfplay", scripts / "hex_selfplay.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules["hex_selfplay"] = script
    spec.loader.exec_module(script)
    out = str(tmp_path / "run")  # type: ignore[operator]
    argv = ["--size", "3-4", "--playouts", "24", "--seed", "5", "--sample-plies", "2"]
    argv += ["--label-nodes", "300", "--out", out, "--quiet"]
    assert script.main([*argv, "--games", "2"]) == 0
    assert script.main([*argv, "--games", "4"]) == 0
    printed = capsys.readouterr().out
    assert "game 2 (" in printed and "game 0 (" in printed
    assert f"checksum sha256 {summarise(tmp_path / 'run').checksum}" in printed  # type: ignore[operator]
    assert summarise(tmp_path / "run") == summarise_of(TINY, 4, tmp_path)  # type: ignore[operator]
    assert script.main([*argv, "--games", "5", "--playouts", "25"]) == 2
    assert "holds a run with other settings (playouts)" in capsys.readouterr().err


def summarise_of(settings: SelfPlay, games: int, tmp_path: object) -> object:
    folder = tmp_path / "fresh"  # type: ignore[operator]
    run(folder, settings, games)
    return summarise(folder)
