"""Solver layer: the tables, the pure-Python twin and the replay of the PEGGED beam kernel.

:class:`Tables` holds what the kernel needs for one board: neighbours in the order
up, right, down, left; the cells at distance two; trapped holes; distances to the
centre (as the crow flies for the tiebreak, walking for the pull); Zobrist keys.
:func:`children_reference` is the slow, obvious twin of the kernel's
:func:`~boardlab.pegs.pegged._kernel.children`; :func:`replay` turns kernel steps into
walks and jumps, walking each peg along a shortest path of empty holes.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import Board
from boardlab.pegs.cells import Jump, Move, Walk

__all__ = ["Step", "Tables", "children_reference", "replay", "tables_for"]

Step = tuple[int, int, int, int, int, int]
_DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))
_NEAR = ((-2, 0), (2, 0), (0, -2), (0, 2), (-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True)
class Tables:
    """Per-board arrays handed to the kernels."""

    nbr: npt.NDArray[np.int32]
    near: npt.NDArray[np.int32]
    trapped: npt.NDArray[np.uint8]
    centre_distance: npt.NDArray[np.int32]
    pull: npt.NDArray[np.int32]
    keys: npt.NDArray[np.uint64]
    rows: npt.NDArray[np.int32]
    cols: npt.NDArray[np.int32]

    def pull_to(self, hole: int) -> npt.NDArray[np.int32]:
        """Walking distance of every hole to ``hole`` (unreachable: 4096)."""
        pull = np.full(self.nbr.shape[0], 4096, dtype=np.int32)
        pull[hole] = 0
        queue = deque([hole])
        while queue:
            x = queue.popleft()
            for y in self.nbr[x].tolist():
                if y >= 0 and pull[y] > pull[x] + 1:
                    pull[y] = pull[x] + 1
                    queue.append(y)
        return pull


def tables_for(board: Board) -> Tables:
    """The kernel tables of a square board (the Zobrist keys come from a fixed seed)."""
    index = board.grid.index
    cells = board.grid.cells
    nbr = np.array(
        [[index.get((r + dr, c + dc), -1) for dr, dc in _DIRECTIONS] for r, c in cells],
        dtype=np.int32,
    ).reshape(len(cells), 4)
    near = np.array(
        [[index.get((r + dr, c + dc), -1) for dr, dc in _NEAR] for r, c in cells],
        dtype=np.int32,
    ).reshape(len(cells), len(_NEAR))
    centre = board.centre
    crow, ccol = (centre.row, centre.col) if centre is not None else (0, 0)
    distance = np.array([abs(r - crow) + abs(c - ccol) for r, c in cells], dtype=np.int32)
    pull = distance + 64
    if centre is not None:
        pull[index[(crow, ccol)]] = 0
        queue = deque([index[(crow, ccol)]])
        while queue:
            x = queue.popleft()
            for y in nbr[x].tolist():
                if y >= 0 and pull[y] > pull[x] + 1:
                    pull[y] = pull[x] + 1
                    queue.append(y)
    rng = random.Random(20260101)
    keys = np.array([rng.getrandbits(64) for _ in cells], dtype=np.uint64)
    trapped = np.ones(len(cells), dtype=np.uint8)
    for a, b, _ in board.grid.jumps:
        trapped[a] = 0
        trapped[b] = 0
    rows = np.array([r for r, _ in cells], dtype=np.int32)
    cols = np.array([c for _, c in cells], dtype=np.int32)
    return Tables(nbr, near, trapped, distance, pull, keys, rows, cols)


def children_reference(
    cur: Sequence[int],
    nbr: Sequence[Sequence[int]],
    trapped: Sequence[int],
    eager: bool,
    slack: int,
) -> set[Step]:
    """The steps of a position, computed plainly (twin of the kernel's ``children``).

    Every free jump ``(-1, -1, a, b, c, 0)``; when there is none, or ``eager``, every
    ``(p, t, a, b, c, d)`` where peg ``p`` walks a shortest path of ``d >= 1`` empty
    holes to ``t`` and then the jump ``a`` over ``b`` into ``c`` is legal with ``t`` one
    of ``a``, ``b``; walks are kept up to ``best + slack`` (``slack`` when eager with a
    free jump), ``best`` the shortest walk among them. When a free jump exists, only
    pegs on trapped holes or without an orthogonal neighbour walk.
    """
    n = len(cur)
    jumps: set[Step] = set()
    for a in range(n):
        for d in range(4):
            b = nbr[a][d]
            if cur[a] and b >= 0 and cur[b]:
                c = nbr[b][d]
                if c >= 0 and not cur[c]:
                    jumps.add((-1, -1, a, b, c, 0))
    if jumps and not eager:
        return jumps
    walks: set[Step] = set()
    for p in range(n):
        if not cur[p]:
            continue
        if jumps and not trapped[p] and any(y >= 0 and cur[y] for y in nbr[p]):
            continue
        after = list(cur)
        after[p] = 0
        distance = {p: 0}
        queue = deque([p])
        while queue:
            x = queue.popleft()
            for y in nbr[x]:
                if y >= 0 and not cur[y] and y not in distance:
                    distance[y] = distance[x] + 1
                    queue.append(y)
        for t, d in distance.items():
            if d == 0:
                continue
            board = list(after)
            board[t] = 1
            for way in range(4):
                b = nbr[t][way]
                c = nbr[b][way] if b >= 0 else -1
                if b >= 0 and c >= 0 and board[b] and not board[c]:
                    walks.add((p, t, t, b, c, d))
                a = nbr[t][way]
                c = nbr[t][way ^ 2]
                if a >= 0 and c >= 0 and a != t and board[a] and not board[c]:
                    walks.add((p, t, a, t, c, d))
    if not walks:
        return jumps
    best = 0 if jumps else min(step[5] for step in walks)
    return jumps | {step for step in walks if step[5] <= best + slack}


def _path(cur: list[int], nbr: npt.NDArray[np.int32], src: int, dst: int) -> list[int]:
    previous = {src: src}
    queue = deque([src])
    while queue:
        x = queue.popleft()
        if x == dst:
            break
        for y in nbr[x].tolist():
            if y >= 0 and not cur[y] and y not in previous:
                previous[y] = x
                queue.append(y)
    if dst not in previous:
        raise BoardlabError(f"internal error: no empty path from hole {src} to hole {dst}")
    path = [dst]
    while path[-1] != src:
        path.append(previous[path[-1]])
    return path[::-1]


def replay(
    board: Board, bits: int, steps: npt.NDArray[np.int32], nbr: npt.NDArray[np.int32]
) -> list[Move]:
    """The walks and jumps of kernel steps played from the pegs ``bits``.

    :raises BoardlabError: when a step does not fit the position (a kernel bug; the
        caller's judge would reject the list anyway).
    """
    cells = board.cells
    cur = [bits >> i & 1 for i in range(board.size)]
    moves: list[Move] = []
    for row in steps.tolist():
        p, t, a, b, c, d = row
        if p >= 0:
            path = _path(cur, nbr, p, t)
            if len(path) - 1 != d:
                raise BoardlabError(f"internal error: walk of {len(path) - 1} holes, expected {d}")
            for u, v in itertools.pairwise(path):
                moves.append(Walk(cells[u], cells[v]))
            cur[p], cur[t] = 0, 1
        moves.append(Jump(cells[a], cells[c]))
        cur[a], cur[b], cur[c] = 0, 0, 1
    return moves
