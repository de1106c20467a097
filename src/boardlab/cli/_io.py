"""Interface layer: output helpers shared by the game commands (atomic file writes)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from boardlab.core.errors import BoardlabError

__all__ = ["write_file_atomically", "write_stdout"]


def write_file_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``-`` is stdout).

    :raises BoardlabError: when the file cannot be written.
    """
    if path == "-":
        write_stdout(text)
        return
    target = Path(path)
    try:
        handle, temporary = tempfile.mkstemp(
            dir=target.parent or Path("."), prefix=f".{target.name}."
        )
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.replace(temporary, target)
    except OSError as exc:
        raise BoardlabError(f"cannot write {path!r}: {exc.strerror or exc}") from None


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout in one piece and flush."""
    sys.stdout.write(text)
    sys.stdout.flush()
