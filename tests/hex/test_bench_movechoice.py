"""benchmarks/bench_hex_movechoice.py: how an answer scores, with and without a judge of
moves the suite does not list (MoHex is not needed here: the judge is a stand-in)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex.rules import BLACK


class StandIn:
    """A judge that proves ``winning`` winning, ``losing`` losing, and nothing else."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def wins(self, case: object, move: str) -> bool | None:
        self.asked.append(move)
        return {"c3": True, "d4": False}.get(move)


def test_an_answer_scores_by_the_list_then_by_the_judges_proof() -> None:
    bench = load("bench_hex_movechoice")
    case = bench.Case("endgame.tst", Path("x.sgf"), BLACK, frozenset({"a1", "b2"}), False)
    judge = StandIn()
    assert bench.verdict(case, "a1", judge) == ("ok", 1)
    assert bench.verdict(case, "c3", judge) == ("wins", 1)
    assert bench.verdict(case, "d4", judge) == ("FAIL", 0)
    assert bench.verdict(case, "e5", judge) == ("open", 0)
    assert bench.verdict(case, "(failed: it died)", judge) == ("FAIL", 0)
    assert bench.verdict(case, "c3", None) == ("FAIL", 0)
    assert judge.asked == ["c3", "d4", "e5"]


def test_proving_needs_mohex(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load("bench_hex_movechoice")
    assert bench.main(["--skip-peer", "--prove", "5", "--mohex", "/nonexistent", "x.tst"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--setting", "nosuch=1"], "no engine setting 'nosuch'"),
        (["--setting", "solver_cells=abc"], "solver_cells='abc' is not a number"),
        (["--prove", "-3"], "--prove must be 0 (off) or more seconds, not -3.0"),
    ],
)
def test_bad_settings_are_one_line_and_exit_2(
    words: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load("bench_hex_movechoice")
    with pytest.raises(SystemExit) as stop:
        bench.main(["--skip-peer", *words, "x.tst"])
    assert stop.value.code == 2
    assert said in capsys.readouterr().err
