"""Prover layer: every move of a position classified by an engine's worker processes.

The interface layer builds the engine (:class:`boardlab.cluster.process_engine.ProcessEngine`
for ``--jobs``) and passes it in; each move is one task, proven by a DFPN search
(:class:`boardlab.hex.prover.dfpn.Dfpn`) in the order given (the centre first). Each
worker keeps its search from one task to the next, so a position it proved for one move
(or a stored proof that covers it) settles it for the later ones; workers share nothing
with each other. When the position is its own 180-degree rotation, a move and its
rotated twin have the same value and only one of them is searched. Moves that another
move dominates are searched last, and only those the first moves' values do not settle
(:meth:`boardlab.hex.prover.dfpn.Dfpn.settled_by_domination`). The time limit is one
deadline for all; a node limit is shared out evenly between the moves searched, so all
of them together stay within it. The moves are classified by the one loop of
:func:`boardlab.hex.prover.classify.classify`, whose prove step here submits a whole
phase as tasks before it fetches any.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from boardlab.core.limits import Budget, Limit
from boardlab.core.tasks import Engine
from boardlab.hex.board import rotated
from boardlab.hex.prover.classify import classify

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = ["classify_moves"]

# A worker's search is dropped (and started afresh) past this many analysed positions.
KEEP_ANALYSED = 2_000_000
_searches: dict[int, Dfpn] = {}


def _prove(
    size: int, black: int, white: int, player: int, deadline: float | None, nodes: int | None
) -> tuple[bool | None, int]:
    """``(player to move wins, analysed positions)`` in a worker; None past the limit
    (``deadline`` a ``time.time()`` value, so a move that waited its turn gets less)."""
    from boardlab.hex.prover.dfpn import Dfpn, OutOfBudgetError

    seconds = None if deadline is None else deadline - time.time()
    if seconds is not None and seconds <= 0:
        return None, 0
    budget = Limit(time=seconds, nodes=nodes).start()
    search = _searches.get(size)
    if search is None or search.analysed > KEEP_ANALYSED:
        search = Dfpn(size, budget)
        _searches[size] = search
    search.charge(budget)
    before = search.analysed
    try:
        return search.prove(black, white, player), search.analysed - before
    except OutOfBudgetError:
        return None, search.analysed - before


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
    each proven by a task on ``engine`` unless a rotated twin or a domination settles it;
    past ``budget`` the moves left are neither winning nor losing and ``complete`` is
    False."""
    from boardlab.hex.prover.dfpn import Dfpn
    from boardlab.hex.prover.verdicts import warm

    warm()  # compiled (or loaded from numba's cache) here, before workers are forked
    remaining = budget.remaining
    deadline = None if remaining is None else time.time() + remaining
    local = Dfpn(size, budget)
    order = local.classification_order(black, white, player)
    wanted = set(moves)
    order = [cell for cell in order if cell in wanted]
    twin = _twins(local, black, white)
    searched = [cell for cell in order if twin.get(cell, cell) >= cell or twin[cell] not in order]
    nodes = budget.limit.nodes
    share = None if nodes is None else max(1, nodes // max(1, len(searched)))
    analysed = 0
    other = 3 - player

    def prove(cells: list[int]) -> list[bool | None]:
        """One task a move on ``engine``, all of them submitted before any is fetched."""
        nonlocal analysed
        handles = []
        for cell in cells:
            b = 1 << cell
            cb, cw = (black | b, white) if player == 1 else (black, white | b)
            handles.append(engine.submit(_prove, (size, cb, cw, other, deadline, share)))
        values: list[bool | None] = []
        for opponent_wins, count in engine.fetch(handles):
            analysed += count
            values.append(None if opponent_wins is None else not opponent_wins)
        return values

    done = classify(
        local.classification_phases(searched),
        local.settled_by_domination,
        prove,
        batch=None,
        twin={cell: twin[cell] for cell in order if cell in twin},
    )
    return done.winning, done.losing, done.complete, analysed


def _twins(search: Dfpn, black: int, white: int) -> dict[int, int]:
    """Each cell's 180-degree rotated twin when the position is its own rotation (then a
    move and its twin have the same value), else no pairs."""
    if search.reverse(black) != black or search.reverse(white) != white:
        return {}
    return {cell: rotated(cell, search.n) for cell in range(search.n * search.n)}
