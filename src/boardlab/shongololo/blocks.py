"""Rules layer: the value types of the Toxic iShongololo: boxes, blocks and actions.

A :class:`Box` is the fruit, ``L x W x H`` blocks (each side 1..32 in the contest). A
:class:`Block` is ``(x, y, z)`` counted from 1 on the L, W and H axes. An
:class:`Action` eats (``E``) or moves into (``M``) a block; its text is the contest line.

>>> Action.parse("E 2 1 1")
Action('E', Block(2, 1, 1))
>>> str(Action.parse("M 1 3 2")), str(Box.parse("2 3 2"))
('M 1 3 2', '2 3 2')
>>> Box(2, 3, 2).index(Block(2, 3, 2)), Box(2, 3, 2).block(11)
(11, Block(2, 3, 2))
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.words import span

__all__ = ["MAX_SIDE", "STEPS", "Action", "Block", "Box", "Kind"]

#: The largest side the contest allows (the rules work for any positive side).
MAX_SIDE = 32
#: The six face directions: -x, +x, -y, +y, -z, +z.
STEPS: tuple[tuple[int, int, int], ...] = (
    (-1, 0, 0),
    (1, 0, 0),
    (0, -1, 0),
    (0, 1, 0),
    (0, 0, -1),
    (0, 0, 1),
)

Kind = Literal["E", "M"]


def _ints(text: str, count: int, what: str) -> list[int]:
    parts = text.split()
    if len(parts) != count:
        raise ParseError(f"{what} needs {count} integers, got {text.strip()!r}")
    try:
        return [int(part) for part in parts]
    except ValueError:
        raise ParseError(f"{what} needs {count} integers, got {text.strip()!r}") from None


@dataclass(frozen=True, slots=True, order=True)
class Block:
    """One unit block of the fruit, 1-based on the L (x), W (y) and H (z) axes."""

    x: int
    y: int
    z: int

    def __str__(self) -> str:
        return f"{self.x} {self.y} {self.z}"

    def __repr__(self) -> str:
        return f"Block({self.x}, {self.y}, {self.z})"

    @classmethod
    def parse(cls, text: str) -> Block:
        """The block written ``x y z``.

        :raises ParseError: when ``text`` is not three integers.
        """
        x, y, z = _ints(text, 3, "a block")
        return cls(x, y, z)

    def neighbours(self) -> Iterator[Block]:
        """The six blocks sharing a face with this one (some may lie outside a box)."""
        for dx, dy, dz in STEPS:
            yield Block(self.x + dx, self.y + dy, self.z + dz)

    def touches(self, other: Block) -> bool:
        """True when the two blocks share a face."""
        return abs(self.x - other.x) + abs(self.y - other.y) + abs(self.z - other.z) == 1


@dataclass(frozen=True, slots=True)
class Box:
    """The fruit: ``length`` (L, x) by ``width`` (W, y) by ``height`` (H, z) blocks."""

    length: int
    width: int
    height: int

    def __post_init__(self) -> None:
        for name, side in (("L", self.length), ("W", self.width), ("H", self.height)):
            if not 1 <= side <= MAX_SIDE:
                raise BoardlabError(f"{name} must be {span(1, MAX_SIDE)}, got {side}")

    def __str__(self) -> str:
        return f"{self.length} {self.width} {self.height}"

    def __repr__(self) -> str:
        return f"Box({self.length}, {self.width}, {self.height})"

    @classmethod
    def parse(cls, text: str) -> Box:
        """The box written ``L W H`` (or ``LxWxH``).

        :raises ParseError: when ``text`` is not three integers in 1..32.
        """
        length, width, height = _ints(text.lower().replace("x", " "), 3, "a box")
        try:
            return cls(length, width, height)
        except BoardlabError as exc:
            raise ParseError(str(exc)) from None

    @property
    def sides(self) -> tuple[int, int, int]:
        """``(L, W, H)``."""
        return (self.length, self.width, self.height)

    @property
    def volume(self) -> int:
        """N, the number of blocks."""
        return self.length * self.width * self.height

    @property
    def surface(self) -> int:
        """F, the number of block faces on the outside of the fruit."""
        lw, wh, hl = (
            self.length * self.width,
            self.width * self.height,
            self.height * self.length,
        )
        return 2 * (lw + wh + hl)

    def contains(self, block: Block) -> bool:
        """True when ``block`` lies inside the fruit."""
        return (
            1 <= block.x <= self.length
            and 1 <= block.y <= self.width
            and 1 <= block.z <= self.height
        )

    def index(self, block: Block) -> int:
        """The block's number ``0 .. N-1`` (x fastest, then y, then z)."""
        return (block.x - 1) + self.length * ((block.y - 1) + self.width * (block.z - 1))

    def block(self, index: int) -> Block:
        """The block numbered ``index`` (inverse of :meth:`index`)."""
        x = index % self.length
        rest = index // self.length
        return Block(x + 1, rest % self.width + 1, rest // self.width + 1)

    def blocks(self) -> Iterator[Block]:
        """Every block, in index order."""
        for index in range(self.volume):
            yield self.block(index)

    def neighbours(self, block: Block) -> list[Block]:
        """The blocks inside the fruit that share a face with ``block``."""
        return [other for other in block.neighbours() if self.contains(other)]


@dataclass(frozen=True, slots=True)
class Action:
    """``E`` eats ``block``; ``M`` moves the iShongololo into it."""

    kind: Kind
    block: Block

    def __post_init__(self) -> None:
        if self.kind not in ("E", "M"):
            raise BoardlabError(f"an action is E (eat) or M (move), got {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.kind} {self.block}"

    def __repr__(self) -> str:
        return f"Action({self.kind!r}, {self.block!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action written ``E x y z`` or ``M x y z``.

        :raises ParseError: when ``text`` is not such a line.
        """
        parts = text.split()
        if not parts or parts[0] not in ("E", "M"):
            raise ParseError(f"an action starts with E or M, got {text.strip()!r}")
        kind: Kind = "E" if parts[0] == "E" else "M"
        return cls(kind, Block.parse(" ".join(parts[1:])))
