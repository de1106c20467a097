"""Trains the Hex policy network on boardlab's own self-play games, and runs generations of it.

``train`` reads self-play stores (``scripts/hex_selfplay.py``, format in
:mod:`boardlab.hex.learning.store`) and trains the network of
:mod:`boardlab.hex.engine.network` (its model, export and check shared with
``scripts/hex_net_train.py``; PyTorch, the optional extra ``train``): the policy by
cross-entropy to the search's normalised visit counts, the value head by cross-entropy
to the prover's exact value where it settled a position, else the game's result. Every
position is also seen turned half a circle. Games are split by a seeded hash of their
run and number: a tenth held out, a twentieth of the rest to pick the epoch. The
exported weights are checked against the engine's own forward pass (numba).

``loop`` is expert iteration: generation 0 is the shipped network; generation ``k + 1``
is trained on the games of the best generation so far (its self-play, resumable), then
plays it a small seeded match (pairs of games from one first stone, colours swapped,
with the 95 % interval); it becomes the best, and plays the next games, only when it
scores over one half. Its state is ``WORK/loop.json``; every generation's folder holds
its games, weights and card.

    PYTHONPATH=src .venv/bin/python scripts/hex_train_loop.py train STORE... --out net.npz
    PYTHONPATH=src .venv/bin/python scripts/hex_train_loop.py loop --work DIR --size 9 \\
        --games 200 --playouts 200 --generations 3 --pairs 10
    PYTHONPATH=src .venv/bin/python scripts/hex_train_loop.py match NET.npz "" --size 11

``--games-of-0 STORE`` starts the loop from a store of the shipped network's games made
before (read only; the background self-play run's, say); ``match`` plays two networks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardlab.core.errors import BoardlabError
from boardlab.hex.learning.match import play_match
from boardlab.hex.learning.samples import PositionSamples, encode
from boardlab.hex.learning.selfplay import SelfPlay, run
from boardlab.hex.learning.store import read_games

if TYPE_CHECKING:
    import torch

#: The held-out tenth and the epoch-picking twentieth (of 256 hash values).
_TEST, _VALID = 256 // 10, 256 // 20


def split_of(run_name: str, number: int, seed: int) -> str:
    """``test``, ``valid`` or ``train`` for game ``number`` of the run ``run_name``."""
    digest = hashlib.sha256(f"{seed}:{run_name}:{number}".encode()).digest()
    if digest[0] < _TEST:
        return "test"
    return "valid" if digest[1] < _VALID else "train"


def load(stores: list[Path], seed: int) -> dict[str, dict[int, PositionSamples]]:
    """Every store's searched positions by split and board size."""
    parts: dict[str, list] = {"train": [], "valid": [], "test": []}  # type: ignore[type-arg]
    for k, store in enumerate(stores):
        for game in read_games(store):
            # numbered apart per store, so that a game is counted once in all of them
            numbered = replace(game, number=game.number + (k << 32))
            parts[split_of(store.name, game.number, seed)].append(numbered)
    out: dict[str, dict[int, PositionSamples]] = {}
    for key, games in parts.items():
        sizes = sorted({game.size for game in games})
        out[key] = {n: encode(games, n) for n in sizes}
    return out


def turned(samples: PositionSamples, n: int) -> PositionSamples:
    """The same positions turned half a circle."""
    return replace(
        samples,
        planes=np.ascontiguousarray(samples.planes[:, :, ::-1, ::-1]),
        policy=np.ascontiguousarray(samples.policy[:, ::-1]),
        legal=np.ascontiguousarray(samples.legal[:, ::-1]),
        played=n * n - 1 - samples.played,
    )


def mohex_samples(path: Path, seed: int) -> dict[int, PositionSamples]:
    """The training moves of a file of MoHex's games (the split of
    ``scripts/hex_net_train.py``, whose held-out games stay out), as self-play samples:
    the policy the move played, the value the game's result."""
    from hex_net_train import read_positions
    from hex_net_train import split_of as mohex_split

    lines = [
        line
        for line in path.read_text().splitlines()
        if line.strip() and mohex_split(line.split()[0], seed) == "train"
    ]
    out: dict[int, PositionSamples] = {}
    for n, s in read_positions(lines, 2).items():
        known = ~np.isnan(s.outcome)
        count = int(known.sum())
        policy = np.zeros((count, n * n), np.float32)
        policy[np.arange(count), s.target[known]] = 1.0
        out[n] = PositionSamples(
            np.ascontiguousarray(s.planes[known]),
            policy,
            np.ascontiguousarray(s.legal[known]),
            s.target[known],
            s.outcome[known].astype(np.float32),
            np.zeros(count, np.bool_),
            np.full(count, -1, np.int64),
        )
    return out


