"""docs/benchmarks.md is gathered from docs/benchmarks/ (``benchmarks/gather.py``): a
figure edited into one page and not the other would tell users two things."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_gathered_page_is_up_to_date(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("gather", ROOT / "benchmarks" / "gather.py")
    assert spec is not None and spec.loader is not None
    gather = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gather)
    monkeypatch.chdir(ROOT)
    assert os.path.exists(gather.STANDING)
    on_disk = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert on_disk == gather.gathered(), "run .venv/bin/python benchmarks/gather.py"
