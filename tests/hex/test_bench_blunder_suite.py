"""benchmarks/hex_blunder_suite.py and hex_blunders.py --json: the suite read back, bad
suites refused with their place, verdicts judged and cached, MoHex's absence said (a
stand-in prover here: MoHex is not needed)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.engine.network import load_network
from boardlab.hex.engine.search import MctsEngine
from boardlab.hex.formats import format_game_sgf
from boardlab.hex.judge import GameRecord, Verdict, position_after
from boardlab.hex.rules import BLACK, WHITE


def _suite(tmp_path: Path, records: object) -> Path:
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path


RECORD = {
    "game": "run/g-00-b.sgf",
    "size": 5,
    "ply": 2,
    "moves": ["c3", "b4"],
    "blunder": "a5",
    "reply": "b5",
    "phase": "middlegame",
    "kind": "edge",
}


def test_a_blunder_record_reads_back_as_a_case(tmp_path: Path) -> None:
    walk = load("hex_blunders")
    blunder = walk.Blunder("g-00-b.sgf", 2, "a5", "b5", "middlegame", "edge", 5, ("c3", "b4"))
    suite = load("hex_blunder_suite")
    (case,) = suite.read_suite([_suite(tmp_path, [blunder.record("run/g-00-b.sgf")])])
    assert case.moves == ("c3", "b4") and case.blunder == "a5" and case.mover == BLACK
    assert len(position_after(case.size, case.moves).history) == 2


@pytest.mark.parametrize(
    ("records", "message"),
    [
        ({"not": "a list"}, "no list of positions"),
        ([RECORD, {**RECORD, "moves": None}], "position 2"),
        ([{k: v for k, v in RECORD.items() if k != "blunder"}], "position 1: no 'blunder'"),
        ([{**RECORD, "moves": ["c3", "c3"]}], "position 1: "),
    ],
)
def test_a_bad_suite_is_refused_with_its_place(
    tmp_path: Path, records: object, message: str
) -> None:
    suite = load("hex_blunder_suite")
    with pytest.raises(BoardlabError, match=message):
        suite.read_suite([_suite(tmp_path, records)])


class _Prover:
    """Black wins after any move but e5; every call counted."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, tuple[str, ...]]] = []

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        self.calls.append((size, tuple(moves)))
        if moves[-1] == "e5":
            return None
        return Verdict(BLACK, "stand-in")


def test_verdicts_are_judged_for_the_mover_and_cached(tmp_path: Path) -> None:
    suite = load("hex_blunder_suite")
    black = suite.Case("g", 5, ("c3", "b4"), "a5", "edge")
    white = suite.Case("g", 5, ("c3",), "a5", "edge")
    assert white.mover == WHITE
    prover = _Prover()
    cache = tmp_path / "verdicts.json"
    judge = suite.Judge(prover, cache)
    assert judge(black, "a5") == suite.LOST  # the blunder again, no proof asked
    assert judge(black, "d2") == suite.WON
    assert judge(white, "d2") == suite.LOST
    assert judge(black, "e5") == suite.OPEN
    assert len(prover.calls) == 3
    again = suite.Judge(prover, cache)
    assert again(black, "d2") == suite.WON and len(prover.calls) == 3


def test_the_engine_answers_a_case_with_an_empty_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    suite = load("hex_blunder_suite")
    # the plain tree search stands in for the suite's SolvingEngine: the same answer path
    # without loading the prover's kernels (minutes of compiling on a cold cache)
    monkeypatch.setattr(suite, "engine", lambda options, seed: MctsEngine(seed=seed, **options))
    case = suite.Case("g", 5, ("c3", "b4"), "a5", "edge")
    move = suite.engine_move({}, 1, case, Limit(nodes=200))
    assert move not in case.moves and suite.is_cell(move, 5)
    first = suite.network_move(load_network(), case)
    assert first not in case.moves and suite.is_cell(first, 5)
    assert not suite.is_cell("resign", 5)


def test_without_mohex_the_script_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = load("hex_blunder_suite")
    assert suite.main([str(_suite(tmp_path, [RECORD])), "--mohex", "/nonexistent/mohex"]) == 2
    assert "MoHex 2.0 is absent" in capsys.readouterr().err


def test_a_bad_setting_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = load("hex_blunder_suite")
    fake = tmp_path / "mohex"
    fake.write_text("#!/bin/sh\n", encoding="utf-8")
    fake.chmod(0o755)
    args = [str(_suite(tmp_path, [RECORD])), "--mohex", str(fake), "--setting", "x:nonsense=1"]
    assert suite.main(args) == 2
    assert "no engine setting 'nonsense'" in capsys.readouterr().err


def test_a_kept_walk_gives_its_positions_and_wrong_moves_are_refused(tmp_path: Path) -> None:
    suite = load("hex_blunder_suite")
    moves = ("c3", "b4", "a5", "b5")
    record = GameRecord(5, "mohex", "boardlab", BLACK, "connection", "", moves, (0.0, 0.0))
    (tmp_path / "g-00-w.sgf").write_text(format_game_sgf(record), encoding="utf-8")
    output = tmp_path / "walk.txt"
    output.write_text(
        "$ the command\ng-00-w.sgf: move 2 b4 (middlegame, edge), answered a5\n\n"
        "1 lost games, 1 blunders found, 0 undecided\n",
        encoding="utf-8",
    )
    (case,) = suite.cases_from_walk(tmp_path, output)
    assert case.moves == ("c3",) and case.blunder == "b4" and case.mover == WHITE
    output.write_text("g-00-w.sgf: move 2 a5 (middlegame, edge), answered a5\n")
    with pytest.raises(BoardlabError, match="walk.txt:1: move 2 of .* is not a5"):
        suite.cases_from_walk(tmp_path, output)
