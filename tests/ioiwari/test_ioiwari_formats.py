"""The protocol text: the start line (with its diagnostics) and move tokens."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.errors import ParseError
from boardlab.core.textio import Token
from boardlab.ioiwari.formats import format_start, parse_pit, parse_start
from boardlab.ioiwari.rules import IOI, Variant


@given(st.sampled_from(IOI.starts()))
def test_start_round_trip(pits: tuple[int, ...]) -> None:
    assert parse_start(format_start(pits)) == pits


def test_start_tolerates_spacing_and_any_pit_in_range() -> None:
    assert parse_start("  5 5 5 5 0 0 0\r") == (5, 5, 5, 5, 0, 0, 0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4 3 2 4 2 3", "<stdin>:1:12: the start line has 6 numbers; expected 7 pit counts"),
        ("4 3 2 4 2 3 2 1", "<stdin>:1:15: unexpected '1': the start line has more than 7"),
        ("4 3 2 4 2 3 -2", "<stdin>:1:13: pit 7 must be 0 to 5, got -2"),
        ("4 3 2.5 4 2 3 2", "<stdin>:1:5: pit 3 must be an integer, got '2.5'"),
        ("4 3 x 4 2 3 2", "<stdin>:1:5: pit 3 must be an integer, got 'x'"),
        ("6 3 2 4 2 1 2", "<stdin>:1:1: pit 1 must be 0 to 5, got 6"),
        ("4 3 2 4 2 3 3", "<stdin>:1:1: the pits hold 21 beads; a start holds 20"),
        ("", "<stdin>:1:1: expected a start line of 7 pit counts, got nothing"),
    ],
)
def test_bad_start_lines(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_start(text)
    assert str(caught.value).startswith(message)


def test_start_line_number_and_source_and_variant() -> None:
    with pytest.raises(ParseError, match=r"^in\.txt:3:3: pit 2 must be 0 to 3"):
        parse_start(
            "1 4 1 1", Variant(pits=4, cap=3, total=4, low=1, high=1), source="in.txt", line=3
        )


@pytest.mark.parametrize("text", ["x", "2.0", "", "٣", "1" * 12])
def test_bad_move_tokens(text: str) -> None:
    with pytest.raises(ParseError, match="2:4: move must be a pit label"):
        parse_pit(Token(text, 2, 4))


def test_move_tokens() -> None:
    assert parse_pit(Token("+3", 1, 1)) == 3
    assert parse_pit(Token("-1", 1, 1)) == -1
