"""Search layer: the swap rule's two decisions and the opening move of the Hex engine.

Under the swap rule (:data:`boardlab.hex.rules.SWAP_MOVE`): :func:`decide_swap` (player 2
swaps when the first stone gives player 1 the better chance: exactly by the solver on
boards up to 5x5, else by the engine's own value of the position) and
:func:`balanced_opening` (player 1's first move, the outer cell whose estimated value is
nearest one half).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache

from boardlab.core.errors import IllegalMoveError
from boardlab.core.limits import Limit
from boardlab.hex.rules import BLACK, SWAP, WHITE, Position
from boardlab.hex.search import MctsEngine, SearchResult

__all__ = [
    "OPENING_PLAYOUTS",
    "SWAP_SOLVE_SIZE",
    "SWAP_SOLVE_TIME",
    "Choice",
    "SwapDecision",
    "balanced_opening",
    "choose_move",
    "decide_swap",
    "opening_candidates",
]

#: Swap when player 1's first stone wins more often than this.
_EVEN_CHANCE = 0.5
#: Boards up to this size get the swap decision from the exact solver.
SWAP_SOLVE_SIZE = 5
#: Seconds the solver may spend on the swap decision (all 25 5x5 openings take ~5 s).
SWAP_SOLVE_TIME = 3.0
#: Playouts shared by all candidates of :func:`balanced_opening` (each gets 200..600).
OPENING_PLAYOUTS = 12_000


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
        from boardlab.hex.solver import solve

        started = time.perf_counter()
        solved = solve(work, Limit(time=solve_time), all_moves=False)
        if solved.winner == BLACK:
            return SwapDecision(True, 1.0, True, None, "solver: the first stone wins")
        if solved.winner == WHITE:
            reply = None
            if solved.winning_moves:
                move = solved.winning_moves[0]
                reply = SearchResult(
                    move,
                    position.cell(move),
                    1.0,
                    1,
                    0,
                    solved.nodes,
                    time.perf_counter() - started,
                    ((move, 0, 1.0),),
                    "solver: proven win",
                    size=position.size,
                )
            return SwapDecision(False, 0.0, True, reply, "solver: the first stone loses")
    result = engine.search(work, limit)
    chance, exact = 1.0 - result.value, result.proven != 0
    swap = chance > _EVEN_CHANCE
    reason = f"search: player 1's chance {chance:.3f} ({result.playouts} playouts)"
    return SwapDecision(swap, chance, exact, None if swap else result, reason)


def opening_candidates(size: int) -> list[int]:
    """Cells on the two outer rings of the board, one of each pair related by the
    180-degree turn (which keeps a position's value), in index order.
    """
    cells = size * size
    found = []
    for index in range(cells):
        row, col = divmod(index, size)
        if min(row, col, size - 1 - row, size - 1 - col) > 1:
            continue
        if cells - 1 - index < index:
            continue
        found.append(index)
    return found


def balanced_opening(
    size: int, seed: int = 0, playouts: int = OPENING_PLAYOUTS
) -> tuple[int, float]:
    """Player 1's first move under the swap rule and its estimated chance for player 1.

    Every cell of :func:`opening_candidates` gets an equal share of ``playouts`` (at
    least 200, at most 600): a search of player 2's reply by an engine seeded with
    ``seed`` (so the choice is reproducible), giving player 1's chance as in
    :func:`decide_swap`. The cell whose chance is nearest one half wins (the first in
    index order on a tie): the opponent gains little by swapping it or by leaving it.
    On a 1x1 board the only cell is returned with chance 1.
    """
    candidates = opening_candidates(size)
    if len(candidates) == 1:
        return candidates[0], 1.0
    share = max(200, min(600, playouts // len(candidates)))
    max_nodes = max(1000, min(1_000_000, (share + 1) * size * size))
    best, best_chance = candidates[0], -1.0
    for cell in candidates:
        position = Position(size)
        position.push_index(cell)
        engine = MctsEngine(seed=seed, max_nodes=max_nodes, solver_empties=0)
        result = engine.search(position, Limit(nodes=share))
        chance = 1.0 - result.value
        if abs(chance - 0.5) < abs(best_chance - 0.5):
            best, best_chance = cell, chance
    return best, best_chance


@dataclass(frozen=True, slots=True)
class Choice:
    """The engine's move in a game: a cell index or :data:`~boardlab.hex.rules.SWAP`,
    the search behind it (None for a swap or the swap rule's opening), the swap decision
    when there was one, and why."""

    move: int
    result: SearchResult | None
    swap: SwapDecision | None
    reason: str


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
    the swap rule (:func:`balanced_opening`, computed once per board size and seed),
    otherwise ``engine``'s search under ``limit``.

    :raises IllegalMoveError: when the game is already over.
    """
    if position.can_swap():
        decision = decide_swap(engine, position, limit, solve_time=solve_time)
        if decision.swap:
            return Choice(SWAP, None, decision, f"swap: {decision.reason}")
        if decision.reply is not None:
            return Choice(decision.reply.move, decision.reply, decision, decision.reason)
    elif (
        position.swap
        and position.start_empty
        and not position.history
        and position.to_move == BLACK
        and position.winner is None
    ):
        move = _opening(position.size, engine.seed)
        return Choice(move, None, None, "swap rule: a near-balanced first stone")
    result = engine.search(position, limit)
    return Choice(result.move, result, None, result.reason)
