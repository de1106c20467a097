"""Derives the edge templates of ``boardlab.hex.connections.EDGE_TEMPLATES`` with the exact solver.

An edge template of depth ``d`` is a set of empty cells (offsets ``(dr, dc)`` from a
stone ``d`` rows above an edge, the edge below row ``d``) inside which the stone's owner
joins the edge whatever the opponent plays first. For each window of candidate cells,
the script builds the 8x8 position in which the stone hangs from the far edge by a
chain of its owner's stones, every cell outside the window belongs to the opponent and
the opponent is to move, asks :func:`boardlab.hex.prover.solver.solve` who wins, then drops the
window's cells one at a time in seeded random orders while the owner still wins: each
order ends in a minimal carrier. It prints every distinct one. (The window, the position
and the shrinking are those of ``scripts/hex_edge_patterns.py``, with no extra stone.)

    .venv/bin/python scripts/hex_edge_templates.py --depth 3 --orders 40
"""

from __future__ import annotations

import argparse

from hex_edge_patterns import SIZE, Offsets, holds, minimal, windows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=3, help="rows between stone and edge")
    parser.add_argument("--orders", type=int, default=40, help="random orders per window")
    args = parser.parse_args()
    depth = args.depth
    found: set[Offsets] = set()
    for cells, column in windows(SIZE, depth):
        if not holds(SIZE, cells, (), depth, column):
            continue
        for order in range(args.orders):
            carrier = minimal(SIZE, cells, (), depth, column, order)
            if carrier not in found:
                found.add(carrier)
                print(f"({depth}, {carrier}),  # {len(carrier)} cells", flush=True)


if __name__ == "__main__":
    main()
