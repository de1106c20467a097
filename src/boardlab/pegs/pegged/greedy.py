"""Solver layer: the simple greedy PEGGED baseline (the benchmark's reference point).

Repeat until one peg is left: play the first legal jump in the board's jump-table
order; when there is none, walk the peg nearest (in walks through empty holes) to a
jumping position into it, along a shortest path. Pure Python, no search: it is the
strategy a first contest entry would try, and the fallback of the solver.

When no peg can walk into a jumping position (pegs block each other), it falls back
on the constructive proof that a board in one region with an empty hole and three
holes in a line can always be reduced (see ``docs/pegged.md``): identical pegs that
slide on a connected graph can be rearranged into any placement of the same count,
leaf by leaf of a spanning tree; it rearranges them so that two pegs and an empty
hole fill a line of three, then jumps.

>>> from boardlab.pegs.formats import parse_board_file
>>> start = parse_board_file("__OO_\\n__OO_\\nOOXOO\\nOOOOX\\n____X\\n")
>>> [str(move) for move in greedy_moves(start)]
['E5-C5', 'C3-C4', 'C5-C3']
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable

from boardlab.pegs.cells import Jump, Move, Walk
from boardlab.pegs.rules import Position

__all__ = ["greedy_moves"]


def greedy_moves(position: Position) -> list[Move] | None:
    """The greedy baseline's moves to one peg, or None when it gets stuck."""
    board = position.board
    grid = board.grid
    cells = board.cells
    cur = [position.bits >> i & 1 for i in range(board.size)]
    pegs = sum(cur)
    neighbours = grid.neighbours
    moves: list[Move] = []
    while pegs > 1:
        jump = next(((a, b, c) for a, b, c in grid.jumps if cur[a] and cur[b] and not cur[c]), None)
        if jump is not None:
            a, b, c = jump
            cur[a], cur[b], cur[c] = 0, 0, 1
            moves.append(Jump(cells[a], cells[c]))
            pegs -= 1
            continue
        path = _nearest_walk(cur, neighbours)
        if path is None:
            walks = _rearrange_for_a_jump(cur, neighbours, grid.jumps)
            if walks is None:
                return None
            for u, v in walks:
                moves.append(Walk(cells[u], cells[v]))
            continue
        for u, v in itertools.pairwise(path):
            moves.append(Walk(cells[u], cells[v]))
        cur[path[0]], cur[path[-1]] = 0, 1
    return moves


def _rearrange_for_a_jump(
    cur: list[int],
    neighbours: tuple[tuple[int, ...], ...],
    jumps: tuple[tuple[int, int, int], ...],
) -> list[tuple[int, int]] | None:
    """Walks (played on ``cur``) that put pegs on ``a``, ``b`` and none on ``c`` of a jump."""
    pegs = [i for i, has in enumerate(cur) if has]
    region = _bfs_order(pegs[0], neighbours, lambda _: True)
    inside = set(region)
    if any(i not in inside for i in pegs) or len(pegs) >= len(region):
        return None
    line = next(((a, b, c) for a, b, c in jumps if a in inside), None)
    if line is None:
        return None
    a, b, c = line
    target = {a, b}
    for i in pegs:
        if len(target) == len(pegs):
            break
        if i not in (a, b, c):
            target.add(i)
    for i in region:
        if len(target) == len(pegs):
            break
        if i != c:
            target.add(i)
    walks: list[tuple[int, int]] = []
    alive = [False] * len(cur)
    for i in region:
        alive[i] = True
    for leaf in reversed(region[1:]):
        want = leaf in target
        if want and not cur[leaf]:
            path = _nearest(leaf, neighbours, alive, lambda x: bool(cur[x]))
            for u, v in itertools.pairwise(path[::-1]):
                walks.append((u, v))
                cur[u], cur[v] = 0, 1
        elif not want and cur[leaf]:
            path = _nearest(leaf, neighbours, alive, lambda x: not cur[x])
            for k in range(len(path) - 1, 0, -1):
                walks.append((path[k - 1], path[k]))
                cur[path[k - 1]], cur[path[k]] = 0, 1
        alive[leaf] = False
    return walks


def _bfs_order(
    start: int, neighbours: tuple[tuple[int, ...], ...], allowed: Callable[[int], bool]
) -> list[int]:
    order = [start]
    seen = {start}
    for x in order:
        for y in neighbours[x]:
            if y >= 0 and y not in seen and allowed(y):
                seen.add(y)
                order.append(y)
    return order


def _nearest(
    start: int,
    neighbours: tuple[tuple[int, ...], ...],
    alive: list[bool],
    wanted: Callable[[int], bool],
) -> list[int]:
    """The path from ``start`` to the nearest other live hole with ``wanted`` true."""
    previous = {start: start}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        if x != start and wanted(x):
            path = [x]
            while path[-1] != start:
                path.append(previous[path[-1]])
            return path[::-1]
        for y in neighbours[x]:
            if y >= 0 and alive[y] and y not in previous:
                previous[y] = x
                queue.append(y)
    raise AssertionError("the rearrangement lemma guarantees a hole here")


def _nearest_walk(cur: list[int], neighbours: tuple[tuple[int, ...], ...]) -> list[int] | None:
    best: list[int] | None = None
    for p, has_peg in enumerate(cur):
        if not has_peg:
            continue
        previous = {p: p}
        queue = deque([p])
        while queue:
            x = queue.popleft()
            if best is not None and _length(previous, x) >= len(best) - 1:
                break
            if x != p and _jump_ready(cur, neighbours, p, x):
                path = [x]
                while path[-1] != p:
                    path.append(previous[path[-1]])
                best = path[::-1]
                break
            for y in neighbours[x]:
                if y >= 0 and not cur[y] and y not in previous:
                    previous[y] = x
                    queue.append(y)
    return best


def _length(previous: dict[int, int], x: int) -> int:
    steps = 0
    while previous[x] != x:
        x = previous[x]
        steps += 1
    return steps


def _jump_ready(cur: list[int], neighbours: tuple[tuple[int, ...], ...], p: int, t: int) -> bool:
    """True when a peg moved from ``p`` to ``t`` takes part in a legal jump."""

    def peg(cell: int) -> bool:
        return cell >= 0 and cell != p and (cell == t or bool(cur[cell]))

    def empty(cell: int) -> bool:
        return cell >= 0 and cell != t and (cell == p or not cur[cell])

    for d in range(len(neighbours[t])):
        b = neighbours[t][d]
        if b >= 0 and peg(b) and empty(neighbours[b][d]):
            return True
        a = neighbours[t][d]
        c = neighbours[t][(d + 2) % 4]
        if a >= 0 and c >= 0 and peg(a) and empty(c):
            return True
    return False
