"""Prover layer: every proven position of a work folder's store proven again, without trusting it.

A store entry (:func:`boardlab.hex.prover.store.save_proofs`) claims that ``winner``
wins a position, and still wins when the loser is given every empty cell outside the
entry's proof set. :func:`prove_entry` tests exactly that claim: it gives the loser
those cells, has a fresh DFPN (one that has read nothing of the store) prove the
filled position and write its proof tree (:mod:`boardlab.hex.prover.prooftree`), for
the rules-only checker (:mod:`boardlab.hex.proofcheck`) to replay; ``hex checkstore``
(the interface layer) puts the two together. An entry is

- ``proven`` (its tree to replay: ``ok`` when it replays, else ``bad``);
- ``bad`` when the fresh search finds the other player the winner (the claim is false,
  or the prover is wrong: either way the store is not to be trusted);
- ``open`` when the search or the tree ran past the entry's time (or past
  :data:`MAX_TREE_NODES` nodes).

Entries are checked in the order of the files' names, or a seeded sample of them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_names
from boardlab.hex.prover.store import read_proofs, store_files

__all__ = ["EntryCheck", "StoreEntry", "prove_entry", "sample_entries", "store_entries"]

#: Nodes a proof tree may have when an entry is checked (past it the entry stays open):
#: the replay takes about a millisecond a node on 6x6 (25,051 nodes, 12,306 of them
#: leaves played out, in 14 s), after the time the search and the tree were given.
MAX_TREE_NODES = 50_000


@dataclass(frozen=True, slots=True)
class StoreEntry:
    """One stored proven position: the stones, the side to move, the winner and the
    proof set (cells, as bits ``r * n + c``), and the file it came from."""

    size: int
    black: int
    white: int
    player: int
    winner: int
    proof: int
    file: str

    def filled(self) -> tuple[int, int]:
        """``(black, white)`` with every empty cell outside the proof given to the loser."""
        empty = ((1 << (self.size * self.size)) - 1) & ~(self.black | self.white)
        extra = empty & ~self.proof
        if self.winner == 1:
            return self.black, self.white | extra
        return self.black | extra, self.white

    def name(self) -> str:
        """The position in HexGui's names: ``B[..] W[..] to move: ...``."""

        mover = "black" if self.player == 1 else "white"
        black, white = vertex_names(self.black, self.size), vertex_names(self.white, self.size)
        return f"B[{black}] W[{white}] {mover} to move"


@dataclass(frozen=True, slots=True)
class EntryCheck:
    """The answer on one entry: ``verdict`` (``proven`` with its ``tree``, then ``ok``
    or ``bad`` once replayed; ``bad``; ``open``), a line saying why, the proof tree's
    nodes and the seconds it took."""

    entry: StoreEntry
    verdict: str
    reason: str
    nodes: int
    seconds: float
    tree: dict[str, Any] | None = None

    def replayed(self, ok: bool, line: str, nodes: int, seconds: float) -> EntryCheck:
        """This proven entry's answer once the checker replayed its tree."""
        verdict = "ok" if ok else "bad"
        return replace(self, verdict=verdict, reason=line, nodes=nodes, seconds=seconds, tree=None)

    def as_dict(self) -> dict[str, object]:
        return {
            "file": self.entry.file,
            "position": self.entry.name(),
            "winner": "black" if self.entry.winner == 1 else "white",
            "verdict": self.verdict,
            "reason": self.reason,
            "tree_nodes": self.nodes,
            "seconds": round(self.seconds, 3),
        }


def store_entries(folder: Path) -> Iterator[StoreEntry]:
    """The entries of every store file in ``folder`` (a work folder, or its ``store``
    folder), in the order of the files' names.

    :raises BoardlabError: for a missing folder or a file that is no store file.
    """
    store = folder / "store" if (folder / "store").is_dir() else folder
    if not store.is_dir():
        raise BoardlabError(f"{folder}: no such folder")
    names = store_files(store)
    if not names:
        raise BoardlabError(f"{folder}: no store of proven positions (no store/*.npz files)")
    for name in names:
        size, rows = read_proofs(store / name)
        yield from (StoreEntry(size, b, w, p, win, proof, name) for b, w, p, proof, win in rows)


def sample_entries(entries: list[StoreEntry], count: int | None, seed: int) -> list[StoreEntry]:
    """``count`` entries drawn by ``seed`` (in the store's order), or all of them."""
    if count is None or count >= len(entries):
        return entries
    chosen = sorted(random.Random(seed).sample(range(len(entries)), count))
    return [entries[i] for i in chosen]


def prove_entry(entry: StoreEntry, seconds: float, memory: int | None = None) -> EntryCheck:
    """Prove one entry again and build its tree (see the module's text) within
    ``seconds``."""
    from boardlab.hex.prover.classify import OutOfBudgetError
    from boardlab.hex.prover.prooftree import ProofTooLargeError, build_proof
    from boardlab.hex.prover.wide import fresh_search

    started = time.monotonic()
    black, white = entry.filled()
    if black & white or entry.winner not in (1, 2) or entry.player not in (1, 2):
        return EntryCheck(entry, "bad", "not a position: cells of both players", 0, 0.0)
    search = fresh_search(entry.size, Limit(time=seconds).start(), memory)
    try:
        wins = search.prove(black, white, entry.player)
        winner = entry.player if wins else 3 - entry.player
        if winner != entry.winner:
            reason = "a fresh search proves the other player the winner of the filled position"
            return EntryCheck(entry, "bad", reason, 0, time.monotonic() - started)
        deadline = started + seconds
        tree = build_proof(
            search, black, white, entry.player, winner, MAX_TREE_NODES, deadline=deadline
        )
    except (OutOfBudgetError, ProofTooLargeError):
        reason = f"not proven again, its proof tree built, within {seconds:g} s"
        return EntryCheck(entry, "open", reason, 0, time.monotonic() - started)
    nodes = len(tree["nodes"])
    return EntryCheck(entry, "proven", "", nodes, time.monotonic() - started, tree)
