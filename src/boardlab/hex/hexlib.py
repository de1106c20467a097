"""Interface layer: the IOI 1997 HexLib as a Python API, its evaluator, and IOI games.

:class:`HexLib` keeps the statement's names, arguments (1-based row and column) and
return codes. Our program is player 1 (joins column 1 to column N, moves first); the
evaluator plays player 2 with our engine at a chosen strength. Where the original
silently ignored a bad ``PutHex`` (occupied or off-board cell), this API raises
:class:`~boardlab.core.errors.IllegalMoveError`, so a contestant's bug shows at once.
The lines the library would write to ``HEX.OUT`` are kept in :attr:`HexLib.transcript`.

:func:`play_ioi_game` is the contestant: it reads the board with ``GetMax`` and
``LookAtBoard`` and then alternates ``PutHex`` and ``MakeLibMove`` until ``GameIsOver``.
:func:`generate_start` makes IOI-style start positions (equally many stones of each
side, player 1 to move and still winning), certified by the exact solver when small.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.core.limits import Limit
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.player import SolvingEngine, warm_up
from boardlab.hex.rules import BLACK, EMPTY, WHITE, Cell, Position

__all__ = [
    "Evaluator",
    "GameClock",
    "HexLib",
    "IoiGame",
    "check_ioi_start",
    "generate_start",
    "play_ioi_game",
]


@dataclass(slots=True)
class GameClock:
    """Spreads a whole game's thinking time over the moves; never hands out more than is left.

    The IOI statement gives 40 s for the whole game and guarantees the library needs at
    most 20 s of it, so the default game budget of our side is 20 s. A move gets
    ``(left - reserve) / max(3, pace * empty + 2)`` seconds.
    """

    total: float = 20.0
    reserve: float = 0.5
    pace: float = 0.3
    used: float = 0.0

    def remaining(self) -> float:
        """Seconds still available to our side."""
        return max(0.0, self.total - self.used)

    def move_time(self, position: Position) -> float:
        """Seconds to spend on the next move of ``position``."""
        empty = sum(1 for v in position.board if v == EMPTY)
        usable = max(0.0, self.remaining() - self.reserve)
        share = usable / max(3.0, self.pace * empty + 2.0)
        return max(0.002, min(share, usable))

    def charge(self, seconds: float) -> None:
        """Record time spent."""
        self.used += seconds


#: Named evaluator strengths: playouts per move (0 = uniformly random moves).
STRENGTHS = {"random": 0, "weak": 300, "medium": 3000, "strong": -1}


class Evaluator:
    """Player 2's move maker: random, a fixed number of playouts, or timed (``strong``).

    ``strong`` spreads the library's 20 s of the IOI game over its moves.

    :raises BoardlabError: for an unknown strength name.
    """

    def __init__(self, strength: str = "strong", seed: int = 0, total_time: float = 20.0) -> None:
        if strength not in STRENGTHS:
            raise BoardlabError(
                f"unknown evaluator strength {strength!r} (choose from {', '.join(STRENGTHS)})"
            )
        self.strength = strength
        self.rng = random.Random(seed)
        self.engine = SolvingEngine(seed=seed + 7919)
        self.clock = GameClock(total=total_time)
        if self.strength != "random":
            self.clock.charge(warm_up())

    def choose(self, position: Position) -> int:
        """The evaluator's move in ``position`` (its side to move)."""
        playouts = STRENGTHS[self.strength]
        if playouts == 0:
            return self.rng.choice(position.legal_indices())
        started = time.perf_counter()
        if playouts > 0:
            limit = Limit(nodes=playouts)
        else:
            limit = Limit(time=self.clock.move_time(position))
        cell = self.engine.search(position, limit).cell
        self.clock.charge(time.perf_counter() - started)
        return position.index(cell)


