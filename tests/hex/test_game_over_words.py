"""One sentence for a won game, wherever it is said: the rules, the engine, ``hex move``,
GTP and the web API all name the winner black or white, as HexGui does."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from boardlab.cli import main
from boardlab.core.errors import IllegalMoveError
from boardlab.core.limits import Limit
from boardlab.hex.gtp import HexGtp
from boardlab.hex.player import SolvingEngine
from boardlab.hex.rules import Cell, game_over

#: A 3x3 game white won: white's row 2 (HexGui's a2 b2 c2) joins left and right.
WON = "(;FF[4]GM[11]SZ[3];AB[a1][b1][a3]AW[a2][b2][c2]PL[B])"
SAID = "the game is over: white has won"


def test_the_sentence() -> None:
    assert game_over(2) == SAID
    assert game_over(1) == "the game is over: black has won"


def test_rules_engine_gtp_cli_and_web_say_it_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "won.sgf"
    path.write_text(WON, encoding="utf-8")
    assert main(["hex", "show", str(path)]) == 0
    assert "white (player 2) has won" in capsys.readouterr().out
    # hex move
    assert main(["hex", "move", str(path), "--playouts", "10"]) == 2
    assert capsys.readouterr().err.rstrip("\n").endswith(SAID)
    # the rules and the engine, on the same position
    from boardlab.hex.formats import parse_sgf

    position = parse_sgf(WON)
    assert position.winner == 2
    assert position.why_illegal(Cell.parse("c3")) == SAID
    with pytest.raises(IllegalMoveError) as raised:
        SolvingEngine(seed=0).search(position, Limit(nodes=10))
    assert str(raised.value) == SAID
    # GTP: genmove resigns as MoHex does; what refuses a move says the sentence
    gtp = HexGtp(SolvingEngine(seed=0, max_nodes=1000), size=3, move_time=0.05)
    lines = ["play b a1", "play b b1", "play b a3", "play w a2", "play w b2", "play w c2"]
    assert all(gtp.handle_line(line)[0] == "= \n\n" for line in lines)
    assert gtp.handle_line("genmove b")[0] == "= resign\n\n"
    assert gtp.handle_line("boardlab-analyze")[0] == f"? {SAID}\n\n"
    # the web API (HexGui's cell names, black first)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from boardlab.web.app import create_app

    with TestClient(create_app(testing=True)) as client:
        moves = ["a1", "a2", "b1", "b2", "a3", "c2"]
        for path_, body in (
            ("hex/engine", {"size": 3, "moves": moves}),
            ("hex/move", {"size": 3, "moves": moves, "move": "c3"}),
        ):
            answer = client.post(f"/api/{path_}", json=body)
            assert answer.status_code == 422
            assert answer.json()["error"] == SAID, (path_, answer.json())
