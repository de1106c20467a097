"""Solver layer: the deterministic Hi-Q simulation (Mid-Atlantic 1996).

On the English board, holes numbered 1..33 row by row, jump until no jump is left,
each time choosing the jump with the largest target hole and, among those, the
largest source hole. The answer is the sum of the numbers of the holes left.

>>> final = play(position_of([10, 12, 17, 19, 25]))
>>> [final.board.move_text(jump) for jump in final.history], hole_sum(final)
(['12-26', '25-27', '10-24'], 51)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from boardlab.core.words import counted
from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.cells import Jump
from boardlab.pegs.rules import Position

__all__ = ["SAMPLE_INPUT", "hiq_board", "hole_sum", "play", "position_of", "run", "trace"]

#: The statement's sample input (its output: 51, 0, 561, 98).
SAMPLE_INPUT = (
    "4\n10 12 17 19 25 0 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15\n16 17 18 19 20\n"
    "21 22 23 24 25 26 27 28 29 30 31 32 33 0\n"
    "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 18 19 20\n21 22 23 24 25 26 27 28 29 30 31 32 33 0\n"
)


def hiq_board() -> Board:
    """The English board, whose holes are the Hi-Q numbers 1..33."""
    return named_board("english")


def position_of(holes: Iterable[int]) -> Position:
    """The English position with pegs in the given Hi-Q holes (1..33).

    :raises UnknownNameError: when a number is not a hole.
    """
    board = hiq_board()
    return Position(board, board.bits(board.parse_hole(str(hole)) for hole in holes))


@cache
def _jump_order() -> tuple[tuple[int, int, int], ...]:
    """Every jump of the English board, in the order the rule prefers it."""
    return tuple(sorted(hiq_board().grid.jumps, key=lambda jump: (-jump[2], -jump[0])))


def play(start: Position) -> Position:
    """Play the Hi-Q rule from ``start`` until no jump is left; returns the final
    position (a copy), whose :attr:`~Position.moves` are the jumps made, in order.
    """
    if start.board != hiq_board():
        raise ValueError("the Hi-Q rule is defined on the English board only")
    position = start.copy()
    cells = position.board.cells
    order = _jump_order()
    bits = position.bits
    while True:
        for src, over, dst in order:
            if bits >> src & 1 and bits >> over & 1 and not bits >> dst & 1:
                position.push(Jump(cells[src], cells[dst]))
                bits = position.bits
                break
        else:
            return position


def hole_sum(position: Position) -> int:
    """The sum of the Hi-Q numbers of the holes holding pegs."""
    return sum(index + 1 for index in range(position.board.size) if position.bits >> index & 1)


def run(games: Sequence[Sequence[int]]) -> list[int]:
    """The final hole sums of the given games (lists of occupied holes)."""
    return [hole_sum(play(position_of(game))) for game in games]


def trace(games: Sequence[Sequence[int]]) -> list[str]:
    """Every jump of every game in words (the board's hole names), with the pegs left and
    their sum: the contest program's work shown step by step."""
    lines: list[str] = []
    for number, holes in enumerate(games, start=1):
        final = play(position_of(holes))
        board = final.board
        pegs = counted(len(holes), "peg")
        lines.append(f"game {number}: {pegs}: {' '.join(map(str, holes)) or '(none)'}")
        for step, jump in enumerate(final.history, start=1):
            assert isinstance(jump, Jump)  # Hi-Q has no walks
            src, over, dst = (board.hole_name(cell) for cell in (jump.src, jump.over, jump.dst))
            lines.append(f"  {step}: from {src} over {over} to {dst}")
        left = [board.hole_name(cell) for cell in final.pegs]
        lines.append(f"  left: {' '.join(left) or '(none)'}; sum {hole_sum(final)}")
    return lines
