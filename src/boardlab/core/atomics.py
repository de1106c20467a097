"""Core layer: atomic array updates for numba kernels that threads run over shared arrays.

Each function is a plain-Python function (what runs with ``NUMBA_DISABLE_JIT=1``, and
its obviously right twin) with a numba implementation that compiles to one atomic
instruction (``lock cmpxchg``, ``lock xadd``, or a compare-and-swap loop for floats).
Kernels call them where two threads may write one array element at once; a kernel run
by one thread gets the same values from them as from plain updates.
"""

from __future__ import annotations

from typing import Any

import numpy.typing as npt
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

__all__ = ["atomic_add", "compare_and_swap", "release_fence"]


def compare_and_swap(array: npt.NDArray[Any], index: int, expected: Any, new: Any) -> Any:
    """Write ``new`` at ``array[index]`` if it holds ``expected``; returns the value it
    held (``expected`` when the write happened). ``array`` is a 1-D integer array."""
    old = array[index]
    if old == expected:
        array[index] = new
    return old


def atomic_add(array: npt.NDArray[Any], index: int, value: Any) -> None:
    """Add ``value`` to ``array[index]`` (a 1-D integer or float array) as one update."""
    array[index] += value


def release_fence() -> None:
    """Order the writes before it before those after it, as other threads see them (a
    node's children are written before the node points at them); nothing in Python."""


def _pointer(context: Any, builder: Any, array_type: Any, array: Any, index: Any) -> Any:
    ary = context.make_array(array_type)(context, builder, array)
    return _item_pointer(context, builder, array_type, ary, [index], wraparound=False)


def _cas_typer(typingctx: Any, array: Any, index: Any, expected: Any, new: Any) -> Any:
    dtype = array.dtype
    sig = dtype(array, types.intp, dtype, dtype)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _pointer(context, builder, signature.args[0], args[0], args[1])
        pair = builder.cmpxchg(ptr, args[2], args[3], "seq_cst", "seq_cst")
        return builder.extract_value(pair, 0)

    return sig, codegen


def _add_typer(typingctx: Any, array: Any, index: Any, value: Any) -> Any:
    dtype = array.dtype
    sig = types.void(array, types.intp, dtype)
    op = "fadd" if isinstance(dtype, types.Float) else "add"

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ptr = _pointer(context, builder, signature.args[0], args[0], args[1])
        builder.atomic_rmw(op, ptr, args[2], "monotonic")
        return context.get_dummy_value()

    return sig, codegen


def _fence_typer(typingctx: Any) -> Any:
    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.fence("release")
        return context.get_dummy_value()

    return types.void(), codegen


# numba's decorators and helpers carry no types: held as Any for mypy --strict
_item_pointer: Any = cgutils.get_item_pointer
_cas: Any = intrinsic(_cas_typer)
_add: Any = intrinsic(_add_typer)
_fence: Any = intrinsic(_fence_typer)


def _one_dimensional(array: Any) -> bool:
    return isinstance(array, types.Array) and array.ndim == 1 and array.layout in "CA"


@overload(compare_and_swap, inline="always")
def _compare_and_swap_jit(array: Any, index: Any, expected: Any, new: Any) -> Any:
    if not _one_dimensional(array) or not isinstance(array.dtype, types.Integer):
        return None

    def impl(array: Any, index: Any, expected: Any, new: Any) -> Any:
        return _cas(array, index, expected, new)

    return impl


@overload(atomic_add, inline="always")
def _atomic_add_jit(array: Any, index: Any, value: Any) -> Any:
    if not _one_dimensional(array) or not isinstance(array.dtype, (types.Integer, types.Float)):
        return None

    def impl(array: Any, index: Any, value: Any) -> None:
        _add(array, index, value)

    return impl


@overload(release_fence, inline="always")
def _release_fence_jit() -> Any:
    def impl() -> None:
        _fence()

    return impl
