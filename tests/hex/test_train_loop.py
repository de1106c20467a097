"""scripts/hex_train_loop.py on a tiny self-play store: the policy trained on visit
counts, the value on labels and results, exported and checked against the engine's
forward pass; the generation loop's state. Needs PyTorch (the optional extra ``train``)
and is skipped only where it is not installed."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from tests.hex.benchmark_script import SCRIPTS, load

from boardlab.hex.engine.network import load_network
from boardlab.hex.learning.samples import encode
from boardlab.hex.learning.selfplay import SelfPlay, run
from boardlab.hex.learning.store import read_games

pytest.importorskip("torch")


def _script() -> ModuleType:
    return load("hex_train_loop", SCRIPTS)


def test_train_exports_a_network_the_engine_reads(tmp_path: Path) -> None:
    script = _script()
    store = tmp_path / "games"
    run(store, SelfPlay(sizes=(4,), playouts=20, seed=1, sample_plies=2, label_nodes=200), 8)
    out = tmp_path / "net.npz"
    card, held = script.train([store], out, channels=4, layers=1, epochs=1, seed=1)
    net = load_network(str(out))
    assert net.has_value and net.channels == 4 and net.layers == 1
    assert "self-play positions" in card and net.card == card
    assert 0.0 <= held.top1 <= 1.0 and held.value_error >= 0.0
    # the half turn keeps every target a distribution over the empty cells
    samples = encode(read_games(store), 4)
    turned = script.turned(samples, 4)
    assert np.allclose(turned.policy.sum(1), 1.0)
    assert not (turned.policy * ~turned.legal).any()
    assert turned.legal[np.arange(turned.size), turned.played].all()


def test_the_loop_trains_a_generation_and_measures_it(tmp_path: Path) -> None:
    script = _script()
    work = tmp_path / "loop"
    argv = ["loop", "--work", str(work), "--size", "4", "--games", "10", "--playouts", "20"]
    argv += ["--generations", "2", "--pairs", "1", "--channels", "4", "--layers", "1"]
    argv += ["--epochs", "1"]
    assert script.main(argv) == 0
    state = json.loads((work / "loop.json").read_text())
    first, second, third = state["generations"]
    assert first["generation"] == 0 and first["network"] == ""
    assert second["match"]["games"] == 2 and second["parent"] == 0
    assert second["trained_on"] == [str(work / "games-by-0")]
    assert second["accepted"] == (second["match"]["wins"] > 1)
    assert (work / "gen-1" / "card.txt").read_text().startswith("trained on")
    if second["accepted"]:  # the next challenger is trained on generation 1's games
        assert third["parent"] == 1 and len(list(read_games(work / "games-by-1"))) == 10
    else:  # on more of generation 0's
        assert third["parent"] == 0 and len(list(read_games(work / "games-by-0"))) == 20
    assert script.main(argv) == 0  # done already: nothing more is played
    assert json.loads((work / "loop.json").read_text()) == state


def test_the_loop_starts_from_games_made_before_and_match_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script()
    store = tmp_path / "made"
    run(store, SelfPlay(sizes=(4,), playouts=20, seed=3, label_nodes=200), 8)
    before = sorted(p.name for p in store.iterdir())
    work = tmp_path / "loop"
    argv = ["loop", "--work", str(work), "--size", "4", "--games", "8", "--playouts", "20"]
    argv += ["--generations", "1", "--pairs", "1", "--channels", "4", "--layers", "1"]
    argv += ["--epochs", "1", "--games-of-0", str(store)]
    assert script.main(argv) == 0
    second = json.loads((work / "loop.json").read_text())["generations"][1]
    assert second["trained_on"] == [str(store)]
    assert sorted(p.name for p in store.iterdir()) == before
    assert not (work / "games-by-0").exists()
    net = second["network"]
    assert script.main(["match", net, "", "--size", "3", "--pairs", "1", "--playouts", "10"]) == 0
    assert "against shipped, 3x3 at 10 playouts a move: " in capsys.readouterr().out


def test_train_from_stored_weights_with_mohex_moves_and_most_visited_targets(
    tmp_path: Path,
) -> None:
    from boardlab.hex.board import vertex

    script = _script()
    store = tmp_path / "games"
    run(store, SelfPlay(sizes=(4,), playouts=20, seed=2, sample_plies=2, label_nodes=200), 8)
    first = tmp_path / "first.npz"
    script.train([store], first, channels=4, layers=1, epochs=1, seed=1)
    # MoHex's games file: one line a game, its moves as HexGui's cells (both colours
    # targets); the self-play games stand in for MoHex's here
    lines = [
        f"mohex/game-{game.number} 4 {'BW'[game.winner - 1]} BW "
        + " ".join(vertex(ply.move, 4) for ply in game.plies)
        for game in read_games(store)
    ]
    games_file = tmp_path / "mohex.txt"
    games_file.write_text("\n".join(lines) + "\n")
    moves = script.mohex_samples(games_file, 1)[4]
    assert moves.size > 0 and np.allclose(moves.policy.sum(1), 1.0)
    assert (moves.policy.argmax(1) == moves.played).all()  # the move played is the target
    sharp = script.sharpened(encode(read_games(store), 4))
    assert set(np.unique(sharp.policy)) <= {0.0, 1.0} and np.allclose(sharp.policy.sum(1), 1.0)
    out = tmp_path / "net.npz"
    card, _ = script.train(
        [store], out, epochs=1, seed=1, init=str(first), mohex=games_file, most_visited=True
    )
    net = load_network(str(out))
    assert net.channels == 4 and net.layers == 1  # the stored weights' shape, not the default
    assert card.startswith(f"trained from {first} weights, {moves.size} MoHex training moves")
    assert "policy to the most visited move" in card
    for option in ("--init", "--mohex"):  # a file that is not there: one line, before reading
        argv = ["train", str(store), "--out", str(out), option, str(tmp_path / "nothing")]
        assert script.main(argv) == 2
