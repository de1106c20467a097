"""``boardlab pegs solve|count|minmoves|classify``: output, exit codes, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.cli._pegs_solver import demo_lines
from boardlab.pegs.judge import judge_text
from boardlab.pegs.rules import Position

DATA = Path(__file__).parent / "data" / "solver"


def test_solve_english_prints_judgeable_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "solve", "english"]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    head, evidence, *moves = captured.out.splitlines()
    assert head.startswith("english, 32 pegs at the start, goal 17")
    assert evidence.startswith("solved in 31 jumps; nodes ") and "proven true" in evidence
    verdict = judge_text(Position("english"), "\n".join(moves) + "\n")
    assert verdict.valid and verdict.solved and verdict.pegs_left == 1


def test_solve_pegged_format_is_only_moves(capsys: pytest.CaptureFixture[str]) -> None:
    board = str(DATA / "english-start.txt")
    assert main(["pegs", "solve", board, "--format", "pegged"]) == 0
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 31 and all(len(line.split()) == 2 for line in out.splitlines())
    verdict = judge_text(Position("english"), out)
    assert verdict.valid and verdict.solved


def test_solve_json_and_goal_file(capsys: pytest.CaptureFixture[str]) -> None:
    goal = str(DATA / "english-centre-goal.txt")
    assert main(["pegs", "solve", "english", "--goal", goal, "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["solved"] and len(record["moves"]) == 31 and record["proven"]


def test_solve_show_draws_every_position(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "solve", "triangle-5", "--goal", "ANY", "--show"]) == 0
    out = capsys.readouterr().out
    assert out.count("A ") == 14  # the start and one diagram per jump


def test_no_solution_is_exit_1_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "solve", "french"]) == 1
    out = capsys.readouterr().out
    assert "no solution: position class" in out
    assert main(["pegs", "solve", str(DATA / "octagon21.txt")]) == 1
    assert "no solution: no line of play works" in capsys.readouterr().out


def test_count_triangle_5_corner(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "count", "triangle-5", "--goal", "ANY"]) == 0
    out = capsys.readouterr().out
    assert "solutions: 29,760" in out
    assert " all        1,544         3,016          390" in out


def test_count_without_symmetry_counts_boards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "count", "triangle-5", "--goal", "ANY", "--no-symmetry", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["classes"] == record["boards"] == 3016 and record["solutions"] == "29760"


def test_minmoves_triangle_5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "minmoves", "triangle-5", "--start", "C1", "--goal", "ANY"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("minimum 9 moves (13 jumps); proven")
    assert len(lines) == 2 + 9


def _without_seconds(record: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in record.items() if key != "seconds"}


@pytest.mark.parametrize(
    "problem",
    [
        ["triangle-5", "--goal", "ANY"],
        ["triangle-5", "--start", "C1", "--goal", "ANY"],
        ["triangle-6"],
        ["triangle-5", "--goal", "E5"],  # no solution: both figures say so
    ],
)
def test_count_with_min_moves_is_both_commands_in_one(
    problem: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``count --min-moves --json`` is ``count --json`` with ``minmoves --json`` under
    ``"minmoves"``, every figure the same; the text is both texts."""
    assert main(["pegs", "count", *problem, "--min-moves", "--json"]) == 0
    both = json.loads(capsys.readouterr().out)
    main(["pegs", "count", *problem, "--json"])
    count = json.loads(capsys.readouterr().out)
    moves_code = main(["pegs", "minmoves", *problem, "--json"])
    moves = json.loads(capsys.readouterr().out)
    assert list(both) == [*count, "minmoves"]
    assert _without_seconds(both.pop("minmoves")) == _without_seconds(moves)
    assert _without_seconds(both) == _without_seconds(count)
    assert main(["pegs", "count", *problem, "--min-moves"]) == 0
    text = capsys.readouterr().out
    main(["pegs", "count", *problem])
    count_text = capsys.readouterr().out
    main(["pegs", "minmoves", *problem])
    moves_text = capsys.readouterr().out
    timeless = [line for line in text.splitlines() if not line.startswith(("time:", "minimum"))]
    head = count_text.splitlines()[:-1]  # all but its time line
    assert timeless == head + [
        line for line in moves_text.splitlines()[1:] if not line.startswith("minimum")
    ]
    if moves_code == 0:
        assert text.count("minimum ") == 1
    else:
        assert "no solution: no winning path" in text and "solutions: 0" in text


