"""Judge layer: checks a move list against a board and scores it (never trusts the mover).

The verdict names the first broken rule and its line; for a legal list it gives the
pegs left and, when one peg remains, the PEGGED score (the number of moves) and the
tiebreak (distance of the last peg from the centre).

>>> from boardlab.pegs.rules import Position
>>> verdict = judge_text(Position("english"), "5-17\\n12-10\\n")
>>> verdict.valid, verdict.moves, verdict.pegs_left, verdict.solved
(True, 2, 30, False)
>>> judge_text(Position("english"), "5-17\\n5-17\\n").reason
'line 2: 5-17: no peg at 5'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from boardlab.core.words import counted
from boardlab.pegs.cells import Cell, Jump, Move
from boardlab.pegs.formats import MoveLine, parse_move_lines
from boardlab.pegs.rules import Position

__all__ = ["Verdict", "judge_moves", "judge_text"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the judge found: validity with the first fault, counts and the PEGGED score."""

    valid: bool
    reason: str | None
    line: int | None
    moves: int
    jumps: int
    walks: int
    pegs_left: int
    last_peg: Cell | None
    tiebreak: int | None
    turns: int = 0
    """Move lines replayed: a chain of jumps by one peg on one line (``B6-B4-D4``) is one
    turn, as ``pegs minmoves`` counts moves."""

    @property
    def solved(self) -> bool:
        """True for a legal list that leaves exactly one peg."""
        return self.valid and self.pegs_left == 1

    @property
    def score(self) -> int | None:
        """The PEGGED score (moves, lower is better) of a solved list, else None (scored 0)."""
        return self.moves if self.solved else None

    def as_dict(self) -> dict[str, object]:
        """The verdict as plain JSON-ready values (cells as names), with its one-line
        ``summary``."""
        return {
            "valid": self.valid,
            "solved": self.solved,
            "reason": self.reason,
            "line": self.line,
            "moves": self.moves,
            "jumps": self.jumps,
            "walks": self.walks,
            "pegs_left": self.pegs_left,
            "last_peg": None if self.last_peg is None else str(self.last_peg),
            "score": self.score,
            "tiebreak": self.tiebreak,
            "turns": self.turns,
            "summary": self.summary(),
        }

    def summary(self) -> str:
        """One line for people."""
        if not self.valid:
            return f"invalid: {self.reason}"
        chains = f" on {self.turns} lines (chains of jumps)" if 0 < self.turns < self.moves else ""
        text = (
            f"valid: {counted(self.moves, 'move')} ({counted(self.jumps, 'jump')}, "
            f"{counted(self.walks, 'walk')}){chains}, {counted(self.pegs_left, 'peg')} left"
        )
        if self.solved:
            text += f"; solved with the last peg at {self.last_peg}"
            if self.tiebreak is not None:
                steps = "step" if self.tiebreak == 1 else "steps"
                text += f", {self.tiebreak} {steps} from the centre (the tie-break)"
        return text


def judge_text(start: Position, text: str, *, walks: bool | None = None) -> Verdict:
    """Judge a move list given as text (one ``FROM TO`` or ``FROM-TO`` per line)."""
    return _judge(start, parse_move_lines(text, start.board), walks)


def judge_moves(start: Position, moves: Sequence[Move], *, walks: bool | None = None) -> Verdict:
    """Judge a list of moves (line numbers are 1-based positions in the list)."""
    lines = [MoveLine(i, str(move), move, None) for i, move in enumerate(moves, start=1)]
    return _judge(start, lines, walks)


def _judge(start: Position, lines: Sequence[MoveLine], walks: bool | None) -> Verdict:
    position = Position(start.board, start.bits, walks=start.walks if walks is None else walks)
    jumps = walk_count = 0
    for entry in lines:
        if entry.move is None:
            return _invalid(
                position, f"line {entry.line}: {entry.error}", entry.line, jumps, walk_count
            )
        reason = position.why_illegal(entry.move)
        if reason is not None:
            return _invalid(position, f"line {entry.line}: {reason}", entry.line, jumps, walk_count)
        position.push(entry.move)
        if isinstance(entry.move, Jump):
            jumps += 1
        else:
            walk_count += 1
    last = position.pegs[0] if position.peg_count == 1 else None
    tiebreak = position.board.distance_to_centre(last) if last is not None else None
    turns = len({entry.line for entry in lines})
    return Verdict(
        True,
        None,
        None,
        jumps + walk_count,
        jumps,
        walk_count,
        position.peg_count,
        last,
        tiebreak,
        turns,
    )


def _invalid(position: Position, reason: str, line: int, jumps: int, walks: int) -> Verdict:
    return Verdict(False, reason, line, jumps + walks, jumps, walks, position.peg_count, None, None)
