"""Judge layer: replay any Mars explorer move list exactly as the statement scores it.

The judge trusts nothing it is given: a malformed line, an unknown vehicle, a step off
the grid or onto rough terrain makes the whole answer worth 0 (with the reason and the
line). Otherwise vehicles on the transmitter deliver the samples they collected first,
the others lose theirs, and the points are shown as a percentage of the best possible,
which the caller passes in (this module never imports a solver).

>>> from boardlab.mars.formats import parse_map
>>> m = parse_map("1\\n2\\n2\\n0 2\\n0 0\\n")
>>> v = judge(m, "1 1\\n1 0\\n", best=2)
>>> v.delivered, v.arrived, v.score, v.percent
(1, 1, 2, 100.0)
>>> judge(m, "1 0\\n1 0\\n", best=2).reason
'line 2: vehicle 1 at (1, 2) moves south off the grid'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from boardlab.core.errors import ParseError
from boardlab.mars.formats import step_lines
from boardlab.mars.rules import Expedition, Outcome, percent_of_best
from boardlab.mars.values import MarsMap

__all__ = ["Verdict", "judge"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's finding: legal or not (why, where), the counts, points and percentage."""

    legal: bool
    reason: str
    line: int | None
    steps: int
    delivered: int
    arrived: int
    not_arrived: int
    score: int
    best: int | None
    percent: float | None

    def as_dict(self) -> dict[str, Any]:
        """The verdict as plain JSON-ready values (``--json`` and the web API)."""
        return {**asdict(self), "reason": self.reason or None}

    def lines(self) -> list[str]:
        """A short human-readable report."""
        if not self.legal:
            return [f"ILLEGAL: {self.reason}", "score: 0 points, 0%"]
        out = [
            f"legal: {self.steps} steps",
            f"samples delivered: {self.delivered}",
            f"vehicles arriving: {self.arrived}, not arriving: {self.not_arrived}",
        ]
        if self.best is None or self.percent is None:
            out.append(f"score: {self.score} points")
        else:
            out.append(f"score: {self.score} of {self.best} points, {self.percent:.2f}%")
        return out


def judge(
    mars: MarsMap, moves_text: str, best: int | None = None, source: str = "<moves>"
) -> Verdict:
    """Replay ``moves_text`` on ``mars`` and score it (``best`` gives the percentage).

    Blank lines are skipped; every other line must be ``VEHICLE DIRECTION``. The first
    broken line, in file order, decides a 0.
    """
    expedition = Expedition(mars)
    steps = 0
    advance = expedition.advance
    lines = step_lines(moves_text, source)
    while True:
        try:
            number, vehicle, direction = next(lines)
        except StopIteration:
            break
        except ParseError as exc:
            line = exc.line or 0
            return _zero(f"line {line}: {exc.message}", line, steps, best)
        reason = advance(vehicle, direction)
        if reason is not None:
            return _zero(f"line {number}: {reason}", number, steps, best)
        steps += 1
    outcome: Outcome = expedition.score_now()
    score = outcome.score
    percent = None if best is None else percent_of_best(score, best)
    return Verdict(
        True,
        "",
        None,
        steps,
        outcome.delivered,
        outcome.arrived,
        outcome.not_arrived,
        score,
        best,
        percent,
    )


def _zero(reason: str, line: int, steps: int, best: int | None) -> Verdict:
    return Verdict(False, reason, line, steps, 0, 0, 0, 0, best, None if best is None else 0.0)
