"""Core layer: bit tricks on ``uint64`` words for the numba kernels (compiled on import).

Imported by kernel modules only, so commands that need no kernel never load numba.
Compiled, :func:`popcount` and :func:`trailing_zeros` are the processor's own
instructions (LLVM's ``ctpop`` and ``cttz``, plain arithmetic where a processor has
none); their ``.py_func`` twins (and ``NUMBA_DISABLE_JIT=1``) count in Python.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import intrinsic, overload

from boardlab.core.jit import jit

__all__ = ["popcount", "trailing_zeros"]


def _ones(x: np.uint64) -> int:
    """The set bits of ``x`` (Python; compiled code uses LLVM's ``ctpop``)."""
    return bin(int(x)).count("1")


def _zeros_below(x: np.uint64) -> int:
    """The zero bits below the lowest set bit of ``x``, 64 for 0 (Python; compiled code
    uses LLVM's ``cttz``)."""
    v = int(x)
    return 64 if v == 0 else (v & -v).bit_length() - 1


def _llvm_bit_count(name: str) -> Any:
    """A numba intrinsic applying IRBuilder's ``ctpop`` or ``cttz`` to a ``uint64``."""

    def typer(typingctx: Any, x: Any) -> Any:
        if not isinstance(x, types.Integer):
            return None

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            word = context.get_value_type(types.uint64)
            value = args[0] if args[0].type == word else builder.zext(args[0], word)
            if name == "ctpop":
                return builder.ctpop(value)
            return builder.cttz(value, context.get_constant(types.boolean, False))

        return types.uint64(x), codegen

    typer.__name__ = f"_llvm_{name}"
    return intrinsic(typer)


_ctpop = _llvm_bit_count("ctpop")
_cttz = _llvm_bit_count("cttz")


@overload(_ones)
def _ones_compiled(x: Any) -> Any:
    def impl(x: Any) -> Any:
        return _ctpop(x)

    return impl


@overload(_zeros_below)
def _zeros_below_compiled(x: Any) -> Any:
    def impl(x: Any) -> Any:
        return _cttz(x)

    return impl


@jit
def popcount(x: np.uint64) -> int:
    """The set bits of a ``uint64`` word."""
    return int(_ones(np.uint64(x)))


@jit
def trailing_zeros(x: np.uint64) -> int:
    """The index of the lowest set bit of a ``uint64`` word (64 if it is zero)."""
    return int(_zeros_below(np.uint64(x)))
