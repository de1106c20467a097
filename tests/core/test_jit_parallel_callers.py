"""The rule of ``core/jit.py``: no cached, non-parallel kernel calls a parallel one (such a
caller, loaded from numba's cache by a later process, was seen to crash)."""

from __future__ import annotations

import ast
from pathlib import Path

import boardlab

PARALLEL = "jit_parallel"
SERIAL = {"jit", "jit_borrow", "jit_inline", "jit_fast"}


def decorator_names(node: ast.FunctionDef) -> set[str]:
    names = set()
    for d in node.decorator_list:
        if isinstance(d, ast.Name):
            names.add(d.id)
        elif isinstance(d, ast.Attribute):
            names.add(d.attr)
    return names


def calls(node: ast.FunctionDef) -> set[tuple[str, str]]:
    """``(owner, name)`` of every call in ``node``: ``("", f)`` for ``f(...)``, ``(m, f)``
    for ``m.f(...)`` (``m`` a plain name: a module alias, perhaps)."""
    found = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            if isinstance(call.func, ast.Name):
                found.add(("", call.func.id))
            elif isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name):
                found.add((call.func.value.id, call.func.attr))
    return found


def parallel_in(tree: ast.Module) -> set[str]:
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and PARALLEL in decorator_names(node)
    }


def visible_parallel(
    module: str, tree: ast.Module, parallel: dict[str, set[str]]
) -> set[tuple[str, str]]:
    """The parallel kernels ``module`` can call, as :func:`calls` names them: its own and
    those imported by name (``from m import f``), and those of a kernel module imported
    whole (``from pkg import m``, ``import pkg.m as a``)."""
    names = {("", name) for name in parallel[module]}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                local = alias.asname or alias.name
                if alias.name in parallel.get(node.module, set()):
                    names.add(("", local))
                for name in parallel.get(f"{node.module}.{alias.name}", set()):
                    names.add((local, name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname is not None:
                    for name in parallel.get(alias.name, set()):
                        names.add((alias.asname, name))
    return names


def serial_callers_of_parallel(sources: dict[str, str]) -> list[str]:
    """``"module: caller -> callee"`` for every serial kernel calling a parallel one;
    ``sources`` maps dotted module names to their text."""
    trees = {module: ast.parse(text) for module, text in sources.items()}
    parallel = {module: parallel_in(tree) for module, tree in trees.items()}
    faults = []
    for module, tree in trees.items():
        visible = visible_parallel(module, tree, parallel)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and decorator_names(node) & SERIAL:
                for owner, callee in sorted(calls(node) & visible):
                    qualified = f"{owner}.{callee}" if owner else callee
                    faults.append(f"{module}: {node.name} -> {qualified}")
    return faults


def package_sources() -> dict[str, str]:
    root = Path(boardlab.__file__).resolve().parent
    return {
        ".".join(("boardlab", *p.relative_to(root).with_suffix("").parts)): p.read_text()
        for p in sorted(root.rglob("*.py"))
    }


def test_the_scan_finds_a_serial_kernel_calling_a_parallel_one() -> None:
    kernel = (
        "@jit_parallel\ndef spread(x):\n    return x\n\n"
        "@jit\ndef caller(x):\n    return spread(x)\n\n"
        "def wrapper(x):\n    return spread(x)\n\n"
        "@jit_parallel\ndef nested(x):\n    return spread(x)\n"
    )
    user = "from pkg.k import spread\n\n@jit_borrow\ndef far(x):\n    return spread(x)\n"
    other = "@jit\ndef spread(x):\n    return x\n\n@jit\ndef near(x):\n    return spread(x)\n"
    whole = (
        "from pkg import k\nimport pkg.k as kk\n\n"
        "@jit_fast\ndef by_module(x):\n    return k.spread(x) + kk.spread(x) + o.spread(x)\n"
    )
    found = serial_callers_of_parallel({"pkg.k": kernel, "u": user, "o": other, "w": whole})
    assert found == [
        "pkg.k: caller -> spread",
        "u: far -> spread",
        "w: by_module -> k.spread",
        "w: by_module -> kk.spread",
    ]


def test_no_cached_serial_kernel_calls_a_parallel_one() -> None:
    sources = package_sources()
    assert any("@jit_parallel" in text for text in sources.values())  # the scan sees some
    assert serial_callers_of_parallel(sources) == []
