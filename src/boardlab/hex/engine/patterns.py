"""Engine layer: local move patterns of the Hex engine (numba), the features of its priors.

A candidate cell ``x`` for the side to move ``P`` is described by the 12 cells around
it, read in ``P``'s own frame (player 2's board is read transposed, so both players
join the columns): the six neighbours in :data:`boardlab.hex.board.DIRECTIONS`
order and the six bridge cells between consecutive neighbours. Each of them is
``EMPTY``, ``OWN``, ``THEIRS``, ``OWN_EDGE`` (off the board across one of ``P``'s
edges) or ``THEIR_EDGE``. The features of ``x`` (indices into one weight vector):

- the ring of six neighbours, one of ``5**6`` codes, merged with its 180-degree turn;
- each bridge: the bridge cell with its two carriers (``5**3`` codes), one table per
  pair of opposite directions;
- where ``x`` stands to the opponent's last move: adjacent, a bridge away, another
  cell within two steps, or further;
- its distances to ``P``'s nearest edge and to the opponent's (each capped at 5).

A move's score is the sum of its features' weights (a log-linear model, trained by
``scripts/hex_patterns.py`` on MoHex 2.0's moves in the games kept under
``benchmarks/results/``; the weights ship as ``hex/data/patterns.npz``).
``tests/hex/test_patterns.py`` checks :func:`features` against a plain-Python twin on
random boards.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.jit import jit
from boardlab.hex.board import DIRECTIONS

__all__ = [
    "FEATURES",
    "NUM_FEATURES",
    "NUM_WEIGHTS",
    "RING_CODES",
    "features",
    "ring_canon_table",
    "scores",
    "square_table",
    "state_of",
]

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

#: Cell states in the mover's frame.
EMPTY, OWN, THEIRS, OWN_EDGE, THEIR_EDGE = 0, 1, 2, 3, 4
STATES = 5
RING_CODES = STATES**6
BRIDGE_CODES = STATES**3
#: Distances to an edge are capped here.
EDGE_CAP = 5
LAST_CLASSES = 4
#: Offsets of the weight vector's parts.
RING_BASE = 0
BRIDGE_BASE = RING_BASE + RING_CODES
LAST_BASE = BRIDGE_BASE + 3 * BRIDGE_CODES
EDGE_BASE = LAST_BASE + LAST_CLASSES
NUM_WEIGHTS = EDGE_BASE + (EDGE_CAP + 1) ** 2
#: Features a cell has: the ring, six bridges, the last move, the edges.
NUM_FEATURES = 9
FEATURES = ("ring", "bridges", "last move", "edges")

#: Neighbour offsets (d_row, d_col) of ``board.DIRECTIONS``, as arrays for the kernels.
_DR = np.array([dr for dr, _ in DIRECTIONS], np.int64)
_DC = np.array([dc for _, dc in DIRECTIONS], np.int64)
#: Player 2 reads the board transposed: its direction k is the board's ``_TRANSPOSED[k]``,
#: its bridge k (between its directions k and k + 1) the board's ``_TRANSPOSED_BRIDGE[k]``.
_TRANSPOSED = np.array([1, 0, 5, 4, 3, 2], np.int64)
_TRANSPOSED_BRIDGE = np.array([0, 5, 4, 3, 2, 1], np.int64)
#: Squares off the board in :func:`square_table`.
OFF_COLUMNS, OFF_ROWS, OFF_BOTH = -1, -2, -3
_SIX = 6
#: The index of the last-move feature among a cell's features.
_LAST_FEATURE = 7
_HALF_TURN = 3


def ring_canon_table() -> npt.NDArray[np.int32]:
    """Each ring code's class: the smaller of it and its 180-degree turn."""
    codes = np.arange(RING_CODES, dtype=np.int64)
    turned = np.zeros(RING_CODES, np.int64)
    for k in range(_SIX):
        digit = (codes // STATES ** ((k + _HALF_TURN) % _SIX)) % STATES
        turned += digit * STATES**k
    out: npt.NDArray[np.int32] = np.minimum(codes, turned).astype(np.int32)
    return out


def square_table(n: int) -> I32:
    """For every cell, the 12 squares around it in the board's frame: the six neighbours
    (``DIRECTIONS`` order), then the six bridge cells (bridge ``k`` lies between
    neighbours ``k`` and ``k + 1``). A square off the board is ``OFF_COLUMNS`` (past a
    column edge), ``OFF_ROWS`` or ``OFF_BOTH``."""
    out = np.empty((n * n, 2 * _SIX), np.int32)
    for cell in range(n * n):
        row, col = divmod(cell, n)
        for k in range(2 * _SIX):
            d = k % _SIX
            dr, dc = int(_DR[d]), int(_DC[d])
            if k >= _SIX:
                j = (d + 1) % _SIX
                dr, dc = dr + int(_DR[j]), dc + int(_DC[j])
            r, c = row + dr, col + dc
            off_rows, off_cols = not 0 <= r < n, not 0 <= c < n
            if off_rows and off_cols:
                out[cell, k] = OFF_BOTH
            elif off_cols:
                out[cell, k] = OFF_COLUMNS
            elif off_rows:
                out[cell, k] = OFF_ROWS
            else:
                out[cell, k] = r * n + c
    return out


@jit
def state_of(board: I8, square: int, player: int) -> int:
    """The state of a square of :func:`square_table` for ``player``."""
    if square >= 0:
        v = board[square]
        if v == 0:
            return EMPTY
        return OWN if v == player else THEIRS
    # player 1 owns the column edges, player 2 the row edges; past a corner: the mover's
    if square == OFF_BOTH or (square == OFF_COLUMNS) == (player == 1):
        return OWN_EDGE
    return THEIR_EDGE


@jit
def _last_class(n: int, last: int, cell: int) -> int:
    """Where ``cell`` stands to the opponent's last move (the last-move feature)."""
    if last < 0:
        return 0
    row = cell // n
    lr = last // n
    r = lr - row
    c = last - lr * n - (cell - row * n)
    steps = max(abs(r), abs(c), abs(r + c))  # hex distance on the rhombus
    if steps == 1:
        return 1
    if steps == 2 and r != 0 and c != 0 and r + c != 0:  # noqa: PLR2004
        return 2  # a bridge away: (1, 1), (2, -1), (1, -2) and their turns
    if steps == 2:  # noqa: PLR2004
        return 3
    return 0


@jit
def _local_indices(
    board: I8, n: int, player: int, cell: int, canon: I32, squares: I32, ring: I32, out: I32
) -> None:
    """Write the weight indices of every feature of ``cell`` but the last move's
    (``out[7]`` is left alone); ``ring`` (six entries) is scratch."""
    second = player == 2  # noqa: PLR2004
    code = 0
    scale = 1
    for k in range(_SIX):
        d = _TRANSPOSED[k] if second else k
        ring[k] = state_of(board, squares[cell, d], player)
        code += ring[k] * scale
        scale *= STATES
    out[0] = RING_BASE + canon[code]
    for k in range(_SIX):
        j = k + 1 if k < _SIX - 1 else 0
        b = _TRANSPOSED_BRIDGE[k] if second else k
        bridge = state_of(board, squares[cell, _SIX + b], player)
        local = bridge * STATES * STATES + ring[k] * STATES + ring[j]
        out[1 + k] = BRIDGE_BASE + (k % _HALF_TURN) * BRIDGE_CODES + local
    row = cell // n
    col = cell - row * n
    own = min(col, n - 1 - col) if not second else min(row, n - 1 - row)
    theirs = min(row, n - 1 - row) if not second else min(col, n - 1 - col)
    out[8] = EDGE_BASE + min(own, EDGE_CAP) * (EDGE_CAP + 1) + min(theirs, EDGE_CAP)


@jit
def features(
    board: I8, n: int, player: int, last: int, cell: int, canon: I32, squares: I32, out: I32
) -> None:
    """Write the :data:`NUM_FEATURES` weight indices of ``cell`` for ``player`` into ``out``."""
    ring = np.empty(_SIX, np.int32)
    _local_indices(board, n, player, cell, canon, squares, ring, out)
    out[7] = LAST_BASE + _last_class(n, last, cell)


@jit
def scores(
    board: I8,
    n: int,
    player: int,
    last: int,
    cells: I32,
    count: int,
    weights: F64,
    canon: I32,
    squares: I32,
    out: F64,
) -> None:
    """The score (summed feature weights) of each of the first ``count`` ``cells``."""
    idx = np.empty(NUM_FEATURES, np.int32)
    ring = np.empty(_SIX, np.int32)
    for i in range(count):
        _local_indices(board, n, player, cells[i], canon, squares, ring, idx)
        idx[_LAST_FEATURE] = LAST_BASE + _last_class(n, last, cells[i])
        total = 0.0
        for f in range(NUM_FEATURES):
            total += weights[idx[f]]
        out[i] = total
