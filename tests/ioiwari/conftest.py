"""Shared fixtures of the Ioiwari tests: one value table, a private table cache."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.ioiwari.rules import IOI
from boardlab.ioiwari.solver import MemoSolver, ValueTable, build_table

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="session")
def table() -> ValueTable:
    """The IOI value table built by the numba kernel (once per test session)."""
    return build_table(IOI)


@pytest.fixture(scope="session")
def memo() -> MemoSolver:
    """The pure-Python reference solver, its memo shared by the session."""
    return MemoSolver(IOI)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory, table: ValueTable) -> Path:
    """A private table cache holding the IOI table, so subprocesses start fast."""
    from boardlab.ioiwari.store import save_table, table_path

    folder = tmp_path_factory.mktemp("ioiwari-cache")
    assert save_table(table, table_path(IOI, folder))
    return folder


@pytest.fixture()
def use_cache(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the table cache (of this process and its children) at the private one."""
    monkeypatch.setenv("BOARDLAB_CACHE_DIR", str(cache_dir))
    yield cache_dir