def sharpened(samples: PositionSamples) -> PositionSamples:
    """The same positions with the most visited move as the whole policy target."""
    policy = np.zeros_like(samples.policy)
    policy[np.arange(samples.size), samples.policy.argmax(1)] = 1.0
    return replace(samples, policy=policy)


def joined(a: PositionSamples, b: PositionSamples) -> PositionSamples:
    return PositionSamples(
        *(np.concatenate([getattr(a, f), getattr(b, f)]) for f in PositionSamples.__slots__)
    )


@dataclass
class Scores:
    """Held-out figures: policy top-1 (the most visited move), cross-entropy to the
    visit distribution, value mean squared error and the winner called right."""

    positions: int
    top1: float
    entropy: float
    value_error: float
    value_right: float

    def line(self) -> str:
        return (
            f"{self.positions} positions: policy top-1 {100 * self.top1:.1f} % (most visited "
            f"move), cross-entropy {self.entropy:.3f}; value squared error "
            f"{self.value_error:.3f}, winner called {100 * self.value_right:.1f} %"
        )


def _policy_loss(policy: torch.Tensor, legal: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """Each position's cross-entropy of the policy against the target over its legal moves."""
    import torch

    logp = torch.log_softmax(policy.masked_fill(~legal, float("-inf")), 1)
    return -(torch.where(legal, logp, torch.zeros_like(logp)) * target).sum(1)


def measure(model, data: dict[int, PositionSamples]) -> Scores:  # type: ignore[no-untyped-def]
    import torch

    count = right = 0
    entropy = error = called = 0.0
    with torch.no_grad():
        for samples in data.values():
            for lo in range(0, samples.size, 1024):
                x = torch.from_numpy(samples.planes[lo : lo + 1024])
                legal = torch.from_numpy(samples.legal[lo : lo + 1024])
                target = torch.from_numpy(samples.policy[lo : lo + 1024])
                value = torch.from_numpy(samples.value[lo : lo + 1024])
                policy, logit = model(x)
                masked = policy.masked_fill(~legal, float("-inf"))
                right += int((masked.argmax(1) == target.argmax(1)).sum())
                entropy += float(_policy_loss(policy, legal, target).sum())
                chance = torch.sigmoid(logit)
                error += float(((chance - value) ** 2).sum())
                called += float(((chance > 0.5).float() == value).sum())  # noqa: PLR2004
                count += int(x.shape[0])
    n = count or 1
    return Scores(count, right / n, entropy / n, error / n, called / n)


def train(
    stores: list[Path],
    out: Path,
    channels: int = 32,
    layers: int = 4,
    epochs: int = 8,
    value_weight: float = 1.0,
    batch: int = 256,
    rate: float = 2e-3,
    seed: int = 1,
    minutes: float = 60.0,
    note: str = "",
    init: str | None = None,
    mohex: Path | None = None,
    most_visited: bool = False,
) -> tuple[str, Scores]:
    """Train a network on ``stores``, check and write it to ``out``; returns its card
    and held-out scores. ``init`` starts from stored weights (a file, or ``shipped``;
    their shape kept), ``mohex`` adds the training moves of a file of MoHex's games
    (``scripts/hex_net_data.py``'s lines: the move played as the target, the game's result
    as the value; games without one left out). With ``most_visited`` the self-play policy
    target is the search's most visited move alone, not the whole visit distribution.

    :raises BoardlabError: when there is nothing to train on or the export does not match.
    """
    import torch
    from hex_net_train import build_model, check_export, export, model_from, stored_arrays

    for given, what in ((init, "--init"), (mohex, "--mohex")):
        if given is not None and given != "shipped" and not Path(given).is_file():
            raise BoardlabError(f"{what} {given}: no such file")
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    began = time.perf_counter()
    data = load(stores, seed)
    games = sum(len({int(g) for g in s.game}) for s in data["train"].values())
    if most_visited:
        data["train"] = {n: sharpened(s) for n, s in data["train"].items()}
    moves = 0
    if mohex is not None:
        for n, s in mohex_samples(mohex, seed).items():
            moves += s.size
            mine = data["train"].get(n)
            data["train"][n] = s if mine is None else joined(mine, s)
    train_set = {n: joined(s, turned(s, n)) for n, s in data["train"].items() if s.size}
    if not train_set:
        raise BoardlabError("no training positions in " + ", ".join(map(str, stores)))
    positions = sum(s.size for s in data["train"].values()) - moves
    print(
        f"{positions} self-play and {moves} MoHex training positions (x2 by the half turn), "
        f"{sum(s.size for s in data['valid'].values())} to pick the epoch, "
        f"{sum(s.size for s in data['test'].values())} held out; read in "
        f"{time.perf_counter() - began:.0f} s",
        flush=True,
    )
    if init is not None:
        arrays = stored_arrays(None if init == "shipped" else Path(init))
        model = model_from(arrays, value_weight > 0)
        channels, layers = arrays["first"].shape[2], arrays["hidden"].shape[0]
        print(f"from {init}: {measure(model.eval(), data['test']).line()}", flush=True)
    else:
        model = build_model(channels, layers, value_weight > 0)
    optimiser = torch.optim.AdamW(model.parameters(), lr=rate, weight_decay=1e-4)
    batches = [(n, lo) for n, s in train_set.items() for lo in range(0, s.size, batch)]
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimiser, rate, total_steps=max(1, epochs * len(batches))
    )
    best: tuple[float, dict] = (float("inf"), {})  # type: ignore[type-arg]
    trained = time.perf_counter()
    for epoch in range(1, epochs + 1):
        orders = {n: rng.permutation(s.size) for n, s in train_set.items()}
        model.train()
        for k in rng.permutation(len(batches)):
            n, lo = batches[k]
            s, pick = train_set[n], orders[n][lo : lo + batch]
            legal = torch.from_numpy(s.legal[pick])
            policy, logit = model(torch.from_numpy(s.planes[pick]))
            loss = _policy_loss(policy, legal, torch.from_numpy(s.policy[pick])).mean()
            if value_weight > 0:
                loss = loss + value_weight * torch.nn.functional.binary_cross_entropy_with_logits(
                    logit, torch.from_numpy(s.value[pick])
                )
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        model.eval()
        scores = measure(model, data["valid"] or data["train"])
        print(f"epoch {epoch}: {scores.line()} ({time.perf_counter() - trained:.0f} s)", flush=True)
        if scores.entropy < best[0]:
            best = (scores.entropy, {k: v.clone() for k, v in model.state_dict().items()})
        if time.perf_counter() - trained > 60 * minutes:
            break
    seconds = time.perf_counter() - trained
    model.load_state_dict(best[1])
    model.eval()
    held = measure(model, data["test"])
    weights = sum(p.numel() for p in model.parameters())
    source = f"{init} weights, " if init is not None else ""
    source += f"{moves} MoHex training moves of {mohex}, " if mohex is not None else ""
    target = "the most visited move" if most_visited else "the visit counts"
    card = (
        f"trained {'from ' + source if source else ''}on {positions} self-play positions "
        f"of {games} games "
        f"({', '.join(f'{n}x{n}' for n in sorted(train_set))}; x2 by the half turn) from "
        f"{', '.join(str(s) for s in stores)}: policy to {target}, value "
        f"(weight {value_weight}) to the prover's labels or the results; {channels} channels, "
        f"{layers} residual layers, {weights} weights, {epoch} epochs in {seconds:.0f} s on "
        f"one CPU thread, seed {seed}; held out {held.line()}{note}"
    )
    arrays = export(model, card)
    worst = 0.0
    for n, s in data["test"].items() or data["train"].items():
        if s.size:
            worst = max(worst, check_export(arrays, model, s, n))
    print(f"engine forward pass against PyTorch: largest difference {worst:.2e}", flush=True)
    if worst > 1e-3:  # noqa: PLR2004
        raise BoardlabError("the exported network does not match PyTorch's")
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".part")
    with open(partial, "wb") as stream:
        np.savez_compressed(stream, allow_pickle=False, **arrays)
    partial.replace(out)
    print(f"{card}\nweights written to {out}", flush=True)
    return card, held


