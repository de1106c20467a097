"""Engine layer: the Hex engine's policy network, its input planes and its forward pass (numba).

A small fully convolutional network over hexagonal 3x3 kernels (the seven taps of a
cell and its six neighbours), so one set of weights reads every board size. It sees
the position in the mover's frame (player 2's board transposed: the mover always joins
the columns), on a grid one cell wider on every side whose border holds the edges:

- plane 0: the mover's stones, and the mover's two edges (the border columns);
- plane 1: the opponent's stones, and the opponent's edges (the border rows);
- plane 2: the empty cells; plane 3: every cell of the board;
- plane 4: the opponent's last move;
- plane 5: each empty cell's move-pattern score (:mod:`boardlab.hex.engine.patterns`),
  less the mean over the empty cells.

The trunk is a hexagonal convolution from the planes to ``C`` channels, then ``L``
residual hexagonal convolutions (``h = relu(h + conv(h))``); the policy head is a 1x1
convolution to one logit a cell plus ``alpha`` times the cell's pattern score. The
weights ship as ``hex/data/policy.npz`` (made by ``scripts/hex_net_train.py``; the
card is in ``docs/hex.md``). :func:`policy_logits` is the engine's forward pass (numba,
one core); :func:`reference_logits` computes the same in plain numpy, cell by cell, as
its oracle (``tests/hex/test_network.py``).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.core.jit import jit, jit_fast
from boardlab.hex.board import DIRECTIONS

__all__ = [
    "NETWORK_FILE",
    "PLANES",
    "TAPS",
    "Network",
    "input_planes",
    "load_network",
    "one_blas_thread",
    "pack",
    "policy_logits",
    "reference_logits",
]

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

#: The network's weights file, shipped in ``hex/data``.
NETWORK_FILE = "policy.npz"
#: Input planes (see the module docstring).
PLANES = 6
OWN_PLANE, THEIR_PLANE, EMPTY_PLANE, BOARD_PLANE, LAST_PLANE, PATTERN_PLANE = range(PLANES)
#: The hexagonal kernel's taps (row, column offsets): the cell, then its six neighbours.
TAPS: tuple[tuple[int, int], ...] = ((0, 0), *DIRECTIONS)
_TAP_DR = np.array([dr for dr, _ in TAPS], np.int64)
_TAP_DC = np.array([dc for _, dc in TAPS], np.int64)


@dataclass(frozen=True, slots=True)
class Network:
    """A policy network's weights, packed for :func:`policy_logits`.

    ``first`` (taps, planes, C) and ``first_bias`` (C) make the first convolution,
    ``hidden`` (L, taps, C, C) and ``hidden_bias`` (L, C) the residual ones; ``head``
    (C) and ``head_bias`` the policy head, ``alpha`` the weight of the pattern score
    added to each logit; ``value`` (C) and ``value_bias`` the value head (the logit of
    the mover's winning chance, read linearly from the trunk's mean over the board's
    cells; all zero when the network has none). ``card`` says what the weights were
    trained on.
    """

    first: F32
    first_bias: F32
    hidden: F32
    hidden_bias: F32
    head: F32
    head_bias: float
    alpha: float
    value: F32
    value_bias: float = 0.0
    card: str = ""

    @property
    def has_value(self) -> bool:
        """Whether the network has a value head."""
        return bool(self.value.any()) or self.value_bias != 0.0

    @property
    def channels(self) -> int:
        """The trunk's width ``C``."""
        return int(self.first.shape[2])

    @property
    def layers(self) -> int:
        """The residual convolutions ``L``."""
        return int(self.hidden.shape[0])

    def logits(self, planes: F32, n: int, player: int) -> F32:
        """The logit of every board cell (:func:`policy_logits`) of ``planes`` made by
        :func:`input_planes` for ``player`` to move, then the value logit."""
        out = np.zeros(n * n + 1, np.float32)
        one_blas_thread()
        policy_logits(
            planes,
            n,
            player,
            self.first,
            self.first_bias,
            self.hidden,
            self.hidden_bias,
            self.head,
            self.head_bias,
            self.alpha,
            self.value,
            self.value_bias,
            out,
        )
        return out


