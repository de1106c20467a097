"""Player layer: a game reviewed move by move, and an analysis that agrees with the solver.

Each position of the game (from the start to the last move) is judged by the exact
solver where it finishes within a slice (few empty cells), else by the engine's search
under a playout budget: its value for the side to move, turned into player 1's chance.

A proof is carried along the game where it holds, since a search finds a proof mostly
with the winner to move: a position proven won stays won after any move of the loser
(the swap aside), and after the winner's move when that move was proven to win (by the
solver, or as the engine's proven move); a move the solver proved to lose hands the
game to the other side. A move *turned* the game when the player favoured before it
(proven, or by the search's value on the other side of one half) is no longer favoured
after it, or when after it the mover is proven lost and was not before. Reproducible
from the seed (playout limits only).

:func:`analyse` is the engine's view of one position, overruled where the exact solver
has the answer: a proven position says so, its winning moves show 100 % and its losing
moves 0 %.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from boardlab.core.limits import Limit
from boardlab.hex.rules import Move, Position, Swap, move_name

if TYPE_CHECKING:
    from boardlab.hex.prover.result import SolveResult

__all__ = ["ReviewPoint", "analyse", "review"]

#: The solver is tried on positions with at most this many empty cells ...
SOLVE_EMPTY = 25
#: ... for at most this many seconds each (the engine judges what it does not finish).
SOLVE_SECONDS = 0.3
#: The seconds :func:`analyse` gives the solver (every move classified) at most.
ANALYSE_SOLVE_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class ReviewPoint:
    """The game after ``ply`` moves: the move that led there (HexGui's name,
    :func:`~boardlab.hex.rules.move_name`), player 1's chance, and the winner where
    proven (``winner`` None when it is not)."""

    ply: int
    move: str | None
    chance: float
    winner: int | None
    turned: bool

    @property
    def proven(self) -> bool:
        """True when the winner is proven."""
        return self.winner is not None

    def as_dict(self) -> dict[str, object]:
        """The point as JSON-ready values."""
        return {
            "ply": self.ply,
            "move": self.move,
            "chance": round(self.chance, 4),
            "winner": self.winner,
            "proven": self.proven,
            "turned": self.turned,
        }


@dataclass(frozen=True, slots=True)
class _Judged:
    """Player 1's chance, the proven winner (None when not proven), and the moves of the
    side to move proven to win or to lose here."""

    chance: float
    winner: int | None
    wins: frozenset[Move] = field(default_factory=frozenset)
    losses: frozenset[Move] = field(default_factory=frozenset)


def _proven(winner: int) -> _Judged:
    return _Judged(1.0 if winner == 1 else 0.0, winner)


def _judge(position: Position, playouts: int, seed: int) -> _Judged:
    """Judge ``position``: the solver where it finishes, else the engine's search."""
    from boardlab.hex.engine.search import DEFAULT_MAX_NODES, MIN_NODES
    from boardlab.hex.player import SolvingEngine
    from boardlab.hex.prover.solver import solve

    if position.winner is not None:
        return _proven(position.winner)
    empty = sum(1 for value in position.board if value == 0)
    if empty <= SOLVE_EMPTY:
        solved = solve(position, Limit(time=SOLVE_SECONDS), all_moves=False)
        if solved.winner is not None:
            judged = _proven(solved.winner)
            return _Judged(
                judged.chance,
                judged.winner,
                frozenset(solved.winning_moves),
                frozenset(solved.losing_moves),
            )
    # a playout adds at most one node a legal cell: a tree that size never fills, so the
    # result is the default engine's, without its arrays being made for every position
    cells = position.size * position.size
    nodes = max(MIN_NODES, min(DEFAULT_MAX_NODES, (playouts + 1) * cells))
    result = SolvingEngine(seed=seed, max_nodes=nodes).search(position, Limit(nodes=playouts))
    mover = position.to_move
    if result.proven:
        winner = mover if result.verdict == 1 else 3 - mover
        wins: frozenset[Move] = frozenset([result.cell]) if winner == mover else frozenset()
        return _Judged(_proven(winner).chance, winner, wins)
    return _Judged(result.value if mover == 1 else 1.0 - result.value, None)


