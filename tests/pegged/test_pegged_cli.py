"""Tests of ``boardlab pegged``: contest mode, solve, judge, bench and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.core.limits import Limit
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.judge import judge_text
from boardlab.pegs.pegged import PeggedSolver, load_board
from boardlab.pegs.pegged.generate import random_board_text

DATA = Path(__file__).parent / "data"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["pegged", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_statement_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([str(DATA / "example.txt"), "--nodes", "10000"], capsys)
    assert (code, err) == (0, "")
    verdict = judge_text(load_board((DATA / "example.txt").read_text()), out)
    assert verdict.solved and verdict.moves == 3 and verdict.tiebreak == 0
    assert out == "E5 C5\nC3 C4\nC5 C3\n"


def test_statement_moves_are_judged_as_in_the_statement(capsys: pytest.CaptureFixture[str]) -> None:
    answer = DATA / "example.moves"
    code, out, _ = run(["judge", str(DATA / "example.txt"), str(answer), "--json"], capsys)
    record = json.loads(out)
    assert code == 0
    assert (record["score"], record["walks"], record["tiebreak"]) == (3, 1, 0)


@pytest.mark.parametrize("name", ["faq1.txt", "faq2.txt"])
def test_faq_boards_give_valid_answers(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run([str(DATA / name), "--nodes", "5000"], capsys)
    assert (code, err) == (0, "")
    start = load_board((DATA / name).read_text())
    verdict = judge_text(start, out)
    assert verdict.solved, verdict.reason
    assert verdict.jumps == start.peg_count - 1


def test_faq_board_2_lower_bound_is_70() -> None:
    start = load_board((DATA / "faq2.txt").read_text())
    result = PeggedSolver(Limit(nodes=2000)).solve(start)
    assert result.bound == 70
    assert result.moves_count >= 70


def test_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["solve", str(DATA / "faq1.txt"), "--nodes", "6000", "--json"], capsys)
    record = json.loads(out)
    assert code == 0
    assert record["bound"] == 35
    assert record["moves"] == len(record["solution"]) >= 35
    assert record["proven"] == (record["moves"] == 35)
    assert record["nodes"] > 0 and record["seconds"] >= 0


def test_judge_names_the_first_broken_rule(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moves = tmp_path / "bad.txt"
    moves.write_text("E5 C5\nC3 C5\n")
    code, out, _ = run(["judge", str(DATA / "example.txt"), str(moves)], capsys)
    assert code == 1
    assert "line 2" in out and "C5 is not empty" in out


def test_bench_table(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text((DATA / "example.txt").read_text())
    (tmp_path / "b.txt").write_text(random_board_text(7, 9, 6, seed=2))
    code, out, _ = run(["bench", str(tmp_path), "--nodes", "2000"], capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["board", "pegs", "moves"]
    assert lines[1].split()[:3] == ["a.txt", "3", "3"]
    assert lines[-1].startswith("total")


def test_generated_large_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = random_board_text(25, 49, 300, seed=7)
    path = tmp_path / "big.txt"
    path.write_text(text)
    code, out, err = run([str(path), "--nodes", "3000"], capsys)
    assert (code, err) == (0, "")
    verdict = judge_text(load_board(text), out)
    assert verdict.solved and verdict.jumps == 299


BAD = [
    ("ragged", "XOO\nXO\nOOO\n", "2:3", "ragged row"),
    ("symbol", "XOO\nX.O\nOOO\n", "2:2", "not a board symbol"),
    ("even rows", "XOO\nOXO\nOOO\nOOO\n", "4:1", "odd number of rows"),
    ("even cols", "XOOO\nOXOO\nOOOO\n", "1:4", "odd number of columns"),
    ("few rows", "XOX\n", "1:1", "odd number of rows"),
    ("too many rows", "XOX\n" * 27, "26:1", "too many rows"),
    ("too many cols", "X" + "O" * 50 + "\n", "1:50", "longer than 49"),
    ("no pegs", "OOO\nOOO\nOOO\n", "1:1", "no pegs"),
    ("no centre", "XOO\nO_O\nOOX\n", "2:2", "centre B2 is not a hole"),
    ("island", "XO_OX\nOOO_O\nOO_OO\n", "1:5", "can never meet"),
    ("full", "XXX\nXXX\nXXX\n", "1:1", "no empty hole"),
    ("no line", "XX_\nOO_\n___\n", "1:1", "no three holes in a line"),
]


@pytest.mark.parametrize(("name", "text", "where", "message"), BAD)
def test_bad_input_is_exit_2_with_nothing_on_stdout(
    name: str,
    text: str,
    where: str,
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "board.txt"
    path.write_text(text)
    code, out, err = run([str(path)], capsys)
    assert code == 2, name
    assert out == ""
    assert f"{path}:{where}:" in err
    assert message in err
    assert err.count("\n") == 1


def test_one_peg_needs_no_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.txt"
    path.write_text("OOO\nOOO\nOOX\n")
    code, out, err = run([str(path)], capsys)
    assert (code, out, err) == (0, "", "")


def test_generator_is_reproducible_and_parses() -> None:
    text = random_board_text(9, 15, 30, seed=5)
    assert text == random_board_text(9, 15, 30, seed=5)
    assert parse_board_file(text).peg_count == 30


def test_a_node_limit_gives_the_same_answer_every_time(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [run([str(DATA / "faq2.txt"), "--nodes", "3000", "--seed", "3"], capsys) for _ in "ab"]
    assert runs[0] == runs[1] and runs[0][0] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--time", "0"], "--time must be positive"),
        (["--nodes", "0"], "node limit must be positive"),
    ],
)
def test_bad_limits_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([str(DATA / "example.txt"), *args], capsys)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--density", "2"], "density is a share of the cells"),
        (["--density", "-1"], "density is a share of the cells"),
        (["--rows", "4"], "rows must be odd"),
        (["--pegs", "0"], "at least one peg"),
    ],
)
def test_bad_generator_arguments_are_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(["generate", *args], capsys)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1
