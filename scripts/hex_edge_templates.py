"""Derives the edge templates of ``boardlab.hex.connections.EDGE_TEMPLATES`` with the exact solver.

An edge template of depth ``d`` is a set of empty cells (offsets ``(dr, dc)`` from a
stone ``d`` rows above an edge, the edge below row ``d``) inside which the stone's owner
joins the edge whatever the opponent plays first. For each window of candidate cells,
the script builds the 8x8 position in which the stone hangs from the far edge by a
chain of its owner's stones, every cell outside the window belongs to the opponent and
the opponent is to move, asks :func:`boardlab.hex.prover.solver.solve` who wins, then drops the
window's cells one at a time in seeded random orders while the owner still wins: each
order ends in a minimal carrier. It prints every distinct one.

    .venv/bin/python scripts/hex_edge_templates.py --depth 3 --orders 40
"""

from __future__ import annotations

import argparse
import random

from boardlab.core.limits import Limit
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

Offsets = tuple[tuple[int, int], ...]
#: The largest board the DFPN solver takes (a window is at most this wide).
SIZE = 8


def holds(carrier: Offsets, depth: int, column: int) -> bool:
    """Whether the stone joins the edge through ``carrier`` with the opponent to move."""
    top = SIZE - 1 - depth
    cells = {(top + dr, column + dc) for dr, dc in carrier}
    if any(not (0 <= r < SIZE and 0 <= c < SIZE) for r, c in cells):
        raise ValueError(f"the carrier {carrier} does not fit an {SIZE}x{SIZE} board")
    chain = [Cell(r, column) for r in range(top + 1)]
    opponent = [
        Cell(r, c)
        for r in range(SIZE)
        for c in range(SIZE)
        if (r, c) not in cells and not (c == column and r <= top)
    ]
    position = Position.from_stones(SIZE, opponent, chain, to_move=BLACK)
    result = solve(position, Limit(time=60), all_moves=False)
    if result.winner is None:
        raise RuntimeError(f"no proof within 60 s for {carrier}")
    return result.winner == WHITE


def window(depth: int, left: int, right: int, side: int) -> Offsets:
    """The cells below the stone widened by ``left`` and ``right`` columns, and ``side``
    cells on each side of it in its own row."""
    cells = [
        (dr, dc)
        for dr in range(depth + 1)
        for dc in range(-dr - left, right + 1)
        if dr > 0 or (dc != 0 and abs(dc) <= side)
    ]
    return tuple(cells)


def minimal(cells: Offsets, depth: int, column: int, rng: random.Random) -> Offsets:
    kept = list(cells)
    order = list(cells)
    rng.shuffle(order)
    for cell in order:
        trial = tuple(c for c in kept if c != cell)
        if holds(trial, depth, column):
            kept = list(trial)
    return tuple(sorted(kept))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3, help="rows between stone and edge")
    parser.add_argument("--orders", type=int, default=40, help="random orders per window")
    args = parser.parse_args()
    depth = args.depth
    found: set[Offsets] = set()
    for left in range(SIZE):
        right = SIZE - 1 - depth - left
        if right < 0:
            break
        cells = window(depth, left, right, side=2)
        column = depth + left
        if not holds(cells, depth, column):
            continue
        for order in range(args.orders):
            carrier = minimal(cells, depth, column, random.Random(order))
            if carrier not in found:
                found.add(carrier)
                print(f"({depth}, {carrier}),  # {len(carrier)} cells", flush=True)


if __name__ == "__main__":
    main()