def pack(arrays: dict[str, npt.NDArray[np.float32]], card: str = "") -> Network:
    """A :class:`Network` from its named arrays (as ``policy.npz`` stores them).

    :raises BoardlabError: when an array is missing or the shapes do not fit together.
    """
    try:
        first = np.ascontiguousarray(arrays["first"], np.float32)
        hidden = np.ascontiguousarray(arrays["hidden"], np.float32)
        net = Network(
            first,
            np.ascontiguousarray(arrays["first_bias"], np.float32),
            hidden,
            np.ascontiguousarray(arrays["hidden_bias"], np.float32),
            np.ascontiguousarray(arrays["head"], np.float32),
            float(np.asarray(arrays["head_bias"]).reshape(-1)[0]),
            float(np.asarray(arrays["alpha"]).reshape(-1)[0]),
            np.ascontiguousarray(arrays.get("value", np.zeros(first.shape[-1])), np.float32),
            float(np.asarray(arrays.get("value_bias", 0.0)).reshape(-1)[0]),
            card,
        )
    except KeyError as exc:
        raise BoardlabError(f"the network has no array {exc}") from None
    c = first.shape[-1] if first.ndim == 3 else -1  # noqa: PLR2004
    expected = {
        "first": (len(TAPS), PLANES, c),
        "first_bias": (c,),
        "hidden": (hidden.shape[0], len(TAPS), c, c),
        "hidden_bias": (hidden.shape[0], c),
        "head": (c,),
        "value": (c,),
    }
    for name, shape in expected.items():
        if getattr(net, name).shape != shape:
            raise BoardlabError(
                f"the network's {name} has shape {getattr(net, name).shape}, expected {shape}"
            )
    return net


@cache
@cache
def one_blas_thread() -> None:
    """Hold BLAS to one thread in this process (the forward pass's matrix products run
    in scipy's BLAS, which numba's ``np.dot`` calls; at 32 channels OpenBLAS would
    otherwise spread them over every core, and the engine thinks on one)."""
    import scipy.linalg.cython_blas  # noqa: F401  (loads the BLAS that np.dot calls)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")


def load_network(path: str = "") -> Network:
    """The network in the file at ``path`` (by default the one shipped with boardlab).

    :raises BoardlabError: when the file cannot be read or its arrays do not fit.
    """
    from importlib.resources import files

    source = Path(path) if path else files("boardlab.hex").joinpath("data", NETWORK_FILE)
    name = path or NETWORK_FILE
    try:
        with source.open("rb") as stream:
            stored = np.load(stream)
            arrays = {key: stored[key] for key in stored.files}
    except (OSError, EOFError, ValueError, zipfile.BadZipFile) as exc:
        raise BoardlabError(f"{name}: cannot read the network: {exc}") from None
    card = str(arrays.pop("card", ""))
    try:
        return pack(arrays, card)
    except BoardlabError as exc:
        raise BoardlabError(f"{name}: {exc}") from None


@jit
def input_planes(board: I8, n: int, player: int, last: int, pattern: F64, out: F32) -> None:
    """Write the input planes of ``board`` for ``player`` to move into ``out``
    (``PLANES x (n + 2) x (n + 2)``). ``pattern`` holds each cell's pattern score (read
    at the empty cells only); ``last`` is the opponent's last move (-1: none)."""
    side = n + 2
    out[:, :side, :side] = 0.0
    for k in range(1, n + 1):
        out[OWN_PLANE, k, 0] = 1.0
        out[OWN_PLANE, k, n + 1] = 1.0
        out[THEIR_PLANE, 0, k] = 1.0
        out[THEIR_PLANE, n + 1, k] = 1.0
    total = 0.0
    empties = 0
    for cell in range(n * n):
        if board[cell] == 0:
            total += pattern[cell]
            empties += 1
    mean = total / empties if empties else 0.0
    second = player == 2  # noqa: PLR2004
    for cell in range(n * n):
        row, col = cell // n, cell % n
        if second:
            row, col = col, row
        r, c = row + 1, col + 1
        out[BOARD_PLANE, r, c] = 1.0
        v = board[cell]
        if v == 0:
            out[EMPTY_PLANE, r, c] = 1.0
            out[PATTERN_PLANE, r, c] = pattern[cell] - mean
        elif v == player:
            out[OWN_PLANE, r, c] = 1.0
        else:
            out[THEIR_PLANE, r, c] = 1.0
        if cell == last:
            out[LAST_PLANE, r, c] = 1.0


@jit_fast
def _hex_conv(source: F32, side: int, weights: F32, bias: F32, columns: F32, out: F32) -> None:
    """``out[p] = bias + sum over taps t and inputs i of source[p + t, i] * weights[t, i]``
    on a ``side x side`` grid stored cell-major (``p = row * side + col``), zero past
    it: the taps' inputs gathered into ``columns`` (cells x taps * inputs, contiguous),
    then one matrix product with the weights (taps * inputs x outputs) by BLAS
    (``np.dot``; numba calls scipy's single-threaded ``sgemm`` at these sizes)."""
    width_in = source.shape[1]
    width = bias.shape[0]
    taps = _TAP_DR.shape[0]
    depth = taps * width_in
    for r in range(side):
        for c in range(side):
            p = r * side + c
            for t in range(taps):
                rr = r + _TAP_DR[t]
                cc = c + _TAP_DC[t]
                base = t * width_in
                if 0 <= rr < side and 0 <= cc < side:
                    q = rr * side + cc
                    for i in range(width_in):
                        columns[p, base + i] = source[q, i]
                else:
                    for i in range(width_in):
                        columns[p, base + i] = 0.0
    matrix = np.ascontiguousarray(weights.reshape((depth, width)))
    out[:, :] = np.dot(columns, matrix)
    for p in range(side * side):
        for o in range(width):
            out[p, o] += bias[o]


