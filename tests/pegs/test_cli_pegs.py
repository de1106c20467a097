"""Tests of ``boardlab hiq`` and ``boardlab pegs``: exact bytes, exit codes, errors."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from boardlab.cli import main

DATA = Path(__file__).parent / "data"


def run(argv: list[str], stdin: str = "", monkeypatch: pytest.MonkeyPatch | None = None) -> int:
    assert monkeypatch is not None
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    return main(argv)


def test_hiq_contest_is_byte_exact(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    status = run(["hiq"], (DATA / "hiq-sample.in").read_text(), monkeypatch)
    captured = capsys.readouterr()
    assert status == 0
    assert captured.out == (DATA / "hiq-sample.out").read_text()
    assert captured.err == ""


def test_hiq_reads_a_file_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hiq", str(DATA / "hiq-sample.in")]) == 0
    assert capsys.readouterr().out == (DATA / "hiq-sample.out").read_text()


def test_hiq_trace(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["hiq", "--trace"], "1\n10 12 17 19 25 0\n", monkeypatch) == 0
    out = capsys.readouterr().out
    assert "1: from 12 over 19 to 26" in out and "left: 24 27; sum 51" in out


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        ("3\n1 2 0\n0\n", "<stdin>:3:2: missing hole or 0 of game 3 of 3: the input ends here"),
        ("1\n40 0\n", "<stdin>:2:1: hole or 0 of game 1 of 1 must be 0 to 33, got 40"),
    ],
)
def test_hiq_bad_input_is_one_line_and_exit_2(
    stdin: str, message: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["hiq"], stdin, monkeypatch) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"boardlab hiq: error: {message}\n"


def test_hiq_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hiq", "table"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["1", "136"] and lines[33].split() == ["33", "122"]


def test_pegs_show_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    picture = tmp_path / "english.svg"
    assert main(["pegs", "show", "english", "--svg", str(picture)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(
        "english: 33 holes, 8 symmetries, 76 jumps, home 17; 32 pegs, 4 legal jumps"
    )
    assert "D  X X X O X X X" in out
    text = picture.read_text()
    assert text.startswith("<svg") and text.count('class="peg"') == 32


def test_pegs_show_board_file_form(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pegs", "show", "french", "--start", "C3", "--file"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[2] == "XXOXXXX"


@pytest.mark.parametrize(("moves", "status"), [("5-17\n", 0), ("5-17\n5-17\n", 1)])
def test_pegs_judge_exit_codes(
    moves: str, status: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "moves.txt"
    path.write_text(moves)
    assert main(["pegs", "judge", "english", str(path)]) == status
    out = capsys.readouterr().out
    assert out.startswith("valid" if status == 0 else "invalid: line 2")


def test_pegs_judge_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = tmp_path / "moves.txt"
    path.write_text("5-17\n")
    assert main(["pegs", "judge", "english", str(path), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["valid"] and record["pegs_left"] == 31 and record["score"] is None


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pegs", "show", "nosuch"], "unknown board 'nosuch'"),
        (["pegs", "show", "english", "--start", "99"], "hole 99 does not exist"),
        (["pegs", "judge", "english", "missing-moves.txt"], "cannot read 'missing-moves.txt'"),
        (["pegs", "show", "triangle-2"], "triangle side must be 4..25, got 2"),
        (
            ["pegs", "show", "triangle-5", "--file"],
            "is triangular: only square-lattice boards have a PEGGED board-file form",
        ),
    ],
)
def test_pegs_bad_input(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_bad_board_file_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("XOX\nXQX\n")
    assert main(["pegs", "show", str(path)]) == 2
    assert f"{path}:2:2: 'Q' is not a board symbol" in capsys.readouterr().err


def test_demo_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "hiq", "pegs"]) == 0
    out = capsys.readouterr().out
    assert "byte for byte: matches the statement" in out
    assert "english      33 holes" in out


def test_read_board_named_file_and_start(tmp_path: Path) -> None:
    from boardlab.cli._pegs_args import read_board
    from boardlab.core.errors import BoardlabError
    from boardlab.pegs.cells import Cell

    path = tmp_path / "tiny.txt"
    path.write_text("XXO\n")
    position = read_board(str(path))
    assert position.peg_count == 2 and position.board.name == "tiny.txt"
    assert read_board("english", "full").peg_count == 33
    assert read_board("english", "1").has_peg(Cell(3, 3))
    with pytest.raises(BoardlabError, match="unknown board 'nosuch'"):
        read_board("nosuch")
    with pytest.raises(BoardlabError, match="cannot read 'missing.txt'"):
        read_board("missing.txt")
    start = tmp_path / "start.txt"
    start.write_text("OXX\n")
    assert read_board(str(path), str(start)).bits == 0b110
    with pytest.raises(BoardlabError, match="different board shape"):
        read_board("english", str(start))