class HexLib:
    """The IOI HexLib over ``position`` (our side, player 1, to move).

    :raises BoardlabError: when the start position does not fit the statement
        (see :func:`check_ioi_start`).
    """

    def __init__(self, position: Position, evaluator: Evaluator | None = None) -> None:
        check_ioi_start(position)
        self._position = position.copy()
        self._evaluator = evaluator or Evaluator()
        self._last: Cell | None = None
        self.transcript: list[str] = [f"HEX {position.size}"]

    # The statement's names are kept on purpose.
    def GetMax(self) -> int:  # noqa: N802
        """The board size N."""
        return self._position.size

    def LookAtBoard(self, row: int, column: int) -> int:  # noqa: N802
        """-1 off the board, 0 empty, 1 our counter, 2 the evaluator's."""
        n = self._position.size
        if not (1 <= row <= n and 1 <= column <= n):
            return -1
        return self._position.board[Cell.from_ioi(row, column).index(n)]

    def PutHex(self, row: int, column: int) -> None:  # noqa: N802
        """Place our counter at ``(row, column)``.

        :raises IllegalMoveError: off the board, on an occupied cell, out of turn or
            after the end of the game.
        """
        p = self._position
        n = p.size
        if not (1 <= row <= n and 1 <= column <= n):
            raise IllegalMoveError(f"PutHex({row}, {column}): off the {n}x{n} board")
        if p.winner is not None:
            raise IllegalMoveError(f"PutHex({row}, {column}): the game is over")
        if p.to_move != BLACK:
            raise IllegalMoveError(f"PutHex({row}, {column}): it is the library's turn")
        index = Cell.from_ioi(row, column).index(n)
        if p.board[index] != EMPTY:
            raise IllegalMoveError(f"PutHex({row}, {column}): the cell is occupied")
        p.push_index(index)
        self.transcript.append(f"1 {row} {column}")

    def GameIsOver(self) -> int:  # noqa: N802
        """0 not over, 1 board full, 2 our program has won, 3 the library has won.

        A full Hex board always has a winner, so 2 or 3 is returned in that case.
        """
        p = self._position
        if p.winner == BLACK:
            return 2
        if p.winner == WHITE:
            return 3
        if all(v != EMPTY for v in p.board):
            return 1
        return 0

    def MakeLibMove(self) -> None:  # noqa: N802
        """Let the library place its counter.

        :raises IllegalMoveError: out of turn or after the end of the game.
        """
        p = self._position
        if p.winner is not None:
            raise IllegalMoveError("MakeLibMove: the game is over")
        if p.to_move != WHITE:
            raise IllegalMoveError("MakeLibMove: it is the program's turn (call PutHex first)")
        move = self._evaluator.choose(p.copy())
        p.push_index(move)
        self._last = p.cell(move)
        row, column = self._last.ioi()
        self.transcript.append(f"2 {row} {column}")

    def GetRow(self) -> int:  # noqa: N802
        """Row of the library's last counter, or -1 before its first move."""
        return -1 if self._last is None else self._last.row + 1

    def GetColumn(self) -> int:  # noqa: N802
        """Column of the library's last counter, or -1 before its first move."""
        return -1 if self._last is None else self._last.col + 1


def check_ioi_start(position: Position) -> None:
    """Check that ``position`` can start an IOI game.

    :raises BoardlabError: unless both sides have equally many stones, player 1 is to
        move, and nobody has won yet.
    """
    black = sum(1 for v in position.board if v == BLACK)
    white = sum(1 for v in position.board if v == WHITE)
    if black != white:
        raise BoardlabError(
            f"an IOI start position holds equally many stones of each player, got {black} "
            f"of player 1 and {white} of player 2"
        )
    if position.to_move != BLACK:
        raise BoardlabError("an IOI start position has player 1 to move")
    if position.winner is not None:
        raise BoardlabError(f"the start position is already won by player {position.winner}")


@dataclass(frozen=True, slots=True)
class IoiGame:
    """A finished IOI game: result code (GameIsOver), moves, seconds used by each side."""

    result: int
    moves: tuple[tuple[int, int, int], ...]
    program_seconds: float
    library_seconds: float
    seconds: float
    transcript: tuple[str, ...]


