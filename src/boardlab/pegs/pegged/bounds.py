"""Solver layer: proven lower bounds on the walks of a PEGGED solution.

**Position classes.** Write GF(4) = {0, 1, w, w^2} (addition is xor, 1 + w + w^2 = 0)
and give the peg on hole (r, c) the pair ``e(r, c) = (w^((r+c) mod 3), w^((r-c) mod 3))``.
The *class* of a position is the sum of ``e`` over its pegs, one of 16 values. Three
holes in a row or a column carry three consecutive powers of w in each coordinate,
whose sum is 0, so a jump (two pegs out, one in, on such a line) never changes the
class. A walk from ``u`` to a neighbour ``v`` adds ``e(u) + e(v)``, which is never 0.
One peg on hole (r, c) has class ``e(r, c)``. So the walks of any solution are at least
the fewest generators ``e(u) + e(v)`` (over the board's steps) whose sum carries the
start class to the class of some hole: a breadth-first search over 16 classes.

**Trapped pegs.** A hole that no jump starts from or passes over is *trapped*: a peg
there can only leave by a walk to a neighbour, and it must leave unless it is the
last peg. So every trapped peg but at most one adds a walk whose class change is one
of its own steps' generators; a dynamic programme over the 16 classes takes the
cheapest combination, then the class distance of what remains.

**Contact (a pagoda argument).** Every peg must at some time have another peg next
to it (it is jumped, or it jumps; the last peg too, as the others cannot all vanish
among themselves). Fix a peg ``x`` and the hole ``T`` where that first contact
happens. With ``s = (sqrt(5) - 1) / 2`` (so ``s + s^2 = 1``), the weight
``s^d(y, T)`` (``d`` the Manhattan distance) is a pagoda function: a jump never raises
the sum over the other pegs, and a walk raises it by at most ``s^2``. Contact needs the
sum to reach ``s``, and ``x`` needs at least ``d(x, T)`` walks to get to ``T``. So the
walks are at least ``min over T of d(x, T) + ceil((s - S_x(T)) / s^2)``, with
``S_x(T)`` the start sum over the other pegs; the bound is the largest over ``x``.

**No jump at the start.** With two pegs or more and no legal jump, the first move is
a walk.

>>> from boardlab.pegs.boards import board_from_rows
>>> from boardlab.pegs.rules import Position
>>> board = board_from_rows("row", [(0, c) for c in range(5)], 1, 5)
>>> walk_lower_bound(Position(board, 0b00011)), walk_lower_bound(Position(board, 0b00101))
(0, 1)
"""

from __future__ import annotations

from collections import deque

from boardlab.pegs.rules import Position

__all__ = [
    "class_distances",
    "class_element",
    "class_of",
    "class_walk_bound",
    "contact_walk_bound",
    "trapped_walk_bound",
    "walk_bound_and_reason",
    "walk_lower_bound",
]

_POWER = (1, 2, 3)  # 1, w, w^2 as 2-bit GF(4) elements (addition is xor)


def class_element(row: int, col: int) -> int:
    return _POWER[(row + col) % 3] << 2 | _POWER[(row - col) % 3]


def class_of(position: Position) -> int:
    """The position class (0..15) of the pegs: a jump never changes it."""
    value = 0
    for cell in position.pegs:
        value ^= class_element(cell.row, cell.col)
    return value


def class_walk_bound(position: Position) -> int:
    """The fewest walks that can carry the position's class to a one-peg class.

    Returns a large number (the board's size + 1) when no one-peg class is reachable.
    """
    board = position.board
    cells = board.grid.cells
    targets = {class_element(r, c) for r, c in cells}
    moves = {class_element(*cells[u]) ^ class_element(*cells[v]) for u, v in board.grid.steps}
    start = class_of(position)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        value = queue.popleft()
        if value in targets:
            return seen[value]
        for move in moves:
            nxt = value ^ move
            if nxt not in seen:
                seen[nxt] = seen[value] + 1
                queue.append(nxt)
    return board.size + 1


