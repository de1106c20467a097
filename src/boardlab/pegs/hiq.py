"""Solver layer: the deterministic Hi-Q simulation of seed 000 (Mid-Atlantic 1996).

On the English board, holes numbered 1..33 row by row, jump until no jump is left,
each time choosing the jump with the largest target hole and, among those, the
largest source hole. The answer is the sum of the numbers of the holes left.

>>> final = play(position_of([10, 12, 17, 19, 25]))
>>> [final.board.move_text(jump) for jump in final.moves], hole_sum(final)
(['12-26', '25-27', '10-24'], 51)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from boardlab.pegs.boards import Board, named_board
from boardlab.pegs.cells import Jump
from boardlab.pegs.rules import Position

__all__ = ["hiq_board", "hole_sum", "play", "position_of", "run"]


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
