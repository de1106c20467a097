"""The command line: contest mode, solve, judge, bound; bad input is exit 2."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.shongololo.blocks import Box
from boardlab.shongololo.judge import judge_text


def run(args: list[str], monkeypatch: pytest.MonkeyPatch, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    code = main(args)
    return code, out.getvalue(), err.getvalue()


def test_contest_mode_writes_a_legal_optimal_run(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["shongololo", "--nodes", "1000000"], monkeypatch, "2\n3\n2\n")
    assert (code, err) == (0, "")
    assert out.startswith("E 1 1 1\nM 1 1 1\n")
    verdict = judge_text(Box(2, 3, 2), out)
    assert verdict.valid and verdict.eaten == 8


@pytest.mark.parametrize(
    ("stdin", "words"),
    [
        ("2\n3\n", "<stdin>:2:2: missing H"),
        ("2\n3\n2\n9\n", "<stdin>:4:1: unexpected '9'"),
        ("2\n3\n33\n", "<stdin>:3:1: H must be 1 to 32, got 33"),
        ("0 3 2", "<stdin>:1:1: L must be 1 to 32, got 0"),
        ("two\n3\n2\n", "<stdin>:1:1: L must be an integer"),
    ],
)
def test_bad_contest_input_is_exit_2(
    stdin: str, words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["shongololo"], monkeypatch, stdin)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1


def test_solve_json(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(
        ["shongololo", "solve", "3", "3", "3", "--json", "--nodes", "1000000"], monkeypatch
    )
    report = json.loads(out)
    assert code == 0
    assert report["eaten"] == 18 and report["bound"] == upper(27, 54)
    assert report["proven"] is True and report["seed"] == 0
    code, out, _ = run(
        ["shongololo", "solve", "2", "3", "2", "--json", "--nodes", "1000", "--seed", "7"],
        monkeypatch,
    )
    assert code == 0 and json.loads(out)["seed"] == 7


def upper(volume: int, surface: int) -> int:
    return (6 * volume - 2 + surface) // 10


def test_solve_show_and_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    picture, lines = tmp_path / "run.svg", tmp_path / "run.txt"
    code, out, _ = run(
        [
            "shongololo",
            "solve",
            "2",
            "3",
            "2",
            "--show",
            "--svg",
            str(picture),
            "--output",
            str(lines),
        ],
        monkeypatch,
    )
    assert code == 0
    assert "8 eaten" in out and "z=1" in out and "z=2" in out
    assert picture.read_text().startswith("<svg")
    assert judge_text(Box(2, 3, 2), lines.read_text()).eaten == 8


def test_solve_rejects_bad_sizes(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(["shongololo", "solve", "2", "40", "2"], monkeypatch)
    assert code == 2 and "W must be 1 to 32, got 40" in err


def test_judge_verb(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data, good, bad = tmp_path / "in", tmp_path / "good", tmp_path / "bad"
    data.write_text("2\n3\n2\n")
    good.write_text("E 1 1 1\nM 1 1 1\nE 2 1 1\n")
    bad.write_text("E 1 1 1\nM 1 1 1\nM 2 1 1\n")
    code, out, _ = run(["shongololo", "judge", str(data), str(good), "--best", "8"], monkeypatch)
    assert code == 0 and "valid: 2 blocks eaten" in out and "25.0%" in out
    code, out, _ = run(["shongololo", "judge", str(data), str(bad), "--json"], monkeypatch)
    report = json.loads(out)
    assert code == 1 and report["valid"] is False and report["line"] == 3
    assert "solid block" in report["reason"] and report["score"] is None
    code, out, _ = run(
        ["shongololo", "judge", str(data), str(good), "--best", "8", "--json"], monkeypatch
    )
    assert code == 0 and json.loads(out)["score"] == 25.0
    code, _, err = run(["shongololo", "judge", str(tmp_path / "none"), str(good)], monkeypatch)
    assert code == 2 and "cannot read" in err
    code, out, err = run(["shongololo", "judge", str(data), str(good), "--best", "0"], monkeypatch)
    assert (code, out) == (2, "") and len(err.strip().splitlines()) == 1 and "--best" in err
    # 2x3x2 holds at most 10 blocks a run can eat (the proven bound)
    code, out, err = run(["shongololo", "judge", str(data), str(good), "--best", "11"], monkeypatch)
    assert (code, out) == (2, "") and "no run in this box eats more than 10 blocks" in err
    code, out, _ = run(["shongololo", "judge", str(data), str(good), "--best", "10"], monkeypatch)
    assert code == 0 and "20.0%" in out


def test_bound_verb(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["shongololo", "bound", "32", "32", "32"], monkeypatch)
    assert code == 0 and "20275" in out


def test_demo_lines() -> None:
    from boardlab.cli.shongololo import GAME

    assert GAME.demo is not None
    lines = GAME.demo()
    assert any("proven optimal" in line for line in lines)
    assert any("judged legal" in line for line in lines)
