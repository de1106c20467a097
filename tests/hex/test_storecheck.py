"""The store checker: every stored proof proven again by a fresh search, its tree replayed.

A store written by the prover passes; an entry whose winner is turned, or whose proof
set is emptied of cells the win needs, is found bad; bad folders and files give one
line and exit status 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from tests.hex.cli_run import run_hex

from boardlab.cli._hex_openings import checked_entry
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.store import save_proofs
from boardlab.hex.prover.storecheck import sample_entries, store_entries


def stored(folder: Path) -> Path:
    """A work folder whose store holds the positions of 14 stones or more a DFPN proved
    on the 6x6 opening b4 (the checker proves each again and replays its tree: the
    positions near the opening take seconds each)."""
    (folder / "store").mkdir(parents=True)
    search = Dfpn(6, Limit().start())
    search.prove(1 << vertex_index("b4", 6), 0, 2)
    deep = [k for k in search.proofs if bin(k[0] | k[1]).count("1") >= 14]
    assert save_proofs(search, folder / "store" / "t-1-0.npz", set(), deep) > 20
    return folder


def rewrite(path: Path, change: str) -> None:
    """The store file at ``path`` with every entry's winner turned, or proof emptied."""
    with np.load(path) as data:
        arrays = {name: data[name].copy() for name in data.files}
    if change == "winner":
        arrays["winners"] = 3 - arrays["winners"]
    else:
        arrays["proofs"][:] = 0
    np.savez(path, **arrays)


def test_a_store_the_prover_wrote_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = stored(tmp_path)
    entries = list(store_entries(folder))
    answers = [checked_entry(entry, 30.0) for entry in entries]
    assert all(a.verdict == "ok" for a in answers), [a.reason for a in answers if a.verdict != "ok"]
    assert all(a.nodes >= 1 for a in answers)
    code, out, _ = run_hex(["checkstore", str(folder), "--sample", "5", "--seed", "3"], capsys)
    assert code == 0
    summary = f"5 of {len(entries)} stored proofs checked: 5 ok, 0 bad, 0 open"
    assert out.strip() == summary + " (not proven again in 10 s)"


def test_a_turned_winner_is_bad(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = stored(tmp_path)
    rewrite(folder / "store" / "t-1-0.npz", "winner")
    code, out, _ = run_hex(["checkstore", str(folder), "--sample", "4", "--json"], capsys)
    assert code == 1
    answers = [json.loads(line) for line in out.splitlines()]
    assert len(answers) == 4 and all(a["verdict"] == "bad" for a in answers)


def test_an_emptied_proof_set_is_found_out(tmp_path: Path) -> None:
    """With no cell kept, the loser gets every empty cell: only a position already won
    survives that; the others are bad."""
    folder = stored(tmp_path)
    rewrite(folder / "store" / "t-1-0.npz", "proof")
    answers = [checked_entry(entry, 30.0) for entry in store_entries(folder)]
    bad = [a for a in answers if a.verdict == "bad"]
    assert bad and all("other player" in a.reason for a in bad)
    assert all(a.verdict in ("ok", "bad") for a in answers)


def test_a_sample_is_drawn_by_its_seed(tmp_path: Path) -> None:
    entries = list(store_entries(stored(tmp_path)))
    first = sample_entries(entries, 5, 7)
    assert first == sample_entries(entries, 5, 7) and len(first) == 5
    assert sample_entries(entries, None, 7) == entries


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("missing", "no such folder"),
        ("empty", "no store of proven positions"),
        ("not-a-store", "not a store of proven Hex positions"),
    ],
)
def test_bad_folders_give_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], setup: str, message: str
) -> None:
    folder = tmp_path / "work"
    if setup == "empty":
        folder.mkdir()
    if setup == "not-a-store":
        (folder / "store").mkdir(parents=True)
        (folder / "store" / "x.npz").write_text("no zip\n")
    code, out, err = run_hex(["checkstore", str(folder)], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err
