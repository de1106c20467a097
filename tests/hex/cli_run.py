"""Test helper: ``boardlab hex ...`` run in this process, its exit status and output."""

from __future__ import annotations

import pytest

from boardlab.cli import main


def run_hex(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``(exit status, stdout, stderr)`` of ``boardlab hex ARGS`` (argparse's refusals,
    which raise ``SystemExit``, count as their status)."""
    try:
        code = main(["hex", *args])
    except SystemExit as stop:
        code = int(stop.code or 0)
    out, err = capsys.readouterr()
    return code, out, err
