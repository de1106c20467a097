"""Solver layer: exact PEGGED search on small boards (A* over positions, walks cost 1).

States are peg bitsets; a jump costs 0 and a walk costs 1. The heuristic is the
position-class walk bound of :mod:`boardlab.pegs.pegged.bounds`, read from the class
of the state: a jump keeps the class and a walk changes it by one generator, so the
heuristic is consistent and the first one-peg state taken from the queue has the
fewest walks. The search then drains every state of the same cost to pick, among
the optimal answers, the last peg nearest the centre. A node limit makes it give up
(``None``); an exhausted queue without a goal proves the board unsolvable.
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass

from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Cell, Jump, Move, Walk
from boardlab.pegs.pegged.bounds import class_distances, class_element, class_of
from boardlab.pegs.rules import Position

__all__ = ["ExactAnswer", "exact_search"]


@dataclass(frozen=True, slots=True)
class ExactAnswer:
    """An exact search's verdict: the optimal moves, or None when no solution exists."""

    moves: tuple[Move, ...] | None
    walks: int | None
    nodes: int


def exact_search(
    position: Position, node_limit: int = 200_000, deadline: float | None = None
) -> ExactAnswer | None:
    """The optimal solution (fewest walks, then last peg nearest the centre).

    Returns None when the node limit or the ``time.perf_counter()`` deadline stops
    the search first; ``ExactAnswer(None, None, nodes)`` when no solution exists.
    """
    board = position.board
    grid = board.grid
    cells = grid.cells
    elements = [class_element(r, c) for r, c in cells]
    distance = class_distances(position)
    centre = board.centre
    start = position.bits
    best_g: dict[int, int] = {start: 0}
    parent: dict[int, tuple[int, int, int, bool]] = {}
    counter = itertools.count()
    heap = [(distance[class_of(position)], next(counter), 0, start, class_of(position))]
    goal: int | None = None
    goal_cost: int | None = None
    nodes = 0
    while heap:
        f, _, g, bits, cls = heapq.heappop(heap)
        if goal_cost is not None and f > goal_cost:
            break
        if g != best_g.get(bits):
            continue
        nodes += 1
        if nodes > node_limit or (deadline is not None and time.perf_counter() > deadline):
            return None
        if bits & (bits - 1) == 0:
            if goal is None or _centre_distance(board, bits, centre) < _centre_distance(
                board, goal, centre
            ):
                goal, goal_cost = bits, g
            continue
        for a, b, c in grid.jumps:
            if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1:
                _relax(
                    heap,
                    counter,
                    best_g,
                    parent,
                    bits,
                    g,
                    bits ^ (1 << a | 1 << b | 1 << c),
                    cls,
                    distance,
                    (a, c, True),
                )
        for u, v in grid.steps:
            if bits >> u & 1 and not bits >> v & 1:
                nxt_cls = cls ^ elements[u] ^ elements[v]
                _relax(
                    heap,
                    counter,
                    best_g,
                    parent,
                    bits,
                    g + 1,
                    bits ^ (1 << u | 1 << v),
                    nxt_cls,
                    distance,
                    (u, v, False),
                )
    if goal is None:
        return ExactAnswer(None, None, nodes)
    moves: list[Move] = []
    bits = goal
    while bits != start:
        before, src, dst, jump = parent[bits]
        moves.append(
            Jump(board.cells[src], board.cells[dst])
            if jump
            else Walk(board.cells[src], board.cells[dst])
        )
        bits = before
    moves.reverse()
    return ExactAnswer(tuple(moves), goal_cost, nodes)


def _relax(
    heap: list[tuple[int, int, int, int, int]],
    counter: itertools.count[int],
    best_g: dict[int, int],
    parent: dict[int, tuple[int, int, int, bool]],
    bits: int,
    cost: int,
    nxt: int,
    cls: int,
    distance: list[int],
    move: tuple[int, int, bool],
) -> None:
    known = best_g.get(nxt)
    if known is not None and known <= cost:
        return
    best_g[nxt] = cost
    parent[nxt] = (bits, move[0], move[1], move[2])
    heapq.heappush(heap, (cost + distance[cls], next(counter), cost, nxt, cls))


def _centre_distance(board: Board, bits: int, centre: Cell | None) -> int:
    if centre is None:
        return 0
    row, col = board.grid.cells[bits.bit_length() - 1]
    return abs(row - centre.row) + abs(col - centre.col)
