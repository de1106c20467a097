"""Benchmark: the Hex policy network against the log-linear pattern prior, accuracy and cost.

On the held-out games of ``scripts/hex_net_train.py`` (the same seeded tenth that
``scripts/hex_patterns.py`` holds out), both priors predict each of MoHex's moves
among the empty cells: the shipped network (``hex/data/policy.npz``) through the
engine's own forward pass (numba, no PyTorch needed) and the shipped pattern weights
(``hex/data/patterns.npz``). Prints each one's top-1 accuracy and log-likelihood, then
the cost of one evaluation on one core (a whole board's logits; evaluations a second)
for the network and for the pattern scores, on the same positions.

    .venv/bin/python benchmarks/bench_hex_network.py [scripts/data/hex_net_games.txt]
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def training_script() -> ModuleType:
    """``scripts/hex_net_train.py`` (its split and position reader), as a module."""
    spec = importlib.util.spec_from_file_location(
        "hex_net_train", ROOT / "scripts" / "hex_net_train.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hex_net_train"] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "games", nargs="?", type=Path, default=ROOT / "scripts/data/hex_net_games.txt"
    )
    parser.add_argument("--seed", type=int, default=1, help="the split (as the training's)")
    parser.add_argument("--network", default="", help="a weights file (default: the shipped one)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time each cost measurement")
    args = parser.parse_args()

    from boardlab.hex.engine.network import load_network

    train = training_script()
    try:
        lines = [line for line in args.games.read_text().splitlines() if line.strip()]
    except OSError as error:
        print(f"bench_hex_network: cannot read {args.games}: {error.strerror}", file=sys.stderr)
        return 2
    test_lines = [line for line in lines if train.split_of(line.split()[0], args.seed) == "test"]
    by_size = train.read_positions(test_lines, 2)
    net = load_network(args.network)
    print(f"network: {net.card}")
    for n, samples in sorted(by_size.items()):
        logits = np.zeros((samples.size, n * n), np.float32)
        for k in range(samples.size):
            # the samples are in the mover's frame already: read them as player 1's
            logits[k] = net.logits(samples.planes[k], n, 1)[: n * n]
        masked = np.where(samples.legal, logits.astype(np.float64), -np.inf)
        top = masked.max(axis=1, keepdims=True)
        logp = masked - top - np.log(np.exp(masked - top).sum(axis=1, keepdims=True))
        rows = np.arange(samples.size)
        net_top1 = float((masked.argmax(axis=1) == samples.target).mean())
        net_ll = float(logp[rows, samples.target].mean())
        pat_top1, pat_ll = train.pattern_measure(samples)
        print(f"\n{n}x{n}, {samples.size} held-out MoHex moves of {len(test_lines)} games")
        print(f"  network        top-1 {100 * net_top1:5.1f} %  log-likelihood {net_ll:.3f}")
        print(f"  pattern prior  top-1 {100 * pat_top1:5.1f} %  log-likelihood {pat_ll:.3f}")
        print(f"  ratio of top-1 (network / patterns): {net_top1 / pat_top1:.3f}")

        done = 0
        started = time.perf_counter()
        while time.perf_counter() - started < args.seconds:
            k = done % samples.size
            net.logits(samples.planes[k], n, 1)
            done += 1
        net_rate = done / (time.perf_counter() - started)
        pattern_rate = pattern_evaluations(n, args.seconds)
        print(
            f"  cost on one core: network {net_rate:,.0f} evaluations/s "
            f"({1e3 / net_rate:.2f} ms), pattern scores of a whole board {pattern_rate:,.0f}/s; "
            f"ratio {pattern_rate / net_rate:.1f}"
        )
    return 0


def pattern_evaluations(n: int, seconds: float) -> float:
    """Whole-board pattern scorings a second on a board with a fifth of its cells taken."""
    from boardlab.hex.engine.patterns import ring_canon_table, scores, square_table
    from boardlab.hex.engine.search import pattern_weights

    weights, canon = pattern_weights()
    squares = square_table(n)
    canon = ring_canon_table()
    rng = np.random.default_rng(1)
    board = np.zeros(n * n, np.int8)
    taken = rng.permutation(n * n)[: n * n // 5]
    board[taken] = np.where(np.arange(taken.size) % 2 == 0, 1, 2)
    empty = np.flatnonzero(board == 0).astype(np.int32)
    out = np.zeros(empty.size)
    scores(board, n, 1, -1, empty, empty.size, weights, canon, squares, out)
    done = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        scores(board, n, 1, -1, empty, empty.size, weights, canon, squares, out)
        done += 1
    return done / (time.perf_counter() - started)


if __name__ == "__main__":
    sys.exit(main())
