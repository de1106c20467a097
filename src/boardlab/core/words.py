"""Core layer: numbers in words a reader expects (``1 block``, ``2 blocks``).

>>> counted(1, "block"), counted(2, "block"), counted(0, "dead end"), counted(1, "match", "matches")
('1 block', '2 blocks', '0 dead ends', '1 match')
>>> counted(34339, "playout")
'34,339 playouts'
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(number: int, singular: str, plural: str | None = None) -> str:
    """``number`` (thousands grouped) and the noun, singular for one, else plural
    (``singular + "s"`` unless given)."""
    noun = singular if number == 1 else (plural or singular + "s")
    return f"{number:,} {noun}"
