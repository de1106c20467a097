"""Formats layer: a seeded generator of PEGGED board files (for tests and benchmarks).

Each cell of a ``rows`` x ``cols`` box is a hole with probability ``density``; the
centre is always a hole; holes cut off from the centre are dropped, so every board
is one region. ``pegs`` of the holes (never all of them) get a peg.

>>> text = random_board_text(5, 7, 6, seed=3)
>>> len(text.splitlines()), text.count("X")
(5, 6)
"""

from __future__ import annotations

import random
from collections import deque

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import MAX_BOARD_COLS, MAX_BOARD_ROWS

__all__ = ["random_board_text"]

#: The smallest side of a PEGGED board.
MIN_SIDE = 3


def random_board_text(rows: int, cols: int, pegs: int, seed: int = 0, density: float = 0.85) -> str:
    """A random PEGGED board file.

    :raises BoardlabError: for even or out-of-range sizes, a density outside (0, 1], or
        more pegs than holes - 1.
    """
    if not 0 < density <= 1:
        raise BoardlabError(f"the density is a share of the cells, in (0, 1]: got {density:g}")
    if (
        rows % 2 == 0
        or cols % 2 == 0
        or not (MIN_SIDE <= rows <= MAX_BOARD_ROWS and MIN_SIDE <= cols <= MAX_BOARD_COLS)
    ):
        raise BoardlabError(f"{rows} x {cols}: rows must be odd 3..25 and columns odd 3..49")
    if pegs < 1:
        raise BoardlabError("a board needs at least one peg")
    rng = random.Random(seed)
    centre = (rows // 2, cols // 2)
    holes = {(r, c) for r in range(rows) for c in range(cols) if rng.random() < density}
    holes.add(centre)
    region = {centre}
    queue = deque([centre])
    while queue:
        r, c = queue.popleft()
        for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if near in holes and near not in region:
                region.add(near)
                queue.append(near)
    ordered = sorted(region)
    if pegs > len(ordered) - 1:
        raise BoardlabError(f"{pegs} pegs do not fit: the board has {len(ordered)} holes")
    filled = set(rng.sample(ordered, pegs))
    lines = []
    for r in range(rows):
        row = []
        for c in range(cols):
            cell = (r, c)
            row.append("X" if cell in filled else ("O" if cell in region else "_"))
        lines.append("".join(row))
    return "\n".join(lines) + "\n"
