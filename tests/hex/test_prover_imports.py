"""The prover room has no import circle, not even through imports made only for types."""

from __future__ import annotations

import ast
from pathlib import Path

PROVER = Path(__file__).resolve().parents[2] / "src" / "boardlab" / "hex" / "prover"
PACKAGE = "boardlab.hex.prover"


def every_import(path: Path) -> set[str]:
    """The prover modules ``path`` imports anywhere (``if TYPE_CHECKING:`` included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == PACKAGE:
                found.update(f"{PACKAGE}.{alias.name}" for alias in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(PACKAGE + "."))
    return found


def test_no_prover_module_reaches_itself() -> None:
    graph = {f"{PACKAGE}.{path.stem}": every_import(path) for path in PROVER.glob("*.py")}
    assert f"{PACKAGE}.store" in graph and graph[f"{PACKAGE}.dfpn"]
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            assert module != start, f"{start} imports itself through {sorted(seen)}"
            if module not in seen:
                seen.add(module)
                todo.extend(graph.get(module, ()))
