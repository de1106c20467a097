"""The result contract of docs/architecture.md: a result's ``as_dict()`` takes no argument,
and every game's result gives its evidence under the same names.

A result carries what it needs to be written out (its board, its best known score, its
seed), so the CLI's ``--json`` and the web API print the same object and add nothing.
Checked on every ``as_dict`` defined in ``src/boardlab``, on the parsed source; the
evidence (``seconds``, ``nodes``, ``proven``, ``bound``) on a small real result of every
game's solvers.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.limits import Limit

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


# -- the evidence: every game's result names it the same way ----------------------------------


def _hex_search() -> Any:
    from boardlab.hex.engine.search import MctsEngine
    from boardlab.hex.rules import Position

    engine = MctsEngine(seed=0, max_nodes=1000, connections=False)
    return engine.search(Position(3), Limit(nodes=50))


def _hex_solve() -> Any:
    from boardlab.hex.prover.solver import solve
    from boardlab.hex.rules import Position

    return solve(Position(3), Limit(nodes=10_000))


def _mars() -> Any:
    from boardlab.mars.formats import parse_map
    from boardlab.mars.solver import solve

    return solve(parse_map("2\n3\n3\n0 2 2\n2 1 0\n2 0 0\n"))


def _ioiwari() -> Any:
    from boardlab.ioiwari.rules import Position
    from boardlab.ioiwari.solver import MemoSolver, analyse

    return analyse(MemoSolver(), Position((4, 3, 2, 4, 2, 3, 2)), line=True)


def _pegs_problem() -> Any:
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import make_problem, parse_goal

    board = named_board("triangle-5")
    return make_problem(board, goal=parse_goal(board, "ANY"))


def _pegs_solve() -> Any:
    from boardlab.pegs.solver import solve

    return solve(_pegs_problem(), Limit(nodes=100_000))


def _pegs_count() -> Any:
    from boardlab.pegs.solver import analyse

    return analyse(_pegs_problem())


def _pegs_min_moves() -> Any:
    from boardlab.pegs.solver import min_moves

    return min_moves(_pegs_problem())


def _pegged() -> Any:
    from boardlab.pegs.pegged import PeggedSolver, load_board

    start = load_board("__OO_\n__OO_\nOOXOO\nOOOOX\n____X\n", "example.txt")
    return PeggedSolver(Limit(nodes=10_000), seed=1).solve(start)


def _shongololo() -> Any:
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.solver import Solver

    return Solver(Limit(nodes=2_000), construction_rounds=1, local_rounds=0).solve(Box(2, 2, 3))


RESULTS: dict[str, Callable[[], Any]] = {
    "hex search": _hex_search,
    "hex solve": _hex_solve,
    "mars": _mars,
    "ioiwari": _ioiwari,
    "pegs solve": _pegs_solve,
    "pegs count": _pegs_count,
    "pegs min moves": _pegs_min_moves,
    "pegged": _pegged,
    "shongololo": _shongololo,
}


@pytest.mark.parametrize("name", RESULTS)
def test_every_result_gives_the_same_evidence(name: str) -> None:
    result = RESULTS[name]()
    found = result.as_dict()
    assert isinstance(found["seconds"], float), name
    assert type(found["nodes"]) is int and found["nodes"] >= 0, name
    assert type(found["proven"]) is bool, name
    assert "bound" in found, name
    # the result's own attributes say the same
    assert found["nodes"] == result.nodes and found["proven"] == result.proven, name
    assert found["bound"] == result.bound, name
    assert json.loads(json.dumps(found)) == found, name


def test_the_exact_shongololo_search_names_its_evidence_too() -> None:
    from boardlab.shongololo.blocks import Box
    from boardlab.shongololo.exact import exact_search

    done = exact_search(Box(2, 2, 3))
    assert done.proven and done.bound == done.eaten and done.nodes > 0
    cut = exact_search(Box(4, 4, 4), Limit(nodes=50))
    assert not cut.proven and cut.bound is None
