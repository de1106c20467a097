"""The identities between a start table's rows, and the script that checks kept rows."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.cli import main
from boardlab.pegs.boards import named_board
from boardlab.pegs.solver.levels import analyse
from boardlab.pegs.solver.starts import StartTable, start_table
from boardlab.pegs.solver.table_checks import check_rows

T5 = named_board("triangle-5")


@pytest.fixture(scope="module")
def tables() -> tuple[StartTable, StartTable]:
    return start_table(T5, analyse), start_table(T5, analyse, symmetry=False)


def test_triangle_5_rows_satisfy_every_identity(tables: tuple[StartTable, StartTable]) -> None:
    reduced, full = tables
    one, every = check_rows(T5, reduced.rows), check_rows(T5, full.rows)
    assert one.holds and every.holds, (one.problems, every.problems)
    # 4 rows: the sums and backs, the fixing symmetries, 4 x 4 pairs x 6 symmetries
    assert one.checked > 4 * 4 * 6 and every.checked > 15 * 15 * 6


def test_a_changed_count_breaks_reversal_and_the_sum(
    tables: tuple[StartTable, StartTable],
) -> None:
    reduced, _ = tables
    apex = reduced.rows[0]
    finish = max(h for h in apex.finishes if h != apex.hole)
    changed = dict(apex.finishes)
    changed[finish] += 1
    wrong = dataclasses.replace(apex, finishes=changed)
    check = check_rows(T5, [wrong, *reduced.rows[1:]])
    assert not check.holds
    assert any("reversal" in p for p in check.problems)
    assert any("but by hole" in p for p in check.problems)
    # the back column against the start's own entry
    back = dataclasses.replace(apex, back=apex.back + 1)
    assert any("back at the start" in p for p in check_rows(T5, [back]).problems)


def test_the_script_checks_kept_tables_and_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load("check_pegs_table")
    assert main(["pegs", "table", "triangle-5", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    whole = tmp_path / "table.json"
    whole.write_text(json.dumps(table))
    row = tmp_path / "row.json"
    row.write_text(json.dumps(table["rows"][1]))
    assert script.main([str(whole), str(row), "--board", "triangle-5"]) == 0
    assert "identities over 4 rows: all hold" in capsys.readouterr().out

    table["rows"][0]["solutions_by_hole"]["E3"] = "16129"  # one solution more
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(table))
    assert script.main([str(wrong)]) == 1
    assert "FAILS reversal" in capsys.readouterr().out
    # the same start counted two ways, a broken file, a row without its board: exit 2
    for files, words in (
        ([whole, wrong], "differs from its row in"),
        ([tmp_path / "missing.json"], "cannot read it"),
        ([row], "neither a table"),
    ):
        assert script.main([str(f) for f in files]) == 2
        assert words in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"board": "triangle-5",\n "rows": [}')
    assert script.main([str(broken)]) == 2
    assert "not JSON (line 2, column" in capsys.readouterr().err