def loop(args: argparse.Namespace) -> None:
    """Expert iteration (see the module docstring), resumable from ``WORK/loop.json``."""
    work: Path = args.work
    work.mkdir(parents=True, exist_ok=True)
    state_path = work / "loop.json"
    state = json.loads(state_path.read_text()) if state_path.exists() else {"generations": []}
    gens = state["generations"]
    if not gens:
        gens.append(
            {"generation": 0, "parent": None, "network": "", "accepted": True, "card": "shipped"}
        )
    while len(gens) <= args.generations:
        best = max((g for g in gens if g["accepted"]), key=lambda g: g["generation"])
        k = len(gens)
        who = best["generation"]
        # a generation not accepted leaves the best one in place: its next challenger is
        # trained on more of its games (``--games`` more each time)
        tries = sum(1 for g in gens if g.get("parent") == who)
        stores = [args.games_of_0] if who == 0 and args.games_of_0 is not None else []
        wanted = args.games * (tries + (0 if stores else 1))
        settings = SelfPlay(
            sizes=(args.size,),
            playouts=args.playouts,
            seed=args.seed + who,
            network=best["network"],
        )
        started = time.perf_counter()

        def said(game, store, who: int = who) -> None:  # type: ignore[no-untyped-def]
            print(f"  generation {who}'s game {game.number}", flush=True)

        if wanted > 0:
            stores.append(work / f"games-by-{who}")
            run(stores[-1], settings, wanted, said)
        print(
            f"generation {who}: games in {', '.join(map(str, stores))} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        net = work / f"gen-{k}" / "policy.npz"
        card, held = train(
            stores,
            net,
            args.channels,
            args.layers,
            args.epochs,
            args.value_weight,
            seed=args.seed,
            minutes=args.minutes,
        )
        score = play_match(
            str(net), best["network"], args.size, args.pairs, args.playouts, args.seed
        )
        accepted = score.score > 0.5  # noqa: PLR2004
        line = f"generation {k} against generation {who}: {score.line()}"
        print(line + ("; accepted" if accepted else "; not accepted"), flush=True)
        (work / f"gen-{k}" / "card.txt").write_text(f"{card}; self-play {line}\n")
        gens.append(
            {
                "generation": k,
                "network": str(net),
                "parent": who,
                "trained_on": [str(store) for store in stores],
                "accepted": accepted,
                "may_ship": score.low > 0.5,  # noqa: PLR2004
                "card": card,
                "held_out": vars(held),
                "match": {
                    "wins": score.wins,
                    "games": score.games,
                    "low": score.low,
                    "high": score.high,
                },
            }
        )
        partial = state_path.with_suffix(".part")
        partial.write_text(json.dumps(state, indent=1) + "\n")
        partial.replace(state_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb", required=True)
    one = sub.add_parser("train", help="train one network on self-play stores")
    one.add_argument("stores", nargs="+", type=Path)
    one.add_argument("--out", type=Path, required=True)
    one.add_argument("--init", help="start from these weights (a file, or shipped)")
    one.add_argument("--mohex", type=Path, help="also MoHex's games (hex_net_data.py's file)")
    one.add_argument("--rate", type=float, default=2e-3, help="the peak learning rate")
    one.add_argument(
        "--most-visited", action="store_true", help="policy target: the most visited move"
    )
    many = sub.add_parser("loop", help="generations of self-play, training and a match")
    many.add_argument("--work", type=Path, required=True)
    many.add_argument("--size", type=int, default=9)
    many.add_argument("--games", type=int, default=200, help="self-play games a generation")
    many.add_argument("--playouts", type=int, default=200)
    many.add_argument("--generations", type=int, default=1)
    many.add_argument("--pairs", type=int, default=10, help="match pairs of games")
    many.add_argument(
        "--games-of-0", type=Path, help="a store of the shipped network's games to start from"
    )
    duel = sub.add_parser("match", help="a seeded match of two networks (empty: the shipped)")
    duel.add_argument("network")
    duel.add_argument("other")
    duel.add_argument("--size", type=int, default=11)
    duel.add_argument("--pairs", type=int, default=10)
    duel.add_argument("--playouts", type=int, default=400)
    duel.add_argument("--seed", type=int, default=1)
    for p in (one, many):  # the training settings
        p.add_argument("--channels", type=int, default=32)
        p.add_argument("--layers", type=int, default=4)
        p.add_argument("--epochs", type=int, default=8)
        p.add_argument("--value-weight", type=float, default=1.0)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--minutes", type=float, default=60.0)
    args = parser.parse_args(argv)
    try:
        import torch  # noqa: F401
    except ImportError:
        print("hex_train_loop: needs PyTorch: pip install -e '.[train]'", file=sys.stderr)
        return 2
    try:
        if args.verb == "train":
            train(
                args.stores,
                args.out,
                args.channels,
                args.layers,
                args.epochs,
                args.value_weight,
                rate=args.rate,
                seed=args.seed,
                minutes=args.minutes,
                init=args.init,
                mohex=args.mohex,
                most_visited=args.most_visited,
            )
        elif args.verb == "match":
            began = time.perf_counter()
            score = play_match(
                args.network, args.other, args.size, args.pairs, args.playouts, args.seed
            )
            print(
                f"{args.network or 'shipped'} against {args.other or 'shipped'}, "
                f"{args.size}x{args.size} at {args.playouts} playouts a move: {score.line()} "
                f"({time.perf_counter() - began:.0f} s)"
            )
        else:
            loop(args)
    except BoardlabError as exc:
        print(f"hex_train_loop: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
