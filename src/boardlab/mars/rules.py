"""Rules layer: Mars explorer moves, reachability and the statement's score.

Vehicles start on the pod at (1, 1) and step south (+y) or east (+x), never onto rough
terrain nor off the grid. A rock is collected by the first vehicle on its cell (a rock
under the pod goes to vehicle 1 at release, since every vehicle starts there); a vehicle
that does not end on the transmitter at (P, Q) loses its samples. Score = samples
delivered + vehicles arriving - vehicles not arriving.

>>> m = MarsMap.parse("2\\n3\\n2\\n0 2 0\\n1 2 0\\n")
>>> e = Expedition(m)
>>> for step in (Step(1, 1), Step(1, 1), Step(1, 0)):
...     e.play(step)
>>> e.outcome()
Outcome(delivered=1, arrived=1, not_arrived=1)
>>> e.outcome().score
1
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.errors import IllegalMoveError
from boardlab.mars.formats import EAST, ROCK, ROUGH, SOUTH, MarsMap, Step

__all__ = [
    "DIRECTION_NAMES",
    "Expedition",
    "Outcome",
    "best_score",
    "percent_of_best",
    "route_cells",
    "useful_cells",
]

DIRECTION_NAMES = {SOUTH: "south", EAST: "east"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a finished move list scores: samples delivered, vehicles arriving and not."""

    delivered: int
    arrived: int
    not_arrived: int

    @property
    def score(self) -> int:
        """The statement's points: delivered + arrived - not arrived."""
        return self.delivered + self.arrived - self.not_arrived


def best_score(vehicles: int, max_rocks: int, transmitter_reachable: bool) -> int:
    """The maximum points of an instance, from the most rocks ``vehicles`` paths can cover.

    When the transmitter can be reached every vehicle should go there (+1 each instead of
    -1, and none loses samples); when it cannot, no vehicle arrives, every sample is lost
    and every legal answer (the empty one included) scores ``-vehicles``.

    >>> best_score(2, 3, True), best_score(2, 0, False)
    (5, -2)
    """
    if not transmitter_reachable:
        return -vehicles
    return vehicles + max_rocks


def percent_of_best(score: int, best: int) -> float:
    """``score`` as a percentage of ``best``, clamped to 0..100.

    When ``best <= 0`` (an unreachable transmitter: every legal answer scores exactly the
    best) reaching the best is 100% and anything less 0%.

    >>> percent_of_best(5, 5), percent_of_best(-3, 5), percent_of_best(-2, -2)
    (100.0, 0.0, 100.0)
    """
    if best <= 0:
        return 100.0 if score >= best else 0.0
    return max(0.0, min(100.0, 100.0 * score / best))


def useful_cells(mars: MarsMap) -> list[list[bool]]:
    """``useful[y-1][x-1]``: cell (x, y) lies on some pod-to-transmitter path.

    All False when the transmitter cannot be reached.

    >>> useful_cells(MarsMap.parse("1\\n2\\n2\\n0 1\\n0 0\\n"))
    [[True, False], [True, True]]
    """
    width, height = mars.width, mars.height
    forward = [[False] * width for _ in range(height)]
    for y in range(height):
        row = mars.rows[y]
        here = forward[y]
        above = forward[y - 1] if y else None
        for x in range(width):
            if row[x] == ROUGH:
                continue
            if (x == 0 and y == 0) or (x and here[x - 1]) or (above is not None and above[x]):
                here[x] = True
    useful = [[False] * width for _ in range(height)]
    for y in range(height - 1, -1, -1):
        here = useful[y]
        below = useful[y + 1] if y + 1 < height else None
        fwd = forward[y]
        for x in range(width - 1, -1, -1):
            if not fwd[x]:
                continue
            if (
                (x == width - 1 and y == height - 1)
                or (x + 1 < width and here[x + 1])
                or (below is not None and below[x])
            ):
                here[x] = True
    return useful


def route_cells(directions: str, start: tuple[int, int] = (1, 1)) -> list[tuple[int, int]]:
    """The cells ``(x, y)`` a route visits, start included; ``directions`` is digits 0/1.

    >>> route_cells("10")
    [(1, 1), (2, 1), (2, 2)]
    """
    x, y = start
    cells = [(x, y)]
    for digit in directions:
        if digit == "1":
            x += 1
        else:
            y += 1
        cells.append((x, y))
    return cells


