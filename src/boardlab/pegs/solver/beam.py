"""Solver layer: a beam search over levels, for games the depth-first search finds hard.

Level by level like the full enumeration (canonical forms, sorted arrays), but each
level keeps only the ``width`` positions whose pegs sit closest to the goal (smallest
sum of squared distances; ties by value), so it is fast and incomplete: a found
solution is a solution, a miss proves nothing. The path is rebuilt backwards from the
goal: each kept position has a parent among the kept positions one level up.

A level is expanded in chunks of parents, and what the chunks found so far is cut back
to the ``width`` best after each chunk (the best of a union is the best of the best of
its parts, so the kept level is the same whatever the chunks); between two chunks the
search looks at its budget and gives up (None) once it has run out.

>>> from boardlab.pegs.boards import named_board
>>> from boardlab.pegs.solver.tables import make_problem
>>> moves = beam_search(make_problem(named_board("english")), 2000)
>>> moves is not None and len(moves)
31
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Budget
from boardlab.pegs.cells import Jump
from boardlab.pegs.solver.tables import Problem

__all__ = ["beam_search"]

U64 = npt.NDArray[np.uint64]

#: Parents expanded between two looks at the budget: a level of the first beam (width
#: 20,000) is one chunk, one of the second beam (200,000) ten of about 0.15 s.
_CHUNK = 20_000


def _score_table(problem: Problem) -> npt.NDArray[np.int64]:
    board = problem.board
    goal = problem.goal.bits
    if goal is not None:
        targets = [board.grid.cells[i] for i in range(board.size) if goal >> i & 1]
    elif board.home is not None:
        targets = [(board.home.row, board.home.col)]
    else:
        targets = [((board.rows - 1) // 2, (board.cols - 1) // 2)]
    row = sum(r for r, _ in targets) / len(targets)
    col = sum(c for _, c in targets) / len(targets)
    weights = [round(4 * ((r - row) ** 2 + (c - col) ** 2)) for r, c in board.grid.cells]
    nbytes = max(1, (board.size + 7) // 8)
    table = np.zeros((nbytes, 256), dtype=np.int64)
    for b in range(nbytes):
        for v in range(256):
            table[b, v] = sum(
                weights[8 * b + i] for i in range(8) if v >> i & 1 and 8 * b + i < board.size
            )
    return table


def _scores(values: U64, table: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    total = np.zeros(values.size, dtype=np.int64)
    for b in range(table.shape[0]):
        total += table[b][((values >> np.uint64(8 * b)) & np.uint64(255)).astype(np.int64)]
    return total


def _best(children: U64, width: int, scores: npt.NDArray[np.int64]) -> U64:
    """The ``width`` positions of the sorted, distinct ``children`` nearest the goal
    (ties by value), still sorted."""
    if children.size <= width:
        return children
    score = _scores(children, scores)
    cut = np.partition(score, width - 1)[width - 1]
    keep = score < cut
    keep[np.flatnonzero(score == cut)[: width - int(keep.sum())]] = True
    best: U64 = children[keep]
    return best


def beam_search(
    problem: Problem, width: int, budget: Budget | None = None
) -> tuple[Jump, ...] | None:
    """A solution found by a beam of ``width`` positions a level, or None (no proof).

    ``budget`` (None: no bound) is looked at before each chunk of parents; its node
    count is the children generated, as in the depth-first search. Once it has run out
    the answer is None, like a miss.
    """
    from boardlab.pegs.solver import kernel

    mf, mo, mt = problem.masks
    table = problem.table
    scores = _score_table(problem)
    top, bottom = problem.start_pegs, problem.goal.pegs
    levels: dict[int, U64] = {
        top: np.array([kernel.canon(np.uint64(problem.start), table)], dtype=np.uint64)
    }
    nodes = 0
    for pegs in range(top - 1, bottom - 1, -1):
        parents = levels[pegs + 1]
        kept = np.empty(0, dtype=np.uint64)
        for at in range(0, parents.size, _CHUNK):
            if budget is not None and budget.exhausted(nodes):
                return None
            children = kernel.expand(parents[at : at + _CHUNK], mf, mo, mt, table)
            nodes += children.size
            if kept.size:
                children = np.concatenate((kept, children))
            kept = _best(kernel.sort_unique(children, problem.board.size), width, scores)
        if kept.size == 0:
            return None
        levels[pegs] = kept
    ends = [
        int(v)
        for v in levels[bottom].tolist()
        if problem.goal.bits is None
        or int(v) == int(kernel.canon(np.uint64(problem.goal.bits), table))
    ]
    if not ends:
        return None
    here = problem.goal.bits if problem.goal.bits is not None else ends[0]
    path: list[int] = []
    jumps = problem.board.grid.jumps
    for pegs in range(bottom + 1, top + 1):
        level = levels[pegs]
        for j, (a, b, c) in enumerate(jumps):
            if here >> c & 1 and not here >> a & 1 and not here >> b & 1:
                parent = here ^ (1 << a) ^ (1 << b) ^ (1 << c)
                key = kernel.canon(np.uint64(parent), table)
                at = int(np.searchsorted(level, key))
                if at < level.size and level[at] == key:
                    path.append(j)
                    here = parent
                    break
        else:  # pragma: no cover - every kept position has a kept parent
            raise AssertionError("beam path lost")
    if here != problem.start:  # pragma: no cover
        raise AssertionError("beam path does not reach the start")
    return tuple(problem.jump(j) for j in reversed(path))
