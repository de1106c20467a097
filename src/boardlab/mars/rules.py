"""Rules layer: Mars explorer moves, reachability and the statement's score.

Vehicles start on the pod at (1, 1) and step south (+y) or east (+x), never onto rough
terrain nor off the grid. A rock is collected by the first vehicle on its cell (a rock
under the pod goes to vehicle 1 at release, since every vehicle starts there); a vehicle
that does not end on the transmitter at (P, Q) loses its samples. Score = samples
delivered + vehicles arriving - vehicles not arriving.

>>> e = Expedition(MarsMap(2, ((0, 2, 0), (1, 2, 0))))
>>> for step in (Step(1, 1), Step(1, 1), Step(1, 0)):
...     e.play(step)
>>> e.score_now(), e.score_now().score, e.outcome()
(Outcome(delivered=1, arrived=1, not_arrived=1), 1, None)
>>> eval(repr(e)) == e, e.positions[1:], e.owner
(True, [(3, 2), (1, 1)], {(2, 1): 1})
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError
from boardlab.core.state import GameState
from boardlab.core.words import span
from boardlab.mars.values import EAST, ROCK, ROUGH, SOUTH, MarsMap, Step

__all__ = [
    "DIRECTION_NAMES",
    "POD",
    "Expedition",
    "Outcome",
    "best_score",
    "percent_of_best",
    "route_cells",
    "useful_cells",
]

DIRECTION_NAMES = {SOUTH: "south", EAST: "east"}
#: Where every vehicle starts: the pod at (1, 1).
POD = (1, 1)


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

    >>> useful_cells(MarsMap(1, ((0, 1), (0, 0))))
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


#: What ``_apply`` hands ``_undo``: whether the step took a rock (the cell the vehicle
#: left is one step back against the move's direction).
Undo = bool


#: Every step value built so far, ``_STEPS[2 * (vehicle - 1) + direction]``: the judge's
#: fast path records shared values instead of building one per line.
_STEPS: list[Step] = []


def _share_steps(vehicles: int) -> None:
    """Make sure ``_STEPS`` holds the steps of vehicles ``1..vehicles``."""
    for vehicle in range(len(_STEPS) // 2 + 1, vehicles + 1):
        _STEPS.extend((Step(vehicle, SOUTH), Step(vehicle, EAST)))


class Expedition(GameState[Step, Undo, Outcome]):
    """The vehicles on a map as a move list is replayed: ``play`` (checked), ``push``/``pop``.

    ``positions`` (one cell per vehicle) and ``owner`` (rock cell -> the vehicle that
    took it) rebuild a state in the middle of a replay; by default every vehicle is on
    the pod, and a rock under the pod belongs to vehicle 1. The game is over when no
    vehicle can step; :meth:`outcome` is then :meth:`score_now`.

    :raises BoardlabError: when ``positions`` does not give one cell per vehicle.
    """

    __slots__ = ("carried", "mars", "owner", "positions")

    def __init__(
        self,
        mars: MarsMap,
        positions: Sequence[tuple[int, int]] | None = None,
        owner: Mapping[tuple[int, int], int] | None = None,
    ) -> None:
        super().__init__()
        _share_steps(mars.vehicles)
        self.mars = mars
        if positions is None:
            positions = [POD] * mars.vehicles
        if len(positions) != mars.vehicles:
            raise BoardlabError(f"expected {mars.vehicles} vehicle positions, got {len(positions)}")
        #: ``positions[v]`` is vehicle v's cell (index 0 is unused)
        self.positions: list[tuple[int, int]] = [POD, *positions]
        if owner is None:
            owner = {POD: 1} if mars.at(*POD) == ROCK else {}
        self.owner: dict[tuple[int, int], int] = dict(owner)
        self.carried = [0] * (mars.vehicles + 1)
        for vehicle in self.owner.values():
            self.carried[vehicle] += 1

    # -- the protocol's hooks ---------------------------------------------------------------
    def why_illegal(self, move: Step) -> str | None:
        """Why ``move`` is illegal now, or None when it is legal."""
        if not 1 <= move.vehicle <= self.mars.vehicles:
            return (
                f"unknown vehicle {move.vehicle} (the pod releases {span(1, self.mars.vehicles)})"
            )
        if move.direction not in (SOUTH, EAST):
            return f"unknown direction {move.direction} (0 south, 1 east)"
        x, y = self.positions[move.vehicle]
        nx, ny = (x + 1, y) if move.direction == EAST else (x, y + 1)
        name = DIRECTION_NAMES[move.direction]
        if nx > self.mars.width or ny > self.mars.height:
            return f"vehicle {move.vehicle} at ({x}, {y}) moves {name} off the grid"
        if self.mars.at(nx, ny) == ROUGH:
            return (
                f"vehicle {move.vehicle} at ({x}, {y}) moves {name} onto rough terrain ({nx}, {ny})"
            )
        return None

    def steps_of(self, vehicle: int) -> list[Step]:
        """The legal steps of one ``vehicle`` now (south first)."""
        x, y = self.positions[vehicle]
        mars = self.mars
        found = []
        if y < mars.height and mars.rows[y][x - 1] != ROUGH:
            found.append(_STEPS[2 * vehicle - 2 + SOUTH])
        if x < mars.width and mars.rows[y - 1][x] != ROUGH:
            found.append(_STEPS[2 * vehicle - 2 + EAST])
        return found

    def legal_moves(self) -> list[Step]:
        """The legal steps of every vehicle now, by vehicle (south first)."""
        return [step for v in range(1, self.mars.vehicles + 1) for step in self.steps_of(v)]

    def is_over(self) -> bool:
        """True when no vehicle can step (each is on the transmitter or stuck)."""
        return not any(self.steps_of(v) for v in range(1, self.mars.vehicles + 1))

    def outcome(self) -> Outcome | None:
        """The score once no vehicle can step, else None (see :meth:`score_now`)."""
        return self.score_now() if self.is_over() else None

    def _apply(self, move: Step) -> Undo:
        x, y = self.positions[move.vehicle]
        cell = (x + 1, y) if move.direction == EAST else (x, y + 1)
        self.positions[move.vehicle] = cell
        took = self.mars.at(*cell) == ROCK and cell not in self.owner
        if took:
            self.owner[cell] = move.vehicle
            self.carried[move.vehicle] += 1
        return took

    def _undo(self, move: Step, token: Undo) -> None:
        cell = self.positions[move.vehicle]
        if token:
            del self.owner[cell]
            self.carried[move.vehicle] -= 1
        x, y = cell
        self.positions[move.vehicle] = (x - 1, y) if move.direction == EAST else (x, y - 1)

    def _clone(self) -> Expedition:
        twin = Expedition.__new__(Expedition)
        twin.mars = self.mars
        twin.positions = list(self.positions)
        twin.carried = list(self.carried)
        twin.owner = dict(self.owner)
        return twin

    def _key(self) -> Hashable:
        return (self.mars, tuple(self.positions), frozenset(self.owner.items()))

    def __repr__(self) -> str:
        owner = dict(sorted(self.owner.items()))
        return (
            f"Expedition({self.mars!r}, positions={tuple(self.positions[1:])!r}, owner={owner!r})"
        )

    # -- the judge's fast path and the score ------------------------------------------------
    def advance(self, vehicle: int, direction: int) -> str | None:
        """Check and apply one step given as plain integers (the judge's fast path).

        Returns None when the step was applied, else the reason it is illegal (and the
        state is unchanged). Equivalent to ``why_illegal`` followed by ``push``.
        """
        if not 1 <= vehicle <= self.mars.vehicles:
            return f"unknown vehicle {vehicle} (the pod releases {span(1, self.mars.vehicles)})"
        if direction not in (SOUTH, EAST):
            return f"unknown direction {direction} (0 south, 1 east)"
        x, y = self.positions[vehicle]
        if direction == EAST:
            nx, ny = x + 1, y
            if nx > self.mars.width:
                return self.why_illegal(Step(vehicle, direction))
        else:
            nx, ny = x, y + 1
            if ny > self.mars.height:
                return self.why_illegal(Step(vehicle, direction))
        terrain = self.mars.rows[ny - 1][nx - 1]
        if terrain == ROUGH:
            return self.why_illegal(Step(vehicle, direction))
        cell = (nx, ny)
        self.positions[vehicle] = cell
        took = terrain == ROCK and cell not in self.owner
        if took:
            self.owner[cell] = vehicle
            self.carried[vehicle] += 1
        self._record(_STEPS[2 * vehicle - 2 + direction], took)
        return None

    def score_now(self) -> Outcome:
        """Score the vehicles where they stand: arrivals deliver what they carry."""
        goal = (self.mars.width, self.mars.height)
        delivered = arrived = 0
        for vehicle in range(1, self.mars.vehicles + 1):
            if self.positions[vehicle] == goal:
                arrived += 1
                delivered += self.carried[vehicle]
        return Outcome(delivered, arrived, self.mars.vehicles - arrived)
