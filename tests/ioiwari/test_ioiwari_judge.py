"""The judge: perfect play wins every start; broken programs score 0 and never hang it."""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.ioiwari.judge import (
    GameRecord,
    Opponent,
    format_report,
    run_function_game,
    select_starts,
)
from boardlab.ioiwari.judge import judge as judge_with
from boardlab.ioiwari.judge import run_process_game as run_with
from boardlab.ioiwari.player import ContestPlayer
from boardlab.ioiwari.rules import IOI, Move, State
from boardlab.ioiwari.solver import PerfectPlayer, ValueTable
from boardlab.peers.ioiwari_channel import ProcessChannel

PLAY = [sys.executable, "-m", "boardlab", "ioiwari", "play"]
STATEMENT = (4, 3, 2, 4, 2, 3, 2)
#: The judge enforces wall-clock deadlines, so these tests must measure wall time; the
#: bad programs sleep 30 s or more, and a judge that stopped them is well under this
#: bound even on a loaded machine.
NO_HANG = 10.0
#: The judge runs real programs through the pipe client of ``boardlab.peers``.
judge = partial(judge_with, connect=ProcessChannel)
run_process_game = partial(run_with, connect=ProcessChannel)


def _opponent(table: ValueTable, seed: int = 0) -> Opponent:
    return PerfectPlayer(table, random.Random(seed)).choose


def _lowest(state: State) -> Move:
    return state.legal_moves()[0]


def test_all_357_starts_in_process(table: ValueTable) -> None:
    records = [
        run_function_game(
            ContestPlayer(PerfectPlayer(table).choose).feed, start, _opponent(table, index)
        )
        for index, start in enumerate(IOI.starts())
    ]
    assert len(records) == 357
    assert [r.result for r in records] == ["win"] * 357
    assert all(r.reason == "" and r.banks is not None for r in records)
    # the margin is exactly the table's value: both sides play perfectly
    for record in records:
        assert record.banks is not None
        assert record.banks[0] - record.banks[1] == table.value(record.start)


def test_a_weak_player_loses_games_and_the_record_is_replayable(table: ValueTable) -> None:
    def feed_for() -> ContestPlayer:
        return ContestPlayer(_lowest)

    records = [
        run_function_game(feed_for().feed, start, _opponent(table)) for start in IOI.starts()[::7]
    ]
    assert any(r.result == "loss" for r in records)
    for record in records:
        state = State(IOI, record.start)
        for pit in record.moves:
            state.play(Move(pit))
        outcome = state.outcome()
        assert outcome is not None and outcome.banks == record.banks
        assert record.result == {1: "win", 0: "draw", 2: "loss"}[outcome.winner]


def test_an_in_process_crash_is_a_loss(table: ValueTable) -> None:
    def feed(line: str) -> list[str]:
        raise RuntimeError("boom")

    record = run_function_game(feed, STATEMENT, _opponent(table))
    assert record.result == "loss"
    assert record.reason == "output ended before move 1 (exit status 1; stderr: RuntimeError: boom)"


def test_seeded_sample_through_real_processes(table: ValueTable, use_cache: Path) -> None:
    starts = select_starts(IOI, "6", seed=11)
    assert starts == select_starts(IOI, "6", seed=11) != select_starts(IOI, "6", seed=12)
    seen: list[GameRecord] = []
    report = judge(
        PLAY,
        starts,
        lambda index, start: _opponent(table, index),
        time_limit=20.0,
        jobs=2,
        on_record=seen.append,
    )
    assert len(seen) == 6
    assert [r.result for r in report.records] == ["win"] * 6, format_report(report)
    assert [r.start for r in report.records] == [tuple(s) for s in starts]
    assert report.score == report.max_score == 24
    assert all(r.cpu is not None and r.max_rss_kb for r in report.records)
    text = "\n".join(format_report(report))
    assert "win          6      24" in text and "score       24 / 24 (100.0%)" in text


def _script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / f"prog_{name.replace('-', '_')}.py"
    path.write_text("import sys, time\n" + body)
    return [sys.executable, str(path)]


