"""Package root: boardlab plays, solves and judges classic contest games and puzzles."""

__version__ = "0.1.0"

__all__ = ["__version__"]
