"""Derives the edge patterns of ``src/boardlab/hex/data/edge_patterns.json`` with the exact solver.

An edge pattern is an edge template the kernels do not know yet, most of them needing
one more of its owner's stones than the endpoint: offsets ``(dr, dc)`` of ``stones``
(the owner's, besides the endpoint) and of a ``carrier`` of empty cells, from an
endpoint ``depth`` rows above an edge (the edge below row ``depth``, neighbours as
:data:`boardlab.hex.board.DIRECTIONS`); wherever the stones stand and the carrier is
empty, the endpoint joins the edge whatever the opponent plays first. A second stone
near an edge makes the carrier far smaller than any one-stone template (two stones side
by side on the fourth row need ten cells, not nineteen); ``--extra 0`` looks for
one-stone templates (the fifth row's, on 11x11). ``--side N`` widens a window's own row
to ``N`` cells on each side of the endpoint, and ``--far`` tries only an extra stone
beyond the second of them (a fourth-row stone three or four cells along the row).

For every window below an endpoint and every cell of it given to the owner, the script
builds a position on an 8x8 board (``--size``) in which the endpoint hangs from the far
edge by a chain of its owner's stones, every cell outside the window is the opponent's
and the opponent is to move, asks :func:`boardlab.hex.prover.solver.solve` who wins, and
shrinks the window to minimal carriers in seeded random orders. A pattern is kept unless
a one-stone template at the endpoint or at the extra stone, or a pattern already kept,
needs no cell outside its carrier and stones, or the solver's own analysis (H-search and
fill-in, without the patterns) already joins the endpoint to the edge in that window
(those are found anyway); patterns are written with their mirror images (the reflection
``(dr, dc) -> (dr, -dc - dr)`` maps the edge and the hex neighbours to themselves).

The shipped file was made by four runs (the second and third rows give nothing the
kernel does not find itself, on 8x8 or on 11x11; past the fourth row a one-stone
template on 11x11; the wider windows of 11x11 add three fourth-row patterns):

    .venv/bin/python scripts/hex_edge_patterns.py --depths 3 --orders 4 --time 2400 \\
        --out d3.json                                               # 34 patterns
    .venv/bin/python scripts/hex_edge_patterns.py --size 11 --extra 0 --depths 4 \\
        --orders 3 --time 2400 --out d4.json                        # 2 patterns
    .venv/bin/python scripts/hex_edge_patterns.py --depths --add d3.json d4.json \\
        --out first.json
    .venv/bin/python scripts/hex_edge_patterns.py --size 11 --depths 3 --orders 2 \\
        --time 1320 --add first.json --out src/boardlab/hex/data/edge_patterns.json  # 42

Not shipped: ``--size 11 --depths 3 --orders 2 --side 4 --far --add
src/boardlab/hex/data/edge_patterns.json`` (30 s) adds 10 fourth-row patterns with the
second stone three or four cells along the row (carriers of 18 to 28 cells); with them
the prover analysed as many positions on MoHex's 8x8-11x11 puzzles and proved the
engine's losing moves no sooner (``docs/benchmarks/hex.md``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from boardlab.core.limits import Limit
from boardlab.hex.board import EDGE_TEMPLATES
from boardlab.hex.connections import LOSS, parse_edge_patterns
from boardlab.hex.prover.dfpn import MAX_CELLS, Dfpn
from boardlab.hex.prover.solver import solve
from boardlab.hex.prover.wide import WideDfpn
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

Offset = tuple[int, int]
Offsets = tuple[Offset, ...]
Pattern = tuple[int, Offsets, Offsets]  # depth, stones, carrier
#: The board the windows are placed on by default (``--size``): the DFPN solver's
#: largest one-word board.
SIZE = 8
#: Cells of the endpoint's own row on each side of it in a window, unless ``--side``.
NEAR_SIDE = 2
#: The depths searched by default: second to fourth row.
DEPTHS = (1, 2, 3)


def placed(size: int, carrier: Offsets, stones: Offsets, depth: int, column: int) -> Position:
    """The position of a window on a ``size`` x ``size`` board: the endpoint ``depth``
    rows above the bottom edge in ``column`` hangs from the top edge by a chain of its
    owner's (white) stones, the owner's extra ``stones`` stand, ``carrier`` is empty, the
    opponent (black) has every other cell and is to move."""
    top = size - 1 - depth
    cells = {(top + dr, column + dc) for dr, dc in carrier}
    own = {(top + dr, column + dc) for dr, dc in stones}
    chain = {(r, column) for r in range(top + 1)}
    for r, c in cells | own:
        if not (0 <= r < size and 0 <= c < size):
            raise ValueError(f"the window {carrier} does not fit an {size}x{size} board")
    opponent = [
        Cell(r, c)
        for r in range(size)
        for c in range(size)
        if (r, c) not in cells and (r, c) not in own and (r, c) not in chain
    ]
    mine = [Cell(r, c) for r, c in sorted(chain | own)]
    return Position.from_stones(size, opponent, mine, to_move=BLACK)


def holds(size: int, carrier: Offsets, stones: Offsets, depth: int, column: int) -> bool:
    """Whether the endpoint joins the edge through ``carrier`` with the owner's extra
    ``stones`` in place and the opponent to move."""
    position = placed(size, carrier, stones, depth, column)
    result = solve(position, Limit(time=60), all_moves=False)
    if result.winner is None:
        raise RuntimeError(f"no proof within 60 s for {carrier} with stones {stones}")
    return result.winner == WHITE


def window(depth: int, left: int, right: int, side: int) -> Offsets:
    """The cells below the endpoint widened by ``left`` and ``right`` columns, and
    ``side`` cells on each side of it in its own row."""
    return tuple(
        (dr, dc)
        for dr in range(depth + 1)
        for dc in range(-dr - left, right + 1)
        if dr > 0 or (dc != 0 and abs(dc) <= side)
    )


def windows(size: int, depth: int, side: int = NEAR_SIDE) -> list[tuple[Offsets, int]]:
    """Every window of a depth that fits the board, each with the endpoint's column:
    widened to the left by 0, 1, ... columns and to the right by the rest, ``side``
    cells on each side of the endpoint in its own row."""
    found = []
    for left in range(size - depth):
        right = size - 1 - depth - left
        found.append((window(depth, left, right, side), depth + left))
    return found


def minimal(
    size: int, cells: Offsets, stones: Offsets, depth: int, column: int, seed: int
) -> Offsets:
    """A minimal carrier inside ``cells``: cells dropped in a seeded random order while
    the endpoint still joins the edge."""
    kept = list(cells)
    order = list(cells)
    random.Random(seed).shuffle(order)
    for cell in order:
        trial = tuple(c for c in kept if c != cell)
        if holds(size, trial, stones, depth, column):
            kept = list(trial)
    return tuple(sorted(kept))


def mirror(offsets: Offsets) -> Offsets:
    """The reflection that keeps the rows: ``(dr, dc) -> (dr, -dc - dr)``."""
    return tuple(sorted((dr, -dc - dr) for dr, dc in offsets))


def one_stone_templates() -> list[tuple[int, frozenset[Offset]]]:
    """The one-stone templates (depth, carrier) the kernels know already: the edge
    bridge of the second row, and :data:`EDGE_TEMPLATES`."""
    found = [(1, frozenset({(1, -1), (1, 0)}))]
    found += [(depth, frozenset(carrier)) for depth, carrier in EDGE_TEMPLATES]
    return found


def covered(pattern: Pattern, kept: list[Pattern]) -> bool:
    """Does a one-stone template at the endpoint or at one of the stones, or a kept
    pattern with fewer or the same stones, need nothing outside this pattern's carrier
    and stones? (Then the connection is found without it.)"""
    depth, stones, carrier = pattern
    room = frozenset(carrier) | frozenset(stones) | {(0, 0)}
    anchors = [(0, 0), *stones]
    for dr0, dc0 in anchors:
        for d, template in one_stone_templates():
            if d == depth - dr0 and {(dr0 + dr, dc0 + dc) for dr, dc in template} <= room:
                return True
    for d, other_stones, other_carrier in kept:
        needs = set(other_carrier) | set(other_stones)
        if d == depth and set(other_stones) <= set(stones) and needs <= room:
            return True
    return False


def known(size: int, pattern: Pattern, column: int) -> bool:
    """Does the solver's own analysis (H-search, fill-in), with no pattern, already find
    the endpoint joined to the edge in the pattern's window?"""
    depth, stones, carrier = pattern
    position = placed(size, carrier, stones, depth, column)
    black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
    search = (Dfpn if size * size <= MAX_CELLS else WideDfpn)(size, Limit().start())
    verdict = search.analyse(black, white, BLACK)[0]
    return verdict == LOSS