@pytest.mark.parametrize(
    ("verb", "keys"),
    [
        ("solve", ["board", "goal", "solved", "moves", "reason", "nodes", "seconds", "proven"]),
        ("minmoves", ["board", "goal", "solved", "min_moves", "chains", "jumps"]),
        ("count", ["board", "goal", "symmetries", "levels", "solutions", "solutions_by_hole"]),
    ],
)
def test_json_is_the_result_as_dict(
    verb: str, keys: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The CLI prints the result's own ``as_dict()`` (the web API's fields), adding nothing."""
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.solver import analyse, make_problem, min_moves, parse_goal, solve

    assert main(["pegs", verb, "triangle-5", "--goal", "ANY", "--json"]) in (0, 1)
    record = json.loads(capsys.readouterr().out)
    board = named_board("triangle-5")
    problem = make_problem(board, goal=parse_goal(board, "ANY"))
    result = {"solve": solve, "minmoves": min_moves, "count": analyse}[verb](problem)
    expected = result.as_dict()
    assert list(record) == list(expected) and set(keys) <= set(record)
    assert record["board"] == "triangle-5" and record["goal"] == "ANY"
    del record["seconds"], expected["seconds"]
    assert record == json.loads(json.dumps(expected))


def test_classify_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "classify", "triangle-4", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert list(record) == [
        "board", "starts", "seconds", "stopped", "undecided", "solutions", "pagoda_proofs"
    ]  # fmt: skip
    assert record["board"] == "triangle-4" and not record["stopped"]
    assert len(record["starts"]) == 10 and record["starts"][0]["vacancy"] == "A1"
    assert set(record["starts"][0]) == {
        "vacancy", "solvable", "ends", "open", "reason", "decided", "back", "back_how"
    }  # fmt: skip


def test_classify_time_bounds_the_whole_command(capsys: pytest.CaptureFixture[str]) -> None:
    """A tiny --time stops the whole command: what it decided (the position classes) is
    printed, the open starts are named on stderr, and the exit status is 2."""
    assert main(["pegs", "classify", "diamond", "--time", "0.001"]) == 2
    captured = capsys.readouterr()
    assert "E5: impossible: position class 0000 holds no single peg" in captured.out
    assert "B4: undecided" in captured.out
    assert "time limit of 0.001 s reached; starts left open: A5 B4 B6" in captured.err


def test_classify_triangle_5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "classify", "triangle-5", "--ends"]) == 0
    out = capsys.readouterr().out
    assert "triangle-5: 15 of 15 single vacancies can end with one peg" in out
    assert "A1: solved -> A1 D1 D4 E3" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pegs", "solve", "nosuch"], "unknown board 'nosuch'"),
        (["pegs", "solve", str(DATA / "ragged.txt")], "ragged row"),
        (["pegs", "solve", str(DATA)], "cannot"),
        (["pegs", "solve", "english", "--goal", "Z9"], "Z9"),
        (["pegs", "solve", "english", "--start", "A1"], "A1 is not a hole"),
        (["pegs", "count", "english", "--start", str(DATA / "english-centre-goal.txt"),
          "--goal", str(DATA / "english-two.txt")], "goal has 2 pegs but the start only 1"),
        (["pegs", "minmoves", "triangle-30"], "triangle side"),
        (["pegs", "solve", "triangle-5", "--format", "pegged"], "square-lattice"),
        (["pegs", "solve", "french", "--start", "C4", "--goal", "E7", "--nodes", "20000"],
         "search limit reached"),
        (["pegs", "solve", "english", "--nodes", "0"], "node limit must be positive"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and len(captured.err.splitlines()) == 1


def test_demo_lines() -> None:
    lines = demo_lines()
    assert lines[0].startswith("solve english (central game): 31 jumps")
    assert "29,760 solutions" in lines[1]


def test_progress_writes_plain_lines_when_stderr_is_not_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Off a terminal (a log file) the progress display writes a plain line every
    LOG_EVERY seconds (a minute) instead of a bar."""
    from boardlab.cli import _progress

    monkeypatch.setattr(_progress, "LOG_EVERY", 0.0)
    with _progress.ProgressLine("counting", total=4) as line:
        line.update(completed=2, description="level 2")
    assert "level 2 (2 of 4)" in capsys.readouterr().err
    monkeypatch.setattr(_progress, "LOG_EVERY", 60.0)
    with _progress.ProgressLine("counting", total=4) as line:
        line.update(completed=3, description="level 3")
    assert capsys.readouterr().err == ""
