"""Prover layer: what a worker process keeps between its tasks, and the store they share.

A worker (one of an engine's processes, or this process) keeps one DFPN search per work
folder and board size from one task to the next, so what it proved for one task serves
the next. The workers of a run share a *store* of proven positions: the folder's
``store/*.npz`` files (:func:`boardlab.hex.prover.store.save_proofs`). Before each task
a worker reads the files it has not read yet (:func:`kept_search`); after it, it adds
one file of what it proved that the store does not hold yet (:func:`publish`), never
rewriting another's. Every worker thus reads and extends one store, on one machine or
on every machine of a cluster that sees the folder. Once a worker has added
:data:`MERGE_FILES` small files it writes them again as one and removes them, so a long
run's store grows by a file a worker every few minutes, not every second; a reader that
finds a listed file gone reads its rows from the merged one.
"""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.core.limits import Limit

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = ["KeptSearch", "forget", "kept_if_any", "kept_search", "publish", "read_store"]

#: A worker's search is dropped (and started afresh) past this many analysed positions.
KEEP_ANALYSED = 3_000_000
#: A worker merges its small store files into one once it has added this many.
MERGE_FILES = 64


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
    #: the store files this worker added since it last merged them
    small: list[str] = field(default_factory=list)


_kept: dict[tuple[str, int], KeptSearch] = {}


def kept_search(workdir: Path, size: int, limit: Limit, memory: int | None) -> KeptSearch:
    """This process's search for ``workdir`` and ``size`` (a fresh one the first time,
    or past :data:`KEEP_ANALYSED`), charged with ``limit``, with every store file it has
    not read yet read."""
    from boardlab.hex.prover.shared import MAX_CELLS, SharedAnalyses, rows_for, table_path
    from boardlab.hex.prover.wide import fresh_search

    key = (str(workdir), size)
    kept = _kept.get(key)
    if kept is None or kept.search.analysed > KEEP_ANALYSED:
        kept = KeptSearch(fresh_search(size, limit.start(), memory), set(), set())
        if size * size <= MAX_CELLS:  # the workers of a folder share their analyses
            path = table_path(workdir, size)
            kept.search.shared = SharedAnalyses(path, size, rows_for(memory))
        _kept[key] = kept
    kept.search.charge(limit.start())
    kept.search.stopped = None
    read_store(kept, workdir)
    return kept


def read_store(kept: KeptSearch, workdir: Path) -> int:
    """Read the store files ``kept`` has not read yet into its search; how many."""
    from boardlab.core.errors import BoardlabError
    from boardlab.hex.prover.store import load_proofs, store_files

    store = workdir / "store"
    count = 0
    for name in (n for n in store_files(store) if n not in kept.files):
        try:
            kept.known |= load_proofs(kept.search, store / name)
        except BoardlabError:
            if (store / name).exists():
                raise
            continue  # merged by its writer meanwhile: its rows are in a newer file
        kept.files.add(name)
        count += 1
    return count


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
        kept.small.append(file)
        if len(kept.small) >= MERGE_FILES:
            merge(kept, workdir, name)
    kept.known.update(new)
    kept.cursor = len(proofs)
    return written


def merge(kept: KeptSearch, workdir: Path, name: str) -> None:
    """Write the small files ``kept``'s worker added as one file (``name``-<process>-
    <count>-merged.npz), then remove them."""
    from boardlab.hex.prover.store import merge_proofs

    store = workdir / "store"
    file = f"{name}-{os.getpid()}-{kept.added}-merged.npz"
    merge_proofs([store / small for small in kept.small], store / file)
    kept.added += 1
    kept.files.add(file)
    for small in kept.small:
        (store / small).unlink(missing_ok=True)
    kept.small.clear()


def kept_if_any(workdir: Path, size: int) -> KeptSearch | None:
    """This process's search for ``workdir`` and ``size`` if it has one."""
    return _kept.get((str(workdir), size))


def forget(workdir: Path, size: int) -> None:
    """Drop this process's search for ``workdir`` and ``size`` (one past its memory
    budget starts afresh at its next task)."""
    _kept.pop((str(workdir), size), None)