def extra_stones(cells: Offsets, extra: int, far: bool = False) -> list[Offsets]:
    """The owner's extra stones a window is tried with: none (``extra`` 0), or each cell
    of it in turn; with ``far`` only the cells of the endpoint's own row more than
    :data:`NEAR_SIDE` cells from it."""
    if not extra:
        return [()]
    if far:
        return [(cell,) for cell in cells if cell[0] == 0 and abs(cell[1]) > NEAR_SIDE]
    return [(cell,) for cell in cells]


def search(
    size: int,
    depth: int,
    orders: int,
    deadline: float,
    extra: int,
    side: int = NEAR_SIDE,
    far: bool = False,
) -> list[Pattern]:
    """The patterns of one depth with ``extra`` (0 or 1) stones besides the endpoint,
    covered ones left out; with ``far`` only an extra stone in the endpoint's own row
    more than :data:`NEAR_SIDE` cells from it (the cells a wider ``side`` adds)."""
    found: list[Pattern] = []
    for cells, column in windows(size, depth, side):
        for stones in extra_stones(cells, extra, far):
            if time.monotonic() > deadline:
                return found
            rest = tuple(c for c in cells if c not in stones)
            if not holds(size, rest, stones, depth, column):
                continue
            for seed in range(orders):
                carrier = minimal(size, rest, stones, depth, column, seed)
                pattern = (depth, stones, carrier)
                if pattern in found or covered(pattern, found) or known(size, pattern, column):
                    continue
                for each in (pattern, (depth, mirror(stones), mirror(carrier))):
                    if each not in found:
                        found.append(each)
                print(
                    f"depth {depth} stones {stones} carrier {len(carrier)} cells",
                    file=sys.stderr,
                    flush=True,
                )
    return found


