"""Load a script of ``benchmarks/`` or ``scripts/`` as a module, as it runs (for their tests)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
SCRIPTS = BENCHMARKS.parent / "scripts"


def load(name: str, folder: Path = BENCHMARKS) -> ModuleType:
    """``<folder>/<name>.py`` (``benchmarks/`` by default, or :data:`SCRIPTS`) as the
    module ``name`` (the folder on ``sys.path``, as when run: the scripts import each
    other; registered in ``sys.modules``, where dataclasses look their module up)."""
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