def _carried(before: _Judged, mover: int, played: Move) -> int | None:
    """The winner after ``mover`` played ``played`` from a judged position, where the
    proof before decides it (None where it does not)."""
    if before.winner is None or isinstance(played, Swap):
        return None
    if before.winner != mover:
        return before.winner  # the loser moved: every move of the loser loses
    if played in before.wins:
        return mover
    if played in before.losses:
        return 3 - mover
    return None


def _favoured(judged: _Judged) -> int:
    if judged.winner is not None:
        return judged.winner
    return 1 if judged.chance >= 0.5 else 2  # noqa: PLR2004


def review(size: int, moves: list[Move], swap: bool, playouts: int, seed: int) -> list[ReviewPoint]:
    """Every position of the game of ``moves`` on an empty ``size`` board, judged.

    :raises IllegalMoveError: when a move is illegal.
    """
    position = Position(size, swap=swap)
    judged = _judge(position, playouts, seed)
    points = [ReviewPoint(0, None, judged.chance, judged.winner, False)]
    for ply, played in enumerate(moves, start=1):
        mover = position.to_move
        position.play(played)
        before = judged
        carried = _carried(before, mover, played)
        if carried is not None and position.winner is None:
            # the proof carries; the judge is still asked for the moves it proves next
            judged = _judge(position, playouts, seed + ply)
            if judged.winner != carried:
                judged = _proven(carried)
        else:
            judged = _judge(position, playouts, seed + ply)
        lost = judged.winner == 3 - mover and before.winner != 3 - mover
        turned = _favoured(judged) != _favoured(before) or lost
        points.append(ReviewPoint(ply, move_name(played), judged.chance, judged.winner, turned))
    return points


def analyse(
    position: Position, limit: Limit, seed: int, solve_seconds: float = ANALYSE_SOLVE_SECONDS
) -> dict[str, Any]:
    """The engine's move in ``position`` with its evidence (``SearchResult.as_dict()``),
    overruled where the exact solver, given up to ``solve_seconds`` to classify every
    move, proves the position: ``proven``, ``verdict`` (1 a win, -1 a loss for the side to
    move), ``win_rate`` 1 or 0, a winning move as ``move``, and in ``top`` every proven
    winning move at 1 and every proven losing one at 0; ``solver`` lists what it proved
    (None where it was not run or proved nothing). A position proven lost (by the engine
    or the solver) is lost whatever the move: every move of ``top`` shows 0, proven.
    """
    from boardlab.hex.player import SolvingEngine
    from boardlab.hex.prover.solver import solve

    found = SolvingEngine(seed=seed).search(position, limit).as_dict()
    found["solver"] = None
    empty = sum(1 for value in position.board if value == 0)
    if position.winner is None and empty <= SOLVE_EMPTY:
        solved = solve(position, Limit(time=solve_seconds), all_moves=True)
        if solved.winner is not None:
            found = _overruled(found, solved)
    if found["verdict"] == -1:
        top = found["top"]
        assert isinstance(top, list)
        found["top"] = [{**entry, "win_rate": 0.0, "proven": True} for entry in top]
    return found


def _overruled(found: dict[str, Any], solved: SolveResult) -> dict[str, Any]:
    """The engine's analysis ``found`` with the solver's proof put in its place."""
    wins = {cell.vertex() for cell in solved.winning_moves}
    losses = {cell.vertex() for cell in solved.losing_moves}
    won = solved.winner == solved.to_move
    top: list[dict[str, Any]] = []
    for entry in found["top"]:
        rate = 1.0 if entry["move"] in wins else 0.0 if entry["move"] in losses else None
        top.append(
            {
                **entry,
                "win_rate": entry["win_rate"] if rate is None else rate,
                "proven": rate is not None,
            }
        )
    listed = {entry["move"] for entry in top}
    top.extend(
        {"move": cell.vertex(), "visits": 0, "win_rate": 1.0, "proven": True}
        for cell in sorted(solved.winning_moves)
        if cell.vertex() not in listed
    )
    move = found["move"]
    if won and move not in wins:
        move = solved.winning_moves[0].vertex()
    return {
        **found,
        "move": move,
        "win_rate": 1.0 if won else 0.0,
        "verdict": 1 if won else -1,
        "proven": True,
        "bound": None,
        "reason": "proven by the exact solver",
        "top": top,
        "solver": {
            "winner": solved.winner,
            "winning_moves": sorted(wins),
            "losing_moves": sorted(losses),
            "complete": solved.complete,
        },
    }
