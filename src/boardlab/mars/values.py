"""Rules layer: the Mars explorer value types: terrain codes, directions, a map and a step.

They sit below the rules, the formats and the solver, which all import them from here.
A :class:`Step` owns its text form (one line of MARS.OUT); the map file (MARS.DAT) is
read and written by :mod:`boardlab.mars.formats`.

>>> step = Step.parse("3 1")
>>> step, str(step)
(Step(vehicle=3, direction=1), '3 1')
>>> m = MarsMap(2, ((0, 2, 0), (1, 2, 0)))
>>> m.width, m.height, m.rocks, m.terrain_name(2, 1)
(3, 2, 2, 'rock')
>>> eval(repr(m)) == m
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError
from boardlab.core.textio import TokenReader
from boardlab.core.words import span

__all__ = [
    "CLEAR",
    "EAST",
    "MAX_SIDE",
    "MAX_VEHICLES",
    "ROCK",
    "ROUGH",
    "SOUTH",
    "MarsMap",
    "Step",
]

#: Terrain codes of a map cell.
CLEAR, ROUGH, ROCK = 0, 1, 2
#: Directions of a step: south is +y, east is +x.
SOUTH, EAST = 0, 1
#: Largest P and Q boardlab reads.
MAX_SIDE = 128
#: The statement allows fewer than 1000 vehicles.
MAX_VEHICLES = 999
_TERRAIN_NAMES = {CLEAR: "clear", ROUGH: "rough", ROCK: "rock"}


@dataclass(frozen=True, slots=True)
class Step:
    """One line of the move list: ``vehicle`` (1-based) moves south (0) or east (1).

    :raises BoardlabError: for a vehicle below 1 or a direction other than 0 and 1.
    """

    vehicle: int
    direction: int

    def __post_init__(self) -> None:
        if self.vehicle < 1 or self.direction not in (SOUTH, EAST):
            raise BoardlabError(f"bad step {self.vehicle} {self.direction}")

    @classmethod
    def parse(cls, text: str) -> Step:
        """A step from ``"VEHICLE DIRECTION"``.

        :raises ParseError: when the text is not two integers, vehicle >= 1 and direction 0/1.
        """
        reader = TokenReader(text, source="<step>")
        vehicle = reader.next_int("vehicle number", 1, None)
        direction = reader.next_int("direction", SOUTH, EAST)
        reader.expect_end("step")
        return cls(vehicle, direction)

    def __str__(self) -> str:
        return f"{self.vehicle} {self.direction}"


@dataclass(frozen=True, slots=True)
class MarsMap:
    """A Mars explorer instance: vehicles and the terrain, ``rows[y-1][x-1]`` = cell (x, y).

    :raises BoardlabError: for a vehicle count out of 1..999, a terrain that is not a
        rectangle of at most 128 x 128 cells 0/1/2, or a rough pod or transmitter.
    """

    vehicles: int
    rows: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        if not 1 <= self.vehicles <= MAX_VEHICLES:
            raise BoardlabError(f"vehicles must be {span(1, MAX_VEHICLES)}, got {self.vehicles}")
        if not self.rows or not self.rows[0] or any(len(r) != len(self.rows[0]) for r in self.rows):
            raise BoardlabError("the terrain must be a non-empty rectangle")
        if len(self.rows) > MAX_SIDE or len(self.rows[0]) > MAX_SIDE:
            raise BoardlabError(f"the terrain must be at most {MAX_SIDE} x {MAX_SIDE}")
        if any(cell not in (CLEAR, ROUGH, ROCK) for row in self.rows for cell in row):
            raise BoardlabError("every cell must be 0, 1 or 2")
        if self.rows[0][0] == ROUGH or self.rows[-1][-1] == ROUGH:
            raise BoardlabError("the pod and the transmitter must not be on rough terrain")

    @property
    def width(self) -> int:
        """P, the number of columns (x runs 1..P, east)."""
        return len(self.rows[0])

    @property
    def height(self) -> int:
        """Q, the number of rows (y runs 1..Q, south)."""
        return len(self.rows)

    def at(self, x: int, y: int) -> int:
        """The terrain of cell ``(x, y)`` (1-based)."""
        return self.rows[y - 1][x - 1]

    @property
    def rocks(self) -> int:
        """How many rock samples lie on the map."""
        return sum(row.count(ROCK) for row in self.rows)

    @classmethod
    def from_rows(cls, vehicles: int, rows: Iterable[Sequence[int]]) -> MarsMap:
        """A map from a vehicle count and rows of cells (checked as in ``__post_init__``)."""
        return cls(vehicles, tuple(tuple(row) for row in rows))

    def terrain_name(self, x: int, y: int) -> str:
        """``clear``, ``rough`` or ``rock`` for cell ``(x, y)``."""
        return _TERRAIN_NAMES[self.at(x, y)]