def prune(patterns: list[Pattern]) -> list[Pattern]:
    """Drop every pattern another one covers (smallest carriers considered first)."""
    ordered = sorted(patterns, key=lambda p: (p[0], len(p[1]), len(p[2]), p))
    kept: list[Pattern] = []
    for pattern in ordered:
        if not covered(pattern, kept):
            kept.append(pattern)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=6, help="random orders per window")
    parser.add_argument("--time", type=float, default=3600.0, help="seconds in all")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file written")
    parser.add_argument("--size", type=int, default=SIZE, help="the board of the windows")
    parser.add_argument("--depths", type=int, nargs="*", default=DEPTHS, help="rows to the edge")
    parser.add_argument(
        "--extra", type=int, choices=(0, 1), default=1, help="stones besides the endpoint"
    )
    parser.add_argument(
        "--add", type=Path, nargs="*", default=[], help="files of patterns written before, kept too"
    )
    parser.add_argument(
        "--side",
        type=int,
        default=NEAR_SIDE,
        help="cells of the endpoint's own row on each side (2)",
    )
    parser.add_argument(
        "--far",
        action="store_true",
        help="only an extra stone in the endpoint's row more than two cells away",
    )
    args = parser.parse_args()
    # the kernel that decides what is known already works without the patterns
    Dfpn.edge_patterns = WideDfpn.edge_patterns = False
    deadline = time.monotonic() + args.time
    patterns: list[Pattern] = []
    for path in args.add:
        try:
            patterns += parse_edge_patterns(path.read_text())
        except (OSError, ValueError) as exc:
            print(f"{path}: {getattr(exc, 'strerror', None) or exc}", file=sys.stderr)
            return 2
    for depth in args.depths:
        patterns += search(args.size, depth, args.orders, deadline, args.extra, args.side, args.far)
    kept = prune(patterns)
    rows = [
        {"depth": depth, "stones": [list(s) for s in stones], "carrier": [list(c) for c in carrier]}
        for depth, stones, carrier in kept
    ]
    text = json.dumps({"orders": args.orders, "patterns": rows}, indent=None)
    args.out.write_text(text.replace('{"depth"', '\n{"depth"') + "\n")
    print(f"{len(kept)} patterns written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
