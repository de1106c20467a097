"""Solver layer: slow, obviously right pure-Python twins of the solver kernels.

They work on Python ints and sets with no cleverness, and the tests compare every
kernel in :mod:`boardlab.pegs.solver.kernel` against them on small boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from functools import cache

import numpy as np
import numpy.typing as npt

from boardlab.core.grid import permute_bits
from boardlab.pegs.solver.tables import Problem

__all__ = [
    "canon_py",
    "canon_slow",
    "count_py",
    "finishes_py",
    "games_enumerated_py",
    "games_py",
    "levels_py",
    "lines_py",
    "min_moves_py",
    "orbit_py",
    "paths_py",
    "shortest_game_py",
    "solvable_py",
    "weight_py",
    "winning_weights_py",
]


def canon_py(bits: int, table: npt.NDArray[np.uint64]) -> int:
    """The canonical form of ``bits`` through the chunk tables (Python ints)."""
    best = None
    width = (table.shape[2] - 1).bit_length()
    for s in range(table.shape[0]):
        image = 0
        for b in range(table.shape[1]):
            image |= int(table[s, b, (bits >> (width * b)) & (table.shape[2] - 1)])
        if best is None or image < best:
            best = image
    assert best is not None
    return best


def canon_slow(problem: Problem, bits: int) -> int:
    """The canonical form of ``bits``: the smallest image under the problem's group."""
    return min(permute_bits(bits, perm) for perm in problem.group)


def orbit_py(problem: Problem, bits: int) -> int:
    """How many distinct boards the class of ``bits`` holds."""
    return len({permute_bits(bits, perm) for perm in problem.group})


def children_py(problem: Problem, bits: int) -> Iterator[int]:
    """Every position one jump after ``bits``."""
    for a, b, c in problem.board.grid.jumps:
        if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1:
            yield bits ^ (1 << a) ^ (1 << b) ^ (1 << c)


def levels_py(problem: Problem) -> dict[int, set[int]]:
    """Every reachable board (no symmetry) by peg count, down to the goal's count."""
    levels = {problem.start_pegs: {problem.start}}
    for pegs in range(problem.start_pegs - 1, problem.goal.pegs - 1, -1):
        levels[pegs] = {child for p in levels[pegs + 1] for child in children_py(problem, p)}
    return levels


def paths_py(problem: Problem) -> Callable[[int], int]:
    """A memoised function: the number of jump sequences from a position to the goal."""

    @cache
    def paths(here: int) -> int:
        if here.bit_count() == problem.goal.pegs:
            return 1 if problem.goal.reached(here) else 0
        return sum(paths(child) for child in children_py(problem, here))

    return paths


def weight_py(problem: Problem, paths: Callable[[int], int], bits: int) -> int:
    """The backward pass's weight of a class: paths to the goal times its orbit size."""
    return paths(bits) * orbit_py(problem, bits)


def winning_weights_py(
    problem: Problem, paths: Callable[[int], int], positions: Iterable[int]
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The ``positions`` with a path to the goal, and their weights as the kernels take
    them: low and high 64-bit words."""
    wins = [int(x) for x in positions if paths(int(x)) > 0]
    weights = [weight_py(problem, paths, x) for x in wins]
    low = [w & ((1 << 64) - 1) for w in weights]
    return (
        np.array(wins, dtype=np.uint64),
        np.array(low, dtype=np.uint64),
        np.array([w >> 64 for w in weights], dtype=np.uint64),
    )


def finishes_py(problem: Problem) -> dict[int, int]:
    """Jump sequences from the start to each final board, by the hole (bit index) of a
    one-peg final board, in hole order: every board counted, no symmetry."""
    counts = {problem.start: 1}
    for _ in range(problem.start_pegs - problem.goal.pegs):
        following: dict[int, int] = {}
        for bits, n in counts.items():
            for child in children_py(problem, bits):
                following[child] = following.get(child, 0) + n
        counts = following
    ends = {b.bit_length() - 1: n for b, n in counts.items() if problem.goal.reached(b)}
    return dict(sorted(ends.items()))


def count_py(problem: Problem, bits: int) -> int:
    """The number of jump sequences from ``bits`` to the goal."""
    return paths_py(problem)(bits)


def solvable_py(problem: Problem, bits: int) -> bool:
    """True when some jump sequence leads from ``bits`` to the goal."""
    return count_py(problem, bits) > 0


def min_moves_py(problem: Problem) -> int | None:
    """Fewest moves (one peg's chain of jumps each) from the start to the goal, by BFS."""
    frontier = {problem.start}
    seen = {problem.start}
    moves = 0
    jumps = problem.board.grid.jumps
    while frontier:
        if any(problem.goal.reached(p) for p in frontier):
            return moves
        moves += 1
        following: set[int] = set()
        for p in frontier:
            stack: list[tuple[int, int | None]] = [(p, None)]
            while stack:
                here, cell = stack.pop()
                for a, b, c in jumps:
                    if cell is not None and a != cell:
                        continue
                    if here >> a & 1 and here >> b & 1 and not here >> c & 1:
                        after = here ^ (1 << a) ^ (1 << b) ^ (1 << c)
                        stack.append((after, c))
                        if after not in seen:
                            seen.add(after)
                            following.add(after)
        frontier = following
    return None


def games_py(problem: Problem) -> int:
    """Complete games from the start (every line of play until no jump is left), every
    board counted, no symmetry: a memoised count of the lines from each board."""

    @cache
    def games(here: int) -> int:
        children = list(children_py(problem, here))
        return sum(games(child) for child in children) if children else 1

    return games(problem.start)


def games_enumerated_py(problem: Problem) -> tuple[int, int]:
    """``(games, shortest)``: every line of play from the start followed to its end, one
    by one (no memory of positions; small boards only), and the fewest jumps of one."""
    games = 0
    shortest = -1
    stack = [(problem.start, 0)]
    while stack:
        here, depth = stack.pop()
        children = list(children_py(problem, here))
        if not children:
            games += 1
            shortest = depth if shortest < 0 else min(shortest, depth)
        stack.extend((child, depth + 1) for child in children)
    return games, shortest


def shortest_game_py(problem: Problem) -> int:
    """The fewest jumps from the start to a position with no jump left (breadth first,
    every board)."""
    frontier = {problem.start}
    jumps = 0
    while True:
        if any(next(children_py(problem, p), None) is None for p in frontier):
            return jumps
        frontier = {child for p in frontier for child in children_py(problem, p)}
        jumps += 1


def lines_py(problem: Problem, depth: int | None = None) -> dict[int, int]:
    """Lines of play from the start into every reachable board (every level down to the
    last, or ``depth`` jumps), no symmetry."""
    counts = {problem.start: 1}
    every = dict(counts)
    jumps = 0
    while counts and (depth is None or jumps < depth):
        jumps += 1
        following: dict[int, int] = {}
        for bits, n in counts.items():
            for child in children_py(problem, bits):
                following[child] = following.get(child, 0) + n
        every.update(following)
        counts = following
    return every
