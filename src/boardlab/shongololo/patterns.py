"""Solver layer: the densest cross-sections of rows (exact for thin ones, annealed otherwise).

A construction runs the spine in straight rows along one axis of the fruit; which
cross-section cells ``(u, v)`` hold rows decides almost everything. Rows may not share
a face (the spine is an induced path). A cross-section cell touching exactly one row
is a *leaf line*: along the row axis every other block of it can be a leaf (adjacent
leaf lines take opposite parities), so a row is worth about ``n0`` blocks and a leaf
line about ``n0 / 2``. The *score* of a set of rows is ``2 * rows + leaf lines``
(twice the blocks per unit of length), and this module maximises it:

- :func:`strip_optimum`: exactly, by dynamic programming over the columns of a thin
  cross-section (a state is the rows of two consecutive columns). For two layers it
  finds the perfect code of the ladder, rows at ``(0, 0), (1, 2), (0, 4), (1, 6) ...``,
  in which every other cell is a leaf line: 5/8 of the fruit.
- :func:`anneal`: for wide cross-sections, simulated annealing from the best shift of
  the perfect code ``(u + 2v) % 5 == 0`` of the square grid; it gains at the border,
  where cells have fewer neighbours.

Cell ``(0, 0)`` always holds a row, since the spine starts in the corner.

>>> strip_optimum(2, 8)
[(0, 0), (0, 3), (0, 7), (1, 1), (1, 5)]
>>> score(2, 8, strip_optimum(2, 8)), reference_optimum(2, 8)
(19, 19)
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "STRIP_LIMIT",
    "anneal",
    "best_rows",
    "code_rows",
    "reference_optimum",
    "score",
    "strip_optimum",
]

Pos = tuple[int, int]

#: Cross-sections with at most this many cells on their short side are solved exactly.
STRIP_LIMIT = 4
#: Annealing steps on one cross-section (about 0.25 s in pure Python).
ANNEAL_STEPS = 30_000
#: ... but at most this many steps per cross-section cell.
STEPS_PER_CELL = 300
#: Cross-sections of at most this many cells are annealed from three seeds.
SMALL_SECTION = 256


def _neighbours(n1: int, n2: int, u: int, v: int) -> Iterable[Pos]:
    for a, b in ((u - 1, v), (u + 1, v), (u, v - 1), (u, v + 1)):
        if 0 <= a < n1 and 0 <= b < n2:
            yield a, b


def score(n1: int, n2: int, rows: Iterable[Pos]) -> int:
    """``2 * rows + leaf lines`` of a row set (which must not hold two touching cells).

    :raises ValueError: when two rows share a face or a row lies outside.
    """
    chosen = set(rows)
    total = 0
    for u, v in chosen:
        if not (0 <= u < n1 and 0 <= v < n2):
            raise ValueError(f"row {(u, v)} outside the {n1}x{n2} cross-section")
        if any(o in chosen for o in _neighbours(n1, n2, u, v)):
            raise ValueError(f"row {(u, v)} touches another row")
        total += 2
    for u in range(n1):
        for v in range(n2):
            if (u, v) not in chosen:
                total += sum(o in chosen for o in _neighbours(n1, n2, u, v)) == 1
    return total


def reference_optimum(n1: int, n2: int) -> int:
    """Pure-Python twin of :func:`strip_optimum` by brute force (tiny cross-sections)."""
    cells = [(u, v) for u in range(n1) for v in range(n2)]
    best = -1
    for mask in range(1 << len(cells)):
        if not mask & 1:
            continue
        rows = [cells[i] for i in range(len(cells)) if mask >> i & 1]
        taken = set(rows)
        if any(o in taken for u, v in rows for o in _neighbours(n1, n2, u, v)):
            continue
        best = max(best, score(n1, n2, rows))
    return best


def _column_gain(n1: int, before: int, here: int, after: int) -> int:
    """Score of one column ``here`` (row bitmask) between its two neighbour columns."""
    gain = 2 * bin(here).count("1")
    for u in range(n1):
        if here >> u & 1:
            continue
        touching = (before >> u & 1) + (after >> u & 1)
        touching += (here >> (u - 1) & 1) if u else 0
        touching += here >> (u + 1) & 1
        gain += touching == 1
    return gain


@lru_cache(maxsize=64)
def strip_optimum(n1: int, n2: int) -> list[Pos]:
    """The best rows of an ``n1 x n2`` cross-section, exactly (dynamic programming).

    A state is the row bitmasks ``(a, b)`` of columns ``v - 1`` and ``v``; moving to
    ``(b, c)`` counts column ``v`` completely. The cost grows as ``8 ** n1``: use it for
    ``n1 <= STRIP_LIMIT``.
    """
    masks = [m for m in range(1 << n1) if not m & (m >> 1)]
    # value[(a, b)]: the score of columns 0 .. v-1 with column v-1 = a and column v = b
    value = {(0, b): 0 for b in masks if b & 1}
    parents: list[dict[tuple[int, int], tuple[int, int]]] = []
    for _v in range(1, n2):
        new_value: dict[tuple[int, int], int] = {}
        parent: dict[tuple[int, int], tuple[int, int]] = {}
        for (a, b), total in sorted(value.items()):
            for c in masks:
                if b & c:
                    continue
                candidate = total + _column_gain(n1, a, b, c)
                if candidate > new_value.get((b, c), -1):
                    new_value[(b, c)] = candidate
                    parent[(b, c)] = (a, b)
        value = new_value
        parents.append(parent)
    key = max(sorted(value), key=lambda k: value[k] + _column_gain(n1, k[0], k[1], 0))
    columns = [key[1]]
    for parent in reversed(parents):
        key = parent[key]
        columns.append(key[1])
    columns.reverse()
    return sorted((u, v) for v, m in enumerate(columns) for u in range(n1) if m >> u & 1)


def code_rows(n1: int, n2: int, a: int, b: int, shift: int) -> list[Pos]:
    """The perfect code ``(a*u + b*v + shift) % 5 == 0`` of the square grid."""
    return [(u, v) for u in range(n1) for v in range(n2) if (a * u + b * v + shift) % 5 == 0]


def anneal(n1: int, n2: int, start: Iterable[Pos], seed: int, steps: int) -> list[Pos]:
    """Simulated annealing on the rows: add a row (dropping the rows it touches) or remove one.

    Deterministic for a seed; returns the best row set met (it always holds ``(0, 0)``).
    """
    rng = random.Random(seed)
    size = n1 * n2
    near: list[list[int]] = [
        [a * n2 + b for a, b in _neighbours(n1, n2, c // n2, c % n2)] for c in range(size)
    ]
    row = [False] * size
    touch = [0] * size
    for u, v in start:
        row[u * n2 + v] = True
    row[0] = True
    for c in range(size):
        touch[c] = sum(row[o] for o in near[c])

    def worth(c: int) -> int:
        if row[c]:
            return 2
        return 1 if touch[c] == 1 else 0

    def flip(c: int) -> None:
        row[c] = not row[c]
        delta = 1 if row[c] else -1
        for o in near[c]:
            touch[o] += delta

    current = sum(worth(c) for c in range(size))
    best, best_rows = current, row[:]
    temperature = 0.6
    cooling = math.exp(math.log(0.02 / temperature) / max(1, steps))
    for _ in range(steps):
        c = rng.randrange(1, size) if size > 1 else 0
        if c == 0:
            continue
        if row[c]:
            changed = [c]
        else:
            if any(o == 0 for o in near[c]):
                continue
            changed = [c, *(o for o in near[c] if row[o])]
        region = set(changed)
        for o in changed:
            region.update(near[o])
        before = sum(worth(o) for o in region)
        for o in changed:
            flip(o)
        delta = sum(worth(o) for o in region) - before
        if delta >= 0 or rng.random() < math.exp(delta / temperature):
            current += delta
            if current > best:
                best, best_rows = current, row[:]
        else:
            for o in reversed(changed):
                flip(o)
        temperature *= cooling
    return [(c // n2, c % n2) for c in range(size) if best_rows[c]]


@lru_cache(maxsize=64)
def best_rows(n1: int, n2: int) -> tuple[Pos, ...]:
    """The best rows boardlab finds for an ``n1 x n2`` cross-section (deterministic)."""
    if min(n1, n2) <= STRIP_LIMIT:
        if n1 <= n2:
            return tuple(strip_optimum(n1, n2))
        return tuple(sorted((u, v) for v, u in strip_optimum(n2, n1)))
    starts = [
        code_rows(n1, n2, a, b, s) for a, b in ((1, 2), (2, 1), (1, 3), (3, 1)) for s in range(5)
    ]
    start = max(starts, key=lambda rows: score(n1, n2, [*rows, (0, 0)]) if _fits(rows) else -1)
    # small cross-sections are cheap: several seeds, the best rows kept
    seeds = 3 if n1 * n2 <= SMALL_SECTION else 1
    steps = min(ANNEAL_STEPS, STEPS_PER_CELL * n1 * n2)
    found = [anneal(n1, n2, start, seed=(n1 * 64 + n2) * 8 + k, steps=steps) for k in range(seeds)]
    return tuple(sorted(max(found, key=lambda rows: score(n1, n2, rows))))


def _fits(rows: list[Pos]) -> bool:
    """True when adding ``(0, 0)`` keeps the rows apart."""
    return (0, 1) not in rows and (1, 0) not in rows
