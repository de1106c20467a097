"""Interface layer: output helpers shared by the game commands (atomic file writes)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import BoardlabError

__all__ = ["write_file_atomically", "write_files_atomically", "write_stdout"]


def write_file_atomically(path: str, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all (``-`` is stdout).

    :raises BoardlabError: when the file cannot be written.
    """
    write_files_atomically([(path, text)])


def write_files_atomically(outputs: Sequence[tuple[str, str]]) -> None:
    """Write each ``(path, text)`` of ``outputs`` whole, all of them or none (``-`` is
    stdout, written last, once every file is in place).

    :raises BoardlabError: when one of the files cannot be written (then none is).
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in outputs:
            if path == "-":
                continue
            target = Path(path)
            handle, temporary = tempfile.mkstemp(
                dir=target.parent or Path("."), prefix=f".{target.name}."
            )
            staged.append((temporary, target))
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temporary, 0o666 & ~_umask())  # as a plain open would make it
    except OSError as exc:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)
        raise BoardlabError(f"cannot write {path!r}: {exc.strerror or exc}") from None
    for temporary, target in staged:
        try:
            os.replace(temporary, target)
        except OSError as exc:
            Path(temporary).unlink(missing_ok=True)
            raise BoardlabError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    for path, text in outputs:
        if path == "-":
            write_stdout(text)


def _umask() -> int:
    """The process's file mode creation mask (read by setting it and back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_stdout(text: str) -> None:
    """Write ``text`` to stdout in one piece and flush."""
    sys.stdout.write(text)
    sys.stdout.flush()
