"""The import rules of docs/architecture.md, checked on every module's parsed imports.

Every ``import`` and ``from ... import`` in ``src/boardlab`` counts, at module level or
inside a function, except those under ``if TYPE_CHECKING:`` (they never run).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
GAMES = frozenset({"pegs", "hex", "ioiwari", "mars", "shongololo"})

#: Which top-level parts of boardlab each part may import (itself always allowed).
ALLOWED: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "cluster": frozenset({"core"}),
    **{game: frozenset({"core"}) for game in GAMES},
    "render": frozenset({"core"} | GAMES),
    "peers": frozenset({"core"} | GAMES),
    "web": frozenset({"core", "render", "peers"} | GAMES),
    "cli": frozenset({"core", "render", "peers", "web", "cluster"} | GAMES),
    # the package itself and ``python -m boardlab``
    "": frozenset({"cli"}),
}

SEARCHING = re.compile(r"^_?(solver|search)(_.*)?$")

#: The rooms inside Hex (docs/architecture.md): what each may import of boardlab besides
#: itself. The engine and the prover never import each other; both stand on the board
#: (and the rules, which stand on it, and core). ``hex.player`` joins them, above both.
HEX_BOARD = (
    "boardlab.core",
    "boardlab.hex.board",
    "boardlab.hex.cellsets",
    "boardlab.hex.hsearch",
    "boardlab.hex.connections",
    "boardlab.hex.inferior",
)
HEX_ROOMS: dict[str, tuple[str, ...]] = {
    "boardlab.hex.board": ("boardlab.core",),
    "boardlab.hex.cellsets": ("boardlab.core",),
    "boardlab.hex.hsearch": ("boardlab.core", "boardlab.hex.cellsets"),
    "boardlab.hex.connections": (
        "boardlab.core",
        "boardlab.hex.board",
        "boardlab.hex.cellsets",
        "boardlab.hex.hsearch",
    ),
    "boardlab.hex.inferior": (
        "boardlab.core",
        "boardlab.hex.cellsets",
        "boardlab.hex.connections",
    ),
    "boardlab.hex.engine": (*HEX_BOARD, "boardlab.hex.rules"),
    "boardlab.hex.prover": (*HEX_BOARD, "boardlab.hex.rules"),
    # self-play and its data: the engine's public names, and the prover only through
    # ``hex.player``'s composition
    "boardlab.hex.learning": (
        "boardlab.core",
        "boardlab.hex.board",
        "boardlab.hex.rules",
        "boardlab.hex.engine",
        "boardlab.hex.player",
    ),
}
#: What the learning room stands on never imports it.
HEX_BELOW_LEARNING = (
    "boardlab.hex.board",
    "boardlab.hex.rules",
    "boardlab.hex.cellsets",
    "boardlab.hex.hsearch",
    "boardlab.hex.connections",
    "boardlab.hex.engine",
    "boardlab.hex.prover",
    "boardlab.hex.player",
)
#: The modules of the rooms a judge or a format must not trust (the engine, the prover
#: and what joins them).
HEX_SEARCHING = ("boardlab.hex.engine", "boardlab.hex.prover", "boardlab.hex.player")

#: The peg solitaire solver's room (docs/architecture.md): the level pass, its kernels,
#: the shards, the games, the searches. It stands on these modules of ``pegs`` (and core);
#: nothing else in ``pegs`` imports it (the PEGGED solver, ``pegs.pegged``, has its own).
PEGS_SOLVER = "boardlab.pegs.solver"
PEGS_SOLVER_STANDS_ON = tuple(
    f"boardlab.pegs.{name}" for name in ("boards", "cells", "classes", "formats", "goals", "rules")
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted((SRC / "boardlab").rglob("*.py"))}


@cache
def _tree(path: Path) -> ast.Module:
    """A module's syntax tree, parsed once for every check."""
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk_runtime(node: ast.AST) -> Iterator[ast.AST]:
    """Every node below ``node`` except the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _walk_runtime(other)
            continue
        yield child
        yield from _walk_runtime(child)


def from_target(package: str, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` in ``package`` reads (relative ones resolved)."""
    if not node.level:
        return node.module or ""
    base = package.split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The boardlab modules that module ``name`` imports at run time."""
    tree = _tree(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = from_target(package, node)
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in known else target)
    return {module for module in found if module == "boardlab" or module.startswith("boardlab.")}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def part_of(module: str) -> str:
    """The top-level part of boardlab a module is in ("" for the package and ``__main__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else ""


def basename(module: str) -> str:
    return module.rsplit(".", 1)[-1]


def within(module: str, package: str) -> bool:
    """Is ``module`` the module or package ``package`` or inside it?"""
    return module == package or module.startswith(package + ".")


def room_of(module: str) -> str | None:
    """The Hex room (a key of :data:`HEX_ROOMS`) ``module`` is in, if any."""
    return next((room for room in HEX_ROOMS if within(module, room)), None)


def room_violations(module: str, targets: set[str]) -> list[str]:
    """The imports of ``module`` its Hex room may not make."""
    room = room_of(module)
    if room is None:
        return []
    allowed = (room, *HEX_ROOMS[room])
    return sorted(t for t in targets if not any(within(t, part) for part in allowed))


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
                continue
            if child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(edges.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


IMPORTS = graph()


def test_the_checker_sees_imports_and_cycles() -> None:
    assert "boardlab.core.errors" in IMPORTS["boardlab.core.limits"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    engine, prover = "boardlab.hex.engine.search", "boardlab.hex.prover.solver"
    assert room_violations(engine, {prover, "boardlab.hex.rules"}) == [prover]
    assert room_violations(prover, {engine, "boardlab.hex.board"}) == [engine]
    assert room_violations("boardlab.hex.board", {"boardlab.hex.rules"}) == ["boardlab.hex.rules"]
    assert room_violations("boardlab.hex.player", {engine, prover}) == []
    learning = "boardlab.hex.learning.selfplay"
    assert room_violations(learning, {prover, "boardlab.hex.player"}) == [prover]


@pytest.mark.parametrize("module", sorted(IMPORTS))
def test_layers(module: str) -> None:
    part = part_of(module)
    allowed = ALLOWED[part] | {part}
    # ``boardlab`` itself (its version) imports nothing, so every part may read it.
    wrong = sorted(
        target
        for target in IMPORTS[module]
        if target != "boardlab" and part_of(target) not in allowed
    )
    assert not wrong, f"{module} ({part or 'boardlab'}) may not import {wrong}"


@pytest.mark.parametrize("module", sorted(m for m in IMPORTS if basename(m) == "rules"))
def test_rules_import_no_formats(module: str) -> None:
    wrong = sorted(target for target in IMPORTS[module] if basename(target) == "formats")
    assert not wrong, f"{module} stands on the formats layer: {wrong}"


@pytest.mark.parametrize(
    "module", sorted(m for m in IMPORTS if basename(m) in {"judge", "formats", "proofcheck"})
)
def test_judges_and_formats_import_no_search(module: str) -> None:
    wrong = sorted(
        target
        for target in IMPORTS[module]
        if SEARCHING.match(basename(target)) or within(target, PEGS_SOLVER)
    )
    assert not wrong, f"{module} must not trust a solver or search: {wrong}"


def test_the_pegs_solver_is_one_room() -> None:
    """Every solver module lives in ``pegs/solver/``: none is left beside the rules."""
    inside = [m for m in IMPORTS if within(m, PEGS_SOLVER)]
    assert len(inside) > 10
    beside = [
        m
        for m in IMPORTS
        if part_of(m) == "pegs"
        and not within(m, PEGS_SOLVER)
        and not within(m, "boardlab.pegs.pegged")
        and (SEARCHING.match(basename(m)) or "kernel" in basename(m))
    ]
    assert beside == []


@pytest.mark.parametrize("module", sorted(m for m in IMPORTS if part_of(m) == "pegs"))
def test_pegs_solver_room(module: str) -> None:
    """The solver imports of ``pegs`` only the rules and their value types (and itself);
    no other module of ``pegs`` imports the solver."""
    pegs_targets = {t for t in IMPORTS[module] if part_of(t) == "pegs"}
    if within(module, PEGS_SOLVER):
        allowed = (PEGS_SOLVER, *PEGS_SOLVER_STANDS_ON)
        wrong = sorted(t for t in pegs_targets if not any(within(t, a) for a in allowed))
        assert not wrong, f"{module} (the solver's room) may not import {wrong}"
    else:
        wrong = sorted(t for t in pegs_targets if within(t, PEGS_SOLVER))
        assert not wrong, f"{module} (outside the solver's room) may not import {wrong}"


def test_the_hex_rooms_exist() -> None:
    for room in HEX_ROOMS:
        assert any(within(module, room) for module in IMPORTS), room


@pytest.mark.parametrize("module", sorted(m for m in IMPORTS if room_of(m)))
def test_hex_rooms(module: str) -> None:
    """The engine never imports the prover nor the prover the engine; both stand on
    ``hex.board`` (with ``hex.rules`` and core), and the board on core alone."""
    wrong = room_violations(module, IMPORTS[module])
    assert not wrong, f"{module} (room {room_of(module)}) may not import {wrong}"


@pytest.mark.parametrize(
    "module", sorted(m for m in IMPORTS if any(within(m, r) for r in HEX_BELOW_LEARNING))
)
def test_nothing_below_the_learning_room_imports_it(module: str) -> None:
    """The engine, the prover, the player and the board stand without self-play."""
    wrong = sorted(t for t in IMPORTS[module] if within(t, "boardlab.hex.learning"))
    assert not wrong, f"{module} may not import {wrong}"


@pytest.mark.parametrize(
    "module",
    sorted(
        m
        for m in IMPORTS
        if part_of(m) == "hex" and basename(m) in {"judge", "formats", "proofcheck"}
    ),
)
def test_hex_judge_and_formats_stand_outside_the_rooms(module: str) -> None:
    wrong = sorted(t for t in IMPORTS[module] if any(within(t, r) for r in HEX_SEARCHING))
    assert not wrong, f"{module} must not trust the engine or the prover: {wrong}"


PROCESS_MODULES = frozenset({"subprocess", "socket", "multiprocessing", "asyncio.subprocess"})


def stdlib_imports(path: Path) -> set[str]:
    """The top-level names (and ``asyncio.subprocess``) a module imports at run time."""
    tree = _tree(path)
    names: set[str] = set()
    for node in _walk_runtime(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", sorted(m for m in IMPORTS if part_of(m) in GAMES))
def test_games_start_no_processes(module: str) -> None:
    """Process clients (GTP engines, IOI programs, channels) live in ``boardlab.peers``."""
    wrong = sorted(stdlib_imports(modules()[module]) & PROCESS_MODULES)
    assert not wrong, f"{module} drives processes ({wrong}); that belongs in boardlab.peers"


def test_the_package_itself_imports_nothing() -> None:
    assert IMPORTS["boardlab"] == set()


def test_no_import_cycles() -> None:
    found = cycles(IMPORTS)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


#: Private names still imported across modules, each with where it is left to (none).
PRIVATE_LEFT: frozenset[tuple[str, str]] = frozenset()


def private_imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The names with a leading underscore that module ``name`` imports from another
    module (``from boardlab.x import _kernel``, a private module, is not one, nor a
    dunder such as ``__version__``)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(_tree(path)):
        if not isinstance(node, ast.ImportFrom):
            continue
        target = from_target(package, node)
        for alias in node.names:
            full = f"{target}.{alias.name}"
            private = alias.name.startswith("_") and not alias.name.startswith("__")
            if private and full not in known and target.startswith("boardlab"):
                found.add(full)
    return found


def test_the_checker_sees_private_names(tmp_path: Path) -> None:
    known = modules()
    shards = "boardlab.pegs.solver.shards"
    assert private_imports(shards, known[shards], known) == set()
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from boardlab.hex.connections import _bit\nfrom boardlab.shongololo import _kernel\n",
        encoding="utf-8",
    )
    found = private_imports("boardlab.hex.engine.bad", bad, known)
    assert found == {"boardlab.hex.connections._bit"}


@pytest.mark.parametrize("module", sorted(IMPORTS))
def test_no_private_name_is_imported_across_modules(module: str) -> None:
    """A name another module uses is public, in a private module if need be."""
    known = modules()
    found = private_imports(module, known[module], known)
    wrong = sorted(full for full in found if (module, full) not in PRIVATE_LEFT)
    assert not wrong, f"{module} imports private names {wrong}"
