"""Makes the Hex engine's policy network (hex/data/policy.npz), trained on MoHex's moves.

Reads the one-line games of ``scripts/hex_net_data.py``, takes every move of the target
colours (the first ``--skip`` moves of each game are seeded openings and are not
counted; a game is read up to a swap), and trains the network of
:mod:`boardlab.hex.engine.network` (PyTorch, the optional extra ``train``: ``pip install
-e '.[train]'``) to predict the move by cross-entropy over the empty cells, each
position seen as played and turned half a circle (the board's symmetry in the mover's
frame). Games are split by the same seeded hash as ``scripts/hex_patterns.py``: its
held-out tenth is the test set here too, so both priors are measured on the same
positions; a further twentieth of the rest, by another hash, picks the epoch kept.
The script prints the network's and the shipped log-linear prior's top-1 accuracy and
log-likelihood on the test positions, checks the exported weights with the engine's
own forward pass (numba) against PyTorch, and writes the weights with their card.

Several board sizes train one network (it is fully convolutional): each batch holds
positions of one size, the batches of all sizes shuffled together; the held-out figures
are given a size. ``--init NET.npz`` (or ``--init-shipped``) starts from stored weights,
their shape kept, and prints what they score on the held-out moves before training.

    .venv/bin/python scripts/hex_net_train.py scripts/data/hex_net_games.txt \\
        --channels 32 --layers 4 --epochs 12 --seed 1 --out src/boardlab/hex/data/policy.npz

Everything is reproducible from ``--seed`` (one thread by default, as measured).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from boardlab.hex.learning.samples import PositionSamples

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "boardlab" / "hex" / "data" / "policy.npz"
GAMES = ROOT / "scripts" / "data" / "hex_net_games.txt"


@dataclass
class Samples:
    """Positions as the network reads them: ``planes`` (N, PLANES, n + 2, n + 2), the
    chosen cell in the mover's frame (``target``), the empty cells (``legal``, N x n*n,
    mover's frame), the shipped log-linear prior's scores (``pattern``, board frame
    cells mapped to the mover's frame, -inf where not empty) and whether the mover went
    on to win the game (``outcome``: 1, 0, or NaN when the game has no result)."""

    planes: npt.NDArray[np.float32]
    target: npt.NDArray[np.int64]
    legal: npt.NDArray[np.bool_]
    pattern: npt.NDArray[np.float64]
    outcome: npt.NDArray[np.float32]

    @property
    def size(self) -> int:
        return int(self.target.size)


#: One target move as read: its planes, the chosen cell, the empty cells, the prior's
#: scores and the game's result (see :class:`Samples`).
Move = tuple[npt.NDArray[np.float32], int, npt.NDArray[np.bool_], npt.NDArray[np.float64], float]


def split_of(name: str, seed: int) -> str:
    """``test`` for the held-out tenth of ``scripts/hex_patterns.py`` (the same hash of
    the SGF's file and folder names), else ``valid`` for a twentieth, else ``train``."""
    folder, stem = name.rsplit("/", 1)
    digest = hashlib.sha256(f"{seed}:{stem}.sgf:{folder}".encode()).digest()
    if digest[0] < 256 // 10:
        return "test"
    second = hashlib.sha256(f"valid:{seed}:{name}".encode()).digest()
    return "valid" if second[0] < 256 // 20 else "train"


def read_positions(lines: list[str], skip: int) -> dict[int, Samples]:
    """The samples of every target move in ``lines``, by board size."""
    from boardlab.hex.board import vertex_index
    from boardlab.hex.learning.samples import position_planes

    by_size: dict[int, list[Move]] = {}
    for line in lines:
        name, size_text, winner, targets, *moves = line.split()
        n = int(size_text)
        board = np.zeros(n * n, np.int8)
        mine = {1 if colour == "B" else 2 for colour in targets}
        last = -1
        for number, text in enumerate(moves):
            if text == "swap":
                break
            cell = vertex_index(text, n)
            mover = 1 if number % 2 == 0 else 2
            if mover in mine and number >= skip:
                planes, score = position_planes(board, n, mover, last)
                legal = board == 0
                pattern = np.where(legal, score, -np.inf)
                if mover == 2:  # noqa: PLR2004
                    legal = legal.reshape(n, n).T.ravel()
                    pattern = pattern.reshape(n, n).T.ravel()
                    row, col = divmod(cell, n)
                    target = col * n + row
                else:
                    target = cell
                won = np.nan if winner == "-" else float(winner == "BW"[mover - 1])
                by_size.setdefault(n, []).append((planes, target, legal, pattern, won))
            board[cell] = mover
            last = cell
        del name
    out: dict[int, Samples] = {}
    for n, rows in by_size.items():
        out[n] = Samples(
            np.stack([r[0] for r in rows]),
            np.array([r[1] for r in rows], np.int64),
            np.stack([r[2] for r in rows]),
            np.stack([r[3] for r in rows]),
            np.array([r[4] for r in rows], np.float32),
        )
    return out


def turned(samples: Samples, n: int) -> Samples:
    """The same positions turned half a circle."""
    return Samples(
        np.ascontiguousarray(samples.planes[:, :, ::-1, ::-1]),
        n * n - 1 - samples.target,
        np.ascontiguousarray(samples.legal[:, ::-1]),
        np.ascontiguousarray(samples.pattern[:, ::-1]),
        samples.outcome,
    )


def joined(a: Samples, b: Samples) -> Samples:
    return Samples(
        np.concatenate([a.planes, b.planes]),
        np.concatenate([a.target, b.target]),
        np.concatenate([a.legal, b.legal]),
        np.concatenate([a.pattern, b.pattern]),
        np.concatenate([a.outcome, b.outcome]),
    )


def build_model(channels: int, layers: int, value: bool = False):  # type: ignore[no-untyped-def]
    """The network of :mod:`boardlab.hex.engine.network` in PyTorch; its forward pass
    gives the policy logits and, with ``value``, the logit of the mover's winning chance
    (a linear read of the trunk's mean over the board's cells; zeros without)."""
    import torch
    from torch import nn

    from boardlab.hex.engine.network import BOARD_PLANE, PATTERN_PLANE, PLANES

    mask = torch.ones(3, 3)
    mask[0, 0] = 0.0  # offsets (-1, -1) and (1, 1) are not neighbours on the hex grid
    mask[2, 2] = 0.0

    class HexConv(nn.Conv2d):  # type: ignore[misc]  # torch is Any to mypy (pyproject.toml)
        def __init__(self, inputs: int, outputs: int) -> None:
            super().__init__(inputs, outputs, 3, padding=1)
            self.register_buffer("mask", mask.clone())

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return nn.functional.conv2d(x, self.weight * self.mask, self.bias, padding=1)

    class PolicyNet(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.first = HexConv(PLANES, channels)
            self.hidden = nn.ModuleList(HexConv(channels, channels) for _ in range(layers))
            self.head = nn.Conv2d(channels, 1, 1)
            self.alpha = nn.Parameter(torch.ones(1))
            self.value = nn.Linear(channels, 1) if value else None

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = torch.relu(self.first(x))
            for conv in self.hidden:
                h = torch.relu(h + conv(h))
            logits = self.head(h)[:, 0] + self.alpha * x[:, PATTERN_PLANE]
            policy = logits[:, 1:-1, 1:-1].flatten(1)
            if self.value is None:
                return policy, torch.zeros(x.shape[0])
            board = x[:, BOARD_PLANE : BOARD_PLANE + 1]
            mean = (h * board).sum((2, 3)) / board.sum((2, 3))
            return policy, self.value(mean)[:, 0]

    return PolicyNet()


def export(model, card: str) -> dict[str, npt.NDArray[np.float32]]:  # type: ignore[no-untyped-def]
    """The model's weights as :func:`boardlab.hex.engine.network.pack` takes them."""
    from boardlab.hex.engine.network import TAPS

    def taps(weight: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        # torch (out, in, 3, 3), tap (dr, dc) at [dr + 1, dc + 1] -> (taps, in, out)
        return np.stack([weight[:, :, dr + 1, dc + 1].T for dr, dc in TAPS]).astype(np.float32)

    first = model.first.weight.detach().numpy()
    hidden = [conv.weight.detach().numpy() for conv in model.hidden]
    channels = first.shape[0]
    return {
        "first": taps(first),
        "first_bias": model.first.bias.detach().numpy().astype(np.float32),
        "hidden": np.stack([taps(w) for w in hidden])
        if hidden
        else np.zeros((0, len(TAPS), channels, channels), np.float32),
        "hidden_bias": np.stack([c.bias.detach().numpy() for c in model.hidden]).astype(np.float32)
        if hidden
        else np.zeros((0, channels), np.float32),
        "head": model.head.weight.detach().numpy().reshape(-1).astype(np.float32),
        "head_bias": model.head.bias.detach().numpy().astype(np.float32),
        "alpha": model.alpha.detach().numpy().astype(np.float32),
        "card": np.array(card),
    } | (
        {
            "value": model.value.weight.detach().numpy().reshape(-1).astype(np.float32),
            "value_bias": model.value.bias.detach().numpy().astype(np.float32),
        }
        if model.value is not None
        else {}
    )


def stored_arrays(path: Path | None) -> dict[str, npt.NDArray[np.float32]]:
    """The arrays of the network file at ``path`` (the shipped network when None)."""
    from importlib.resources import files

    from boardlab.hex.engine.network import NETWORK_FILE

    source = path if path is not None else files("boardlab.hex").joinpath("data", NETWORK_FILE)
    with source.open("rb") as stream:
        stored = np.load(stream)
        return {key: stored[key] for key in stored.files if key != "card"}


def model_from(arrays: dict[str, npt.NDArray[np.float32]], value: bool = False):  # type: ignore[no-untyped-def]
    """A PyTorch model holding the weights ``arrays`` (the inverse of :func:`export`); a
    value head the arrays lack starts at random when ``value`` is asked."""
    import torch

    from boardlab.hex.engine.network import TAPS

    channels, layers = arrays["first"].shape[2], arrays["hidden"].shape[0]
    model = build_model(channels, layers, value or "value" in arrays)

    def conv(taps: npt.NDArray[np.float32]) -> torch.Tensor:
        # (taps, in, out) -> torch (out, in, 3, 3), the two non-neighbour taps zero
        weight = np.zeros((taps.shape[2], taps.shape[1], 3, 3), np.float32)
        for k, (dr, dc) in enumerate(TAPS):
            weight[:, :, dr + 1, dc + 1] = taps[k].T
        return torch.from_numpy(weight)

    with torch.no_grad():
        model.first.weight.copy_(conv(arrays["first"]))
        model.first.bias.copy_(torch.from_numpy(arrays["first_bias"]))
        for k, layer in enumerate(model.hidden):
            layer.weight.copy_(conv(arrays["hidden"][k]))
            layer.bias.copy_(torch.from_numpy(arrays["hidden_bias"][k]))
        model.head.weight.copy_(torch.from_numpy(arrays["head"]).reshape(1, channels, 1, 1))
        model.head.bias.copy_(torch.from_numpy(arrays["head_bias"]))
        model.alpha.copy_(torch.from_numpy(arrays["alpha"]))
        if "value" in arrays:
            model.value.weight.copy_(torch.from_numpy(arrays["value"]).reshape(1, channels))
            model.value.bias.copy_(torch.from_numpy(arrays["value_bias"]))
    return model


def measure(model, samples: Samples) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    """Top-1 accuracy and mean log-likelihood of the model's policy on ``samples``, and
    its value's accuracy (the winner called right) and cross-entropy on the positions
    of games with a result."""
    import torch

    right = 0
    loglik = 0.0
    called = 0
    entropy = 0.0
    with torch.no_grad():
        for lo in range(0, samples.size, 1024):
            x = torch.from_numpy(samples.planes[lo : lo + 1024])
            legal = torch.from_numpy(samples.legal[lo : lo + 1024])
            target = torch.from_numpy(samples.target[lo : lo + 1024])
            outcome = torch.from_numpy(samples.outcome[lo : lo + 1024])
            policy, value = model(x)
            logits = policy.masked_fill(~legal, float("-inf"))
            logp = torch.log_softmax(logits, 1)
            right += int((logits.argmax(1) == target).sum())
            loglik += float(logp.gather(1, target[:, None]).sum())
            known = ~torch.isnan(outcome)
            called += int(((value[known] > 0).float() == outcome[known]).sum())
            entropy += float(
                torch.nn.functional.binary_cross_entropy_with_logits(
                    value[known], outcome[known], reduction="sum"
                )
            )
    results = int((~np.isnan(samples.outcome)).sum()) or 1
    return right / samples.size, loglik / samples.size, called / results, entropy / results


def measure_all(model, data: dict[int, Samples]) -> tuple[float, float, float, float]:  # type: ignore[no-untyped-def]
    """:func:`measure` over every board size's samples, weighted by their counts."""
    total = sum(s.size for s in data.values()) or 1
    sums = [0.0, 0.0, 0.0, 0.0]
    for samples in data.values():
        if samples.size:
            for k, figure in enumerate(measure(model, samples)):
                sums[k] += figure * samples.size
    return sums[0] / total, sums[1] / total, sums[2] / total, sums[3] / total


def pattern_measure(samples: Samples) -> tuple[float, float]:
    """Top-1 accuracy and log-likelihood of the shipped log-linear prior on ``samples``."""
    score = samples.pattern
    top = score.max(axis=1, keepdims=True)
    logp = score - top - np.log(np.exp(score - top).sum(axis=1, keepdims=True))
    chosen = logp[np.arange(samples.size), samples.target]
    right = float((score.argmax(axis=1) == samples.target).mean())
    return right, float(chosen.mean())


def check_export(  # type: ignore[no-untyped-def]
    arrays: dict[str, npt.NDArray[np.float32]], model, samples: Samples | PositionSamples, n: int
) -> float:
    """The largest difference between the engine's forward pass and PyTorch's on a few
    positions (in logits)."""
    import torch

    from boardlab.hex.engine.network import pack

    net = pack({k: v for k, v in arrays.items() if k != "card"})
    worst = 0.0
    with torch.no_grad():
        expected, values = (t.numpy() for t in model(torch.from_numpy(samples.planes[:20])))
    for k in range(min(20, samples.size)):
        out = net.logits(samples.planes[k], n, 1)
        worst = max(worst, float(np.abs(out[: n * n] - expected[k]).max()))
        if model.value is not None:
            worst = max(worst, abs(float(out[n * n]) - float(values[k])))
    return worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=Path, default=GAMES)
    parser.add_argument("--skip", type=int, default=2, help="moves of each game not counted")
    parser.add_argument("--channels", type=int, default=32)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=12)
    parser.add_argument(
        "--value-weight",
        type=float,
        default=0.0,
        help="train a value head too, its loss weighted so (default 0: none)",
    )
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=2e-3)
    parser.add_argument("--decay", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=1, help="the split and every random choice")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=60.0, help="stop training after")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--init", type=Path, help="start from the weights of this network file (its shape)"
    )
    parser.add_argument(
        "--init-shipped", action="store_true", help="start from the shipped network's weights"
    )
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        print("hex_net_train: needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(args.seed)

    began = time.perf_counter()
    try:
        lines = [line for line in args.games.read_text().splitlines() if line.strip()]
    except OSError as error:
        print(f"hex_net_train: cannot read {args.games}: {error.strerror}", file=sys.stderr)
        return 2
    parts: dict[str, list[str]] = {"train": [], "valid": [], "test": []}
    for line in lines:
        parts[split_of(line.split()[0], args.seed)].append(line)
    data = {key: read_positions(value, args.skip) for key, value in parts.items()}
    sizes = sorted(data["train"])
    if not sizes:
        print(f"hex_net_train: no training moves in {args.games}", file=sys.stderr)
        return 2
    train = {n: joined(data["train"][n], turned(data["train"][n], n)) for n in sizes}
    valid, test = data["valid"], data["test"]
    moves = {key: sum(s.size for s in value.values()) for key, value in data.items()}
    print(
        f"{len(parts['train'])} training games ({moves['train']} moves, "
        f"{2 * moves['train']} with the half turn; "
        + ", ".join(f"{n}x{n} {data['train'][n].size}" for n in sizes)
        + f"), {len(parts['valid'])} for the epoch ({moves['valid']} moves), "
        f"{len(parts['test'])} held out ({moves['test']} moves); read in "
        f"{time.perf_counter() - began:.1f} s",
        flush=True,
    )

    if not moves["test"]:
        print(f"hex_net_train: no held-out moves in {args.games} (too few games)", file=sys.stderr)
        return 2
    if args.init is not None or args.init_shipped:
        try:
            model = model_from(stored_arrays(args.init), args.value_weight > 0)
        except (OSError, KeyError, ValueError) as error:
            print(f"hex_net_train: cannot start from {args.init}: {error}", file=sys.stderr)
            return 2
        print(f"held out before training ({args.init or 'the shipped network'}):", flush=True)
        for n, samples in sorted(test.items()):
            accuracy, loglik, _, _ = measure(model, samples)
            print(f"  {n}x{n}: top-1 {100 * accuracy:.1f} %, log-likelihood {loglik:.3f}")
    else:
        model = build_model(args.channels, args.layers, args.value_weight > 0)
    optimiser = torch.optim.AdamW(model.parameters(), lr=args.rate, weight_decay=args.decay)
    batches = [(n, lo) for n in sizes for lo in range(0, train[n].size, args.batch)]
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, args.rate, total_steps=args.epochs * len(batches)
    )
    best: tuple[float, dict[str, torch.Tensor]] = (-1.0, {})
    trained = time.perf_counter()
    for epoch in range(1, args.epochs + 1):
        orders = {n: rng.permutation(train[n].size) for n in sizes}
        model.train()
        for k in rng.permutation(len(batches)):
            n, lo = batches[k]
            samples, pick = train[n], orders[n][lo : lo + args.batch]
            x = torch.from_numpy(samples.planes[pick])
            legal = torch.from_numpy(samples.legal[pick])
            target = torch.from_numpy(samples.target[pick])
            policy, value = model(x)
            logits = policy.masked_fill(~legal, float("-inf"))
            loss = torch.nn.functional.cross_entropy(logits, target)
            if args.value_weight > 0:
                outcome = torch.from_numpy(samples.outcome[pick])
                known = ~torch.isnan(outcome)
                if bool(known.any()):
                    loss = loss + args.value_weight * (
                        torch.nn.functional.binary_cross_entropy_with_logits(
                            value[known], outcome[known]
                        )
                    )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        model.eval()
        accuracy, loglik, called, entropy = measure_all(model, valid)
        value_text = (
            f"; value right {100 * called:.1f} %, cross-entropy {entropy:.3f}"
            if args.value_weight > 0
            else ""
        )
        print(
            f"epoch {epoch}: validation top-1 {100 * accuracy:.1f} %, log-likelihood "
            f"{loglik:.3f}{value_text} ({time.perf_counter() - trained:.0f} s)",
            flush=True,
        )
        if accuracy > best[0]:
            best = (accuracy, {k: v.clone() for k, v in model.state_dict().items()})
        if time.perf_counter() - trained > 60 * args.minutes:
            print(f"stopped after {args.minutes} minutes", flush=True)
            break
    seconds = time.perf_counter() - trained
    model.load_state_dict(best[1])
    model.eval()
    held: list[str] = []
    for n, samples in sorted(test.items()):
        accuracy, loglik, called, entropy = measure(model, samples)
        base_accuracy, base_loglik = pattern_measure(samples)
        print(
            f"held out {n}x{n} ({samples.size} moves): network top-1 {100 * accuracy:.1f} %, "
            f"log-likelihood {loglik:.3f}; log-linear prior top-1 {100 * base_accuracy:.1f} %, "
            f"log-likelihood {base_loglik:.3f}"
        )
        if args.value_weight > 0:
            print(
                f"held-out value {n}x{n}: the winner called right {100 * called:.1f} %, "
                f"cross-entropy {entropy:.3f} (a coin: 0.693)"
            )
        held.append(
            f"{n}x{n} {100 * accuracy:.1f} % on {samples.size} moves (log-linear prior "
            f"{100 * base_accuracy:.1f} %)"
        )
    parameters = sum(p.numel() for p in model.parameters())
    start = f"from {args.init or 'the shipped network'}, " if args.init or args.init_shipped else ""
    card = (
        f"trained {start}on {moves['train']} MoHex moves of {len(parts['train'])} games ("
        + ", ".join(f"{n}x{n} {data['train'][n].size}" for n in sizes)
        + f"; x2 by the half turn), {model.first.weight.shape[0]} channels, "
        f"{len(model.hidden)} residual layers, {parameters} weights, {args.epochs} epochs in "
        f"{seconds:.0f} s on {args.threads} CPU thread(s), seed {args.seed}; held-out top-1 "
        + "; ".join(held)
        + f" of {len(parts['test'])} games"
    )
    arrays = export(model, card)
    worst = max(check_export(arrays, model, test[n], n) for n in test if test[n].size)
    print(f"engine forward pass against PyTorch: largest difference {worst:.2e}")
    if worst > 1e-3:  # noqa: PLR2004
        print("hex_net_train: the exported network does not match", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".part")
    with open(partial, "wb") as stream:
        np.savez_compressed(stream, allow_pickle=False, **arrays)
    partial.replace(args.out)
    print(f"{card}\nweights written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
