"""Interface layer: argparse value types shared by the verbs."""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["count_of", "positive_number"]


def count_of(what: str, most: int | None = None) -> Callable[[str], int]:
    """An argparse type for a number of ``what`` (workers, jobs): a whole number from 1
    to ``most`` (no bound if None), with one-line messages naming ``what``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number of {what}: {text!r}") from None
        if value < 1:
            raise argparse.ArgumentTypeError(f"{what} must be at least 1, got {value}")
        if most is not None and value > most:
            raise argparse.ArgumentTypeError(f"{what} must be at most {most}, got {value}")
        return value

    return parse


def positive_number(what: str | None = None) -> Callable[[str], float]:
    """An argparse type for a number above zero (seconds, a time a move), with one-line
    messages naming ``what`` where given."""
    kind = "a number" if what is None else f"a number of {what}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not {kind}: {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value

    return parse
