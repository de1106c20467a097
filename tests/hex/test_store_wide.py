"""The store of proven positions past 8x8: cell sets of two words written and read back.

A store file of a board up to 8x8 keeps its one-word columns (the first form, which
older stores have); past 8x8 each cell set is a row of words, lowest cells first. A
9x9 search's proofs (stones on cells past the 64th) come back unchanged and settle
a fresh search; a file whose sets have the wrong width for its board is refused with
one line.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from boardlab.cli._hex_openings import checked_entry
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.store import load_proofs, read_proofs, save_proofs
from boardlab.hex.prover.storecheck import store_entries
from boardlab.hex.prover.wide import WideDfpn


def _nine(tmp_path: Path) -> tuple[WideDfpn, Path, int, int]:
    """A 9x9 search that proved black's chain e1-e4, d6-d9 (a bridge over d5 and e5)
    won, whoever moves."""
    search = WideDfpn(9, Limit(time=60).start())
    chain = [f"e{r}" for r in range(1, 5)] + [f"d{r}" for r in range(6, 10)]
    black = sum(1 << vertex_index(v, 9) for v in chain)
    white = sum(1 << vertex_index(v, 9) for v in ("a1", "b2", "h8", "i9"))
    assert search.prove(black, white, 1)
    assert not search.prove(black, white, 2)
    path = tmp_path / "nine.npz"
    assert save_proofs(search, path, set()) == len(search.proofs) >= 2
    return search, path, black, white


def test_nine_by_nine_proofs_come_back_whole(tmp_path: Path) -> None:
    search, path, black, white = _nine(tmp_path)
    assert max(k[0] | k[1] for k in search.proofs).bit_length() > 64
    with np.load(path) as data:
        assert data["black"].shape[1:] == data["proofs"].shape[1:] == (2,)
    size, rows = read_proofs(path)
    assert size == 9
    assert {(b, w, p): (proof, winner) for b, w, p, proof, winner in rows} == {
        k: (search.proofs[k], search.winner_of(k)) for k in search.proofs
    }
    fresh = WideDfpn(9, Limit(time=60).start())
    assert load_proofs(fresh, path) == set(search.proofs)
    before = fresh.analysed
    assert not fresh.prove(black, white, 2)
    assert fresh.analysed == before  # settled by the store alone


def test_the_store_checker_passes_a_nine_by_nine_store(tmp_path: Path) -> None:
    """Each stored 9x9 proof is proven again by a fresh two-word search and its tree
    replayed by the checker."""
    _, path, _, _ = _nine(tmp_path)
    (tmp_path / "store").mkdir()
    path.rename(tmp_path / "store" / path.name)
    entries = list(store_entries(tmp_path))
    assert len(entries) >= 2 and all(entry.size == 9 for entry in entries)
    answers = [checked_entry(entry, 30.0) for entry in entries]
    assert all(a.verdict == "ok" for a in answers), [a.reason for a in answers]


def test_small_boards_keep_one_word_columns(tmp_path: Path) -> None:
    search = Dfpn(4, Limit().start())
    search.prove(1 << vertex_index("b2", 4), 0, 2)
    path = tmp_path / "four.npz"
    assert save_proofs(search, path, set()) > 0
    with np.load(path) as data:
        assert data["black"].ndim == data["proofs"].ndim == 1
    assert read_proofs(path)[0] == 4


def test_sets_of_the_wrong_width_are_refused(tmp_path: Path) -> None:
    _, path, _, _ = _nine(tmp_path)
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays["white"] = arrays["white"][:, 0]
    bad = tmp_path / "bad.npz"
    np.savez(bad, **arrays)
    with pytest.raises(BoardlabError, match="bad.npz: not a store of proven Hex positions"):
        read_proofs(bad)
