"""Prover layer: exact Hex solving, DFPN with H-search up to 11x11, alpha-beta above.

Boards of at most 64 cells are solved by depth-first proof-number search
(:mod:`boardlab.hex.prover.dfpn`) whose every position is analysed by a numba kernel
(:mod:`boardlab.hex.prover.verdicts`): bounded H-search virtual connections for both
players (AND/OR rules over carriers), dead-cell fill-in and the must-play region. Boards
of up to 121 cells get the same search on two-word cell sets, the same kernels compiled
for that width (:mod:`boardlab.hex.prover.wide`); larger ones the alpha-beta search of
:mod:`boardlab.hex.prover.alphabeta`.
Both honour a :class:`~boardlab.core.limits.Limit` (time and/or nodes) and return a
:class:`~boardlab.hex.prover.result.SolveResult`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Budget, Limit
from boardlab.hex.board import centre_order
from boardlab.hex.prover.alphabeta import solve_alphabeta
from boardlab.hex.prover.regions import region_fill
from boardlab.hex.prover.result import SolveResult, format_result
from boardlab.hex.rules import BLACK, WHITE, Position

if TYPE_CHECKING:
    from boardlab.core.tasks import Engine
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = [
    "MAX_CELLS",
    "SolveResult",
    "format_result",
    "new_search",
    "solve",
    "solve_alphabeta",
    "solve_dfpn",
]

MAX_CELLS = 64  # the DFPN solver's own kernels' carriers are 64-bit sets
MAX_WIDE_CELLS = 121  # past them, the shared two-word kernel (hex.prover.wide), to 11x11


def solve(
    position: Position,
    limit: Limit | None = None,
    all_moves: bool = True,
    checkpoint: Path | None = None,
    engine: Engine | None = None,
    mustplay: bool = False,
    memory: int | None = None,
    search: Dfpn | None = None,
    workdir: Path | None = None,
) -> SolveResult:
    """Solve ``position`` for the side to move.

    With ``all_moves`` every legal move is classified (the complete list of winning
    moves); otherwise the search stops at the first winning move. Boards up to 11x11 are
    solved by DFPN with H-search (``nodes`` counts its analysed positions, each charged
    as 50 nodes against a node limit), larger ones by
    alpha-beta with simple virtual connections. A search that runs out of ``limit``
    returns what it proved so far with ``complete`` False (``winner`` None if unknown).
    A ``checkpoint`` file (DFPN only) is read first if it exists and written every few
    minutes and at the end, so a long proof can go on over several runs.

    With ``mustplay`` (and ``all_moves``; DFPN only) the question is MoHex's
    ``dfpn-solver-find-winning``: only the moves of the root's must-play set are
    classified, those left after its inferior-cell analysis and outside the regions one
    player captures (:mod:`boardlab.hex.prover.regions`, filled before the search), and
    the others come back as ``pruned_moves``. Each pruned move loses (it leaves an
    opponent's connection whole) or is no better than a considered one, so the winning
    moves found are winning moves of the position, and when none of them wins, no pruned
    move does either.

    ``memory`` is the DFPN's budget in bytes the process may grow by (default: most of
    the memory free now); past it the search stops as past ``limit``, and the result
    says which stopped it (``stopped``).

    A ``search`` (DFPN only: a :class:`~boardlab.hex.prover.dfpn.Dfpn` of the board's
    size, :class:`~boardlab.hex.prover.wide.WideDfpn` past 8x8, from :func:`new_search`)
    is searched on under ``limit`` instead of a fresh one: what it proved for earlier
    positions (of a game, say) serves this one. ``memory`` is then the search's own.

    With an ``engine`` of workers and not ``all_moves`` (boards up to 11x11), the position
    is proven by the workers at once (:mod:`boardlab.hex.prover.jobs`), with their store
    of proven positions in ``workdir`` when given (a later run on it starts from what
    this one proved).

    The DFPN's kernels are compiled (or loaded from numba's cache) before ``limit``'s
    clock starts, so a first call on a fresh install is not charged the compilation.
    """
    cells = position.size * position.size
    if cells <= MAX_WIDE_CELLS:
        from boardlab.hex.prover.verdicts import warm

        warm()
    if cells <= MAX_CELLS:
        return solve_dfpn(
            position, limit, all_moves, checkpoint, engine, mustplay, memory, search, workdir
        )
    if checkpoint is not None:
        raise BoardlabError("checkpoints are kept by the DFPN solver only (boards up to 8x8)")
    if cells <= MAX_WIDE_CELLS:
        return solve_dfpn(
            position, limit, all_moves, None, engine, mustplay, memory, search, workdir
        )
    if workdir is not None:
        raise BoardlabError("a work folder is kept by the workers' search (boards up to 11x11)")
    if engine is not None:
        raise BoardlabError("an engine of workers takes boards up to 11x11")
    if mustplay:
        raise BoardlabError("the must-play question is answered on boards up to 11x11")
    return solve_alphabeta(position, limit, all_moves)


def new_search(size: int, memory: int | None = None) -> Dfpn:
    """A DFPN search for :func:`solve`'s ``search`` on boards of ``size`` (up to 11x11),
    kept from one call to the next; ``memory`` bytes the process may grow by meanwhile."""
    from boardlab.hex.prover.verdicts import warm

    if size * size > MAX_WIDE_CELLS:
        raise BoardlabError(f"the DFPN solver takes boards up to 11x11, not {size}x{size}")
    warm()
    from boardlab.hex.prover.wide import fresh_search

    return fresh_search(size, Limit().start(), memory)


def solve_dfpn(
    position: Position,
    limit: Limit | None = None,
    all_moves: bool = True,
    checkpoint: Path | None = None,
    engine: Engine | None = None,
    mustplay: bool = False,
    memory: int | None = None,
    search: Dfpn | None = None,
    workdir: Path | None = None,
) -> SolveResult:
    """:func:`solve` by DFPN with H-search (boards of at most 121 cells: past 64 the
    shared two-word kernel, :mod:`boardlab.hex.prover.wide`).

    With an ``engine`` (workers, e.g. :class:`boardlab.cluster.process_engine.ProcessEngine`)
    and ``all_moves``, each move is proven by a task on it
    (:mod:`boardlab.hex.prover.parallel`; no checkpoint then).

    :raises BoardlabError: when the board has more than 64 cells, or for a checkpoint
        with an engine.
    """
    from boardlab.hex.prover.classify import classify
    from boardlab.hex.prover.dfpn import OutOfBudgetError
    from boardlab.hex.prover.wide import WideDfpn, fresh_search

    budget = (limit or Limit()).start()
    size = position.size
    player = position.to_move
    if size * size > MAX_WIDE_CELLS:
        raise BoardlabError(f"the DFPN solver takes boards up to 11x11, not {size}x{size}")
    if position.winner is not None:
        return SolveResult(position.winner, player, (), (), True, 0, budget.elapsed)
    black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
    wide = size * size > MAX_CELLS
    if wide and checkpoint is not None:
        raise BoardlabError("a checkpoint is kept on boards up to 8x8")
    if wide and engine is not None and all_moves:
        raise BoardlabError(
            "workers prove every move on boards up to 8x8; past 8x8 they prove the position "
            "together (--first)"
        )
    if engine is not None and all_moves and not mustplay:
        if checkpoint is not None:
            raise BoardlabError(
                "a checkpoint is kept by a one-job search only, not with an engine of workers"
            )
        return _solve_in_parallel(position, black, white, budget, engine)
    if engine is not None and not all_moves:
        if checkpoint is not None or search is not None or mustplay:
            raise BoardlabError(
                "the workers' search keeps its proofs in a work folder: no checkpoint, "
                "kept search or must-play question with it"
            )
        return _solve_by_jobs(position, black, white, budget, engine, workdir, memory)
    if workdir is not None:
        raise BoardlabError("a work folder is kept by the workers' search (an engine of workers)")
    if search is None:
        search = fresh_search(size, budget, memory, checkpoint)
    elif checkpoint is not None:
        raise BoardlabError("a checkpoint is kept by a fresh search only, not a kept one")
    elif search.n != size or isinstance(search, WideDfpn) != wide:
        raise BoardlabError(f"a kept search of {search.n}x{search.n} cannot solve this board")
    else:
        search.charge(budget)
    other = 3 - player
    winning: list[int] = []
    losing: list[int] = []
    pruned: list[int] = []
    root_wins: bool | None = None
    complete = True
    # captured regions filled by their captors: the same value, and the same for every
    # move outside them (hex.prover.regions), so the search starts from the filled root;
    # past 64 cells each move classified gets its own regions too (9x9 case 174 of
    # MoHex's suite: 25.7 s instead of 34.5 s; on 7x7 they cost more than they save)
    regions = region_fill(size, black, white, budget.exhausted)
    # a move in a region, or on a captured pair the regions were found with, is judged
    # on the position as given (hex.prover.regions.RegionFill)
    as_given = regions.cells | regions.pairs
    root_black, root_white = black | regions.black, white | regions.white

    def child(cell: int) -> tuple[int, int]:
        b = 1 << cell
        base_black, base_white = (
            (black, white) if as_given >> cell & 1 else (root_black, root_white)
        )
        if player == BLACK:
            base_black |= b
        else:
            base_white |= b
        if not wide:  # on 64 cells the region search costs more than it saves
            return base_black, base_white
        if 0 in search.bounds(
            search.key(base_black, base_white, other), base_black, base_white, other
        ):
            return base_black, base_white  # proven already (by the root's search, say)
        more = region_fill(size, base_black, base_white, budget.exhausted)
        return base_black | more.black, base_white | more.white

    def prove(cells: list[int]) -> list[bool | None]:
        return [not search.prove(*child(cell), other, below=1) for cell in cells]

    try:
        root_wins = search.prove(root_black, root_white, player)
        moves = search.classification_order(black, white, player)
        if not root_wins:
            losing = moves  # a lost position: every move loses
        elif (
            not all_moves
            and (found := search.winning_child(root_black, root_white, player)) is not None
            and not found & as_given
        ):
            winning, complete = [found.bit_length() - 1], False
        else:
            phases = search.classification_phases(moves)
            if mustplay and all_moves:
                considered = search.considered_moves(root_black, root_white, player)
                if considered is not None:
                    phases = [[cell for cell in moves if considered >> cell & 1]]
                    pruned = [cell for cell in moves if not considered >> cell & 1]
            done = classify(
                phases,
                search.settled_by_domination,
                prove,
                first_win=not all_moves,
            )
            winning, losing, complete = done.winning, done.losing, done.complete
    except OutOfBudgetError:
        complete = False
    search.save()
    rank = {cell: i for i, cell in enumerate(search.centre_order)}
    winning.sort(key=rank.__getitem__)
    losing.sort(key=rank.__getitem__)
    winner = None if root_wins is None else (player if root_wins else other)
    return SolveResult.of_indices(
        position, winner, winning, losing, complete, search.analysed, budget.elapsed, pruned
    ).stopped_by(search.stopped)


def _solve_in_parallel(
    position: Position, black: int, white: int, budget: Budget, engine: Engine
) -> SolveResult:
    """Every move of ``position`` proven by a task on ``engine``; the winner follows
    (a winning move found, or every move losing)."""
    from boardlab.hex.prover.parallel import classify_moves

    size, player = position.size, position.to_move
    order = centre_order(size)
    moves = [cell for cell in order if not (black | white) >> cell & 1]
    winning, losing, complete, analysed = classify_moves(
        size, black, white, player, moves, budget, engine
    )
    rank = {cell: i for i, cell in enumerate(order)}
    winning.sort(key=rank.__getitem__)
    losing.sort(key=rank.__getitem__)
    winner = player if winning else (3 - player if complete else None)
    return SolveResult.of_indices(
        position, winner, winning, losing, complete, analysed, budget.elapsed
    )


def _solve_by_jobs(
    position: Position,
    black: int,
    white: int,
    budget: Budget,
    engine: Engine,
    workdir: Path | None,
    memory: int | None,
) -> SolveResult:
    """The winner of ``position`` and a winning move, proven by the workers of ``engine``
    at once (:func:`boardlab.hex.prover.jobs.prove_by_jobs`)."""
    from boardlab.hex.prover.jobs import prove_by_jobs

    player = position.to_move
    found = prove_by_jobs(position.size, black, white, player, budget, engine, workdir, memory)
    winner = None if found.wins is None else (player if found.wins else 3 - player)
    winning = [] if found.move is None else [found.move]
    losing = (
        [c for c in centre_order(position.size) if not (black | white) >> c & 1]
        if found.wins is False
        else []
    )
    return SolveResult.of_indices(
        position,
        winner,
        winning,
        losing,
        found.wins is False,
        found.analysed,
        budget.elapsed,
    ).stopped_by(found.stopped)
