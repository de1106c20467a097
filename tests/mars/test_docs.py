"""Runs the doctests of every Mars explorer module (the docs page runs via --doctest-glob)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "boardlab.mars.values",
    "boardlab.mars.formats",
    "boardlab.mars.rules",
    "boardlab.mars.solver",
    "boardlab.mars.judge",
    "boardlab.render.mars",
]


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0


def test_every_module_names_its_layer() -> None:
    for name in [*MODULES, "boardlab.cli.mars"]:
        doc = importlib.import_module(name).__doc__ or ""
        assert doc.split(":")[0] in {
            "Formats layer",
            "Rules layer",
            "Solver layer",
            "Judge layer",
            "Render layer",
            "Interface layer",
        }, name


def test_docs_page_examples() -> None:
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "mars.md"
    result = doctest.testfile(str(page), module_relative=False)
    assert result.attempted >= 6
    assert result.failed == 0
