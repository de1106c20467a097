"""One name for every Hex cell: the command line's ``--json``, the web API and GTP give a
position's cells the same (HexGui's) names, whatever the input file's format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boardlab.cli import main
from boardlab.hex.formats import format_diagram
from boardlab.hex.gtp import HexGtp
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Position, parse_move_name

# A 4x4 game in HexGui's names (red, black, joins top and bottom): black to move wins
# only at b4, which the IOI orientation would call d2.
SIZE = 4
MOVES = ["c2", "a1", "b3", "d4", "b2", "a4", "c3", "c4"]
#: The answer's fields that name no cell and need not repeat from run to run.
EVIDENCE = ("nodes", "seconds")


def _post(client: Any, path: str, body: object) -> dict[str, Any]:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def _verdict(found: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in found.items() if key not in EVIDENCE}


def test_solver_names_agree_in_cli_web_and_gtp(
    client: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    web = _post(client, "hex/solve", {"size": SIZE, "moves": MOVES, "time": 20})
    assert web["winner"] == 1 and web["to_move"] == 1 and web["winning_moves"] == ["b4"]
    assert sorted(web["winning_moves"] + web["losing_moves"]) == sorted(
        _post(client, "hex/state", {"size": SIZE, "moves": MOVES})["legal"]
    )
    # the command line on the web's own SGF and on the same position as an IOI diagram
    sgf = tmp_path / "game.sgf"
    sgf.write_text(_post(client, "hex/sgf", {"size": SIZE, "moves": MOVES})["sgf"])
    position = Position(SIZE)
    for name in MOVES:
        position.play(parse_move_name(name, SIZE))
    diagram = tmp_path / "game.txt"
    diagram.write_text(format_diagram(position))
    for source in (sgf, diagram):
        assert main(["hex", "solve", str(source), "--json", "--time", "20"]) == 0
        cli = json.loads(capsys.readouterr().out)
        assert cli.keys() == web.keys() and _verdict(cli) == _verdict(web)
    # GTP (HexGui's vertices): the same moves played, the same winning cell proved and played
    gtp = HexGtp(SolvingEngine(seed=1), size=SIZE, move_time=0.5)
    colours = ["b", "w"]
    for number, name in enumerate(MOVES):
        reply, _ = gtp.handle_line(f"play {colours[number % 2]} {name}\n")
        assert reply == "= \n\n"
    reply, _ = gtp.handle_line("boardlab-solve 20\n")
    assert reply == "= black " + " ".join(web["winning_moves"]) + "\n\n"
    reply, _ = gtp.handle_line("genmove b\n")
    assert reply == "= b4\n\n"


def test_engine_and_review_name_cells_as_the_game_does(
    client: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The engine's move, its analysis and the review name the cells the game's moves
    name: the proven move b4 in the web's analysis, the engine's answer and the command
    line's ``hex move --json``; the review's moves are the game's."""
    body = {"size": SIZE, "moves": MOVES, "playouts": 200, "seed": 3}
    analysis = _post(client, "hex/analyze", body)
    assert analysis["move"] == "b4" and analysis["solver"]["winning_moves"] == ["b4"]
    played = _post(client, "hex/engine", body)
    assert played["engine"]["move"] == "b4" and played["moves"] == [*MOVES, "b4"]
    assert "b4" in played["stones"]["1"] and played["numbers"]["b4"] == len(MOVES) + 1
    sgf = tmp_path / "game.sgf"
    sgf.write_text(_post(client, "hex/sgf", {"size": SIZE, "moves": MOVES})["sgf"])
    assert main(["hex", "move", str(sgf), "--playouts", "200", "--json"]) == 0
    moved = json.loads(capsys.readouterr().out)
    assert moved["move"] == "b4" and moved.keys() == played["engine"].keys()
    review = _post(client, "hex/review", {"size": SIZE, "moves": MOVES, "playouts": 100})
    assert [point["move"] for point in review["points"]] == [None, *MOVES]
