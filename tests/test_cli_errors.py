"""Every verb of every game, given missing, empty or malformed arguments: one line on
stderr, exit status 2, nothing on stdout and never a traceback.

The verbs and their arguments are read from the command line's own parsers, so a new
verb is covered as soon as it exists.
"""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from boardlab.cli import available_games, load_game, main
from boardlab.cli._command import Verb

#: Numeric options whose negative value is out of range for every verb that has them.
RANGED = frozenset(
    {
        "--time", "--nodes", "--rows", "--cols", "--pegs", "--density", "--size", "--games",
        "--playouts", "--stones", "--jobs", "--timeout", "--port", "--best", "--as",
    }
)  # fmt: skip


def _verbs() -> Iterator[tuple[str, str | None, Verb]]:
    for name in available_games():
        game = load_game(name)
        for verb in game.verbs:
            yield name, verb.name, verb
        if game.default is not None:
            yield name, None, game.default


def _parser(verb: Verb) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    verb.configure(parser)
    return parser


def _positionals(verb: Verb) -> list[argparse.Action]:
    return [action for action in _parser(verb)._actions if not action.option_strings]


def _required(action: argparse.Action) -> bool:
    return action.nargs not in ("?", "*")


def _cases() -> Iterator[object]:
    for name, verb_name, verb in _verbs():
        head = [name] if verb_name is None else [name, verb_name]
        label = " ".join(head)
        positionals = _positionals(verb)
        if positionals and any(_required(action) for action in positionals):
            yield pytest.param(head, "missing", id=f"{label}-missing")
        if positionals:
            for kind in ("empty-text", "empty-file", "garbage-file", "no-such-file", "garbage"):
                yield pytest.param(head, kind, id=f"{label}-{kind}")
        for action in _parser(verb)._actions:
            option = action.option_strings[-1] if action.option_strings else ""
            if action.nargs == 0 or not option or isinstance(action, argparse._HelpAction):
                continue
            if action.type is not None:
                yield pytest.param(head, f"option:{option}:x", id=f"{label}-{option}-x")
            if option in RANGED:
                yield pytest.param(head, f"option:{option}:-5", id=f"{label}-{option}-neg")


def _arguments(head: list[str], kind: str, folder: Path) -> list[str]:
    name = head[0]
    verb = load_game(name).verb(head[1]) if len(head) > 1 else load_game(name).default
    assert verb is not None
    required = [action for action in _positionals(verb) if _required(action)]
    empty = folder / "empty.txt"
    empty.write_text("")
    garbage = folder / "garbage.txt"
    garbage.write_bytes(b"\x00\xff@@ not { valid ]]\n\t-3 x\n")
    values = {
        "missing": [],
        "empty-text": [""],
        "empty-file": [str(empty)],
        "garbage-file": [str(garbage)],
        "no-such-file": [str(folder / "no" / "such.txt")],
        "garbage": ["@@ not valid ]]"],
    }
    if kind.startswith("option:"):
        _, option, value = kind.split(":")
        return [*head, *["@@ not valid ]]"] * len(required), option, value]
    count = len(required) or 1
    return [*head, *values[kind] * count] if values[kind] else head


@pytest.mark.parametrize(("head", "kind"), list(_cases()))
def test_bad_arguments_give_one_line_and_exit_2(
    head: list[str],
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    _assert_one_line_error(_arguments(head, kind, tmp_path), monkeypatch, capsys)


def _assert_one_line_error(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``boardlab ARGV`` with empty stdin exits 2 with one line on stderr and no stdout."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    try:
        status = main(argv)
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 2
    out, err = capsys.readouterr()
    assert status == 2, f"{argv}: exit {status}; stderr {err!r}"
    assert len(err.strip().splitlines()) == 1, f"{argv}: stderr is not one line: {err!r}"
    assert "Traceback" not in err
    assert out == "", f"{argv}: wrote to stdout on an error: {out[:200]!r}"


#: Valid names with a wrong combination or value: each once ended in a traceback or
#: is a likely slip of a user.
COMBINATIONS = [
    ["pegs", "show", "triangle-5", "--file"],
    ["pegs", "solve", "english", "--start", "Z9"],
    ["pegs", "count", "english", "--goal", "Q1"],
    ["ioiwari", "analyze", "1 2 3"],
    ["ioiwari", "analyze", "4 3 2 4 2 3 2 | 0 0 | 3"],
    ["hex", "move", "99"],
    ["hex", "convert", "3", "--to", "nonsense"],
    ["shongololo", "bound", "0", "1", "1"],
    ["shongololo", "solve", "33", "1", "1"],
    ["pegged", "generate", "--rows", "4"],
]


@pytest.mark.parametrize("argv", COMBINATIONS, ids=" ".join)
def test_wrong_combinations_give_one_line_and_exit_2(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    _assert_one_line_error(argv, monkeypatch, capsys)
