"""benchmarks/check_hex_fill_rule.py: it finds a fill that changes the winner, passes one
that does not, and its plain minimax (the proof checker's played-out game) agrees with the DFPN."""

from __future__ import annotations

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex.board import vertex_index

CORNER = ["--stones", "b3", "--black", "a1,b1,c1", "--white", "a2,a3"]


def test_a_fill_that_changes_the_winner_is_found(capsys: pytest.CaptureFixture[str]) -> None:
    """Next to black's b3 the acute corner filled both ways, with b2 and d1 left free to
    be anything: 4x4 positions where that changes the winner exist (black b3 c4 d4 and
    white d1, white to move, is one)."""
    check = load("check_hex_fill_rule")
    assert check.main(["--size", "4", "--trials", "150", "--seed", "1", *CORNER]) == 1
    out = capsys.readouterr().out
    assert "changes the winner" in out
    assert "also by plain minimax" in out


def test_no_fill_and_a_sound_fill_pass(capsys: pytest.CaptureFixture[str]) -> None:
    check = load("check_hex_fill_rule")
    assert check.main(["--size", "4", "--trials", "40", "--seed", "2", "--stones", "b3"]) == 0
    # a captured pair: black's second-row b2 and its two edge cells b1 and c1
    pair = ["--stones", "b2", "--black", "b1,c1"]
    assert check.main(["--size", "4", "--trials", "60", "--seed", "3", *pair]) == 0
    out = capsys.readouterr().out
    assert out.count("0 where the fill changes the winner") == 2


def test_minimax_agrees_with_the_dfpn_on_small_boards() -> None:
    check = load("check_hex_fill_rule")
    assert check.played_out_wins(3, 0, 0, 1) and check.dfpn_wins(3, 0, 0, 1)
    corner = 1 << vertex_index("a1", 3)
    for player in (1, 2):
        assert check.played_out_wins(3, corner, 0, player) == check.dfpn_wins(3, corner, 0, player)
    column = sum(1 << vertex_index(f"b{row}", 3) for row in (1, 2, 3))
    assert check.edges_joined(3, column, 1) and not check.edges_joined(3, column, 2)


@pytest.mark.parametrize(
    "bad",
    [
        ["--size", "9"],
        ["--size", "4", "--stones", "z9"],
        ["--size", "4", "--stones", "b3", "--black", "b3"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    bad: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    check = load("check_hex_fill_rule")
    assert check.main(bad) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
