"""The I/O-free GTP dispatcher: ids, comments, errors, built-in commands."""

from __future__ import annotations

import pytest

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.core.gtp import Dispatcher, GtpError, parse_line


def make() -> Dispatcher:
    def fail(args: list[str]) -> str:
        raise IllegalMoveError("cell a1 is already occupied")

    def bad(args: list[str]) -> str:
        raise GtpError("syntax error")

    return Dispatcher(
        {
            "echo": lambda args: " ".join(args),
            "fail": fail,
            "bad": bad,
            "board": lambda args: "\nline 1\n\nline 2\n",
        },
        name="test-engine",
        version="9.9",
    )


@pytest.mark.parametrize(
    ("line", "reply", "quit_"),
    [
        ("protocol_version", "= 2\n\n", False),
        ("name", "= test-engine\n\n", False),
        ("12 version", "=12 9.9\n\n", False),
        ("known_command echo", "= true\n\n", False),
        ("known_command nope", "= false\n\n", False),
        ("known_command", "? known_command takes one argument\n\n", False),
        ("  echo\ta  b # comment", "= a b\n\n", False),
        ("# only a comment", "", False),
        ("", "", False),
        ("3", "? missing command after the id\n\n", False),
        ("nope", "? unknown command\n\n", False),
        ("5 fail", "?5 cell a1 is already occupied\n\n", False),
        ("bad", "? syntax error\n\n", False),
        ("board", "= \nline 1\nline 2\n\n", False),
        ("echo \x01x", "= x\n\n", False),
        ("9 quit", "=9 \n\n", True),
    ],
)
def test_replies(line: str, reply: str, quit_: bool) -> None:
    assert make().handle_line(line) == (reply, quit_)


def test_list_commands_is_sorted_and_complete() -> None:
    reply, _ = make().handle_line("list_commands")
    names = reply[2:].split()
    assert names == sorted(names)
    assert {"echo", "quit", "name", "protocol_version", "known_command"} <= set(names)


def test_builtins_cannot_be_redefined() -> None:
    with pytest.raises(BoardlabError, match="may not redefine name"):
        Dispatcher({"name": lambda args: "x"}, name="a", version="b")


def test_parse_line() -> None:
    assert parse_line("1 play b a1") == (1, "play", ["b", "a1"])
    assert parse_line("   ") is None