BAD_PROGRAMS = {
    "illegal": (
        "input()\nprint(9, flush=True)\ninput()\n",
        "move 1: pit 9 does not exist (pits are 1 to 7)",
    ),
    "empty-pit": ("input()\nprint('1\\n1', flush=True)\ninput()\n", "move 2: pit 1 is empty"),
    "early-exit": ("input()\nprint(2, flush=True)\n", "output ended before move 2 (exit status 0)"),
    "silence": ("input()\ntime.sleep(30)\n", "no move 1 within the time limit"),
    "no-read": ("time.sleep(30)\n", "no move 1 within the time limit"),
    "garbage": (
        "input()\nprint('hello', flush=True)\ntime.sleep(30)\n",
        "move 1: wrote 'hello', not a pit label",
    ),
    "crash": (
        "input()\nraise SystemExit('cannot think')\n",
        "output ended before move 1 (exit status 1; stderr: cannot think)",
    ),
    "long-token": (
        "input()\nsys.stdout.write('7' * 100); sys.stdout.flush()\ntime.sleep(30)\n",
        "move 1: wrote a token longer than 64 bytes",
    ),
    "signal": (
        "import os, signal\ninput()\nos.kill(os.getpid(), signal.SIGSEGV)\n",
        "output ended before move 1 (killed by signal SIGSEGV)",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_PROGRAMS))
def test_bad_programs_score_zero_without_hanging(tmp_path: Path, name: str) -> None:
    body, reason = BAD_PROGRAMS[name]
    started = time.perf_counter()
    record = run_process_game(_script(tmp_path, name, body), STATEMENT, _lowest, time_limit=1.0)
    assert time.perf_counter() - started < NO_HANG
    assert record.result == "loss" and record.points == 0
    assert record.reason.startswith(reason), record.reason


def test_missing_program_is_a_loss() -> None:
    record = run_process_game(["/no/such/program"], STATEMENT, _lowest)
    assert record.result == "loss" and record.reason.startswith("cannot start '/no/such/program'")


def test_children_of_the_program_are_killed(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    body = (
        "import subprocess\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
        f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "input()\nprint('x', flush=True)\ntime.sleep(60)\n"
    )
    record = run_process_game(_script(tmp_path, "forker", body), STATEMENT, _lowest, time_limit=5.0)
    assert record.result == "loss" and "wrote 'x'" in record.reason
    child = int(pid_file.read_text())
    for _ in range(200):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.01)
    else:
        pytest.fail(f"process {child} of the judged program survived the judge")


def test_a_program_that_wins_but_does_not_exit_is_killed(
    tmp_path: Path, table: ValueTable, use_cache: Path
) -> None:
    body = "from boardlab.cli import main\nmain(['ioiwari', 'play'])\ntime.sleep(60)\n"
    record = run_process_game(
        _script(tmp_path, "linger", body), STATEMENT, _opponent(table), time_limit=3.0
    )
    assert record.result == "win" and record.banks == (11, 9)
    assert record.reason == "did not exit after the game (killed)"
    assert 2.9 < record.seconds < 3.0 + NO_HANG


def test_select_starts_errors() -> None:
    assert len(select_starts(IOI, "all", 0)) == 357
    for bad in ("0", "358", "some", "-3"):
        with pytest.raises(BoardlabError, match="the starts must be"):
            select_starts(IOI, bad, 0)


def test_judge_checks_its_arguments(table: ValueTable) -> None:
    starts: Sequence[tuple[int, ...]] = [STATEMENT]
    with pytest.raises(BoardlabError, match="games at once must be at least 1"):
        judge(PLAY, starts, lambda i, s: _lowest, jobs=0)
    with pytest.raises(BoardlabError, match="time limit must be positive"):
        judge(PLAY, starts, lambda i, s: _lowest, time_limit=0)


def test_an_illegal_opponent_is_the_judges_own_error(tmp_path: Path) -> None:
    def bad_opponent(state: State) -> Move:
        return Move(9)

    with pytest.raises(BoardlabError, match="no pit 9"):
        run_process_game(
            _script(tmp_path, "one", "input()\nprint(2, flush=True)\ntime.sleep(30)\n"),
            STATEMENT,
            bad_opponent,
            time_limit=5.0,
        )
