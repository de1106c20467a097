"""Player layer: the Hex engine as every front end plays it, the engine and the prover composed.

The engine (:mod:`boardlab.hex.engine`) and the prover (:mod:`boardlab.hex.prover`) never
import each other; this module, above both, joins them:

- :class:`SolvingEngine` is the engine with its exact endgame
  (:meth:`~boardlab.hex.engine.search.MctsEngine.prove_win`) answered by the prover's
  :func:`~boardlab.hex.prover.solver.solve`: the engine of the command line, the web
  page, GTP, matches, reviews and the benchmarks;
- under the swap rule (:data:`boardlab.hex.rules.SWAP_MOVE`): :func:`decide_swap`
  (player 2 swaps when the first stone gives player 1 the better chance: exactly by the
  solver on boards up to 5x5, else by the engine's own value of the position) and
  :func:`choose_move` (every front end's move: the swap decision, the engine's balanced
  opening, :func:`~boardlab.hex.engine.opening.balanced_opening`, or its search);
- :func:`warm_up` loads the kernels of both rooms before a clock starts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from boardlab.core.errors import IllegalMoveError
from boardlab.core.limits import Limit
from boardlab.core.words import counted
from boardlab.hex.engine.opening import balanced_opening
from boardlab.hex.engine.search import MctsEngine, SearchResult
from boardlab.hex.engine.search import warm_up as warm_up_engine
from boardlab.hex.prover.solver import MAX_WIDE_CELLS, new_search, solve
from boardlab.hex.rules import BLACK, SWAP_MOVE, WHITE, Move, Position, move_name

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = [
    "SWAP_SOLVE_SIZE",
    "SWAP_SOLVE_TIME",
    "Choice",
    "SolvingEngine",
    "SwapDecision",
    "choose_move",
    "decide_swap",
    "proven_value",
    "proven_win",
    "warm_up",
    "warm_up_prover",
]

#: The memory a kept DFPN search (:meth:`SolvingEngine.prove_win`) may grow the process by.
KEPT_SEARCH_MEMORY = 512 << 20
#: A kept DFPN search is dropped (and begun afresh) past this many analysed positions.
KEPT_SEARCH_POSITIONS = 1_000_000
#: Swap when player 1's first stone wins more often than this.
_EVEN_CHANCE = 0.5
#: Boards up to this size get the swap decision from the exact solver.
SWAP_SOLVE_SIZE = 5
#: Seconds the solver may spend on the swap decision (all 25 5x5 openings take ~5 s).
SWAP_SOLVE_TIME = 3.0


def proven_win(position: Position, limit: Limit, search: Dfpn | None = None) -> int | None:
    """A move the exact solver proves winning for the side to move within ``limit``
    (the first it finds), None if it proves none; ``search`` a DFPN search kept from
    earlier calls (:func:`~boardlab.hex.prover.solver.new_search`)."""
    result = solve(position, limit, all_moves=False, search=search)
    if result.winner == position.to_move and result.winning_moves:
        return position.index(result.winning_moves[0])
    return None


def proven_value(position: Position, limit: Limit) -> int | None:
    """The exact value of ``position`` for the side to move as the prover finds it
    within ``limit``: +1 a win, -1 a loss, None when it settles nothing (a finished game
    is settled by its winner)."""
    if position.winner is not None:
        return 1 if position.winner == position.to_move else -1
    result = solve(position, limit, all_moves=False)
    if result.winner is None:
        return None
    return 1 if result.winner == position.to_move else -1


class SolvingEngine(MctsEngine):
    """:class:`~boardlab.hex.engine.search.MctsEngine` with its exact endgame: near the
    end of a game on a board up to 8x8 by default (``solver_cells``; ``solver_empties``
    empty cells or fewer) a slice of the limit (``solver_share``) goes to the prover
    (:func:`proven_win`), whose winning move is played at once; the prover's DFPN search
    is kept from move to move. Same parameters and seeds as the engine the front ends
    have always played."""

    #: The DFPN search kept between moves (see :meth:`prove_win`).
    _kept_search: Dfpn | None = None

    def search(self, position: Position, limit: Limit | None = None) -> SearchResult:
        """:meth:`MctsEngine.search`, the prover's kernels loaded first (:func:`warm_up`,
        outside the limit)."""
        warm_up()
        return super().search(position, limit)

    def prove_win(self, position: Position, limit: Limit) -> int | None:
        """The prover's winning move within ``limit`` (:func:`proven_win`), by a DFPN
        search the engine keeps from move to move on boards up to 11x11 (what it proved
        for one move serves the next), dropped past :data:`KEPT_SEARCH_MEMORY` or
        :data:`KEPT_SEARCH_POSITIONS`."""
        if position.size * position.size > MAX_WIDE_CELLS:
            return proven_win(position, limit)
        kept = self._kept_search
        if kept is None or kept.n != position.size:
            kept = new_search(position.size, KEPT_SEARCH_MEMORY)
        found = proven_win(position, limit, kept)
        worn = kept.stopped == "memory" or kept.analysed > KEPT_SEARCH_POSITIONS
        self._kept_search = None if worn else kept
        return found


_WARM = [False]


def warm_up(size: int = 3) -> float:
    """Load (or compile) the numba kernels of the engine and the prover once per process,
    and the engine's kernels for boards of ``size``'s cell-set width (12x12 and 13x13 have
    their own: on a fresh install compiling them takes about a minute, which a first
    13x13 move must not pay); returns the seconds it took (see
    :func:`boardlab.hex.engine.search.warm_up`)."""
    started = time.perf_counter()
    if not _WARM[0]:
        _WARM[0] = True
        warm_up_engine()
        warm_up_prover()
    warm_up_engine(size)
    return time.perf_counter() - started


def warm_up_prover() -> float:
    """Load (or compile) the prover's kernels alone (a small DFPN solve); returns the
    seconds it took (``boardlab warm --jobs`` loads them beside the engine's)."""
    started = time.perf_counter()
    solve(Position(3), Limit(nodes=1000), all_moves=False)
    return time.perf_counter() - started


@dataclass(frozen=True, slots=True)
class SwapDecision:
    """Whether player 2 swaps player 1's first stone, with the evidence.

    ``first_player_chance`` is player 1's chance with its first stone on the board and
    player 2 to move (0 or 1 when ``exact``); player 2 swaps when it is above one half,
    since the swap hands that chance to player 2. ``reply`` is player 2's move in the
    position when it does not swap (None when it swaps or no reply was computed);
    ``reason`` says how the chance was found.
    """

    swap: bool
    first_player_chance: float
    exact: bool
    reply: SearchResult | None
    reason: str


def decide_swap(
    engine: MctsEngine,
    position: Position,
    limit: Limit | None = None,
    solve_size: int = SWAP_SOLVE_SIZE,
    solve_time: float = SWAP_SOLVE_TIME,
) -> SwapDecision:
    """Should player 2 (to move) swap the first stone of ``position``?

    Boards up to ``solve_size`` are decided by the exact solver within ``solve_time``
    seconds: swap exactly when the first stone wins for player 1. Larger boards, or an
    unfinished solve, use ``engine``'s search of the position under ``limit``: player 1's
    chance is one minus the root value for player 2 (:attr:`SearchResult.value`; 0 or 1
    when the search proves the result), and its move is kept for when there is no swap.

    :raises IllegalMoveError: when a swap is not legal in ``position``.
    """
    if not position.can_swap():
        raise IllegalMoveError("no swap decision: a swap is not legal in this position")
    work = position.copy()
    if position.size <= solve_size:
        started = time.perf_counter()
        solved = solve(work, Limit(time=solve_time), all_moves=False)
        if solved.winner == BLACK:
            return SwapDecision(True, 1.0, True, None, "the solver proves that first stone wins")
        if solved.winner == WHITE:
            reply = None
            if solved.winning_moves:
                cell = solved.winning_moves[0]
                reply = SearchResult(
                    cell,
                    1.0,
                    1,
                    0,
                    solved.nodes,
                    time.perf_counter() - started,
                    ((cell, 0, 1.0),),
                    "solver: proven win",
                )
            return SwapDecision(False, 0.0, True, reply, "the solver proves it loses")
    result = engine.search(work, limit)
    chance, exact = 1.0 - result.value, result.proven
    swap = chance > _EVEN_CHANCE
    reason = (
        f"the first player won {100 * chance:.0f}% of {counted(result.playouts, 'playout')} "
        "after that first stone"
    )
    return SwapDecision(swap, chance, exact, None if swap else result, reason)


@dataclass(frozen=True, slots=True)
class Choice:
    """The engine's move in a game: a cell or :data:`~boardlab.hex.rules.SWAP_MOVE`,
    the search behind it (None for a swap or the swap rule's opening), the swap decision
    when there was one, why, and the seconds the choice took."""

    move: Move
    result: SearchResult | None
    swap: SwapDecision | None
    reason: str
    seconds: float = 0.0

    def as_dict(self) -> dict[str, object]:
        """The move and its evidence as JSON-ready values: the search's
        (:meth:`SearchResult.as_dict`), or for a swap or the swap rule's first stone the
        same keys, player 1's chance as the win rate (proven when the swap decision was
        exact), no playouts and no tree."""
        if self.result is not None:
            return self.result.as_dict()
        decision = self.swap
        verdict = 1 if decision is not None and decision.exact else 0
        return {
            "move": move_name(self.move),
            "win_rate": round(decision.first_player_chance, 4) if decision else 0.5,
            "verdict": verdict,
            "proven": verdict != 0,
            "bound": None,
            "playouts": 0,
            "nodes": 0,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
            "top": [],
        }


@cache
def _opening(size: int, seed: int) -> int:
    return balanced_opening(size, seed)[0]


def choose_move(
    engine: MctsEngine,
    position: Position,
    limit: Limit | None = None,
    solve_time: float = SWAP_SOLVE_TIME,
) -> Choice:
    """The engine's move for the side to move, as every front end plays it (the command
    line's self-play, GTP, the web page): player 2's swap decision where a swap is legal
    (:func:`decide_swap`), player 1's near-balanced first stone on the empty board under
    the swap rule (:func:`~boardlab.hex.engine.opening.balanced_opening`, computed once
    per board size and seed), otherwise ``engine``'s search under ``limit``.

    :raises IllegalMoveError: when the game is already over.
    """
    started = time.perf_counter()
    if position.can_swap():
        decision = decide_swap(engine, position, limit, solve_time=solve_time)
        spent = time.perf_counter() - started
        if decision.swap:
            return Choice(SWAP_MOVE, None, decision, decision.reason, spent)
        if decision.reply is not None:
            reply = decision.reply
            return Choice(reply.cell, reply, decision, decision.reason, spent)
    elif (
        position.swap
        and position.start_empty
        and not position.history
        and position.to_move == BLACK
        and position.winner is None
    ):
        move = position.cell(_opening(position.size, engine.seed))
        reason = "swap rule: a near-balanced first stone"
        return Choice(move, None, None, reason, time.perf_counter() - started)
    result = engine.search(position, limit)
    return Choice(result.cell, result, None, result.reason, time.perf_counter() - started)
