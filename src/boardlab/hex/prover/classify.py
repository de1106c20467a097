"""Prover layer: the one loop that classifies a position's moves, its prove step plugged in.

Every move of a position is winning, losing or (past the limit) unknown. The moves come
in phases (:meth:`boardlab.hex.prover.dfpn.Dfpn.classification_order`: the moves no other
move dominates first, then the dominated ones); a move that the values known so far
settle (``settle``: :meth:`~boardlab.hex.prover.dfpn.Dfpn.settled_by_domination`) is
not searched, the others go to the *prove step*, which returns their values. How the
moves are proven is the caller's: one search in this process, one move at a time
(:func:`boardlab.hex.prover.solver.solve_dfpn`, ``batch=1``, so each value settles the
moves after it), or a whole phase at once as tasks on worker processes
(:mod:`boardlab.hex.prover.parallel`, ``batch=None``). After each batch a move's
180-degree twin (``twin``, when the position is its own turn) takes its value.

>>> def prove(cells):
...     return [cell == 1 for cell in cells]
>>> def settle(cell, winning, losing):
...     return False if cell == 2 and winning else None
>>> classify([[1, 0], [2]], settle, prove)
Classification(winning=[1], losing=[0, 2], complete=True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Classification", "OutOfBudgetError", "Prove", "Settle", "classify"]

#: The prove step: the values of the moves handed to it (True: the move wins, False: it
#: loses, None: not proven within the limit), in their order.
Prove = Callable[[list[int]], list[bool | None]]
#: A move's value from the moves classified so far (winning, losing), None if unsettled.
Settle = Callable[[int, list[int], list[int]], bool | None]


class OutOfBudgetError(Exception):
    """The search ran out of its limit (a prove step may raise it: the loop stops)."""


@dataclass(frozen=True, slots=True)
class Classification:
    """The winning and the losing moves (in the order classified) and whether every move
    got its value."""

    winning: list[int]
    losing: list[int]
    complete: bool


def classify(
    phases: Sequence[Sequence[int]],
    settle: Settle,
    prove: Prove,
    batch: int | None = 1,
    first_win: bool = False,
    twin: dict[int, int] | None = None,
) -> Classification:
    """The moves of ``phases`` classified, each phase in order.

    Each move is settled (``settle``, from the values of the batches before it) or handed
    to ``prove``, in batches of ``batch`` moves (None: a whole phase); a batch's values
    are known to the moves after it. With ``first_win`` the loop stops at the first
    winning move (then it is not complete). A prove step that raises
    :class:`OutOfBudgetError` stops the loop with what was classified. With ``twin``,
    after each batch every move of ``twin`` without a value takes its twin's.
    """
    twin = twin or {}
    value: dict[int, bool | None] = {}
    winning: list[int] = []
    losing: list[int] = []
    stopped = False

    def record(cell: int) -> None:
        if value[cell] is True:
            winning.append(cell)
        elif value[cell] is False:
            losing.append(cell)

    def flush(walked: list[int], pending: list[int]) -> None:
        if pending:
            value.update(zip(pending, prove(pending), strict=True))
        for cell in walked:
            record(cell)
        for cell, other in twin.items():
            if cell not in value and other in value:
                value[cell] = value[other]
                record(cell)
        walked.clear()
        pending.clear()

    try:
        for phase in phases:
            walked: list[int] = []
            pending: list[int] = []
            for cell in phase:
                if first_win and winning:
                    stopped = True
                    break
                known = settle(cell, winning, losing)
                walked.append(cell)
                if known is None:
                    pending.append(cell)
                else:
                    value[cell] = known
                if batch is not None and len(walked) >= batch:
                    flush(walked, pending)
            if stopped:
                break
            flush(walked, pending)
    except OutOfBudgetError:
        stopped = True
    complete = not stopped and all(known is not None for known in value.values())
    return Classification(winning, losing, complete)
