"""Board layer: sets of cells as tuples of ``uint64`` words, one source for every board size.

A set of cells of an ``n x n`` board is a tuple of ``words(n)`` ``uint64`` words: cell
``c`` is bit ``c % 64`` of word ``c // 64``. One word holds every board up to 8x8 (64
cells), two words every board up to 11x11 (121 cells and the two edge nodes of an
H-search); the engine's 13x13 (169 cells) would take three. A table of sets (the
neighbours of each cell, a list of carriers) is a ``uint64`` array of one row per set and
one column per word.

Every operation here is written once for any number of words: numba compiles each
kernel that calls them once per tuple width it is handed (a one-word and a two-word
machine-code version of the same source), and the loops over the words unroll, so the
one-word version is the single-``uint64`` code. The width of a result comes from an
argument (``like``: any set of the same width). Called from plain Python (a kernel's
``py_func`` twin, or ``NUMBA_DISABLE_JIT=1``) the same functions run as Python on tuples
of ``np.uint64``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.bits import popcount, trailing_zeros
from boardlab.core.jit import jit, jit_borrow

__all__ = [
    "Cells",
    "as_int",
    "as_words",
    "cut",
    "every",
    "flood",
    "has",
    "is_empty",
    "join",
    "lowest",
    "meets",
    "minus",
    "nothing",
    "only",
    "put_row",
    "put_row_at",
    "row",
    "row_at",
    "size",
    "spread",
    "within",
    "words",
]

Cells = tuple[np.uint64, ...]
Rows = npt.NDArray[np.uint64]

_Z = np.uint64(0)
_ONE = np.uint64(1)
_LOW6 = np.uint64(63)
#: Bits in a word.
_WORD = 64


def words(n: int) -> int:
    """The words a set of cells of an ``n x n`` board takes (with two spare bits for the
    edge nodes of an H-search up to 11x11): 1 up to 8x8, else enough for ``n * n``."""
    return 1 if n * n <= _WORD else (n * n + 2 + _WORD - 1) // _WORD


def as_words(cells: int, width: int) -> Cells:
    """A set of cells (bit ``c`` for cell ``c``) as ``width`` words."""
    return tuple(np.uint64(cells >> (64 * i) & (2**64 - 1)) for i in range(width))


def as_int(words_: Cells | npt.NDArray[np.uint64]) -> int:
    """A set's words (numba may hand them back as Python ints) as one Python int."""
    return sum(int(w) << (64 * i) for i, w in enumerate(words_))


def _setitem(t: Cells, i: int, v: np.uint64) -> Cells:
    """``t`` with word ``i`` replaced by ``v`` (plain Python; numba uses its intrinsic)."""
    return (*t[:i], v, *t[i + 1 :])


def _overload_setitem() -> None:
    from numba.core.extending import overload
    from numba.cpython.unsafe.tuple import tuple_setitem

    @overload(_setitem)
    def _setitem_nb(t: Any, i: Any, v: Any) -> Any:
        def impl(t: Any, i: Any, v: Any) -> Any:
            return tuple_setitem(t, i, v)  # type: ignore[call-arg]

        return impl


_overload_setitem()


@jit
def nothing(like: Cells) -> Cells:
    """The empty set of the width of ``like``."""
    out = like
    for i in range(len(like)):
        out = _setitem(out, i, _Z)
    return out


@jit
def only(like: Cells, c: int) -> Cells:
    """The set of the one cell ``c``, of the width of ``like``."""
    if len(like) == 1:  # no word to choose
        return _setitem(like, 0, _ONE << np.uint64(c))
    out = like
    word = c >> 6
    for i in range(len(like)):
        out = _setitem(out, i, _ONE << (np.uint64(c) & _LOW6) if i == word else _Z)
    return out


@jit
def every(like: Cells, cells: int) -> Cells:
    """The cells ``0 .. cells - 1``, of the width of ``like``."""
    out = nothing(like)
    for i in range(len(like)):
        rest = cells - 64 * i
        if rest >= _WORD:
            out = _setitem(out, i, ~_Z)
        elif rest > 0:
            out = _setitem(out, i, (_ONE << np.uint64(rest)) - _ONE)
    return out


