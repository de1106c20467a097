"""The result contract of docs/architecture.md: a result's ``as_dict()`` takes no argument.

A result carries what it needs to be written out (its board, its best known score, its
seed), so the CLI's ``--json`` and the web API print the same object and add nothing.
Checked on every ``as_dict`` defined in ``src/boardlab``, on the parsed source.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "boardlab"


def _as_dicts() -> list[tuple[str, ast.FunctionDef]]:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "as_dict":
                found.append((f"{path.relative_to(SRC)}:{node.lineno}", node))
    return found


AS_DICTS = _as_dicts()


def test_there_are_results_to_check() -> None:
    assert len(AS_DICTS) >= 15


@pytest.mark.parametrize(("where", "node"), AS_DICTS, ids=[w for w, _ in AS_DICTS])
def test_as_dict_takes_no_argument(where: str, node: ast.FunctionDef) -> None:
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    assert names == ["self"] and args.vararg is None and args.kwarg is None, where
