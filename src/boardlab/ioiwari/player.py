"""Interface layer: the IOI contest protocol as player 1, as a state machine without I/O.

Feed it the input lines one at a time; it returns the lines to write (our moves). The
process loop that reads stdin, writes and flushes lives in :mod:`boardlab.cli.ioiwari`.

>>> from boardlab.ioiwari.solver import MemoSolver, PerfectPlayer
>>> player = ContestPlayer(PerfectPlayer(MemoSolver()))
>>> player.feed("4 3 2 4 2 3 2")
['2']
>>> player.feed("3")
['5']
"""

from __future__ import annotations

from collections.abc import Callable

from boardlab.core.errors import IllegalMoveError, ProtocolError
from boardlab.ioiwari.formats import format_move, line_tokens, parse_pit, parse_start
from boardlab.ioiwari.rules import IOI, Move, State, Variant

__all__ = ["ContestPlayer"]


class ContestPlayer:
    """Player 1 of the protocol: ``choose`` picks our moves; the opponent's are checked."""

    def __init__(
        self,
        choose: Callable[[State], Move],
        variant: Variant = IOI,
        *,
        source: str = "<stdin>",
    ) -> None:
        self.choose = choose
        self.variant = variant
        self.source = source
        self.state: State | None = None
        self.finished = False
        self._line = 0

    def feed(self, text: str) -> list[str]:
        """Take one input line; return the lines to write, in order.

        :raises ParseError: on a malformed start line or a token that is not a pit label.
        :raises ProtocolError: on an illegal opponent move.
        """
        self._line += 1
        if self.finished:
            return []
        if self.state is None:
            if not text.strip():
                return []
            pits = parse_start(text, self.variant, source=self.source, line=self._line)
            self.state = State(self.variant, pits)
            return self._our_move()
        out: list[str] = []
        for token in line_tokens(text, self._line):
            if self.finished:
                break
            pit = parse_pit(token, source=self.source, who="the opponent's move")
            try:
                self.state.play(Move(pit))
            except IllegalMoveError as exc:
                raise ProtocolError(
                    f"{self.source}:{token.line}:{token.column}: "
                    f"the opponent's move {pit} is illegal: {exc}"
                ) from None
            if self.state.is_over():
                self.finished = True
                break
            out.extend(self._our_move())
        return out

    def close(self) -> None:
        """The input has ended.

        :raises ProtocolError: when the game is not over.
        """
        if self.finished:
            return
        if self.state is None:
            raise ProtocolError(f"{self.source}: the input ended before the start line")
        raise ProtocolError(
            f"{self.source}: the input ended before the game was over "
            f"(waiting for the opponent's move {len(self.state.history) // 2 + 1}; "
            f"pits {' '.join(map(str, self.state.pits))})"
        )

    def _our_move(self) -> list[str]:
        assert self.state is not None
        move = self.choose(self.state)
        self.state.play(move)
        if self.state.is_over():
            self.finished = True
        return [format_move(move.pit)]
