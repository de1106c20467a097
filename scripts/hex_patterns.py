"""Makes ``src/boardlab/hex/data/patterns.npz``: the Hex engine's move-pattern weights.

Reads SGF games (those kept under ``benchmarks/results/``: MoHex 2.0's benchmark games
against boardlab and the MoHex-against-MoHex games of ``scripts/hex_mohex_games.py``),
takes every move that the named player chose (by default MoHex's, under any of its
names ``mohex``, ``mohex-N``; not the seeded opening stones), describes every empty
cell of each such position by the local features of :mod:`boardlab.hex.engine.patterns`, and
fits a log-linear (softmax) model of the chosen move
by gradient descent with L2 regularisation. Games are split by a seeded hash into a
training part and a held-out tenth; the script prints the per-move log-likelihood and
the top-1 accuracy on both, against the uniform choice.

    .venv/bin/python scripts/hex_patterns.py benchmarks/results/hex-mohex \\
        benchmarks/results/hex-mohex-selfplay [--player mohex] [--skip 2] \\
        [--out src/boardlab/hex/data/patterns.npz]
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "boardlab" / "hex" / "data" / "patterns.npz"
Samples = tuple[npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.int64]]


def games(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        found.extend(sorted(path.rglob("*.sgf")) if path.is_dir() else [path])
    return found


def samples(files: list[Path], player: str, skip: int) -> tuple[Samples, int]:
    """Features of every candidate (rows), the position each belongs to, and the chosen
    row of each position; and how many games gave moves."""
    from boardlab.hex.engine.patterns import NUM_FEATURES, features, ring_canon_table, square_table
    from boardlab.hex.formats import parse_sgf

    canon = ring_canon_table()
    rows: list[npt.NDArray[np.int32]] = []
    owner: list[int] = []
    chosen: list[int] = []
    used = 0
    idx = np.empty(NUM_FEATURES, np.int32)
    for path in files:
        text = path.read_text()
        colours = {
            c
            for c, name in re.findall(r"P([BW])\[([^\]]*)\]", text)
            if name == player or name.startswith(player + "-")
        }
        if not colours:
            continue
        mine = {1 if colour == "B" else 2 for colour in colours}
        try:
            position = parse_sgf(text, str(path))
        except ValueError:
            continue
        n = position.size
        squares = square_table(n)
        board = np.zeros(n * n, np.int8)
        moves = position.indices
        took = False
        for number, cell in enumerate(moves):
            mover = 1 if number % 2 == 0 else 2
            if cell < 0:
                break  # a swap: the rest is not read
            if mover in mine and number >= skip:
                last = moves[number - 1] if number else -1
                empty = np.flatnonzero(board == 0)
                block = np.empty((empty.size, NUM_FEATURES), np.int32)
                for k, c in enumerate(empty):
                    features(board, n, mover, last, int(c), canon, squares, idx)
                    block[k] = idx
                chosen.append(len(owner) + int(np.flatnonzero(empty == cell)[0]))
                owner.extend([len(chosen) - 1] * empty.size)
                rows.append(block)
                took = True
            board[cell] = mover
        used += took
    return (np.concatenate(rows), np.array(owner), np.array(chosen)), used


def fit(
    data: Samples, weights_size: int, steps: int, l2: float, rate: float
) -> npt.NDArray[np.float64]:
    """Softmax weights by Adam on the mean negative log-likelihood plus ``l2 |w|^2``."""
    feats, owner, chosen = data
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    positions = starts.size
    target = np.zeros(owner.size)
    target[chosen] = 1.0
    w = np.zeros(weights_size)
    m = np.zeros(weights_size)
    v = np.zeros(weights_size)
    flat = feats.ravel()
    for step in range(1, steps + 1):
        p = probabilities(w, feats, owner, starts)
        sums = np.bincount(
            flat, weights=np.repeat(p - target, feats.shape[1]), minlength=weights_size
        ).astype(np.float64, copy=False)
        grad = sums / positions + 2 * l2 * w
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        w -= rate * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
    return w


def probabilities(
    w: npt.NDArray[np.float64],
    feats: npt.NDArray[np.int32],
    owner: npt.NDArray[np.int64],
    starts: npt.NDArray[np.int64],
) -> npt.NDArray[np.float64]:
    score = w[feats].sum(axis=1)
    score = score - np.maximum.reduceat(score, starts)[owner]
    e: npt.NDArray[np.float64] = np.exp(score)
    return e / np.add.reduceat(e, starts)[owner]


def evaluate(w: npt.NDArray[np.float64], data: Samples) -> tuple[float, float, float]:
    """Mean log-likelihood of the chosen moves, top-1 accuracy, uniform log-likelihood."""
    feats, owner, chosen = data
    starts = np.flatnonzero(np.r_[True, owner[1:] != owner[:-1]])
    p = probabilities(w, feats, owner, starts)
    loglik = float(np.log(p[chosen]).mean())
    best = np.maximum.reduceat(p, starts)
    top1 = float((p[chosen] >= best).mean())
    sizes = np.diff(np.r_[starts, owner.size])
    return loglik, top1, float(-np.log(sizes).mean())


def held_out(path: Path, seed: int) -> bool:
    digest = hashlib.sha256(f"{seed}:{path.name}:{path.parent.name}".encode()).digest()
    return digest[0] < 256 // 10


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", help="SGF files or folders of them")
    parser.add_argument(
        "--player",
        default="mohex",
        help="whose moves count: the PB/PW name, or its prefix before '-' (default mohex)",
    )
    parser.add_argument("--skip", type=int, default=2, help="moves of each game not counted")
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1, help="which games are held out")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    from boardlab.hex.engine.patterns import NUM_WEIGHTS

    files = games(args.sources)
    train_files = [f for f in files if not held_out(f, args.seed)]
    test_files = [f for f in files if held_out(f, args.seed)]
    began = time.perf_counter()
    train, train_games = samples(train_files, args.player, args.skip)
    test, test_games = samples(test_files, args.player, args.skip)
    print(
        f"{train_games} training games ({train[2].size} moves), {test_games} held out "
        f"({test[2].size} moves); features in {time.perf_counter() - began:.1f} s"
    )
    if train[2].size == 0:
        print("no moves found", file=sys.stderr)
        return 2
    w = fit(train, NUM_WEIGHTS, args.steps, args.l2, args.rate)
    report = {}
    for name, data in (("training", train), ("held out", test)):
        if data[2].size:
            loglik, top1, uniform = evaluate(w, data)
            report[name] = (loglik, top1)
            print(
                f"{name:>9}: log-likelihood {loglik:.3f} a move (uniform {uniform:.3f}), "
                f"top-1 {100 * top1:.1f} %"
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        args.out,
        weights=w,
        games=np.int64(train_games),
        moves=np.int64(train[2].size),
        held_out_top1=np.float64(report.get("held out", (0.0, 0.0))[1]),
    )
    print(f"weights written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
