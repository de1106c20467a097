"""scripts/hex_net_train.py: the network trained on MoHex's moves of several board sizes
at once, started from stored weights (read back exactly), exported and checked against
the engine's forward pass. Needs PyTorch (the optional extra ``train``) and is skipped
only where it is not installed."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from tests.hex.benchmark_script import SCRIPTS, load

from boardlab.hex.board import vertex
from boardlab.hex.engine.network import load_network

torch = pytest.importorskip("torch")


def _script() -> ModuleType:
    return load("hex_net_train", SCRIPTS)


def _games(path: Path, sizes: tuple[int, ...], count: int) -> None:
    rng = random.Random(3)
    lines = []
    for k in range(count):
        n = sizes[k % len(sizes)]
        cells = list(range(n * n))
        rng.shuffle(cells)
        moves = " ".join(vertex(cell, n) for cell in cells[: n * n // 2])
        lines.append(f"games/g{k} {n} {'BW'[k % 2]} BW {moves}")
    path.write_text("\n".join(lines) + "\n")


def test_stored_weights_come_back_exactly() -> None:
    script = _script()
    torch.manual_seed(5)
    model = script.build_model(4, 2, True)
    with torch.no_grad():  # give the masked taps and alpha values a zero would hide
        for p in model.parameters():
            p.add_(0.1 * torch.randn_like(p))
    arrays = script.export(model, "")
    again = script.model_from({k: v for k, v in arrays.items() if k != "card"})
    x = torch.from_numpy(np.random.default_rng(1).random((3, 6, 7, 7), dtype=np.float32))
    with torch.no_grad():
        for a, b in zip(model(x), again(x), strict=True):
            assert torch.allclose(a, b, atol=1e-5)


def test_trains_two_sizes_from_the_shipped_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    script = _script()
    games = tmp_path / "games.txt"
    _games(games, (5, 6), 60)
    out = tmp_path / "net.npz"
    argv = ["hex_net_train.py", str(games), "--epochs", "1", "--init-shipped", "--out", str(out)]
    monkeypatch.setattr(sys, "argv", argv)
    assert script.main() == 0
    text = capsys.readouterr().out
    assert "5x5" in text and "6x6" in text and "held out before training" in text
    net = load_network(str(out))
    shipped = load_network()
    assert (net.channels, net.layers) == (shipped.channels, shipped.layers)
    assert net.card.startswith("trained from the shipped network") and "6x6" in net.card
