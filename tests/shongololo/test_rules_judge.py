"""Rules and judge: the statement's sample, every broken rule, the bound."""

from __future__ import annotations

import doctest
from functools import cache

import pytest

from boardlab.core.errors import IllegalMoveError
from boardlab.render import shongololo as render
from boardlab.shongololo import blocks, formats, judge, leaves, rules
from boardlab.shongololo.blocks import Action, Box
from boardlab.shongololo.judge import judge_actions, judge_text
from boardlab.shongololo.rules import Shongololo, upper_bound

SAMPLE = (
    "E 1 1 1\nM 1 1 1\nE 2 1 1\nE 1 1 2\nE 1 2 1\nM 1 2 1\nE 1 3 1\nM 1 3 1\n"
    "E 2 3 1\nE 1 3 2\nM 1 3 2\n"
)


@pytest.mark.parametrize("module", [blocks, formats, judge, leaves, rules, render])
def test_docstring_examples(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0


def test_statement_sample_is_legal_and_eats_seven() -> None:
    verdict = judge_text(Box(2, 3, 2), SAMPLE)
    assert verdict.valid and verdict.eaten == 7 and verdict.moves == 4
    assert verdict.finished
    assert verdict.score(8) == pytest.approx(87.5)


PREFIX = "E 1 1 1\nM 1 1 1\n"


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("", 1, "the output is empty"),
        ("M 1 1 1\n", 1, "the first action must be E 1 1 1"),
        ("E 2 1 1\n", 1, "the first action must be E 1 1 1"),
        ("E 1 1 1\nE 2 1 1\n", 2, "the second action must be M 1 1 1"),
        (PREFIX + "E 1 3 1\n", 3, "does not share a face with the current block 1 1 1"),
        (PREFIX + "E 2 1 1\nE 2 1 1\n", 4, "already eaten"),
        (PREFIX + "E 0 1 1\n", 3, "outside the 2x3x2 fruit"),
        (PREFIX + "M 2 1 1\n", 3, "cannot move into the solid block 2 1 1"),
        (PREFIX + "E 2 1 1\nE 1 2 1\nM 1 2 1\nM 1 1 1\n", 6, "was occupied before"),
        (PREFIX + "E 2 1 1\nE 1 2 1\nM 1 2 1\nE 2 2 1\n", 6, "also touches the eaten block 2 1 1"),
        (PREFIX + "E 2 1 1\nM 2 1 1\nM 1 1 1\n", 5, "was occupied before"),
        (PREFIX + "E 1 2 1\nM 1 2 1\nE 1 3 1\nM 1 3 1\nM 1 1 1\n", 7, "does not share a face"),
        (PREFIX + "Q 1 1 1\n", 3, "expected E or M"),
    ],
)
def test_judge_names_the_first_broken_rule(text: str, line: int, reason: str) -> None:
    verdict = judge_text(Box(2, 3, 2), text)
    assert not verdict.valid
    assert verdict.line == line
    assert verdict.reason is not None and reason in verdict.reason
    assert verdict.points == 0 and verdict.score(8) == 0.0


def test_play_raises_and_push_pop_restore() -> None:
    state = Shongololo(Box(2, 2, 2))
    with pytest.raises(IllegalMoveError, match="first action"):
        state.play(Action.parse("M 1 1 1"))
    for line in ("E 1 1 1", "M 1 1 1", "E 2 1 1", "M 2 1 1"):
        state.play(Action.parse(line))
    snapshot = (state.eaten_blocks(), list(state.path))
    state.play(Action.parse("E 2 2 1"))
    state.pop()
    assert (state.eaten_blocks(), list(state.path)) == snapshot
    twin = state.copy()
    assert twin.history == state.history and twin.eaten_count == 2


@pytest.mark.parametrize(
    ("sides", "bound"),
    [((1, 1, 1), 1), ((1, 1, 32), 32), ((2, 3, 2), 10), ((32, 32, 32), 20275), ((2, 2, 2), 7)],
)
def test_bound_values(sides: tuple[int, int, int], bound: int) -> None:
    assert upper_bound(Box(*sides)) == bound
    assert bound <= Box(*sides).volume


def _brute_force(box: Box) -> int:
    """Every legal run, by the rules engine alone (no bound, no solver)."""
    state = Shongololo(box)

    @cache
    def best(eaten: frozenset[int], occupied: frozenset[int], here: int | None) -> int:
        del eaten, occupied, here
        result = state.eaten_count
        for action in state.legal_moves():
            state.push(action)
            key = (
                frozenset(box.index(b) for b in state.eaten_blocks()),
                frozenset(box.index(b) for b in state.path),
                box.index(state.path[-1]) if state.path else None,
            )
            result = max(result, best(*key))
            state.pop()
        return result

    return best(frozenset(), frozenset(), None)


@pytest.mark.parametrize(
    ("sides", "optimum"),
    [((1, 1, 1), 1), ((1, 2, 2), 3), ((2, 2, 2), 5), ((1, 2, 3), 5), ((2, 3, 2), 8)],
)
def test_brute_force_optima_and_bound(sides: tuple[int, int, int], optimum: int) -> None:
    box = Box(*sides)
    assert _brute_force(box) == optimum
    assert optimum <= upper_bound(box)


def test_judge_actions_counts_lines_from_one() -> None:
    actions = [Action.parse(line) for line in ("E 1 1 1", "M 1 1 1", "M 1 1 1")]
    verdict = judge_actions(Box(2, 2, 2), actions)
    assert not verdict.valid and verdict.line == 3
