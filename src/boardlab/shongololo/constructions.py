"""Solver layer: periodic constructions of long spines for large fruits.

The densest pattern known to boardlab: the spine runs in straight *rows* along one
axis; in the cross-section the rows sit on a perfect code of the square grid, the
cells ``(u, v)`` with ``(u + 2v) % 5 == 0``, so every other cross-section cell touches
exactly one row. Those cells hold leaves on every other block along the row axis (the
parity of ``x + u + v`` decides which), so a row with its four leaf lines eats
``1 + 4/2 = 3`` blocks per unit length out of 5: 60 % of the fruit, which is the
bound's ``6N/10`` term. For a flat cross-section (one side 1) the code of the line,
``v % 3 == 0``, gives the 2-D comb of density 2/3. The ``tuned`` pattern takes the best
rows of :mod:`~boardlab.shongololo.patterns`: exact for thin cross-sections (two
layers: the perfect code of the ladder, 5/8 of the fruit), annealed at the border of
wide ones.

Rows are chained into one path at the two end faces: from the end of the current row a
breadth-first search in the end face finds short connectors to unvisited rows, and
the next row is picked Warnsdorff-style (fewest unvisited rows near it first, ties
broken by the seeded RNG). A connector block may touch no spine block but its two
neighbours on the path, so the chain is always an induced path; rows it cannot reach
are dropped. The leaves are chosen afterwards, exactly, by
:func:`boardlab.shongololo.leaves.best_leaves`.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations

import numpy as np
import numpy.typing as npt

from boardlab.shongololo.blocks import Box
from boardlab.shongololo.patterns import STRIP_LIMIT, best_rows

__all__ = ["Layout", "build_spine", "layouts", "pattern_rows"]

Pos = tuple[int, int]
#: Cross-sections this thin (in blocks) also get the three-wide strip layouts.
STRIP_SIDE = 2
_PLANE = ((1, 0), (-1, 0), (0, 1), (0, -1))


@dataclass(frozen=True, slots=True)
class Layout:
    """Which fruit axis the rows follow (``axes[0]``), the cross-section axes, the pattern.

    ``sweep`` picks the order in which rows are chained: 0 is Warnsdorff's rule (fewest
    onward connections first, ties broken by the RNG); ``k > 0`` sweeps bands ``k``
    cells wide across the first cross-section axis, ``k < 0`` across the second, back
    and forth like a plough, falling back to Warnsdorff's rule when the next row of the
    sweep cannot be reached.
    """

    axes: tuple[int, int, int]
    pattern: str
    sweep: int = 0

    def __str__(self) -> str:
        along, first, second = ("LWH"[axis] for axis in self.axes)
        order = f", sweep {self.sweep}" if self.sweep else ""
        return f"{self.pattern} rows along {along}, cross-section {first}{second}{order}"


def pattern_rows(pattern: str, n1: int, n2: int) -> list[Pos]:
    """The cross-section cells holding rows, for an ``n1 x n2`` cross-section.

    ``plane5``: ``(u + 2v) % 5 == 0``; ``strip3``: ``v % 3 == 0`` on the line ``u == 0``
    (for ``n1 == 1``); ``double3``: ``v % 3 == 0`` for ``u == 0`` and ``v % 3 == 2`` for
    ``u == 2`` ... (rows every three cells on alternate lines); ``tuned``: the best rows
    of :func:`boardlab.shongololo.patterns.best_rows`.
    """
    if pattern == "plane5":
        return [(u, v) for u in range(n1) for v in range(n2) if (u + 2 * v) % 5 == 0]
    if pattern == "strip3":
        return [(u, v) for u in range(n1) for v in range(n2) if u % 2 == 0 and v % 3 == 0]
    if pattern == "stagger3":
        return [
            (u, v) for u in range(n1) for v in range(n2) if u % 2 == 0 and (v + u // 2) % 3 == 0
        ]
    if pattern == "tuned":
        return list(best_rows(n1, n2))
    raise ValueError(f"unknown pattern {pattern!r}")


def layouts(box: Box) -> list[Layout]:
    """Every layout worth trying for ``box``: each axis order, each fitting pattern."""
    found: list[Layout] = []
    for a, b, c in permutations(range(3)):
        axes = (a, b, c)
        n1, n2 = box.sides[axes[1]], box.sides[axes[2]]
        # the tuned rows win on thin cross-sections; on wide ones they gain little at
        # the border and chain less reliably, so the plain code goes first there
        if min(n1, n2) <= STRIP_LIMIT:
            found.append(Layout(axes, "tuned"))
            found.append(Layout(axes, "plane5"))
        else:
            found.append(Layout(axes, "plane5"))
            found.append(Layout(axes, "tuned"))
        if n1 <= STRIP_SIDE or n2 <= STRIP_SIDE:
            found.append(Layout(axes, "strip3"))
            found.append(Layout(axes, "stagger3"))
    return found


def build_spine(box: Box, layout: Layout, rng: random.Random) -> list[int]:
    """An induced path from ``1 1 1`` chaining the layout's rows (cell numbers)."""
    axes = layout.axes
    n0, n1, n2 = (box.sides[a] for a in axes)
    rows = pattern_rows(layout.pattern, n1, n2)
    occ = np.zeros((n0, n1, n2), np.bool_)
    if (0, 0) not in rows:
        rows = [(0, 0), *rows]
    for u, v in rows:
        occ[:, u, v] = True
    unvisited = set(rows)
    unvisited.discard((0, 0))
    path: list[tuple[int, int, int]] = [(x, 0, 0) for x in range(n0)]
    face = n0 - 1
    current: Pos = (0, 0)
    planned = _sweep_order(rows, layout.sweep) if layout.sweep else []
    next_planned = 0
    while unvisited:
        options = _routes(occ, face, current, unvisited)
        if not options:
            break
        while next_planned < len(planned) and planned[next_planned] not in unvisited:
            next_planned += 1
        wanted = planned[next_planned] if next_planned < len(planned) else None
        direct = [option for option in options if option[0] == wanted]
        if direct:
            target, connector = direct[0]
        else:
            target, connector = _choose(occ, face, options, unvisited, rng)
        for u, v in connector:
            occ[face, u, v] = True
            path.append((face, u, v))
        unvisited.discard(target)
        xs: Sequence[int] = range(n0) if face == 0 else range(n0 - 1, -1, -1)
        path.extend((x, target[0], target[1]) for x in xs)
        face = n0 - 1 - face
        current = target
    for u, v in unvisited:
        occ[:, u, v] = False
    return [_real_index(box, axes, cell) for cell in path]


