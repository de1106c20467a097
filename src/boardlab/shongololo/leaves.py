"""Solver layer: the best leaves for a fixed spine, and the plan (spine + leaves) as actions.

Every legal run eats an induced tree whose spine is the path of moves; every other
eaten block is a leaf touching exactly one spine block. Conversely, any induced path
from ``1 1 1`` plus leaves that touch exactly one spine block and no other leaf is a
legal run (see ``docs/shongololo.md``). For a fixed spine, the best leaves are a
maximum independent set of the candidates, which :func:`best_leaves` finds exactly.

>>> from boardlab.shongololo.blocks import Box
>>> box = Box(2, 3, 2)
>>> spine = [box.index(b) for b in (Block(1, 1, 1), Block(1, 2, 1), Block(1, 3, 1))]
>>> sorted(str(box.block(c)) for c in reference_leaves(box, spine))
['1 1 2', '1 3 2', '2 1 1', '2 3 1']
>>> len(plan_actions(Plan(box, tuple(spine), tuple(reference_leaves(box, spine)))))
10
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.shongololo.blocks import STEPS, Action, Block, Box

__all__ = [
    "Plan",
    "best_leaves",
    "check_spine",
    "neighbour_table",
    "parity_table",
    "plan_actions",
    "plan_of",
    "reference_leaves",
]


@dataclass(frozen=True, slots=True)
class Plan:
    """An eaten tree: the spine (cell numbers in move order) and the leaves."""

    box: Box
    spine: tuple[int, ...]
    leaves: tuple[int, ...]

    @property
    def eaten(self) -> int:
        """Blocks eaten when the plan is carried out."""
        return len(self.spine) + len(self.leaves)


def neighbour_table(box: Box) -> npt.NDArray[np.int64]:
    """``nbr[cell, k]``: the cell across face ``k`` (order of :data:`STEPS`) or -1."""
    table = np.full((box.volume, 6), -1, np.int64)
    for cell in range(box.volume):
        block = box.block(cell)
        for k, (dx, dy, dz) in enumerate(STEPS):
            other = Block(block.x + dx, block.y + dy, block.z + dz)
            if box.contains(other):
                table[cell, k] = box.index(other)
    return table


def parity_table(box: Box) -> npt.NDArray[np.int8]:
    """``(x + y + z) % 2`` of every cell: the two sides of the bipartite grid."""
    length, width, height = box.sides
    x, y, z = np.meshgrid(np.arange(length), np.arange(width), np.arange(height), indexing="ij")
    # cell numbers run x fastest, so flatten in Fortran order
    return ((x + y + z) % 2).astype(np.int8).flatten(order="F")


def check_spine(box: Box, spine: Sequence[int]) -> None:
    """Check that ``spine`` is an induced path of the grid starting at ``1 1 1``.

    :raises BoardlabError: naming the first fault.
    """
    if not spine or spine[0] != 0:
        raise BoardlabError("a spine starts at block 1 1 1")
    where = {cell: i for i, cell in enumerate(spine)}
    if len(where) != len(spine):
        raise BoardlabError("a spine visits a block twice")
    for i, cell in enumerate(spine):
        block = box.block(cell)
        for other in box.neighbours(block):
            j = where.get(box.index(other))
            if j is not None and abs(i - j) != 1:
                raise BoardlabError(f"spine blocks {block} and {other} touch out of order")
        if i and not block.touches(box.block(spine[i - 1])):
            raise BoardlabError(f"spine step to {block} is not to a face neighbour")


def reference_leaves(box: Box, spine: Sequence[int]) -> list[int]:
    """Pure-Python twin of the kernel: a maximum set of leaves for ``spine``."""
    on_spine = set(spine)
    nbrs = [[box.index(o) for o in box.neighbours(box.block(c))] for c in range(box.volume)]
    cand = {
        c
        for c in range(box.volume)
        if c not in on_spine and sum(o in on_spine for o in nbrs[c]) == 1
    }
    parity = parity_table(box)
    left = [c for c in sorted(cand) if parity[c] == 0]
    mate: dict[int, int] = {}

    def augment(c: int, seen: set[int]) -> bool:
        for o in nbrs[c]:
            if o in cand and o not in seen:
                seen.add(o)
                if o not in mate or augment(mate[o], seen):
                    mate[o] = c
                    mate[c] = o
                    return True
        return False

    for c in left:
        augment(c, set())
    reach: set[int] = set()
    todo = [c for c in left if c not in mate]
    reach.update(todo)
    while todo:
        c = todo.pop()
        for o in nbrs[c]:
            if o in cand and o not in reach and mate.get(c) != o:
                reach.add(o)
                w = mate.get(o)
                if w is not None and w not in reach:
                    reach.add(w)
                    todo.append(w)
    return sorted(c for c in cand if (parity[c] == 0) == (c in reach))


def best_leaves(
    box: Box, spine: Sequence[int], nbr: npt.NDArray[np.int64] | None = None
) -> list[int]:
    """A maximum set of leaves for ``spine`` (numba kernel)."""
    from boardlab.shongololo._kernel import leaves_kernel

    table = neighbour_table(box) if nbr is None else nbr
    flags = np.zeros(box.volume, np.int8)
    flags[np.asarray(spine, np.int64)] = 1
    leaves = leaves_kernel(table, parity_table(box), flags)
    return [int(c) for c in np.flatnonzero(leaves)]


def plan_of(box: Box, spine: Sequence[int], nbr: npt.NDArray[np.int64] | None = None) -> Plan:
    """The spine with its best leaves."""
    return Plan(box, tuple(spine), tuple(best_leaves(box, spine, nbr)))


def plan_actions(plan: Plan) -> list[Action]:
    """The run that eats ``plan``: at each spine block, its leaves, then the next spine block.

    :raises BoardlabError: when a leaf touches no spine block.
    """
    box = plan.box
    position = {cell: i for i, cell in enumerate(plan.spine)}
    hanging: list[list[int]] = [[] for _ in plan.spine]
    for leaf in plan.leaves:
        owners = [position[o] for o in _around(box, leaf) if o in position]
        if not owners:
            raise BoardlabError(f"leaf {box.block(leaf)} touches no spine block")
        hanging[owners[0]].append(leaf)
    actions = [Action("E", box.block(plan.spine[0])), Action("M", box.block(plan.spine[0]))]
    for i in range(len(plan.spine)):
        actions.extend(Action("E", box.block(leaf)) for leaf in hanging[i])
        if i + 1 < len(plan.spine):
            following = box.block(plan.spine[i + 1])
            actions.append(Action("E", following))
            actions.append(Action("M", following))
    return actions


def _around(box: Box, cell: int) -> list[int]:
    return [box.index(o) for o in box.neighbours(box.block(cell))]