def play_ioi_game(
    lib: HexLib, engine: MctsEngine | None = None, total_time: float = 20.0
) -> IoiGame:
    """Play a whole game as the contestant program through ``lib``'s functions only.

    Our side spends at most ``total_time`` seconds (the statement allows 40 s for the
    game and promises that the library needs at most 20 of them).
    """
    started = time.perf_counter()
    engine = engine or SolvingEngine(seed=1)
    clock = GameClock(total=total_time, pace=0.15)
    n = lib.GetMax()
    clock.charge(warm_up(n))
    black = [
        Cell(r - 1, c - 1)
        for r in range(1, n + 1)
        for c in range(1, n + 1)
        if lib.LookAtBoard(r, c) == 1
    ]
    white = [
        Cell(r - 1, c - 1)
        for r in range(1, n + 1)
        for c in range(1, n + 1)
        if lib.LookAtBoard(r, c) == WHITE
    ]
    mine = Position.from_stones(n, black, white, BLACK)
    moves: list[tuple[int, int, int]] = []
    library_seconds = 0.0
    while lib.GameIsOver() == 0:
        think = time.perf_counter()
        result = engine.search(mine, Limit(time=clock.move_time(mine)))
        row, column = result.cell.ioi()
        lib.PutHex(row, column)
        mine.push(result.cell)
        clock.charge(time.perf_counter() - think)
        moves.append((1, row, column))
        if lib.GameIsOver() != 0:
            break
        t0 = time.perf_counter()
        lib.MakeLibMove()
        library_seconds += time.perf_counter() - t0
        reply = Cell.from_ioi(lib.GetRow(), lib.GetColumn())
        mine.push_index(reply.index(n))
        moves.append((2, lib.GetRow(), lib.GetColumn()))
    return IoiGame(
        lib.GameIsOver(),
        tuple(moves),
        clock.used,
        library_seconds,
        time.perf_counter() - started,
        tuple(lib.transcript),
    )


#: The engine estimate that keeps an uncertified start: playouts, and the least win rate
#: of player 1's best move (0.65 after 10000 playouts let through an 11x11 start that
#: our own engine then won as player 2).
ESTIMATE_NODES = 50_000
ESTIMATE_WIN_RATE = 0.7


def generate_start(
    size: int, stones: int, seed: int = 0, certify_time: float = 2.0, attempts: int = 200
) -> tuple[Position, bool]:
    """A random IOI start: ``stones`` stones of each player, nobody connected, player 1 to move.

    Returns ``(position, certified)``: ``certified`` is True when player 1's win is
    proven. With no stones the start is the empty board, which the first player wins on
    every size (Nash's strategy-stealing argument: a second player's winning strategy
    would win for the first player too, and Hex has no draws), so it is certified at once.
    Otherwise the exact solver is asked for ``certify_time`` seconds (its kernels loaded
    first, outside that time); candidates it proves
    lost are thrown away (boards up to 8x8, the DFPN solver's range). When it cannot
    decide, the candidate is kept uncertified only if a search of ``ESTIMATE_NODES``
    playouts gives player 1's best move a win rate of at least ``ESTIMATE_WIN_RATE``. A
    candidate drawn again is not judged again.

    :raises BoardlabError: for impossible requests or when no candidate is found.
    """
    from boardlab.hex.prover.solver import MAX_CELLS, solve

    if stones < 0 or 2 * stones >= size * size:
        raise BoardlabError(f"cannot place {stones} stones of each side on a {size}x{size} board")
    if stones == 0:
        return Position(size), True
    if size * size <= MAX_CELLS:
        warm_up()  # the prover's kernels loaded (on a fresh install compiled) outside the time
    rng = random.Random(seed)
    seen: set[tuple[int, ...]] = set()
    for _ in range(attempts):
        cells = rng.sample(range(size * size), 2 * stones)
        drawn = (*sorted(cells[:stones]), -1, *sorted(cells[stones:]))
        if drawn in seen:
            continue
        seen.add(drawn)
        black = [Cell.of_index(i, size) for i in cells[:stones]]
        white = [Cell.of_index(i, size) for i in cells[stones:]]
        position = Position.from_stones(size, black, white, BLACK)
        if position.winner is not None:
            continue
        if size * size <= MAX_CELLS:
            result = solve(position, Limit(time=certify_time), all_moves=False)
            if result.winner == BLACK:
                return position, True
            if result.winner == WHITE:
                continue
        estimate = SolvingEngine(seed=seed).search(position, Limit(nodes=ESTIMATE_NODES))
        if estimate.win_rate >= ESTIMATE_WIN_RATE or estimate.verdict == 1:
            return position, False
    raise BoardlabError(f"no winning start for player 1 found in {attempts} attempts")
