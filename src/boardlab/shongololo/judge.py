"""Judge layer: replays an E/M list in a fruit and scores it (never trusts the program).

The verdict is the number of blocks eaten, or the first broken rule with its line. A
broken answer scores 0. The contest score is the share of the best known answer,
capped at 100 %.

>>> from boardlab.shongololo.blocks import Box
>>> sample = "E 1 1 1\\nM 1 1 1\\nE 2 1 1\\nE 1 1 2\\nE 1 2 1\\nM 1 2 1\\n"
>>> verdict = judge_text(Box(2, 3, 2), sample)
>>> verdict.valid, verdict.eaten, verdict.bound
(True, 4, 10)
>>> judge_text(Box(2, 3, 2), "E 1 1 1\\nM 1 1 1\\nM 2 1 1\\n").summary()
'invalid: line 3: M 2 1 1: cannot move into the solid block 2 1 1'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardlab.core.errors import ParseError
from boardlab.core.words import counted
from boardlab.shongololo.blocks import Action, Box
from boardlab.shongololo.formats import ActionLine, parse_actions
from boardlab.shongololo.rules import Shongololo, upper_bound

__all__ = ["Verdict", "judge_actions", "judge_text"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the judge found: validity with the first fault, and the counts; ``best``, the
    best known count when one was given, makes the contest score."""

    box: Box
    valid: bool
    reason: str | None
    line: int | None
    eaten: int
    moves: int
    finished: bool
    best: int | None = None
    #: A block the run could still have eaten where it stopped (None when none).
    in_reach: str | None = None

    @property
    def bound(self) -> int:
        """The proven upper bound for this fruit (see :func:`upper_bound`)."""
        return upper_bound(self.box)

    @property
    def points(self) -> int:
        """Blocks eaten that count: 0 for a broken answer."""
        return self.eaten if self.valid else 0

    def score(self, best: int) -> float:
        """The contest score in percent against the best known answer ``best`` (max 100)."""
        if not self.valid or best <= 0:
            return 0.0
        return min(100.0, 100.0 * self.eaten / best)

    def as_dict(self) -> dict[str, Any]:
        """The verdict as JSON-ready values (``--json`` and the web API); with ``best``,
        the contest score in percent (else ``score`` is None)."""
        best = self.best
        box = self.box
        return {
            "box": list(box.sides),
            "valid": self.valid,
            "reason": self.reason,
            "line": self.line,
            "eaten": self.eaten,
            "points": self.points,
            "moves": self.moves,
            "finished": self.finished,
            "bound": self.bound,
            "score": None if best is None else round(self.score(best), 2),
            "summary": self.summary(),
        }

    def summary(self) -> str:
        """One line for people."""
        if not self.valid:
            where = f"line {self.line}: " if self.line is not None else ""
            return f"invalid: {where}{self.reason}"
        ratio = self.eaten / self.bound
        if self.finished:
            state = "stopped: nothing left to eat or move to"
        elif self.in_reach is not None:
            state = f"stopped early: block {self.in_reach} could still be eaten"
        elif self.eaten == self.bound:
            state = "stopped at the bound: no run eats more (moves were left; a run may stop)"
        else:
            state = "stopped with moves left (a run may stop at any time)"
        return (
            f"valid: {counted(self.eaten, 'block')} eaten in {counted(self.moves, 'move')} "
            f"({self.eaten / self.box.volume:.1%} of {self.box.volume}, "
            f"{ratio:.1%} of the bound {self.bound}); {state}"
        )


def judge_text(box: Box, text: str, source: str = "<output>", best: int | None = None) -> Verdict:
    """Judge a contest output given as text (``best``: the best known count, for the
    contest score).

    A line that is not ``E x y z`` / ``M x y z`` makes the answer invalid (it is not
    an exception): the verdict names the line.
    """
    try:
        lines = parse_actions(text, source)
    except ParseError as exc:
        return Verdict(box, False, exc.message, exc.line, 0, 0, False, best)
    return _judge(box, lines, best)


def judge_actions(box: Box, actions: Sequence[Action], best: int | None = None) -> Verdict:
    """Judge a list of actions (line numbers are 1-based positions in the list;
    ``best``: the best known count, for the contest score)."""
    lines = [ActionLine(i, action) for i, action in enumerate(actions, start=1)]
    return _judge(box, lines, best)


def _judge(box: Box, lines: Sequence[ActionLine], best: int | None) -> Verdict:
    state = Shongololo(box)
    eaten = moves = 0
    for entry in lines:
        reason = state.why_illegal(entry.action)
        if reason is not None:
            why = f"{entry.action}: {reason}"
            return Verdict(box, False, why, entry.line, eaten, moves, False, best)
        state.push(entry.action)
        if entry.action.kind == "E":
            eaten += 1
        else:
            moves += 1
    if not lines:
        why = "the output is empty: the first line must be E 1 1 1"
        return Verdict(box, False, why, 1, 0, 0, False, best)
    eats = [action.block for action in state.legal_moves() if action.kind == "E"]
    reach = str(eats[0]) if eats else None
    return Verdict(box, True, None, None, eaten, moves, state.is_over(), best, reach)