def class_distances(position: Position) -> list[int]:
    board = position.board
    cells = board.grid.cells
    moves = {class_element(*cells[u]) ^ class_element(*cells[v]) for u, v in board.grid.steps}
    far = board.size + 1
    distance = [far] * 16
    queue: deque[int] = deque()
    for r, c in cells:
        value = class_element(r, c)
        if distance[value]:
            distance[value] = 0
            queue.append(value)
    while queue:
        value = queue.popleft()
        for move in moves:
            if distance[value ^ move] > distance[value] + 1:
                distance[value ^ move] = distance[value] + 1
                queue.append(value ^ move)
    return distance


def trapped_walk_bound(position: Position) -> int:
    """The class bound strengthened by the walks that trapped pegs must make."""
    board = position.board
    grid = board.grid
    cells = grid.cells
    moving = {a for a, _, _ in grid.jumps} | {b for _, b, _ in grid.jumps}
    trapped = [i for i in range(board.size) if position.bits >> i & 1 and i not in moving]
    distance = class_distances(position)
    far = board.size + 1
    # cost[skipped][class]: fewest walks so far, with the last-peg exemption used or not
    cost = [[far] * 16 for _ in range(2)]
    cost[0][class_of(position)] = 0
    for hole in trapped:
        options = {
            class_element(*cells[hole]) ^ class_element(*cells[other])
            for other in grid.neighbours[hole]
            if other >= 0
        }
        nxt = [[far] * 16 for _ in range(2)]
        for used in range(2):
            for value in range(16):
                here = cost[used][value]
                if here >= far:
                    continue
                for option in options:
                    slot = value ^ option
                    nxt[used][slot] = min(nxt[used][slot], here + 1)
                if used == 0:
                    nxt[1][value] = min(nxt[1][value], here)
        cost = nxt
    return min(cost[used][value] + distance[value] for used in range(2) for value in range(16))


_SIGMA = (5**0.5 - 1) / 2


def contact_walk_bound(position: Position) -> int:
    """The pagoda contact bound: the most walks any one peg's first contact needs."""
    import math

    import numpy as np

    if position.peg_count <= 1:
        return 0
    cells = position.board.grid.cells
    rows = np.array([r for r, _ in cells], dtype=np.int64)
    cols = np.array([c for _, c in cells], dtype=np.int64)
    pegs = [i for i in range(len(cells)) if position.bits >> i & 1]
    distance = np.abs(rows[:, None] - rows[None, pegs]) + np.abs(cols[:, None] - cols[None, pegs])
    weight = _SIGMA ** distance.astype(np.float64)
    total = weight.sum(axis=1)
    best = 0
    for k in range(len(pegs)):
        others = total - weight[:, k]
        need = np.ceil((_SIGMA - others) / _SIGMA**2 - 1e-9)
        need = np.maximum(need, 0.0)
        here = float(np.min(distance[:, k] + need))
        best = max(best, math.floor(here + 1e-9))
    return best


def walk_lower_bound(position: Position) -> int:
    """A proven lower bound on the walks of any solution (0 for one peg or none)."""
    return walk_bound_and_reason(position)[0]


def walk_bound_and_reason(position: Position) -> tuple[int, str]:
    """The walk lower bound and the name of the argument that gives it."""
    if position.peg_count <= 1:
        return 0, "one peg"
    classes = class_walk_bound(position)
    trapped = trapped_walk_bound(position)
    contact = contact_walk_bound(position)
    if contact > max(classes, trapped):
        return contact, "pagoda contact bound"
    if trapped > classes:
        return trapped, "trapped pegs and position classes"
    if classes > 0:
        return classes, "position classes"
    if not position.legal_jumps():
        return 1, "no jump at the start"
    return 0, "jumps are pegs - 1"
