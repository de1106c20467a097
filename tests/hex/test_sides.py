"""The walk around a region's outer boundary (``hex/prover/sides.py``) against a plain
count: on random connected regions of small boards it meets every side of the region
that faces the outer face exactly once, names each side's outside cell by its label, and
refuses a region with a hole."""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardlab.hex.board import DIRECTIONS
from boardlab.hex.prover.sides import boundary_word, ring_index, ring_line, stretches


def random_region(n: int, cells: int, rng: random.Random) -> set[tuple[int, int]]:
    """A connected set of about ``cells`` board cells grown from a random one."""
    region = {(rng.randrange(n), rng.randrange(n))}
    while len(region) < cells:
        r, c = rng.choice(sorted(region))
        dr, dc = rng.choice(DIRECTIONS)
        if 0 <= r + dr < n and 0 <= c + dc < n:
            region.add((r + dr, c + dc))
    return region


def outer_face(n: int, region: set[tuple[int, int]]) -> set[tuple[int, int]]:
    """The ring-board cells outside ``region`` joined to the ring through cells outside it."""
    ring = [(r, c) for r in range(-1, n + 1) for c in range(-1, n + 1)]
    seen = {(r, c) for r, c in ring if not (0 <= r < n and 0 <= c < n)}
    todo = list(seen)
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS:
            cell = (r + dr, c + dc)
            if -1 <= cell[0] <= n and -1 <= cell[1] <= n and cell not in region | seen:
                seen.add(cell)
                todo.append(cell)
    return seen


@pytest.mark.parametrize("n", [3, 5, 7])
def test_the_walk_meets_each_outer_side_once_and_refuses_holes(n: int) -> None:
    rng = random.Random(n)
    holes = plain = 0
    for _ in range(300):
        region = random_region(n, rng.randint(1, n * n - 1), rng)
        inside = np.zeros((n + 2) ** 2, np.bool_)
        label = np.arange((n + 2) ** 2, dtype=np.int64)  # each outside cell its own label
        for r, c in region:
            inside[ring_index(n, r, c)] = True
        word, length = boundary_word(n, inside, label)
        face = outer_face(n, region)
        sides = [
            ring_index(n, r + dr, c + dc)
            for r, c in region
            for dr, dc in DIRECTIONS
            if (r + dr, c + dc) in face
        ]
        near = {(r + dr, c + dc) for r, c in region for dr, dc in DIRECTIONS} - region
        if near - face:
            assert length == -1
            holes += 1
            continue
        plain += 1
        assert length == len(sides)
        assert sorted(word[:length].tolist()) == sorted(sides)
    assert holes and plain


def test_runs_of_a_cyclic_word_merge_across_its_end() -> None:
    word = np.array([4, 4, 7, 7, 7, 9, 4], np.int64)
    runs, count = stretches(word, len(word))
    assert runs[:count].tolist() == [4, 7, 9]
    assert stretches(np.array([5, 5], np.int64), 2)[1] == 1


def test_the_ring_stands_for_the_four_edges() -> None:
    n = 4
    assert [ring_line(n, -1, 2), ring_line(n, n, 2), ring_line(n, 2, -1), ring_line(n, 2, n)] == [
        2,
        3,
        0,
        1,
    ]
    assert ring_line(n, 1, 1) == -1
