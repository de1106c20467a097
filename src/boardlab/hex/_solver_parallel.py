"""Solver layer: every move of a position classified by an engine's worker processes.

The interface layer builds the engine (:class:`boardlab.cluster.process_engine.ProcessEngine`
for ``--jobs``) and passes it in; each move is one task, proven by its own DFPN search
(:class:`boardlab.hex._solver_dfpn.Dfpn`) in the order given (the centre first). The
workers share nothing, so a move proven in one does not shorten another's search. The
time limit is one deadline for all; a node limit is shared out evenly between the moves,
so all of them together stay within it.
"""

from __future__ import annotations

import time

from boardlab.core.limits import Budget, Limit
from boardlab.core.tasks import Engine

__all__ = ["classify_moves"]


def _prove(
    size: int, black: int, white: int, player: int, deadline: float | None, nodes: int | None
) -> tuple[bool | None, int]:
    """``(player to move wins, analysed positions)`` in a worker; None past the limit
    (``deadline`` a ``time.time()`` value, so a move that waited its turn gets less)."""
    from boardlab.hex._solver_dfpn import Dfpn, OutOfBudgetError

    seconds = None if deadline is None else deadline - time.time()
    if seconds is not None and seconds <= 0:
        return None, 0
    search = Dfpn(size, Limit(time=seconds, nodes=nodes).start())
    try:
        return search.prove(black, white, player), search.analysed
    except OutOfBudgetError:
        return None, search.analysed


def classify_moves(
    size: int,
    black: int,
    white: int,
    player: int,
    moves: list[int],
    budget: Budget,
    engine: Engine,
) -> tuple[list[int], list[int], bool, int]:
    """``(winning, losing, complete, analysed)`` for ``player``'s ``moves`` (cell indices),
    each proven by a task on ``engine``; past ``budget`` the moves left are neither
    winning nor losing and ``complete`` is False."""
    from boardlab.hex._solver_kernel import warm

    warm()  # compiled (or loaded from numba's cache) here, before workers are forked
    remaining = budget.remaining
    deadline = None if remaining is None else time.time() + remaining
    nodes = budget.limit.nodes
    share = None if nodes is None else max(1, nodes // max(1, len(moves)))
    other = 3 - player
    handles = []
    for cell in moves:
        b = 1 << cell
        cb, cw = (black | b, white) if player == 1 else (black, white | b)
        handles.append(engine.submit(_prove, (size, cb, cw, other, deadline, share)))
    winning: list[int] = []
    losing: list[int] = []
    analysed = 0
    complete = True
    for cell, (opponent_wins, count) in zip(moves, engine.fetch(handles), strict=True):
        analysed += count
        if opponent_wins is None:
            complete = False
        elif opponent_wins:
            losing.append(cell)
        else:
            winning.append(cell)
    return winning, losing, complete, analysed
