"""Tests of the Hi-Q simulation (Mid-Atlantic 1996): the statement and a brute-force oracle."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from boardlab.pegs import hiq
from boardlab.pegs.formats import format_hiq_output, parse_hiq_input

DATA = Path(__file__).parent / "data"

# The published single-vacancy table: start with every hole full but h, h = 1..33.
SINGLE_VACANCY_SUMS = [
    136, 117, 90, 138, 89, 144, 115, 167, 96, 96, 84, 74, 94, 141, 97, 103, 98,
    103, 103, 69, 129, 171, 75, 141, 129, 75, 130, 106, 96, 88, 103, 98, 122,
]  # fmt: skip

CROSS = [
    "..XXX..",
    "..XXX..",
    "XXXXXXX",
    "XXXXXXX",
    "XXXXXXX",
    "..XXX..",
    "..XXX..",
]


def oracle_final_sum(occupied: set[int]) -> int:
    """Brute force straight from the statement: number the cross row by row, try every
    peg in every direction, take the largest target then the largest source."""
    number = {}
    for r, row in enumerate(CROSS):
        for c, char in enumerate(row):
            if char == "X":
                number[(r, c)] = len(number) + 1
    where = {n: rc for rc, n in number.items()}
    pegs = set(occupied)
    while True:
        best: tuple[int, int, int] | None = None
        for source in pegs:
            r, c = where[source]
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                over = number.get((r + dr, c + dc))
                target = number.get((r + 2 * dr, c + 2 * dc))
                if over in pegs and target is not None and target not in pegs:
                    assert over is not None
                    if best is None or (target, source) > (best[0], best[1]):
                        best = (target, source, over)
        if best is None:
            return sum(pegs)
        target, source, over = best
        pegs -= {source, over}
        pegs.add(target)


def test_statement_sample_is_byte_exact() -> None:
    games = parse_hiq_input((DATA / "hiq-sample.in").read_text())
    assert format_hiq_output(hiq.run(games)) == (DATA / "hiq-sample.out").read_text()


def test_corrected_example_jumps() -> None:
    final = hiq.play(hiq.position_of([10, 12, 17, 19, 25]))
    board = final.board
    assert [board.move_text(jump) for jump in final.history] == ["12-26", "25-27", "10-24"]
    assert [board.hole_name(cell) for cell in final.pegs] == ["24", "27"]
    assert hiq.hole_sum(final) == 51


@pytest.mark.parametrize("vacancy", range(1, 34))
def test_single_vacancy_table(vacancy: int) -> None:
    start = [hole for hole in range(1, 34) if hole != vacancy]
    assert hiq.run([start]) == [SINGLE_VACANCY_SUMS[vacancy - 1]]


def test_matches_brute_force_oracle_on_random_games() -> None:
    rng = random.Random(20261121)
    for _ in range(3000):
        density = rng.random()
        occupied = {hole for hole in range(1, 34) if rng.random() < density}
        assert hiq.run([sorted(occupied)]) == [oracle_final_sum(occupied)], sorted(occupied)


def test_play_does_not_change_its_argument() -> None:
    start = hiq.position_of(range(1, 34))
    before = start.bits
    hiq.play(start)
    assert start.bits == before and start.history == ()
