"""Prover layer: what a worker process keeps between its tasks, and the store they share.

A worker (one of an engine's processes, or this process) keeps one DFPN search per work
folder and board size from one task to the next, so what it proved for one task serves
the next. The workers of a run share a *store* of proven positions: the folder's
``store/*.npz`` files (:func:`boardlab.hex.prover.store.save_proofs`). Before each task
a worker reads the files it has not read yet (:func:`kept_search`); after it, it adds
one file of what it proved that the store does not hold yet (:func:`publish`), never
rewriting another's. Every worker thus reads and extends one store, on one machine or
on every machine of a cluster that sees the folder.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.core.limits import Limit

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = ["KeptSearch", "forget", "kept_if_any", "kept_search", "publish", "read_store"]

#: A worker's search is dropped (and started afresh) past this many analysed positions.
KEEP_ANALYSED = 3_000_000


@dataclass(slots=True)
class KeptSearch:
    """A worker's search for one folder and board size, the store files it has read,
    the proven positions the store holds already (not written again), and how many
    files this worker has added."""

    search: Dfpn
    files: set[str]
    known: set[tuple[int, int, int]]
    added: int = 0
    #: the search's proofs (a dict in the order they were found) up to this count have
    #: been published or were read from the store
    cursor: int = 0
    #: when (``time.monotonic()``) this worker last added to the store, and last read it
    published: float = 0.0
    read: float = 0.0


_kept: dict[tuple[str, int], KeptSearch] = {}


def kept_search(workdir: Path, size: int, limit: Limit, memory: int | None) -> KeptSearch:
    """This process's search for ``workdir`` and ``size`` (a fresh one the first time,
    or past :data:`KEEP_ANALYSED`), charged with ``limit``, with every store file it has
    not read yet read."""
    from boardlab.hex.prover.wide import fresh_search

    key = (str(workdir), size)
    kept = _kept.get(key)
    if kept is None or kept.search.analysed > KEEP_ANALYSED:
        kept = KeptSearch(fresh_search(size, limit.start(), memory), set(), set())
        _kept[key] = kept
    kept.search.charge(limit.start())
    kept.search.stopped = None
    read_store(kept, workdir)
    return kept


def read_store(kept: KeptSearch, workdir: Path) -> int:
    """Read the store files ``kept`` has not read yet into its search; how many."""
    from boardlab.hex.prover.store import load_proofs

    store = workdir / "store"
    with os.scandir(store) as entries:  # names only: a listing is read often
        names = [
            entry.name
            for entry in entries
            if entry.name.endswith(".npz")
            and not entry.name.endswith(".partial.npz")
            and entry.name not in kept.files
        ]
    for name in sorted(names):
        kept.known |= load_proofs(kept.search, store / name)
        kept.files.add(name)
    return len(names)


def publish(kept: KeptSearch, workdir: Path, name: str) -> int:
    """Add what ``kept``'s search proved that the store does not hold to the store, as
    the file ``name``-<process>-<count>.npz; the number of positions written."""
    from boardlab.hex.prover.store import save_proofs

    proofs = kept.search.proofs
    new = list(itertools.islice(proofs, kept.cursor, None))  # found since the last time
    file = f"{name}-{os.getpid()}-{kept.added}.npz"
    written = save_proofs(kept.search, workdir / "store" / file, kept.known, new)
    if written:
        kept.added += 1
        kept.files.add(file)
    kept.known.update(new)
    kept.cursor = len(proofs)
    return written


def kept_if_any(workdir: Path, size: int) -> KeptSearch | None:
    """This process's search for ``workdir`` and ``size`` if it has one."""
    return _kept.get((str(workdir), size))


def forget(workdir: Path, size: int) -> None:
    """Drop this process's search for ``workdir`` and ``size`` (one past its memory
    budget starts afresh at its next task)."""
    _kept.pop((str(workdir), size), None)
