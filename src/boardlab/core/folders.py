"""Core layer: the parts of a work folder checked and made, each failure one line.

Every game's resumable runs keep their state in a work folder the user names; its parts
(a store, a start's folder, a proofs folder) are made here, so that a file standing
where a part goes, or a folder that cannot be made, says so in one line
(:class:`boardlab.core.errors.BoardlabError`) before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from boardlab.core.errors import BoardlabError

__all__ = ["check_folder", "make_folder"]


def check_folder(path: Path) -> None:
    """Check that nothing but a folder stands at ``path``, a part of a work folder.

    :raises BoardlabError: when a file stands there.
    """
    if path.exists() and not path.is_dir():
        raise BoardlabError(f"{path}: not a folder (a work folder's {path.name} is one)")


def make_folder(path: Path, what: str = "the folder") -> None:
    """Make the folder ``path`` of a work folder (nothing if it is one already);
    ``what`` names it in the error.

    :raises BoardlabError: when a file stands there or it cannot be made.
    """
    check_folder(path)
    try:
        path.mkdir(exist_ok=True)
    except OSError as error:
        raise BoardlabError(f"{path}: cannot make {what} ({error.strerror})") from None
