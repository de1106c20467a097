"""Core layer: numbers in words a reader expects (``1 block``, ``2 blocks``, ``1,000``,
``1 to 999``), for every message a game, the command line or the web page builds.

>>> counted(1, "block"), counted(2, "block"), counted(0, "dead end"), counted(1, "match", "matches")
('1 block', '2 blocks', '0 dead ends', '1 match')
>>> counted(34339, "playout")
'34,339 playouts'
>>> number(47377), number(0.25), number(2.0)
('47,377', '0.25', '2')
>>> span(1, 999), span(0, 33), span(1, 1_000_000)
('1 to 999', '0 to 33', '1 to 1,000,000')
>>> seconds(0.001032), seconds(0.0512), seconds(2.3456), seconds(1234.5)
('under 0.01 s', '0.05 s', '2.35 s', '1,234 s')
"""

from __future__ import annotations

__all__ = ["counted", "number", "seconds", "span"]

#: Below this many seconds a time is written ``under 0.01 s`` ...
SHORTEST = 0.01
#: ... and from this many, in whole seconds.
WHOLE_SECONDS = 100


def number(value: float) -> str:
    """``value`` as a reader writes it: thousands grouped, a whole float without ``.0``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}"


def counted(number_: int, singular: str, plural: str | None = None) -> str:
    """``number_`` (thousands grouped) and the noun, singular for one, else plural
    (``singular + "s"`` unless given)."""
    noun = singular if number_ == 1 else (plural or singular + "s")
    return f"{number_:,} {noun}"


def span(low: float, high: float) -> str:
    """A range as a reader writes it: ``1 to 999`` (never ``1..999``)."""
    return f"{number(low)} to {number(high)}"


def seconds(value: float) -> str:
    """A time in seconds, to a reader's precision: two decimals, whole seconds from
    100 s, ``under 0.01 s`` for less."""
    if value < SHORTEST:
        return "under 0.01 s"
    if value >= WHOLE_SECONDS:
        return f"{round(value):,} s"
    return f"{value:.2f} s"
