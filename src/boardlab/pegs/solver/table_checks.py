"""Solver layer: the identities a table of single-vacancy starts must satisfy, checked
across rows counted apart (by different runs, days or machines).

- A row's solutions are the sum of its solutions by finishing hole; its "back at the
  start" and "to the centre" are the start's and the centre's entries.
- A symmetry of the board that fixes the start permutes the finishing holes and keeps
  their counts.
- Reversal: a solution from the vacancy ``s`` that ends with one peg in ``f``, played
  backwards on the complementary positions, is a solution from the vacancy ``f`` that
  ends in ``s``. With the board's symmetries, the rows of starts ``s`` and ``t`` must
  give ``sol(s -> g(t)) = sol(t -> g^-1(s))`` for every symmetry ``g``.

No count is recomputed: the check says whether rows agree with each other, which
catches a wrong count only where its partners were counted too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boardlab.pegs.boards import Board
from boardlab.pegs.solver.starts import StartRow, centre_hole

__all__ = ["TableCheck", "check_rows"]


@dataclass(frozen=True)
class TableCheck:
    """How many identities were checked over the rows, and each one that failed (in
    words, holes by name)."""

    checked: int
    problems: tuple[str, ...]

    @property
    def holds(self) -> bool:
        """True when every identity checked holds."""
        return not self.problems


def check_rows(board: Board, rows: Sequence[StartRow]) -> TableCheck:
    """Every identity of the module docstring over ``rows`` (rows of ``board``, each
    counted for its own start hole)."""
    name = _namer(board)
    symmetries = board.symmetries()
    centre = centre_hole(board)
    checked = 0
    problems: list[str] = []

    def expect(equal: bool, text: str) -> None:
        nonlocal checked
        checked += 1
        if not equal:
            problems.append(text)

    for row in rows:
        start = name(row.hole)
        total = sum(row.finishes.values())
        expect(total == row.solutions, f"{start}: solutions {row.solutions} but by hole {total}")
        expect(
            row.back == row.finishes.get(row.hole, 0),
            f"{start}: back at the start {row.back} but by hole {row.finishes.get(row.hole, 0)}",
        )
        if row.centre is not None and centre is not None:
            expect(
                row.centre == row.finishes.get(centre, 0),
                f"{start}: to the centre {row.centre} but by hole {row.finishes.get(centre, 0)}",
            )
        for perm in symmetries:
            if perm[row.hole] != row.hole:
                continue
            for hole, count in row.finishes.items():
                image = row.finishes.get(perm[hole], 0)
                expect(
                    image == count,
                    f"{start}: {count} solutions to {name(hole)} but {image} to its "
                    f"symmetric image {name(perm[hole])}",
                )
    for first in rows:
        for second in rows:
            for perm in symmetries:
                inverse = _inverse(perm)
                there = perm[second.hole]
                back = inverse[first.hole]
                one = first.finishes.get(there, 0)
                other = second.finishes.get(back, 0)
                expect(
                    one == other,
                    f"reversal: {name(first.hole)} -> {name(there)} has {one} solutions, "
                    f"{name(second.hole)} -> {name(back)} has {other}",
                )
    return TableCheck(checked, tuple(problems))


def _inverse(perm: Sequence[int]) -> list[int]:
    inverse = [0] * len(perm)
    for i, j in enumerate(perm):
        inverse[j] = i
    return inverse


def _namer(board: Board) -> Callable[[int], str]:
    cells = board.cells
    return lambda hole: board.hole_name(cells[hole])
