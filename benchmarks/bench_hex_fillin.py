"""Benchmark: boardlab's Hex fill-in against MoHex 2.0's inferior-cell engine, cell for cell.

The knowledge that decides MoHex's DFPN suite is mostly fill-in: the cells its
inferior-cell engine fills before any search. This script measures how much of it
boardlab's prover has, on random positions of one board size (``--positions`` games of
``--moves`` random moves from the seed, nobody connected yet):

- MoHex: ``compute-fillin black`` (its captured, permanently inferior and dead cells,
  iterated; no virtual connections), one process for all positions;
- boardlab: the prover's fill-in on the shared kernel (:mod:`boardlab.hex.connections`):
  captured pairs filled one at a time, then the dead cells and dead regions
  (:func:`~boardlab.hex.connections.dead_regions`); and apart, the cells of the captured
  regions the solver fills at its root on top of those
  (:func:`~boardlab.hex.prover.regions.region_fill`).

It prints the cells each program fills, the cells both fill, the ratio, and how many of
MoHex's fills are dead by boardlab's ring table once MoHex's other fills are on the
board: those follow from the rest, so the difference lies in the others (the fills
that start MoHex's chains).

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_fillin.py --size 7
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence

from boardlab.core.errors import ProtocolError
from boardlab.hex import connections as vc
from boardlab.hex.gtp import vertex
from boardlab.hex.judge import color_name
from boardlab.hex.prover.inferior import dead_regions
from boardlab.hex.prover.regions import region_fill
from boardlab.hex.rules import random_open_position
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, fill_in_cells, mohex_binary

#: The largest board of the benchmark's two-word cell sets.
TWO_WORDS = 11


def boardlab_fills(knowledge: vc.Knowledge, board: list[int]) -> set[int]:
    """The empty cells of ``board`` boardlab's prover fills in or finds dead."""
    n = knowledge.n
    black = vc.words_of(sum(1 << c for c, v in enumerate(board) if v == 1))
    white = vc.words_of(sum(1 << c for c, v in enumerate(board) if v == 2))
    filled = vc.fill_captured(n, knowledge.ring, knowledge.table, black, white)
    # numba hands words back as Python ints: typed again as words for the next call
    black, white = (vc.words_of(vc.cells_of(words)) for words in filled)
    low, high, left, right = (vc.words_of(vc.cells_of(row)) for row in knowledge.lines[:4])
    edges = (low, high, left, right)
    dead = dead_regions(n, knowledge.ring, knowledge.table, edges, black, white)
    marked = [vc.cells_of(words) for words in (black, white, dead)]
    return {c for c in range(n * n) if board[c] == 0 and any(m >> c & 1 for m in marked)}


def dead_after(knowledge: vc.Knowledge, board: list[int], filled: dict[int, int]) -> int:
    """How many cells of ``filled`` (cell -> colour) are dead by the ring table once the
    other cells of ``filled`` are on ``board``."""
    full = list(board)
    for cell, colour in filled.items():
        full[cell] = colour
    count = 0
    for cell in filled:
        code = 0
        for k in range(6):
            v = int(knowledge.ring[cell, k])
            colour = full[v] if v >= 0 else -v
            code |= colour << (2 * k)
        count += bool(knowledge.table[code])
    return count


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    parser.add_argument("--size", type=int, default=7, help="board size, 3 to 11 (default 7)")
    parser.add_argument("--positions", type=int, default=100, help="positions (default 100)")
    parser.add_argument("--moves", type=int, default=14, help="random moves each (default 14)")
    parser.add_argument("--seed", type=int, default=7, help="random seed (default 7)")
    args = parser.parse_args(argv)
    if not 3 <= args.size <= TWO_WORDS:
        print(f"bench_hex_fillin: --size must be 3..{TWO_WORDS}, got {args.size}", file=sys.stderr)
        return 2
    if not 0 <= args.moves < args.size * args.size:
        print(f"bench_hex_fillin: --moves must be 0..{args.size**2 - 1}", file=sys.stderr)
        return 2
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(f"bench_hex_fillin: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    n = args.size
    knowledge = vc.knowledge(n)
    rng = random.Random(args.seed)
    ours_total = theirs_total = common = dead_in_theirs = regions_total = regions_common = 0
    process = GtpProcess([binary], timeout=60)
    try:
        process.command(f"boardsize {n}")
        for _ in range(args.positions):
            position = random_open_position(n, args.moves, rng)
            board = list(position.board)
            process.command("clear_board")
            for cell, stone in enumerate(board):
                if stone:
                    process.command(f"play {color_name(stone)} {vertex(cell, n)}")
            theirs = fill_in_cells(process.command("compute-fillin black"), n)
            ours = boardlab_fills(knowledge, board)
            ours_total += len(ours)
            black = sum(1 << c for c, v in enumerate(board) if v == 1)
            white = sum(1 << c for c, v in enumerate(board) if v == 2)
            in_regions = region_fill(n, black, white)
            region_cells = {c for c in range(n * n) if in_regions.cells >> c & 1}
            regions_total += len(region_cells)
            regions_common += len(region_cells & set(theirs))
            theirs_total += len(theirs)
            common += len(ours & set(theirs))
            dead_in_theirs += dead_after(knowledge, board, theirs)
    except ProtocolError as exc:
        print(f"bench_hex_fillin: MoHex failed: {exc}", file=sys.stderr)
        return 1
    finally:
        process.close()
    print(
        f"{args.positions} random {n}x{n} positions ({args.moves} moves, seed {args.seed}): "
        "cells filled in or dead before any search"
    )
    print(f"  MoHex compute-fillin: {theirs_total}")
    print(f"  boardlab prover:      {ours_total} ({common} of them MoHex's too)")
    print(f"  ratio boardlab / MoHex: {ours_total / max(theirs_total, 1):.2f}")
    print(
        f"  and in captured regions (the solver's root, hex.prover.regions): {regions_total}"
        f" ({regions_common} of them MoHex's too)"
    )
    print(
        f"  MoHex's fills dead by boardlab's ring table once its other fills are in: "
        f"{dead_in_theirs} of {theirs_total}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