@jit
def has(a: Cells, c: int) -> bool:
    """Is cell ``c`` in ``a``?"""
    if len(a) == 1:  # no word to choose
        return bool((a[0] >> np.uint64(c)) & _ONE != _Z)
    word = c >> 6
    for i in range(len(a)):
        if i == word:
            return bool((a[i] >> (np.uint64(c) & _LOW6)) & _ONE != _Z)
    return False


@jit
def cut(a: Cells, b: Cells) -> Cells:
    """The cells in both."""
    out = a
    for i in range(len(a)):
        out = _setitem(out, i, a[i] & b[i])
    return out


@jit
def join(a: Cells, b: Cells) -> Cells:
    """The cells in either."""
    out = a
    for i in range(len(a)):
        out = _setitem(out, i, a[i] | b[i])
    return out


@jit
def minus(a: Cells, b: Cells) -> Cells:
    """The cells of ``a`` not in ``b``."""
    out = a
    for i in range(len(a)):
        out = _setitem(out, i, a[i] & ~b[i])
    return out


@jit
def is_empty(a: Cells) -> bool:
    for i in range(len(a)):  # noqa: SIM110 (numba compiles no generator)
        if a[i] != _Z:
            return False
    return True


@jit
def within(a: Cells, b: Cells) -> bool:
    """Is ``a`` a subset of ``b``?"""
    for i in range(len(a)):  # noqa: SIM110 (numba compiles no generator)
        if a[i] & ~b[i] != _Z:
            return False
    return True


@jit
def meets(a: Cells, b: Cells) -> bool:
    """Do ``a`` and ``b`` share a cell?"""
    for i in range(len(a)):  # noqa: SIM110 (numba compiles no generator)
        if a[i] & b[i] != _Z:
            return True
    return False


@jit
def size(a: Cells) -> int:
    """The number of cells."""
    total = 0
    for i in range(len(a)):
        total += popcount(a[i])
    return total


@jit
def lowest(a: Cells) -> int:
    """The lowest cell of ``a``; -1 if it is empty."""
    for i in range(len(a)):
        w = a[i]
        if w != _Z:
            return 64 * i + trailing_zeros(w)
    return -1


@jit_borrow
def row(rows: Rows, r: int, like: Cells) -> Cells:
    """Row ``r`` of a table of sets, of the width of ``like``."""
    return row_at(rows, r, 0, like)


@jit_borrow
def row_at(rows: Rows, r: int, col: int, like: Cells) -> Cells:
    """The set in row ``r`` of ``rows`` from column ``col`` on, of the width of ``like``."""
    out = like
    for i in range(len(like)):
        out = _setitem(out, i, rows[r, col + i])
    return out


@jit_borrow
def put_row(rows: Rows, r: int, a: Cells) -> None:
    """Store ``a`` in row ``r`` of a table of sets."""
    put_row_at(rows, r, 0, a)


@jit_borrow
def put_row_at(rows: Rows, r: int, col: int, a: Cells) -> None:
    """Store ``a`` in row ``r`` of ``rows`` from column ``col`` on."""
    for i in range(len(a)):
        rows[r, col + i] = a[i]


@jit_borrow
def spread(nbr: Rows, a: Cells) -> Cells:
    """The cells next to some cell of ``a`` (``nbr``: each cell's neighbours, a row each)."""
    out = nothing(a)
    for i in range(len(a)):
        w = a[i]
        while w != _Z:
            c = trailing_zeros(w) + 64 * i
            out = join(out, row(nbr, c, a))
            w &= w - _ONE
    return out


@jit_borrow
def flood(nbr: Rows, start: Cells, allowed: Cells) -> Cells:
    """The cells of ``allowed`` joined to ``start`` through ``allowed`` (``start``
    itself included)."""
    group = start
    while True:
        grown = join(group, cut(spread(nbr, group), allowed))
        if grown == group:
            return group
        group = grown
