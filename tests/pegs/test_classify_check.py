"""The script that re-checks a kept ``pegs classify`` result: the diamond's passes, and
a broken move, pagoda function or proof depth, or an unreadable file, does not."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tests.hex.benchmark_script import load

KEPT = Path(__file__).parents[2] / "benchmarks" / "results" / "pegs-diamond" / "classify.json"


def _write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "classify.json"
    path.write_text(json.dumps(data))
    return path


def test_the_kept_diamond_classification_holds(capsys: pytest.CaptureFixture[str]) -> None:
    script = load("check_pegs_classify")
    assert script.main([str(KEPT)]) == 0
    out = capsys.readouterr().out
    assert "41 starts, 12 solvable, 29 not" in out and "every check holds" in out


@pytest.mark.parametrize("broken", ["move", "function", "depth", "undecided"])
def test_a_broken_result_fails(
    tmp_path: Path, broken: str, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load("check_pegs_classify")
    data = json.loads(KEPT.read_text())
    if broken == "move":
        data["solutions"][0]["moves"][5] = "D5-D3"
    elif broken == "function":
        data["pagoda_proofs"][1]["functions"][0][20] += 9
    elif broken == "depth":
        data["pagoda_proofs"][2]["first_jumps"] = 0
    else:
        data["undecided"] = ["B4"]
    assert script.main([str(_write(tmp_path, data))]) == 1
    assert "FAILED" in capsys.readouterr().out


def test_an_unreadable_file_is_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load("check_pegs_classify")
    assert script.main([str(_write(tmp_path, {"x": 1}))]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not the JSON" in err[0]
