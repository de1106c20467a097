"""Package root: boardlab plays, solves and judges classic contest games and puzzles.

``__version__`` is the one place the version is written: the build reads it from here
(``pyproject.toml``'s dynamic version) and ``boardlab --version`` prints it.
"""

__version__ = "0.2.0"

__all__ = ["__version__"]
