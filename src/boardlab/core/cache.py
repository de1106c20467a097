"""Core layer: the user's cache folder, where boardlab keeps what it can rebuild.

``$BOARDLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/boardlab``, else ``~/.cache/boardlab``:
the Ioiwari value table (:mod:`boardlab.ioiwari.store`) and the compiled kernels
(:mod:`boardlab.core.jit`) live there.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cache_dir"]


def cache_dir() -> Path:
    """The directory of boardlab's cached files (not created here)."""
    explicit = os.environ.get("BOARDLAB_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "boardlab"