@jit_fast
def policy_logits(
    planes: F32,
    n: int,
    player: int,
    first: F32,
    first_bias: F32,
    hidden: F32,
    hidden_bias: F32,
    head: F32,
    head_bias: float,
    alpha: float,
    value: F32,
    value_bias: float,
    out: F32,
) -> None:
    """Write the policy logit of every board cell into ``out`` (the first ``n * n``
    entries, in the board's frame), then, when ``out`` has room, the value logit (the
    mover's winning chance): ``planes`` as :func:`input_planes` made them for ``player``
    to move, the weights as :class:`Network` holds them."""
    side = n + 2
    cells = side * side
    width = first_bias.shape[0]
    source = np.empty((cells, PLANES), np.float32)
    for k in range(PLANES):
        for r in range(side):
            for c in range(side):
                source[r * side + c, k] = planes[k, r, c]
    h = np.empty((cells, width), np.float32)
    taps = _TAP_DR.shape[0]
    _hex_conv(source, side, first, first_bias, np.empty((cells, taps * PLANES), np.float32), h)
    for p in range(cells):
        for o in range(width):
            if h[p, o] < 0.0:
                h[p, o] = 0.0
    step = np.empty((cells, width), np.float32)
    columns = np.empty((cells, taps * width), np.float32)
    for layer in range(hidden.shape[0]):
        _hex_conv(h, side, hidden[layer], hidden_bias[layer], columns, step)
        for p in range(cells):
            for o in range(width):
                v = h[p, o] + step[p, o]
                h[p, o] = v if v > 0.0 else 0.0
    for r in range(n):
        for c in range(n):
            p = (r + 1) * side + c + 1
            total = head_bias + alpha * planes[PATTERN_PLANE, r + 1, c + 1]
            for o in range(width):
                total += h[p, o] * head[o]
            if player == 2:  # noqa: PLR2004
                out[c * n + r] = total
            else:
                out[r * n + c] = total
    if out.shape[0] > n * n:
        total = 0.0
        for r in range(n):
            for c in range(n):
                p = (r + 1) * side + c + 1
                for o in range(width):
                    total += h[p, o] * value[o]
        out[n * n] = value_bias + total / (n * n)


def frame_cell(cell: int, n: int, player: int) -> int:
    """The index in the network's frame (as :func:`policy_logits` writes it) of board
    cell ``cell`` for ``player`` to move."""
    if player == 2:  # noqa: PLR2004
        row, col = divmod(cell, n)
        return col * n + row
    return cell


def reference_logits(net: Network, board: I8, n: int, player: int, last: int, pattern: F64) -> F64:
    """The logit of every board cell (in the board's frame), then the value logit,
    computed in plain numpy one cell and one tap at a time: the oracle of
    :func:`policy_logits`."""
    side = n + 2
    planes = np.zeros((PLANES, side, side), np.float32)
    input_planes(board, n, player, last, pattern, planes)

    def conv(x: F64, weights: F64, bias: F64) -> F64:
        y = np.zeros((side, side, bias.shape[0]))
        for r in range(side):
            for c in range(side):
                acc = bias.astype(np.float64).copy()
                for t, (dr, dc) in enumerate(TAPS):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < side and 0 <= cc < side:
                        acc += x[rr, cc] @ weights[t]
                y[r, c] = acc
        return y

    x = np.moveaxis(planes.astype(np.float64), 0, -1)
    h = np.maximum(conv(x, net.first.astype(np.float64), net.first_bias.astype(np.float64)), 0)
    for layer in range(net.layers):
        step = conv(
            h, net.hidden[layer].astype(np.float64), net.hidden_bias[layer].astype(np.float64)
        )
        h = np.maximum(h + step, 0)
    logits = np.zeros(n * n + 1)
    inner = h[1 : n + 1, 1 : n + 1].reshape(n * n, -1)
    logits[n * n] = net.value_bias + float(inner.mean(axis=0) @ net.value.astype(np.float64))
    for cell in range(n * n):
        row, col = divmod(frame_cell(cell, n, player), n)
        logits[cell] = (
            h[row + 1, col + 1] @ net.head.astype(np.float64)
            + net.head_bias
            + net.alpha * planes[PATTERN_PLANE, row + 1, col + 1]
        )
    return logits
