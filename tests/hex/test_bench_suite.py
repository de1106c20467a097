"""benchmarks/bench_hex_suite.py reads a Benzene test file as MoHex runs it: the position
of each test (a HexGui file, plays, undos) and the question, checked here with boardlab's
solver on small cases written for the test (MoHex is not needed)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from tests.hex.benchmark_script import load

from boardlab.core.limits import Limit
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Position


def suite_module() -> ModuleType:
    return load("bench_hex_suite")


def test_suite_cases_and_their_positions(tmp_path: Path) -> None:
    (tmp_path / "p.sgf").write_text("(;AP[HexGui:1.0]FF[4]GM[11]SZ[3];AB[b1][b2]AW[a3]PL[B])")
    (tmp_path / "s.tst").write_text(
        "# a puzzle\n# Takes 3 seconds to solve.\ndfpn-clear-tt\nloadsgf p.sgf\n"
        "10 dfpn-solver-find-winning white\n#? [b3]\n\n"
        "boardsize 3 3\nplay b b2\nplay w a1\nundo\n"
        "11 dfpn-solve-state white\n#? [black]\n"
    )
    bench = suite_module()
    solve(Position(3), Limit(nodes=10_000))  # load the kernels: a cold compile is no answer
    cases = bench.read_suite(tmp_path / "s.tst")
    assert [c.number for c in cases] == [10, 11]
    assert cases[0].noted_seconds == 3 and cases[1].noted_seconds is None
    first = bench.position_of(cases[0], tmp_path)
    assert first.to_move == WHITE and len(first.stones(BLACK)) == 2
    right, _, _, by_memory = bench.ours(cases[0], first, 60.0)
    assert not by_memory
    assert right is True
    second = bench.position_of(cases[1], tmp_path)
    assert len(second.stones(BLACK)) == 1 and not second.stones(WHITE)
    assert bench.ours(cases[1], second, 60.0)[0] is True
    wrong = bench.Case(12, cases[1].setup, "dfpn-solve-state", WHITE, ["white"], None)
    assert bench.ours(wrong, second, 60.0)[0] is False
    # two worker processes answer alike
    assert bench.ours(cases[1], second, 60.0, threads=2)[0] is True
    assert bench.ours(wrong, second, 60.0, threads=2)[0] is False


def test_a_processor_that_is_not_there_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "one.tst"
    suite.write_text("boardsize 3 3\n1 dfpn-solve-state black\n#? [black]\n")
    code = suite_module().main(["--suite", str(suite), "--mohex-cpu", "4096"])
    assert code == 2
    assert "--mohex-cpu 4096: no such processor" in capsys.readouterr().err


def test_mohex_vc_builds_are_read_from_its_log() -> None:
    bench = suite_module()
    log = "MID calls      21152\nVC builds      11422\nTerminal       854\nWinner         white\n"
    assert bench.mohex_builds(log) == 11422
    assert bench.mohex_builds(log + "VC builds 7\n") == 11429  # two searches
    assert bench.mohex_builds("Winner white\n") is None


def test_a_bad_memory_budget_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "one.tst"
    suite.write_text("boardsize 3 3\n1 dfpn-solve-state black\n#? [black]\n")
    code = suite_module().main(["--suite", str(suite), "--memory", "lots"])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert "--memory" in err and "lots" in err and len(err.splitlines()) == 1


def test_threads_with_a_processor_for_mohex_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "one.tst"
    suite.write_text("boardsize 3 3\n1 dfpn-solve-state black\n#? [black]\n")
    for extra in (["--threads", "2", "--mohex-cpu", "0"], ["--threads", "0"]):
        code = suite_module().main(["--suite", str(suite), *extra])
        assert code == 2
        assert "--threads" in capsys.readouterr().err


def test_an_answer_line_reads_back() -> None:
    bench = suite_module()
    for answer in (
        bench.Answer(45, 8, "dfpn-solve-state", True, 34.8, 29090, True, 40.5, 9159),
        bench.Answer(11, 8, "dfpn-solve-state", None, 60.1, 35639, None, 60.5, None),
        bench.Answer(154, 11, "dfpn-solver-find-winning", False, 0.9, 547, False, 0.2, 96),
    ):
        assert bench.Answer.parse(answer.line()) == answer
    assert bench.Answer.parse("| 8x8 | 32 | 5 | 27 | 4 |") is None


def test_several_processes_at_once_give_one_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The cases run by a process of their own (pinned, its MoHex beside it: here a stand-in
    answering every question the same way), read back into one table."""
    import argparse
    import sys

    stand_in = tmp_path / "mohex"
    stand_in.write_text(
        f"#!{sys.executable}\nimport sys\n"
        "for line in sys.stdin:\n"
        "    words = line.split() or ['']\n"
        "    answer = {'dfpn-solve-state': 'black', 'dfpn-solver-find-winning': 'b3'}"
        ".get(words[0], '')\n"
        "    print(f'= {answer}\\n', flush=True)\n"
        "    if words[0] == 'quit':\n"
        "        break\n"
    )
    stand_in.chmod(0o755)
    (tmp_path / "p.sgf").write_text("(;AP[HexGui:1.0]FF[4]GM[11]SZ[3];AB[b1][b2]AW[a3]PL[B])")
    suite = tmp_path / "s.tst"
    suite.write_text(
        "loadsgf p.sgf\n10 dfpn-solver-find-winning white\n#? [b3]\n\n"
        "boardsize 3 3\nplay b b2\n11 dfpn-solve-state white\n#? [black]\n"
        "boardsize 3 3\nplay b a1\n12 dfpn-solve-state white\n#? [white]\n"
    )
    bench = suite_module()
    argv = ["--suite", str(suite), "--mohex", str(stand_in), "--time", "30"]
    args = argparse.Namespace(jobs=1, time=30.0, threads=1, suite=suite)
    code = bench.run_in_pairs(argv, [10, 11, 12], args)
    out = capsys.readouterr().out
    lines = [bench.Answer.parse(line) for line in out.splitlines()]
    answers = [a for a in lines if a is not None]
    assert [a.number for a in answers] == [10, 11, 12]
    assert [a.right for a in answers] == [True, True, True]
    # the stand-in says black wins 12 too, where white does
    assert [a.theirs_right for a in answers] == [True, True, False]
    assert "| all | 3 | 3 | 0 | 2 |" in out
    assert code == 0


