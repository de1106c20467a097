"""The table of every start: with and without symmetry, against the slow references."""

from __future__ import annotations

import json

import pytest

from boardlab.cli import main
from boardlab.pegs.boards import named_board
from boardlab.pegs.solver.levels import analyse
from boardlab.pegs.solver.reference import finishes_py, games_py, shortest_game_py
from boardlab.pegs.solver.starts import centre_hole, start_holes, start_table
from boardlab.pegs.solver.tables import Goal, make_problem

T5 = named_board("triangle-5")


def test_starts_up_to_symmetry_cover_every_hole_once() -> None:
    for name, starts in (("triangle-5", 4), ("english", 7), ("french", 8), ("asymmetric", 21)):
        board = named_board(name)
        rows = start_holes(board)
        assert len(rows) == starts
        assert sorted(h for _, orbit in rows for h in orbit) == list(range(board.size))
        assert all(first == min(orbit) for first, orbit in rows)
    english = named_board("english")
    assert centre_hole(english) == english.index(english.parse_hole("D4"))
    assert centre_hole(T5) is None and centre_hole(named_board("asymmetric")) is None


def test_triangle_5_table_with_and_without_symmetry_and_against_the_references() -> None:
    reduced = start_table(T5, analyse)
    full = start_table(T5, analyse, symmetry=False)
    assert [row.hole for row in full.rows] == list(range(T5.size))
    by_hole = {row.hole: row for row in full.rows}
    for row in reduced.rows:
        for hole in row.orbit:  # every hole of the orbit has the same figures
            other = by_hole[hole]
            assert (other.solutions, other.back, other.games, other.shortest) == (
                row.solutions, row.back, row.games, row.shortest,
            )  # fmt: skip
    for row in full.rows:  # and each hole's row is the slow references' row
        problem = make_problem(T5, T5.grid.full & ~(1 << row.hole), Goal(None, "ANY"))
        ends = finishes_py(problem)
        assert row.finishes == ends
        assert row.solutions == sum(ends.values())
        assert row.back == ends.get(row.hole, 0)
        assert row.games == games_py(problem)
        assert row.shortest == shortest_game_py(problem)
        assert row.centre is None


def test_published_row_centre_column_is_the_interior_holes() -> None:
    """Durango Bill's table gives start 4 (C1) 1,550 solutions ending in a centre hole:
    the three interior holes C2, D2, D3 together."""
    (row,) = start_table(T5, analyse, holes=[T5.index(T5.parse_hole("C1"))]).rows
    interior = [T5.index(T5.parse_hole(h)) for h in ("C2", "D2", "D3")]
    assert sum(row.finishes.get(h, 0) for h in interior) == 1_550


def test_cli_table_json_and_one_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "table", "triangle-5", "--start", "E5", "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["rows"]
    assert row["start"] == "A1" and sorted(row["holes"]) == ["A1", "E1", "E5"]
    assert (row["solutions"], row["back"], row["games"]) == ("29760", "6816", "568630")
    assert row["shortest_game"] == 6 and row["centre"] is None


def test_cli_table_text_and_a_bad_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "table", "triangle-5", "--start", "C2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "triangle-5: 1 starts up to symmetry; centre none"
    assert lines[2].split() == ["C2", "3", "1,550", "-", "0", "4", "137,846"]
    assert main(["pegs", "table", "triangle-5", "--start", "Z9"]) == 2
    assert "Z9 is not a hole of the triangle-5 board" in capsys.readouterr().err


def test_cli_count_prints_the_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "count", "triangle-5", "--goal", "ANY"]) == 0
    out = capsys.readouterr().out
    assert "games: 568,630 (every line of play until no jump is left)" in out
    assert "shortest game: 6 jumps, 8 pegs left: " in out
    assert main(["pegs", "count", "triangle-5", "--goal", "ANY", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["games"] == "568630" and found["shortest_game"]["jumps"] == 6
    assert len(found["shortest_game"]["moves"]) == 6
    assert found["games_by_pegs"]["8"] == {"dead_end_classes": 1, "games": "2"}


def test_cli_table_out_of_time_keeps_the_finished_rows(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardlab.core.errors import LimitExceededError
    from boardlab.pegs.solver import starts

    counted: list[int] = []

    def second_runs_out(problem: object) -> object:
        counted.append(1)
        if len(counted) == 2:
            raise LimitExceededError("time limit of 1 s reached")
        return analyse(problem)  # type: ignore[arg-type]

    real = starts.start_table

    def table(board: object, count: object, **options: object) -> object:
        return real(board, second_runs_out, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(starts, "start_table", table)
    assert main(["pegs", "table", "triangle-5", "--json"]) == 2
    captured = capsys.readouterr()
    found = json.loads(captured.out)
    assert [row["start"] for row in found["rows"]] == ["A1"]
    assert found["stopped"] == "time limit of 1 s reached"
    assert "the 1 starts finished before it are printed" in captured.err


def test_cli_table_saves_each_row_and_a_second_run_reads_it_back(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    from pathlib import Path

    from boardlab.pegs.solver import starts

    work = Path(str(tmp_path))
    args = ["pegs", "table", "triangle-5", "--workdir", str(work), "--shards", "2", "--json"]
    assert main([*args, "--drop-shards"]) == 0
    first = json.loads(capsys.readouterr().out)
    folders = sorted(p.name for p in work.iterdir())
    assert folders == ["start-A1", "start-B1", "start-C1", "start-C2"], folders
    for folder in work.iterdir():  # the row kept, the shards dropped
        assert [p.name for p in folder.iterdir()] == ["row.json"]

    real = starts.start_table

    def never_counted(problem: object) -> object:
        raise AssertionError("a saved start was counted again")

    def table(board: object, count: object, **options: object) -> object:
        return real(board, never_counted, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(starts, "start_table", table)
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["rows"] == first["rows"]
    assert second["identities"] == {"checked": 128, "failed": []}
    # a saved row whose count contradicts the others: printed, said, exit status 1
    saved = json.loads((work / "start-B1" / "row.json").read_text())
    saved["solutions_by_hole"]["C3"] = str(int(saved["solutions_by_hole"]["C3"]) + 1)
    (work / "start-B1" / "row.json").write_text(json.dumps(saved))
    assert main(args) == 1
    out, err = capsys.readouterr()
    assert "B1: solutions 14880 but by hole 14881" in json.loads(out)["identities"]["failed"]
    assert err.startswith("boardlab pegs: the rows disagree: ")
    (work / "start-B1" / "row.json").write_text('{"start": "B1"}')
    assert main(args) == 2
    assert "start-B1/row.json: not a start's row" in capsys.readouterr().err
    assert main(["pegs", "table", "triangle-5", "--drop-shards"]) == 2
    assert "--drop-shards drops the shards of a work folder" in capsys.readouterr().err