class Expedition:
    """The vehicles on a map as a move list is replayed: ``play`` (checked), ``push``/``pop``."""

    def __init__(self, mars: MarsMap) -> None:
        self.mars = mars
        self.positions: list[tuple[int, int]] = [(1, 1)] * (mars.vehicles + 1)
        self.carried = [0] * (mars.vehicles + 1)
        self.owner: dict[tuple[int, int], int] = {}
        if mars.at(1, 1) == ROCK:
            self.owner[(1, 1)] = 1
            self.carried[1] = 1
        self._history: list[tuple[int, tuple[int, int], bool]] = []

    def illegal_reason(self, step: Step) -> str | None:
        """Why ``step`` is illegal now, or None when it is legal."""
        if not 1 <= step.vehicle <= self.mars.vehicles:
            return f"unknown vehicle {step.vehicle} (the pod releases 1..{self.mars.vehicles})"
        if step.direction not in (SOUTH, EAST):
            return f"unknown direction {step.direction} (0 south, 1 east)"
        x, y = self.positions[step.vehicle]
        nx, ny = (x + 1, y) if step.direction == EAST else (x, y + 1)
        name = DIRECTION_NAMES[step.direction]
        if nx > self.mars.width or ny > self.mars.height:
            return f"vehicle {step.vehicle} at ({x}, {y}) moves {name} off the grid"
        if self.mars.at(nx, ny) == ROUGH:
            return (
                f"vehicle {step.vehicle} at ({x}, {y}) moves {name} onto rough terrain ({nx}, {ny})"
            )
        return None

    def advance(self, vehicle: int, direction: int) -> str | None:
        """Check and apply one step given as plain integers (the judge's fast path).

        Returns None when the step was applied, else the reason it is illegal (and the
        state is unchanged). Equivalent to ``illegal_reason`` followed by ``push``.
        """
        if not 1 <= vehicle <= self.mars.vehicles:
            return f"unknown vehicle {vehicle} (the pod releases 1..{self.mars.vehicles})"
        if direction not in (SOUTH, EAST):
            return f"unknown direction {direction} (0 south, 1 east)"
        x, y = self.positions[vehicle]
        if direction == EAST:
            nx, ny = x + 1, y
            if nx > self.mars.width:
                return self.illegal_reason(Step(vehicle, direction))
        else:
            nx, ny = x, y + 1
            if ny > self.mars.height:
                return self.illegal_reason(Step(vehicle, direction))
        terrain = self.mars.rows[ny - 1][nx - 1]
        if terrain == ROUGH:
            return self.illegal_reason(Step(vehicle, direction))
        cell = (nx, ny)
        self.positions[vehicle] = cell
        took = terrain == ROCK and cell not in self.owner
        if took:
            self.owner[cell] = vehicle
            self.carried[vehicle] += 1
        self._history.append((vehicle, (x, y), took))
        return None

    def is_legal(self, step: Step) -> bool:
        """True when ``step`` moves a known vehicle onto clear or rock terrain on the grid."""
        return self.illegal_reason(step) is None

    def legal_moves(self, vehicle: int) -> list[Step]:
        """The legal steps of ``vehicle`` now (south first)."""
        return [s for s in (Step(vehicle, SOUTH), Step(vehicle, EAST)) if self.is_legal(s)]

    def push(self, step: Step) -> None:
        """Apply ``step`` without checking it (the caller knows it is legal)."""
        x, y = self.positions[step.vehicle]
        cell = (x + 1, y) if step.direction == EAST else (x, y + 1)
        self.positions[step.vehicle] = cell
        took = self.mars.at(*cell) == ROCK and cell not in self.owner
        if took:
            self.owner[cell] = step.vehicle
            self.carried[step.vehicle] += 1
        self._history.append((step.vehicle, (x, y), took))

    def pop(self) -> None:
        """Undo the last ``push``."""
        vehicle, previous, took = self._history.pop()
        if took:
            del self.owner[self.positions[vehicle]]
            self.carried[vehicle] -= 1
        self.positions[vehicle] = previous

    def play(self, step: Step) -> None:
        """Check and apply ``step``.

        :raises IllegalMoveError: naming the vehicle, its cell and what is wrong.
        """
        reason = self.illegal_reason(step)
        if reason is not None:
            raise IllegalMoveError(reason)
        self.push(step)

    def copy(self) -> Expedition:
        """An independent copy of this state (history included)."""
        other = Expedition.__new__(Expedition)
        other.mars = self.mars
        other.positions = list(self.positions)
        other.carried = list(self.carried)
        other.owner = dict(self.owner)
        other._history = list(self._history)
        return other

    def outcome(self) -> Outcome:
        """Score the vehicles where they stand: arrivals deliver what they carry."""
        goal = (self.mars.width, self.mars.height)
        delivered = arrived = 0
        for vehicle in range(1, self.mars.vehicles + 1):
            if self.positions[vehicle] == goal:
                arrived += 1
                delivered += self.carried[vehicle]
        return Outcome(delivered, arrived, self.mars.vehicles - arrived)
