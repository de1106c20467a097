"""Rules layer: the goal of a peg-solitaire problem (a value type) and its named forms.

>>> from boardlab.pegs.boards import named_board
>>> english = named_board("english")
>>> goal_of_word(english, "centre"), goal_of_word(english, "any").pegs
(Goal(bits=65536, text='17'), 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from boardlab.core.errors import BoardlabError
from boardlab.pegs.boards import Board

__all__ = ["Goal", "goal_of_word"]


@dataclass(frozen=True, slots=True)
class Goal:
    """The goal: the exact final pegs ``bits``, or one peg anywhere (``bits is None``)."""

    bits: int | None
    text: str

    @property
    def pegs(self) -> int:
        """Number of pegs at the end."""
        return 1 if self.bits is None else self.bits.bit_count()

    def reached(self, bits: int) -> bool:
        """True when the pegs ``bits`` are a goal position."""
        return bits.bit_count() == 1 if self.bits is None else bits == self.bits


def goal_of_word(board: Board, word: str) -> Goal:
    """The goal named by ``word``: ``centre`` (also ``center``, ``home``: the home hole),
    ``ANY`` (one peg anywhere) or a hole name (one peg there).

    :raises UnknownNameError: for a hole the board does not have.
    :raises BoardlabError: for ``centre`` on a board without a home hole.
    """
    word = word.strip()
    if word.lower() in ("centre", "center", "home"):
        if board.home is None:
            raise BoardlabError(f"the {board.name} board has no centre hole; name a goal hole")
        return Goal(1 << board.index(board.home), board.hole_name(board.home))
    if word.lower() == "any":
        return Goal(None, "ANY")
    cell = board.parse_hole(word)
    return Goal(1 << board.index(cell), board.hole_name(cell))
