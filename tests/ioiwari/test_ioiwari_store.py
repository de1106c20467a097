"""The disk cache of the value table: round trip, corruption, unwritable directories."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boardlab.ioiwari.rules import IOI, Variant
from boardlab.ioiwari.solver import ValueTable
from boardlab.ioiwari.store import cache_dir, get_table, load_table, save_table, table_path


def test_round_trip(tmp_path: Path, table: ValueTable) -> None:
    path = table_path(IOI, tmp_path)
    assert save_table(table, path)
    loaded = load_table(path, IOI)
    assert loaded is not None and loaded.data == table.data
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_corrupt_or_foreign_files_are_ignored(tmp_path: Path, table: ValueTable) -> None:
    path = table_path(IOI, tmp_path)
    assert save_table(table, path)
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 1
    path.write_bytes(bytes(raw))
    assert load_table(path, IOI) is None
    path.write_bytes(b"")
    assert load_table(path, IOI) is None
    assert load_table(tmp_path / "missing", IOI) is None
    small = Variant(pits=3, cap=5, total=6, low=2, high=2)
    assert load_table(path, small) is None


def test_get_table_builds_saves_then_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, table: ValueTable
) -> None:
    monkeypatch.setenv("BOARDLAB_CACHE_DIR", str(tmp_path / "cache"))
    first = get_table(IOI)
    assert first.source == "built" and first.saved
    second = get_table(IOI)
    assert second.source == "cache" and second.path == first.path
    assert second.table.data == first.table.data == table.data
    off = get_table(IOI, cache=False)
    assert off.source == "built" and off.path is None and not off.saved


def test_unwritable_cache_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("BOARDLAB_CACHE_DIR", str(blocker / "sub"))
    small = Variant(pits=4, cap=3, total=8, low=2, high=2)
    load = get_table(small)
    assert load.source == "built" and not load.saved
    assert len(load.table.data) == small.size


def test_cache_dir_fallbacks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BOARDLAB_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "boardlab"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache_dir() == Path(os.path.expanduser("~")) / ".cache" / "boardlab"
