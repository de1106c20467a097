"""Prover layer: a DFPN search saved to disk and resumed (long proofs over several runs).

A checkpoint is a numpy ``.npz`` file (no pickled objects, so loading a foreign file
cannot run code) holding the board size, the proof and disproof numbers of every
position in the search's table, and every stored proof with its winner. The per-position
analyses are not kept: a resumed search recomputes them when it meets a position again.
A file is written to a temporary name and then renamed, so a run stopped while saving
leaves the previous checkpoint whole.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from boardlab.core.errors import BoardlabError

__all__ = [
    "INF",
    "Checkpointed",
    "load_checkpoint",
    "load_proofs",
    "save_checkpoint",
    "save_proofs",
]

Key = tuple[int, int, int]

#: A proof or disproof number that stands for "proven" (the DFPN search shares it).
INF = 1 << 40

FORMAT = 1


class Checkpointed(Protocol):
    """What a checkpoint saves and restores of a search (the DFPN of
    :mod:`boardlab.hex.prover.dfpn` is one): the board size, the proof and disproof
    numbers of its positions (``tt``), its stored proofs and their winners."""

    @property
    def n(self) -> int: ...

    @property
    def tt(self) -> dict[Key, tuple[int, int]]: ...

    @property
    def proofs(self) -> dict[Key, int]: ...

    def winner_of(self, key: Key) -> int: ...

    def remember(self, key: Key, winner: int) -> None: ...


def _keys(keys: list[Key]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    black = np.array([k[0] for k in keys], np.uint64)
    white = np.array([k[1] for k in keys], np.uint64)
    player = np.array([k[2] for k in keys], np.int8)
    return black, white, player


def save_checkpoint(search: Checkpointed, path: Path, analysed: int, seconds: float) -> None:
    """Write ``search``'s table and proofs to ``path``, with the analysed positions and
    seconds spent so far (over all runs).

    :raises BoardlabError: when the file cannot be written.
    """
    tt_keys = list(search.tt)
    winner_of = {k: search.winner_of(k) for k in search.proofs}
    proof_keys = [k for k, winner in winner_of.items() if winner]
    tb, tw, tp = _keys(tt_keys)
    pb, pw, pp = _keys(proof_keys)
    arrays: dict[str, Any] = {
        "meta": np.array([FORMAT, search.n, analysed], np.int64),
        "seconds": np.array([seconds]),
        "tt_black": tb,
        "tt_white": tw,
        "tt_player": tp,
        "tt_bounds": np.array([search.tt[k] for k in tt_keys], np.int64).reshape(-1, 2),
        "proof_black": pb,
        "proof_white": pw,
        "proof_player": pp,
        "proofs": np.array([search.proofs[k] for k in proof_keys], np.uint64),
        "winners": np.array([winner_of[k] for k in proof_keys], np.int8),
    }
    write_whole(path, arrays, "the checkpoint")


def recorded_totals(path: Path) -> tuple[int, float]:
    """The analysed positions and seconds a checkpoint records over all its runs (0, 0
    if there is no file).

    :raises BoardlabError: when the file is not a checkpoint.
    """
    if not path.exists():
        return 0, 0.0
    try:
        with np.load(path, allow_pickle=False) as data:
            return int(data["meta"][2]), float(data["seconds"][0])
    except (OSError, EOFError, KeyError, ValueError, IndexError, zipfile.BadZipFile):
        raise BoardlabError(f"{path}: not a Hex solver checkpoint") from None


def load_checkpoint(search: Checkpointed, path: Path) -> tuple[int, float]:
    """Fill ``search`` from the checkpoint at ``path``; the analysed positions and seconds
    it records. A missing file is an empty checkpoint.

    :raises BoardlabError: when the file is not a checkpoint of a board of this size, or
        its folder does not exist (found before a long search, not when saving).
    """
    if not path.parent.is_dir():
        raise BoardlabError(f"{path}: the checkpoint's folder {path.parent} does not exist")
    if not path.exists():
        return 0, 0.0
    try:
        with np.load(path, allow_pickle=False) as data:
            fmt, size, analysed = (int(x) for x in data["meta"])
            seconds = float(data["seconds"][0])
            tt_keys = zip(data["tt_black"], data["tt_white"], data["tt_player"], strict=True)
            bounds = data["tt_bounds"]
            proof_keys = zip(
                data["proof_black"], data["proof_white"], data["proof_player"], strict=True
            )
            proofs, winners = data["proofs"], data["winners"]
            if fmt != FORMAT:
                raise BoardlabError(f"{path}: checkpoint format {fmt}, expected {FORMAT}")
            if size != search.n:
                raise BoardlabError(f"{path}: checkpoint of a {size}x{size} board, not {search.n}")
            for (b, w, p), (pn, dn) in zip(tt_keys, bounds, strict=True):
                search.tt[(int(b), int(w), int(p))] = (int(pn), int(dn))
            for (b, w, p), proof, winner in zip(proof_keys, proofs, winners, strict=True):
                key = (int(b), int(w), int(p))
                search.proofs[key] = int(proof)
                search.tt[key] = (0, INF) if winner == p else (INF, 0)
                search.remember(key, int(winner))
    except BoardlabError:
        raise
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
        raise BoardlabError(f"{path}: not a Hex solver checkpoint") from None
    return analysed, seconds


def write_whole(path: Path, arrays: dict[str, Any], what: str) -> None:
    """Write ``arrays`` to ``path`` whole or not at all (a temporary file renamed).

    :raises BoardlabError: when it cannot be written (``what`` names the contents).
    """
    temporary = path.with_name(path.name + ".partial.npz")
    try:
        np.savez(temporary, **arrays)
        os.replace(temporary, path)
    except OSError as error:
        raise BoardlabError(f"{path}: cannot write {what} ({error.strerror})") from None


# -- the shared store of proven positions (a work folder's, for many workers) --------------

PROOFS_FORMAT = 1
#: A stored proven position: black, white, the side to move, its proof set, its winner.
ProofRow = tuple[int, int, int, int, int]


def store_files(store: Path) -> list[str]:
    """The names of the complete store files in the folder ``store``, sorted (a file
    being written is named ``*.partial.npz`` until it is whole)."""
    with os.scandir(store) as entries:  # names only: workers list the store often
        return sorted(
            entry.name
            for entry in entries
            if entry.name.endswith(".npz") and not entry.name.endswith(".partial.npz")
        )


def save_proofs(
    search: Checkpointed, path: Path, known: set[Key], among: Iterable[Key] | None = None
) -> int:
    """Write the proven positions of ``search`` not in ``known`` (with their proof sets
    and winners) to ``path``, whole or not at all; their number (no file when none).
    ``among`` limits the positions looked at (default: every proof of the search).

    :raises BoardlabError: when the file cannot be written.
    """
    looked_at = search.proofs if among is None else among
    rows = [
        (*k, search.proofs[k], winner)
        for k in looked_at
        if k not in known and (winner := search.winner_of(k))
    ]
    if not rows:
        return 0
    _write_proofs(path, search.n, rows)
    return len(rows)


def _write_proofs(path: Path, size: int, rows: list[ProofRow]) -> None:
    """Write ``rows`` as a store file of a ``size`` board, whole or not at all."""
    black, white, player, proofs, winners = zip(*rows, strict=True)
    arrays: dict[str, Any] = {
        "meta": np.array([PROOFS_FORMAT, size], np.int64),
        "black": _set_column(black, size),
        "white": _set_column(white, size),
        "player": np.array(player, np.int8),
        "proofs": _set_column(proofs, size),
        "winners": np.array(winners, np.int8),
    }
    write_whole(path, arrays, "proven positions")


def _width(size: int) -> tuple[int, ...]:
    """A cell-set column's shape past its rows: none for one word (up to 8x8, the
    store's first form), else the words (:func:`boardlab.hex.cellsets.words`)."""
    from boardlab.hex.cellsets import words  # numba's import, only when a store is used

    width = words(size)
    return () if width == 1 else (width,)