def _sweep_order(rows: list[Pos], sweep: int) -> list[Pos]:
    """The rows band by band (``|sweep|`` wide), each band walked the other way."""
    width = abs(sweep)

    def key(cell: Pos) -> tuple[int, int, int]:
        across, along = cell if sweep > 0 else (cell[1], cell[0])
        band = across // width
        return (band, along if band % 2 == 0 else -along, across)

    return sorted(rows, key=key)


def _real_index(box: Box, axes: tuple[int, int, int], cell: tuple[int, int, int]) -> int:
    coords = [0, 0, 0]
    for k in range(3):
        coords[axes[k]] = cell[k]
    x, y, z = coords
    return x + box.length * (y + box.width * z)


def _choose(
    occ: npt.NDArray[np.bool_],
    face: int,
    options: list[tuple[Pos, list[Pos]]],
    unvisited: set[Pos],
    rng: random.Random,
) -> tuple[Pos, list[Pos]]:
    """Warnsdorff: the target with the fewest onward routes (from its other end face)."""
    other = occ.shape[0] - 1 - face
    keyed = []
    for target, connector in options:
        for u, v in connector:
            occ[face, u, v] = True
        unvisited.discard(target)
        onward = len(_routes(occ, other, target, unvisited))
        unvisited.add(target)
        for u, v in connector:
            occ[face, u, v] = False
        keyed.append((onward == 0, onward, len(connector), rng.random(), target, connector))
    keyed.sort()
    return keyed[0][4], keyed[0][5]


def _routes(
    occ: npt.NDArray[np.bool_], face: int, start: Pos, unvisited: set[Pos], limit: int = 6
) -> list[tuple[Pos, list[Pos]]]:
    """Shortest connectors in the end face from ``start`` to unvisited rows."""
    n0, n1, n2 = occ.shape

    def classify(u: int, v: int) -> tuple[bool, Pos | None]:
        target: Pos | None = None
        for du, dv in _PLANE:
            a, b = u + du, v + dv
            if 0 <= a < n1 and 0 <= b < n2 and occ[face, a, b]:
                if (a, b) == start:
                    continue
                if (a, b) in unvisited and target is None:
                    target = (a, b)
                    continue
                return False, None
        for x in (face - 1, face + 1):
            if 0 <= x < n0 and occ[x, u, v]:
                return False, None
        return True, target

    parent: dict[Pos, Pos | None] = {}
    queue: deque[tuple[Pos, int]] = deque()
    found: dict[Pos, list[Pos]] = {}
    for du, dv in _PLANE:
        q = (start[0] + du, start[1] + dv)
        if 0 <= q[0] < n1 and 0 <= q[1] < n2 and not occ[face, q[0], q[1]]:
            parent[q] = None
            queue.append((q, 1))
    while queue:
        q, depth = queue.popleft()
        ok, target = classify(*q)
        if not ok:
            continue
        if target is not None:
            if target not in found:
                chain = [q]
                back = parent[q]
                while back is not None:
                    chain.append(back)
                    back = parent[back]
                found[target] = chain[::-1]
            continue
        if depth >= limit:
            continue
        for du, dv in _PLANE:
            r = (q[0] + du, q[1] + dv)
            if 0 <= r[0] < n1 and 0 <= r[1] < n2 and r not in parent and not occ[face, r[0], r[1]]:
                parent[r] = q
                queue.append((r, depth + 1))
    return list(found.items())
