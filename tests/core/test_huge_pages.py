"""The big-array commands restart once with glibc's huge pages, and never loop."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from boardlab.core import huge_pages
from boardlab.core.huge_pages import OPT_OUT, TUNABLE, restart_with_huge_pages, with_huge_pages


@pytest.mark.parametrize(
    ("env", "glibc", "expected"),
    [
        ({}, True, TUNABLE),
        ({"GLIBC_TUNABLES": "glibc.a=2"}, True, f"glibc.a=2:{TUNABLE}"),
        ({"GLIBC_TUNABLES": TUNABLE}, True, None),  # restarted already: no loop
        ({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0"}, True, None),  # the user said no
        ({OPT_OUT: "0"}, True, None),
        ({}, False, None),  # not glibc
    ],
)
def test_the_environment_of_the_restart(
    env: dict[str, str], glibc: bool, expected: str | None
) -> None:
    got = with_huge_pages(env, glibc=glibc)
    assert (got and got["GLIBC_TUNABLES"]) == expected or (got is None and expected is None)


def test_the_restart_runs_the_same_command(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, list[str], dict[str, str]]] = []
    monkeypatch.setattr(huge_pages, "_on_glibc", lambda: True)
    monkeypatch.setattr(huge_pages, "_huge_pages_possible", lambda: True)
    monkeypatch.setattr(os, "execve", lambda path, argv, env: calls.append((path, argv, env)))
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    monkeypatch.delenv(OPT_OUT, raising=False)
    restart_with_huge_pages()
    ((path, argv, env),) = calls
    assert path == sys.executable and argv == [sys.executable, *sys.orig_argv[1:]]
    assert env["GLIBC_TUNABLES"] == TUNABLE
    monkeypatch.setenv("GLIBC_TUNABLES", TUNABLE)
    restart_with_huge_pages()
    assert len(calls) == 1  # set already: the process goes on


def test_a_pegs_command_restarted_answers_as_before() -> None:
    """``python -m boardlab pegs ...`` restarts (where glibc is) and still answers."""
    env = {k: v for k, v in os.environ.items() if k not in ("GLIBC_TUNABLES", OPT_OUT)}
    command = [sys.executable, "-m", "boardlab", "pegs", "solve", "triangle-5"]
    plain = subprocess.run(command, capture_output=True, text=True, env={**env, OPT_OUT: "0"})
    restarted = subprocess.run(command, capture_output=True, text=True, env=env)
    assert plain.returncode == restarted.returncode == 0, restarted.stderr
    first, _, *moves = plain.stdout.splitlines()  # the second line has the seconds
    assert restarted.stdout.splitlines()[0] == first and restarted.stdout.splitlines()[2:] == moves
    assert len(moves) == 13