def _set_column(sets: Sequence[int], size: int) -> np.ndarray:
    """Cell sets of a ``size`` board as one column, shaped by :func:`_width`."""
    from boardlab.hex.cellsets import as_words

    width = _width(size)
    if not width:
        return np.array(sets, np.uint64)
    return np.array([as_words(cells, width[0]) for cells in sets], np.uint64)


def _sets_of(column: np.ndarray) -> list[int]:
    """The cell sets of a column :func:`_set_column` wrote."""
    from boardlab.hex.cellsets import as_int

    if column.ndim == 1:
        return [int(x) for x in column.tolist()]
    return [as_int(row) for row in column]


_PROOF_ROWS = ("black", "white", "player", "proofs", "winners")


def merge_proofs(paths: Sequence[Path], target: Path) -> int:
    """Write the rows of the store files ``paths`` (one board size) to ``target`` as one
    file, whole or not at all; their number. The files themselves are left.

    :raises BoardlabError: when a file cannot be read or ``target`` written.
    """
    rows: list[ProofRow] = []
    board: int | None = None
    for path in paths:
        size, found = read_proofs(path)
        if board is not None and size != board:
            raise BoardlabError(f"{path}: a store file of another board")
        board = size
        rows += found
    if board is None or not rows:
        return 0
    _write_proofs(target, board, rows)
    return len(rows)


def read_proofs(path: Path) -> tuple[int, list[ProofRow]]:
    """The board size and the rows of a store file (written by :func:`save_proofs`).

    :raises BoardlabError: when the file is not such a store.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            fmt, size = (int(x) for x in data["meta"])
            sets = {name: data[name] for name in ("black", "white", "proofs")}
            if any(column.shape[1:] != _width(size) for column in sets.values()):
                raise ValueError("cell sets of another width")
            columns = [
                _sets_of(sets[name]) if name in sets else data[name].tolist()
                for name in _PROOF_ROWS
            ]
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile):
        raise BoardlabError(f"{path}: not a store of proven Hex positions") from None
    if fmt != PROOFS_FORMAT or len({len(c) for c in columns}) != 1:
        raise BoardlabError(f"{path}: not a store of proven Hex positions")
    black, white, player, proofs, winners = columns
    return size, list(zip(black, white, player, proofs, winners, strict=True))


def load_proofs(search: Checkpointed, path: Path) -> set[Key]:
    """Add the proven positions stored at ``path`` (by :func:`save_proofs`) to
    ``search``; their keys.

    :raises BoardlabError: when the file is not such a store of this board size.
    """
    size, rows = read_proofs(path)
    if size != search.n:
        raise BoardlabError(f"{path}: not a store of proven {search.n}x{search.n} positions")
    loaded: set[Key] = set()
    for b, w, p, proof, winner in rows:
        key = (b, w, p)
        if key in search.proofs:
            continue
        search.proofs[key] = proof
        search.tt[key] = (0, INF) if winner == p else (INF, 0)
        search.remember(key, winner)
        loaded.add(key)
    return loaded
