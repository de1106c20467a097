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


class FakeMohex:
    """Stands for MoHex over GTP: it records the stones it is told and answers
    ``compute-fillin`` with a fixed fill."""

    def __init__(self, answer: str) -> None:
        self.answer = answer
        self.stones: list[tuple[int, str]] = []
        self.asked: list[str] = []

    def new_game(self, size: int) -> None:
        self.stones = []

    def play(self, color: int, vertex: str) -> None:
        self.stones.append((color, vertex))

    def command(self, line: str) -> str:
        self.asked.append(line)
        return self.answer


def test_mohex_fill_is_read_as_bit_sets_for_the_side_to_move() -> None:
    check = load("check_hex_fill_rule")
    fake = FakeMohex("b2 fb a1 fw c3 iv[b3]")
    a3 = 1 << vertex_index("a3", 3)
    black, white = check.mohex_fill(fake, 3, a3, 0, 2)
    assert (black, white) == (1 << vertex_index("b2", 3), 1 << vertex_index("a1", 3))
    assert fake.stones == [(1, "a3")] and fake.asked == ["compute-fillin w"]


def test_a_fill_from_mohex_that_changes_the_winner_is_counted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A stand-in 'MoHex' that fills the centre of 3x3 black: on the empty board with
    white to move that turns white's win into black's, so the check fails."""
    check = load("check_hex_fill_rule")
    args = check.argparse.Namespace(size=3, trials=1, seed=1, minimax_upto=10)
    every_cell = (1 << 9) - 1
    empty_board_only = [0, 0, every_cell, 0, 0]  # every cell taken by the rule: none drawn
    assert check.check(args, empty_board_only, every_cell, FakeMohex("b2 fb")) == 1
    out = capsys.readouterr().out
    assert "MoHex's compute-fillin" in out and "1 where the fill changes the winner" in out


def test_mohex_fillin_without_mohex_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    check = load("check_hex_fill_rule")
    assert check.main(["--size", "4", "--mohex-fillin", "--mohex", "/nonexistent/mohex"]) == 2
    err = capsys.readouterr().err
    assert "MoHex 2.0 is absent" in err and err.count("\n") == 1
