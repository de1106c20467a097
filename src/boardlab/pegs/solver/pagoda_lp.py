"""Solver layer: impossibility proofs by pagoda functions found with integer programming.

A pagoda function gives each hole an integer weight with ``w(from) + w(over) >= w(to)``
for every jump, so the weighted sum of the pegs never grows. A game from a start to a
goal ``k`` jumps away or more passes through a position exactly ``k`` jumps before the
goal (a *target*: the goal with ``k`` jumps undone); when the start's sum is below
every target's, no game reaches the goal. :func:`find_pagoda` looks for such integer
weights (within ``-bound..bound``, SciPy's HiGHS solver), and :func:`prove_by_pagoda`
splits on the first jumps when one function is not enough: the start is out when
each of its children is (a position with no jump, not the goal, is out at once).
:func:`check_pagoda_tree` re-checks a proof with nothing but sums and the jump table.

>>> from boardlab.pegs.boards import named_board
>>> diamond = named_board("diamond")
>>> start = diamond.grid.full & ~(1 << diamond.index(diamond.parse_hole("D5")))
>>> proof = prove_by_pagoda(diamond, start, 1 << diamond.index(diamond.parse_hole("F5")))
>>> proof is not None and check_pagoda_tree(diamond, proof) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.grid import indices_of
from boardlab.pegs.boards import Board

__all__ = [
    "PagodaTree",
    "check_pagoda_tree",
    "find_pagoda",
    "goal_targets",
    "prove_by_pagoda",
]

#: The weights are searched in ``-BOUND..BOUND``.
BOUND = 6
#: Targets this many jumps before the goal (more targets, stronger functions).
DEPTH = 2
#: First jumps split on, at most, before giving up.
SPLITS = 2
#: The linear program's excess below which it proves nothing.
_TOLERANCE = 1e-9
#: Split nodes, at most, in one proof.
MAX_NODES = 400


@dataclass(frozen=True)
class PagodaTree:
    """A proof that ``goal`` cannot be reached from ``start``: ``leaves`` maps positions
    to the pagoda weights that separate each from the targets ``depth`` jumps before the
    goal; ``splits`` are positions proven by all their children (the start, unless a
    leaf; a position with no jump is a split with no children)."""

    start: int
    goal: int
    depth: int
    leaves: dict[int, tuple[int, ...]]
    splits: frozenset[int]

    @property
    def first_jumps(self) -> int:
        """How many first jumps deep the proof splits (0: one function for the start)."""
        ends = [*self.leaves, *(p for p in self.splits if p != self.start)]
        return max((_pegs(self.start) - _pegs(p) for p in ends), default=0)


def _pegs(bits: int) -> int:
    return bits.bit_count()


def _children(board: Board, bits: int) -> list[int]:
    return [
        bits ^ (1 << a) ^ (1 << b) ^ (1 << c)
        for a, b, c in board.grid.jumps
        if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
    ]


def goal_targets(board: Board, goal: int, depth: int) -> tuple[int, ...]:
    """Every position exactly ``depth`` jumps before ``goal`` (its jumps undone), sorted."""
    level = {goal}
    for _ in range(depth):
        level = {
            bits ^ (1 << a) ^ (1 << b) ^ (1 << c)
            for bits in level
            for a, b, c in board.grid.jumps
            if bits >> c & 1 and not bits >> a & 1 and not bits >> b & 1
        }
    return tuple(sorted(level))


def _sum(weights: tuple[int, ...], bits: int) -> int:
    return sum(weights[i] for i in indices_of(bits))


def find_pagoda(
    board: Board, start: int, targets: tuple[int, ...], bound: int = BOUND
) -> tuple[tuple[int, ...], int] | None:
    """Integer pagoda weights in ``-bound..bound`` whose least sum over ``targets``
    exceeds the sum over ``start`` by the most, and that excess (None when no real
    weights give a positive excess: a linear program decides that first)."""
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, linprog, milp

    if not targets:
        return None
    n = board.size
    jumps = board.grid.jumps
    # variables: the n weights, then t (the least target sum); maximise t - sum(start)
    rows = np.zeros((len(jumps) + len(targets), n + 1))
    for k, (a, b, c) in enumerate(jumps):
        rows[k, a] += 1
        rows[k, b] += 1
        rows[k, c] -= 1
    for k, target in enumerate(targets, len(jumps)):
        for i in indices_of(target):
            rows[k, i] += 1
        rows[k, n] = -1
    cost = np.zeros(n + 1)
    for i in indices_of(start):
        cost[i] = 1.0
    cost[n] = -1.0
    span = bound * n
    box = [(-bound, bound)] * n + [(-span, span)]
    relaxed = linprog(cost, A_ub=-rows, b_ub=np.zeros(len(rows)), bounds=box, method="highs")
    if relaxed.status != 0 or -relaxed.fun <= _TOLERANCE:
        return None
    result = milp(
        cost,
        constraints=[LinearConstraint(rows, 0, np.inf)],
        integrality=np.ones(n + 1),
        bounds=Bounds([lo for lo, _ in box], [hi for _, hi in box]),
        options={"time_limit": 20.0},
    )
    if result.x is None:  # pragma: no cover - all-zero weights are always feasible
        return None
    weights = tuple(round(float(x)) for x in result.x[:n])
    margin = min(_sum(weights, t) for t in targets) - _sum(weights, start)
    return (weights, margin) if margin > 0 else None


def prove_by_pagoda(
    board: Board,
    start: int,
    goal: int,
    *,
    depth: int = DEPTH,
    splits: int = SPLITS,
    max_nodes: int = MAX_NODES,
) -> PagodaTree | None:
    """A proof that no game goes from ``start`` to ``goal``, splitting on at most
    ``splits`` first jumps, or None when none is found (which proves nothing)."""
    targets = goal_targets(board, goal, depth)
    leaves: dict[int, tuple[int, ...]] = {}
    split: set[int] = set()
    failed: set[int] = set()
    nodes = 0

    def out(bits: int, left: int) -> bool:
        nonlocal nodes
        if bits in leaves or bits in split:
            return True
        if bits in failed or bits == goal or nodes >= max_nodes:
            return False
        nodes += 1
        children = _children(board, bits)
        if not children:
            split.add(bits)
            return True
        if _pegs(bits) >= _pegs(goal) + depth:
            found = find_pagoda(board, bits, targets)
            if found is not None:
                leaves[bits] = found[0]
                return True
        if left > 0 and all(out(child, left - 1) for child in children):
            split.add(bits)
            return True
        failed.add(bits)
        return False

    if _pegs(start) <= _pegs(goal) or not out(start, splits):
        return None
    kept = _reachable(board, start, leaves, split)
    return PagodaTree(
        start, goal, depth, {p: w for p, w in leaves.items() if p in kept}, frozenset(split & kept)
    )


def _reachable(
    board: Board, start: int, leaves: dict[int, tuple[int, ...]], split: set[int]
) -> set[int]:
    """The positions of the proof under ``start`` (leaves stop the walk)."""
    seen = {start}
    todo = [start]
    while todo:
        bits = todo.pop()
        if bits in leaves:
            continue
        for child in _children(board, bits):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def check_pagoda_tree(board: Board, proof: PagodaTree) -> str | None:
    """Why ``proof`` does not show that ``goal`` is out of reach from ``start``, or None
    when it does. Checked plainly: each leaf's weights keep every jump from raising the
    sum and put the leaf below every position ``depth`` jumps before the goal (and the
    leaf has at least ``depth`` more pegs than the goal); each split position is not the
    goal and every one of its children is a leaf or a split position."""
    targets = goal_targets(board, proof.goal, proof.depth)
    pending = [proof.start]
    seen: set[int] = set()
    while pending:
        bits = pending.pop()
        if bits in seen:
            continue
        seen.add(bits)
        if bits == proof.goal:
            return "the goal itself is in the proof"
        weights = proof.leaves.get(bits)
        if weights is not None:
            why = _check_leaf(board, weights, bits, proof, targets)
            if why is not None:
                return why
            continue
        if bits not in proof.splits:
            return "a position of the proof is neither separated nor split"
        pending.extend(_children(board, bits))
    return None


def _check_leaf(
    board: Board, weights: tuple[int, ...], bits: int, proof: PagodaTree, targets: tuple[int, ...]
) -> str | None:
    if len(weights) != board.size:
        return f"{len(weights)} weights for {board.size} holes"
    for a, b, c in board.grid.jumps:
        if weights[a] + weights[b] < weights[c]:
            name, cells = board.hole_name, board.cells
            return (
                f"not a pagoda function: the jump {name(cells[a])}-{name(cells[c])} raises "
                f"the sum ({weights[a]} + {weights[b]} < {weights[c]})"
            )
    if _pegs(bits) < _pegs(proof.goal) + proof.depth:
        return "a separated position has too few pegs for the targets"
    own = _sum(weights, bits)
    for target in targets:
        if _sum(weights, target) <= own:
            return f"a target's sum {_sum(weights, target)} is not above the position's {own}"
    return None