def test_processes_at_once_are_refused_past_the_processors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "one.tst"
    suite.write_text("boardsize 3 3\n1 dfpn-solve-state black\n#? [black]\n")
    for extra in (["--jobs", "0"], ["--jobs", "2", "--mohex-cpu", "0"], ["--jobs", "4096"]):
        code = suite_module().main(["--suite", str(suite), *extra])
        assert code == 2
        assert "--jobs" in capsys.readouterr().err


def test_mohex_alone_answers_each_case_without_boardlab(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--mohex-only``: one line a case, MoHex's answer judged against the suite's, and
    exit status 1 when it is wrong (a stand-in MoHex saying black wins every time)."""
    stand_in, suite = black_says_suite(tmp_path)
    bench = suite_module()
    argv = ["--suite", str(suite), "--mohex", str(stand_in), "--time", "30", "--mohex-only"]
    assert bench.main([*argv, "--cases", "11"]) == 0
    assert capsys.readouterr().out.startswith("case 11 (3x3, dfpn-solve-state): MoHex right ")
    assert bench.main(argv) == 1
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[1].split()[1] for line in lines] == ["right", "wrong"]
    assert "boardlab" not in "".join(lines)


def test_a_case_answered_several_times_takes_medians_and_the_worst_verdict() -> None:
    bench = suite_module()
    case = bench.Case(7, [], "dfpn-solve-state", 1, ["black"], None)
    tries = [
        ((True, 3.0, 40, False), (True, 1.0, 9)),
        ((True, 1.0, 40, False), (None, 5.0, 9)),
        ((True, 2.0, 40, False), (True, 2.0, 9)),
    ]
    answer = bench.combined(case, 5, tries)
    assert (answer.right, answer.spent, answer.nodes) == (True, 2.0, 40)
    assert (answer.theirs_right, answer.their_spent, answer.builds) == (None, 2.0, 9)
    wrong_once = [((False, 1.0, 40, False), tries[0][1]), *tries[1:]]
    assert bench.combined(case, 5, wrong_once).right is False


def test_repeat_must_be_a_positive_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "one.tst"
    suite.write_text("boardsize 3 3\n1 dfpn-solve-state black\n#? [black]\n")
    assert suite_module().main(["--suite", str(suite), "--repeat", "0"]) == 2
    assert "--repeat" in capsys.readouterr().err


def test_repeated_answers_print_every_time_and_one_line_a_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--repeat 2`` against a stand-in MoHex (black wins, whatever is asked): each case
    answered twice by each program, one line a case and its times below it."""
    stand_in, suite = black_says_suite(tmp_path)
    argv = ["--suite", str(suite), "--mohex", str(stand_in), "--time", "30", "--repeat", "2"]
    code = suite_module().main(argv)
    out = capsys.readouterr().out.splitlines()
    answers = [a for a in map(suite_module().Answer.parse, out) if a is not None]
    assert [(a.number, a.right, a.theirs_right) for a in answers] == [
        (11, True, True),
        (12, True, False),
    ]
    times = [line for line in out if line.startswith("    each time: boardlab ")]
    assert len(times) == 2 and all(len(line.split()) == 10 for line in times), times
    assert code == 0


def black_says_suite(folder: Path) -> tuple[Path, Path]:
    """A stand-in MoHex saying black wins whatever it is asked, and a suite of two 3x3
    cases in ``folder``: case 11 black's, case 12 white's."""
    import sys

    stand_in = folder / "mohex"
    stand_in.write_text(
        f"#!{sys.executable}\nimport sys\n"
        "for line in sys.stdin:\n"
        "    words = line.split() or ['']\n"
        "    said = 'black' if words[0] == 'dfpn-solve-state' else ''\n"
        "    print('= ' + said + '\\n', flush=True)\n"
        "    if words[0] == 'quit':\n"
        "        break\n"
    )
    stand_in.chmod(0o755)
    suite = folder / "s.tst"
    suite.write_text(
        "boardsize 3 3\nplay b b2\n11 dfpn-solve-state white\n#? [black]\n"
        "boardsize 3 3\nplay b a1\n12 dfpn-solve-state white\n#? [white]\n"
    )
    return stand_in, suite
