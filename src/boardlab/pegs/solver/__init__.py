"""Solver layer: peg solitaire solved, counted and proved on any board of up to 64 holes.

The solver's room (``boardlab.pegs.solver``): this package's face re-exports what the
interface uses; the modules behind it are listed in ``docs/architecture.md``.

- :func:`solve`: one solution by depth-first search with a table of dead positions
  (canonical forms under the problem's symmetry) and pagoda cuts, or a proof that
  none exists (the position-class invariant, or the exhausted search).
- :func:`analyse` (level by level): reachable positions with and without symmetry,
  positions on a winning path, the exact number of solutions.
- :func:`min_moves`: a solution with the fewest moves (one peg's chain of jumps is one
  move), proven minimal by a complete pass over the winning positions.
- :func:`classify`: every single-vacancy start: where one peg can finish, or why not.
- ``games`` of an :class:`Analysis`: every complete game and a shortest one.

>>> from boardlab.pegs.boards import named_board
>>> result = solve(make_problem(named_board("triangle-5"), goal=parse_goal(
...     named_board("triangle-5"), "ANY")))
>>> result.solved, len(result.moves), result.proven
(True, 13, True)
"""

from __future__ import annotations

from boardlab.pegs.formats import parse_goal
from boardlab.pegs.solver.levels import Analysis, LevelCount, MinMoves, analyse, min_moves
from boardlab.pegs.solver.search import Solution, class_proof, solve
from boardlab.pegs.solver.tables import Goal, Problem, make_problem
from boardlab.pegs.solver.vacancies import Classification, StartVerdict, classify

__all__ = [
    "Analysis",
    "Classification",
    "Goal",
    "LevelCount",
    "MinMoves",
    "Problem",
    "Solution",
    "StartVerdict",
    "analyse",
    "class_proof",
    "classify",
    "make_problem",
    "min_moves",
    "parse_goal",
    "solve",
]
