"""Damaged, endless or misplaced files a command meets (work folders, proofs, inputs):
one line on stderr, exit status 2 (a proof the checker rejects: its verdict), nothing
written halfway, never a traceback."""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.core import textio
from boardlab.core.errors import BoardlabError

HEX_5X5 = (
    "# a 5x5 position\n   a b c d e\n 1 . O . . .\n 2  . . . . .\n 3   . . X O .\n"
    " 4    . . . . .\n 5     . . . . X\n"
)


def run(argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """The exit status and stderr of ``boardlab ARGV`` in this process."""
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


def test_input_past_the_size_limit_is_refused_unread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(textio, "MAX_INPUT_BYTES", 100)
    big = tmp_path / "big.txt"
    big.write_text("." * 101)
    with pytest.raises(BoardlabError, match="larger than 100 bytes"):
        textio.read_text(big)
    small = tmp_path / "small.txt"
    small.write_bytes(b"x\r\ny\rz")
    assert textio.read_text(small) == "x\ny\nz"  # newlines as text mode reads them


def test_an_endless_device_is_cut_off(capsys: pytest.CaptureFixture[str]) -> None:
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero here")
    status, err = run(["hex", "show", "/dev/zero"], capsys)
    assert status == 2 and "larger than" in one_line(err)


def test_text_that_is_not_utf8_names_line_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ab\nc\xff\n")
    status, err = run(["hex", "show", str(bad)], capsys)
    assert status == 2 and "line 2, column 2: not UTF-8 text" in one_line(err)


def test_pegs_table_in_a_missing_or_blocked_work_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, err = run(["pegs", "table", "triangle-5", "--workdir", str(tmp_path / "no")], capsys)
    assert status == 2 and "no such folder" in one_line(err)
    (tmp_path / "start-A1").write_text("a file where a start's folder goes")
    status, err = run(["pegs", "table", "triangle-5", "--workdir", str(tmp_path)], capsys)
    assert status == 2 and "start-A1: not a folder" in one_line(err)


@pytest.mark.parametrize("damage", ["empty", "cut", "garbage", "record", "deep"])
def test_a_damaged_pegs_work_folder(
    damage: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    status, _ = run(["pegs", "count", "triangle-5", "--workdir", str(folder)], capsys)
    assert status == 0
    capsys.readouterr()
    shard = folder / "level-05" / "shard-0000.npy"  # one a resumed count reads again
    assert shard.stat().st_size > 128
    if damage == "empty":
        shard.write_bytes(b"")
    elif damage == "cut":
        shard.write_bytes(shard.read_bytes()[:-8])  # its last position cut short
    elif damage == "garbage":
        shard.write_bytes(bytes(range(256)) * 2)
    elif damage == "record":
        done = next(iter(sorted(folder.glob("wins-*/done.json"))))
        done.write_text('{"counts": ["a", "1"]}')
    else:
        (folder / "run.json").write_text("[" * 100_000 + "]" * 100_000)
    status, err = run(["pegs", "count", "triangle-5", "--workdir", str(folder)], capsys)
    line = one_line(err)
    assert status == 2
    assert ("damaged" in line) or ("unreadable run record" in line), line


def _gzip_json(path: Path, text: str) -> Path:
    with gzip.open(path, "wt", encoding="utf-8") as stream:
        stream.write(text)
    return path


def test_proof_files_past_python_limits_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    digits = _gzip_json(tmp_path / "digits.json.gz", '{"size": ' + "9" * 5000 + "}")
    deep = _gzip_json(tmp_path / "deep.json.gz", "[" * 200_000 + "]" * 200_000)
    for path in (digits, deep):
        status, err = run(["hex", "checkproof", str(path)], capsys)
        assert status == 2 and "not a gzip-compressed JSON proof" in one_line(err)


def test_a_proof_naming_a_cell_far_off_the_board_is_bad(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = {
        "format": "boardlab-hex-proof", "version": 4, "size": 3, "winner": 1,
        "root": {"black": 16, "white": 0, "to_move": 2},
        "nodes": [[495, [], [[2, 1 << 40], [3, 6]]]],
    }  # fmt: skip
    path = _gzip_json(tmp_path / "far.json.gz", json.dumps(proof))
    status = main(["hex", "checkproof", str(path)])
    out, err = capsys.readouterr()
    assert status == 1 and "Traceback" not in err
    assert "off the board" in out + err


def test_hex_openings_refuses_a_work_folder_whose_store_is_a_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "store").write_text("not a folder")
    status, err = run(["hex", "openings", "3", "--workdir", str(tmp_path), "--time", "10"], capsys)
    assert status == 2 and "not a folder" in one_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["store"]  # nothing written


def test_hex_openings_refuses_an_endlessly_nested_run_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "run.json").write_text("[" * 100_000 + "]" * 100_000)
    status, err = run(["hex", "openings", "3", "--workdir", str(tmp_path), "--time", "10"], capsys)
    assert status == 2 and "not a Hex openings run record" in one_line(err)


def test_shongololo_writes_both_outputs_or_neither(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "actions.txt"
    argv = ["shongololo", "solve", "--time", "1", "2", "2", "2", "--output", str(output)]
    status, err = run([*argv, "--svg", str(tmp_path / "missing" / "x.svg")], capsys)
    assert status == 2 and "cannot write" in one_line(err)
    assert list(tmp_path.iterdir()) == []  # no output, no temporary file left
    status, _ = run([*argv, "--svg", str(tmp_path / "x.svg")], capsys)
    assert status == 0 and output.exists() and (tmp_path / "x.svg").exists()


def test_an_svg_is_written_with_the_usual_permissions(tmp_path: Path) -> None:
    position = tmp_path / "p.txt"
    position.write_text(HEX_5X5)
    picture = tmp_path / "p.svg"
    assert main(["hex", "show", "--svg", str(picture), str(position)]) == 0
    mask = os.umask(0o022)
    os.umask(mask)
    assert picture.stat().st_mode & 0o777 == 0o666 & ~mask
