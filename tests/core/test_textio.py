"""Tests of the contest-text tokenizer and its diagnostics."""

from __future__ import annotations

import pytest

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.textio import TokenReader, read_text, tokenize


def test_tokens_keep_line_and_column() -> None:
    tokens = tokenize("4\n  10 12\n\n0")
    assert [(t.text, t.line, t.column) for t in tokens] == [
        ("4", 1, 1),
        ("10", 2, 3),
        ("12", 2, 6),
        ("0", 4, 1),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "<stdin>:1:1: count must be an integer, got 'x'"),
        ("  11", "<stdin>:1:3: count must be 1 to 10, got 11"),
        ("", "<stdin>:1:1: missing count: the input ends here"),
        ("1.5", "<stdin>:1:1: count must be an integer, got '1.5'"),
        ("٣", "<stdin>:1:1: count must be an integer, got '٣'"),
    ],
)
def test_int_errors_name_the_place(text: str, message: str) -> None:
    reader = TokenReader(text)
    with pytest.raises(ParseError) as caught:
        reader.next_int("count", 1, 10)
    assert str(caught.value) == message


def test_expect_end_names_the_extra_token() -> None:
    reader = TokenReader("1 2\n3", source="f.txt")
    reader.next_int("a")
    with pytest.raises(ParseError, match=r"f.txt:1:3: unexpected '2'"):
        reader.expect_end()


def test_read_text_reports_missing_file(tmp_path: object) -> None:
    with pytest.raises(BoardlabError, match="cannot read 'no/such/file'"):
        read_text("no/such/file")


def test_parse_error_is_a_value_error() -> None:
    assert issubclass(ParseError, ValueError)
