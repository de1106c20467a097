"""benchmarks/hex_seeded_connections.py: a listed connection seeded into boardlab's
H-search is combined with its own (an edge-to-edge one decides), listings are read a
command at a time, and bad input ends with one line and exit 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hex.benchmark_script import load

from boardlab.hex.board import vertex_index
from boardlab.hex.formats import format_sgf
from boardlab.hex.rules import BLACK, WHITE, Position

EVERY_CELL_3X3 = "a1 b1 c1 a2 b2 c2 a3 b3 c3"


def test_a_seeded_edge_to_edge_connection_joins_the_edges() -> None:
    bench = load("hex_seeded_connections")
    position = Position(3)
    lines = [sum(int(w) << (64 * i) for i, w in enumerate(r)) for r in bench.board_tables(3)[1]]
    listed = bench.read_listing(
        f"white west east full or [ {EVERY_CELL_3X3} ] [ ]", position, WHITE, lines
    )
    assert len(listed) == 1 and listed[0].a != listed[0].b
    assert bench.joins(position, WHITE, [], 16, 24)[0] is False
    assert bench.joins(position, WHITE, listed, 16, 24)[0] is True
    # black's edges are north and south: a listing of white's is not black's
    assert (
        bench.read_listing(
            f"white west east full or [ {EVERY_CELL_3X3} ] [ ]", position, BLACK, lines
        )
        == []
    )


def test_a_carrier_with_a_stone_is_refused() -> None:
    bench = load("hex_seeded_connections")
    position = Position(3)
    position.to_move = BLACK
    position.play_index(vertex_index("b2", 3))
    lines = [sum(int(w) << (64 * i) for i, w in enumerate(r)) for r in bench.board_tables(3)[1]]
    with pytest.raises(Exception, match="line 2: carrier cell b2 is not empty"):
        bench.read_listing("x\nwhite west east full or [ a1 b2 ] [ ]", position, WHITE, lines)


def test_one_command_of_a_kept_output() -> None:
    bench = load("hex_seeded_connections")
    text = "# header\n$ first\nA\n$ second\nB\nC"
    assert bench.one_run(text, 1) == "A"
    assert bench.one_run(text, 2) == "B\nC"
    assert bench.one_run("no command", 1) == "no command"
    with pytest.raises(Exception, match="has 2 commands, not 3"):
        bench.one_run(text, 3)


def test_the_whole_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bench = load("hex_seeded_connections")
    sgf = tmp_path / "p.sgf"
    sgf.write_text(format_sgf(Position(3)))
    listing = tmp_path / "l.txt"
    listing.write_text(
        f"$ command\n  white west east full or [ {EVERY_CELL_3X3} ] [ ]\n"
        "  white a1 c3 full or [ b2 ] [ ]\n"
    )
    argv = ["--sgf", str(sgf), "--who", "white", "--listing", str(listing)]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "2 full connections of white listed" in out
    assert "with all listed: full" in out
    assert "1 join the edges better alone" in out and "with the other 1: " in out
    assert bench.main([*argv, "--play", "w"]) == 2
    assert "--play" in capsys.readouterr().err


def test_the_proof_with_a_true_listing_keeps_the_winner(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bench = load("hex_seeded_connections")
    position = Position(4)
    position.to_move = BLACK
    sgf = tmp_path / "p.sgf"
    sgf.write_text(format_sgf(position))
    listing = tmp_path / "l.txt"
    listing.write_text("  white a1 b1 full or [ ] [ ]\n  white b2 c2 full or [ ] [ ]\n")
    argv = ["--sgf", str(sgf), "--who", "white", "--listing", str(listing), "--prove", "30"]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "proof without them: black wins" in out
    assert "proof with them: black wins" in out


def test_its_own_connections_name_a_bridge_and_refuse_another_players_edge() -> None:
    bench = load("hex_seeded_connections")
    position = Position(5)
    for name in ("b2", "c3"):  # a bridge: b3 and c2 between them
        position.board[vertex_index(name, 5)] = WHITE
    lines = bench.own_connections(position, WHITE, ["b2", "c3"], 16, 24)
    assert lines == [
        "white b2 c3 full or [ b3 c2 ] [ ]",
        "white b2 c3 semi and [ b3 ] [ ] b3",
        "white b2 c3 semi and [ c2 ] [ ] c2",
    ]
    with pytest.raises(bench.BoardlabError, match="north is not an edge"):
        bench.own_connections(position, WHITE, ["north", "b2"], 16, 24)
