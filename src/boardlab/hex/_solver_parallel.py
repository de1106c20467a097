"""Solver layer: every move of a position classified by several processes at once.

Each worker process runs its own DFPN search (:class:`boardlab.hex._solver_dfpn.Dfpn`)
and proves the moves it is handed one at a time, in the order given (the centre first),
so two cores classify the first moves of a board in about half the time of one; the
workers share nothing, so a move proven in one does not shorten another's search. The
time limit is one deadline for all; a node limit is shared out evenly between the workers.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from boardlab.core.limits import Budget, Limit

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
    jobs: int,
) -> tuple[list[int], list[int], bool, int]:
    """``(winning, losing, complete, analysed)`` for ``player``'s ``moves`` (cell indices).

    Each move is proven by one of ``jobs`` worker processes, forked here where the
    platform can (the compiled kernels come along; a caller's main module need not be
    import-safe); past ``budget`` the moves left are neither winning nor losing and
    ``complete`` is False.
    """
    other = 3 - player
    winning: list[int] = []
    losing: list[int] = []
    analysed = 0
    complete = True
    nodes = budget.limit.nodes
    share = None if nodes is None else max(1, nodes // jobs)
    from boardlab.hex._solver_kernel import warm

    warm()  # compiled (or loaded from numba's cache) once, before the workers fork
    remaining = budget.remaining
    deadline = None if remaining is None else time.time() + remaining
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: dict[Future[tuple[bool | None, int]], int] = {}
        todo = list(moves)
        while todo or pending:
            while todo and len(pending) < jobs:
                cell = todo.pop(0)
                b = 1 << cell
                cb, cw = (black | b, white) if player == 1 else (black, white | b)
                pending[pool.submit(_prove, size, cb, cw, other, deadline, share)] = cell
            if not pending:
                break
            done, _ = wait(pending, timeout=_poll(budget), return_when=FIRST_COMPLETED)
            for future in done:
                cell = pending.pop(future)
                opponent_wins, count = future.result()
                analysed += count
                if opponent_wins is None:
                    complete = False
                elif opponent_wins:
                    losing.append(cell)
                else:
                    winning.append(cell)
    return winning, losing, complete, analysed


def _poll(budget: Budget) -> float | None:
    """How long to wait for a worker before looking at the clock again."""
    remaining = budget.remaining
    return None if remaining is None else max(0.05, min(1.0, remaining + 0.5))
