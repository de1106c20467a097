"""Solver layer: the value table on disk, so a game can start without building it.

The file is one header line (format version, variant, size, CRC-32 of the body) and
then one signed byte per code. It lives in ``$BOARDLAB_CACHE_DIR``, else
``$XDG_CACHE_HOME/boardlab``, else ``~/.cache/boardlab``. A missing, stale or corrupt
file is rebuilt; a directory that cannot be written is not an error (the table is then
built in memory each time). Loading needs neither numba nor numpy.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from boardlab.core.cache import cache_dir
from boardlab.ioiwari.rules import IOI, Variant
from boardlab.ioiwari.solver import ValueTable, build_table

__all__ = ["TableLoad", "cache_dir", "get_table", "load_table", "save_table", "table_path"]

#: Bump when the rules or the value convention change: older files are then ignored.
FORMAT = "boardlab-ioiwari-table 1"


@dataclass(frozen=True, slots=True)
class TableLoad:
    """A table and where it came from: ``cache`` (read from ``path``) or ``built``."""

    table: ValueTable
    source: str
    path: Path | None
    seconds: float
    saved: bool = False


def table_path(variant: Variant = IOI, directory: Path | None = None) -> Path:
    """Where the table of ``variant`` is cached."""
    folder = cache_dir() if directory is None else directory
    return folder / f"ioiwari-p{variant.pits}-c{variant.cap}.table"


def _header(variant: Variant, body: bytes) -> bytes:
    crc = zlib.crc32(body)
    text = f"{FORMAT} pits={variant.pits} cap={variant.cap} size={len(body)} crc={crc:08x}\n"
    return text.encode("ascii")


def load_table(path: Path, variant: Variant = IOI) -> ValueTable | None:
    """The table cached at ``path``, or None when it is missing, stale or corrupt."""
    try:
        with path.open("rb") as handle:
            header = handle.readline(200)
            body = handle.read(variant.size + 1)
    except OSError:
        return None
    if len(body) != variant.size or header != _header(variant, body):
        return None
    return ValueTable(variant, body)


def save_table(table: ValueTable, path: Path) -> bool:
    """Write ``table`` to ``path`` atomically; False (and nothing left behind) on failure."""
    temporary: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".ioiwari-", dir=path.parent)
        with os.fdopen(handle, "wb") as out:
            out.write(_header(table.variant, table.data))
            out.write(table.data)
        os.replace(temporary, path)
        return True
    except OSError:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False


def get_table(variant: Variant = IOI, *, cache: bool = True) -> TableLoad:
    """The table of ``variant``: from the disk cache, else built by the kernel (and cached).

    With ``cache=False`` the disk is neither read nor written.
    """
    started = time.perf_counter()
    path = table_path(variant) if cache else None
    if path is not None:
        table = load_table(path, variant)
        if table is not None:
            return TableLoad(table, "cache", path, time.perf_counter() - started)
    table = build_table(variant)
    saved = save_table(table, path) if path is not None else False
    return TableLoad(table, "built", path, time.perf_counter() - started, saved)
