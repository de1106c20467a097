"""Tests of ``boardlab mars``: contest mode byte for byte, solve, judge, errors (exit 2)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.mars.formats import SAMPLE_MAP

from .conftest import DATA

GOLDEN = ["sample", "unreachable", "corridor", "crowded"]


@pytest.mark.parametrize("name", GOLDEN)
def test_contest_output_matches_golden(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mars", str(DATA / f"{name}.in")]) == 0
    out, err = capsys.readouterr()
    assert out == (DATA / f"{name}.solved").read_text()
    assert err == ""


@pytest.mark.parametrize("name", GOLDEN)
def test_golden_outputs_judge_one_hundred(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["mars", "judge", str(DATA / f"{name}.in"), str(DATA / f"{name}.solved")])
    out = capsys.readouterr().out
    assert code == 0
    assert out.strip().endswith("100.00%")


def test_contest_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(SAMPLE_MAP))
    assert main(["mars", "-"]) == 0
    assert capsys.readouterr().out == (DATA / "sample.solved").read_text()


def test_solve_show_matches_golden(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mars", "solve", "--show", str(DATA / "sample.in")]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if not x.startswith("time:")]
    assert "\n".join(lines) + "\n" == (DATA / "sample.show").read_text()


def test_solve_json_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "routes.svg"
    assert main(["mars", "solve", "--json", "--svg", str(svg), str(DATA / "sample.in")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["max_rocks"], data["best"], data["proven"], data["bound"]) == (3, 5, True, 3)
    assert data["certificate"]["bound"] == 3
    assert [r["vehicles"] for r in data["routes"]] == [1, 1]
    picture = svg.read_text()
    assert picture.startswith("<svg") and picture.count("<circle") == 4


def test_judge_illegal_answer_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text("1 0\n1 0\n1 0\n")
    assert main(["mars", "judge", str(DATA / "sample.in"), str(moves)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "ILLEGAL: line 3: vehicle 1 at (1, 3) moves south onto rough terrain (1, 4)"
    )


def test_judge_json(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(DATA / "sample.in")
    assert main(["mars", "judge", "--json", path, str(DATA / "sample.out")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["score"], data["best"], data["percent"]) == (5, 5, 100.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2\n2\n2\n0 0\n0 1\n", ":5:3: the transmitter at (2, 2) is on rough terrain"),
        (
            "2\n2\n2\n0 0\n0 7\n",
            ":5:3: cell (2, 2) must be 0 (clear), 1 (rough) or 2 (rock), got '7'",
        ),
        ("1000\n1\n1\n0\n", ":1:1: number of vehicles must be 1 to 999, got 1000"),
    ],
)
def test_bad_map_is_exit_2_and_writes_nothing(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.dat"
    path.write_text(text)
    for argv in (["mars", str(path)], ["mars", "solve", str(path)]):
        assert main(argv) == 2
        out, err = capsys.readouterr()
        assert out == ""
        assert err == f"boardlab mars: error: {path}{message}\n"


def test_missing_file_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mars", "/no/such/mars.dat"]) == 2
    assert "cannot read '/no/such/mars.dat'" in capsys.readouterr().err


def test_demo_lines() -> None:
    from boardlab.cli import load_game

    game = load_game("mars")
    assert game.demo is not None
    lines = game.demo()
    assert "optimum: 3 samples, best 5 points" in lines[1]
    assert lines[2].endswith("5 of 5 points, 100%")
    assert lines[3].endswith("5 of 5 points, 100%")
