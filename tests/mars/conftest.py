"""Shared helpers of the Mars explorer tests: random maps and a brute-force oracle."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from hypothesis import strategies as st

from boardlab.mars.values import CLEAR, ROCK, ROUGH, MarsMap

DATA = Path(__file__).parent / "data"


def random_map(rng: random.Random, max_side: int = 5, max_vehicles: int = 3) -> MarsMap:
    """A random small map with the pod and transmitter off rough terrain."""
    width, height = rng.randint(1, max_side), rng.randint(1, max_side)
    rough, rock = rng.choice([(0.0, 0.3), (0.2, 0.3), (0.3, 0.4), (0.1, 0.6)])
    rows = []
    for _ in range(height):
        row = []
        for _ in range(width):
            r = rng.random()
            row.append(ROUGH if r < rough else ROCK if r < rough + rock else CLEAR)
        rows.append(row)
    if rows[0][0] == ROUGH:
        rows[0][0] = CLEAR
    if rows[-1][-1] == ROUGH:
        rows[-1][-1] = CLEAR
    return MarsMap.from_rows(rng.randint(1, max_vehicles), rows)


def all_paths(mars: MarsMap) -> list[frozenset[tuple[int, int]]]:
    """Every legal pod-to-transmitter path, as its set of cells (plain recursion)."""
    paths: list[frozenset[tuple[int, int]]] = []

    def walk(x: int, y: int, cells: list[tuple[int, int]]) -> None:
        if (x, y) == (mars.width, mars.height):
            paths.append(frozenset(cells))
            return
        for nx, ny in ((x + 1, y), (x, y + 1)):
            if nx <= mars.width and ny <= mars.height and mars.at(nx, ny) != ROUGH:
                walk(nx, ny, [*cells, (nx, ny)])

    walk(1, 1, [(1, 1)])
    return paths


def brute_force_best(mars: MarsMap) -> int:
    """The statement's best score by trying every combination of paths for the vehicles."""
    paths = all_paths(mars)
    if not paths:
        return -mars.vehicles
    rock_sets = {frozenset(c for c in p if mars.at(*c) == ROCK) for p in paths}
    best_rocks = 0
    for combo in itertools.combinations_with_replacement(rock_sets, mars.vehicles):
        best_rocks = max(best_rocks, len(frozenset().union(*combo)))
    return mars.vehicles + best_rocks


def reaches(mars: MarsMap, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """True when a vehicle on cell ``a`` can drive to cell ``b`` (plain search)."""
    if a == b:
        return True
    x, y = a
    return any(
        nx <= mars.width
        and ny <= mars.height
        and mars.at(nx, ny) != ROUGH
        and nx <= b[0]
        and ny <= b[1]
        and reaches(mars, (nx, ny), b)
        for nx, ny in ((x + 1, y), (x, y + 1))
    )


def map_strategy(max_side: int = 6, max_vehicles: int = 999) -> st.SearchStrategy[MarsMap]:
    """Hypothesis maps: any terrain, the pod and transmitter kept off rough terrain."""

    @st.composite
    def build(draw: st.DrawFn) -> MarsMap:
        width = draw(st.integers(1, max_side))
        height = draw(st.integers(1, max_side))
        cells = st.sampled_from([CLEAR, CLEAR, ROUGH, ROCK])
        rows = [draw(st.lists(cells, min_size=width, max_size=width)) for _ in range(height)]
        rows[0][0] = draw(st.sampled_from([CLEAR, ROCK]))
        rows[-1][-1] = draw(st.sampled_from([CLEAR, ROCK]))
        return MarsMap.from_rows(draw(st.integers(1, max_vehicles)), rows)

    return build()
