"""Value types and text formats: round trips, tolerant input, errors with line and column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.shongololo.blocks import Action, Block, Box
from boardlab.shongololo.formats import format_actions, format_input, parse_actions, parse_input

sides = st.integers(1, 32)
coords = st.integers(-40, 40)


@given(sides, sides, sides)
def test_box_round_trips(length: int, width: int, height: int) -> None:
    box = Box(length, width, height)
    assert Box.parse(str(box)) == box
    assert parse_input(format_input(box)) == box
    assert eval(repr(box)) == box


@given(st.sampled_from(["E", "M"]), coords, coords, coords)
def test_action_round_trips(kind: str, x: int, y: int, z: int) -> None:
    action = Action.parse(f"{kind} {x} {y} {z}")
    assert Action.parse(str(action)) == action
    assert [entry.action for entry in parse_actions(format_actions([action]))] == [action]
    assert eval(repr(action)) == action


@given(sides, sides, sides)
def test_index_and_block_are_inverse(length: int, width: int, height: int) -> None:
    box = Box(length, width, height)
    for index in (0, box.volume // 2, box.volume - 1):
        assert box.index(box.block(index)) == index


@pytest.mark.parametrize(
    "text", ["2\n3\n2\n", "2 3 2", "  2\n\n 3   2  \n\n", "2\r\n3\r\n2\r\n", "+2 3 2"]
)
def test_input_layout_is_free(text: str) -> None:
    assert parse_input(text) == Box(2, 3, 2)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("", "1:1", "missing L"),
        ("2\n3\n", "2:2", "missing H"),
        ("2\n3\n2\n7\n", "4:1", "unexpected '7'"),
        ("2\n33\n2\n", "2:1", "W must be 1 to 32, got 33"),
        ("0\n3\n2\n", "1:1", "L must be 1 to 32, got 0"),
        ("2\nx\n2\n", "2:1", "W must be an integer"),
        ("2 3 -1", "1:5", "H must be 1 to 32"),
    ],
)
def test_bad_input_names_line_and_column(text: str, where: str, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_input(text, "in.txt")
    message = str(caught.value)
    assert message.startswith(f"in.txt:{where}:"), message
    assert words in message


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("E 1 1 1\nX 1 1 1\n", 2, "expected E or M"),
        ("E 1 1\n", 1, "missing coordinates"),
        ("E 1 1 1 1\n", 1, "too many fields"),
        ("E 1 a 1\n", 1, "must be an integer"),
        ("E111\n", 1, "expected E or M"),
    ],
)
def test_bad_action_lines(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_actions(text)
    assert caught.value.line == line
    assert words in str(caught.value)


def test_blank_lines_are_skipped_but_counted() -> None:
    entries = parse_actions("E 1 1 1\n\n  M 1 1 1  \n")
    assert [(e.line, str(e.action)) for e in entries] == [(1, "E 1 1 1"), (3, "M 1 1 1")]


def test_box_rejects_bad_sides() -> None:
    with pytest.raises(BoardlabError, match="H must be 1 to 32, got 33"):
        Box(1, 1, 33)
    with pytest.raises(BoardlabError):
        Box.parse("2 3")


def test_blocks_touch() -> None:
    assert Block(1, 1, 1).touches(Block(1, 2, 1))
    assert not Block(1, 1, 1).touches(Block(2, 2, 1))
    assert len(Box(3, 3, 3).neighbours(Block(2, 2, 2))) == 6
    assert len(Box(3, 3, 3).neighbours(Block(1, 1, 1))) == 3
