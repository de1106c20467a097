"""The JSON API of the web page, through Starlette's test client: answers checked against
the game libraries, and every kind of bad request refused with a clear 4xx."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from boardlab.core.limits import Limit
from boardlab.pegs.boards import named_board
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.judge import judge_text
from boardlab.pegs.rules import Position
from boardlab.render.pegs import svg_picture

DATA = Path(__file__).resolve().parents[1]


def post(client: Any, path: str, body: object, status: int = 200) -> dict[str, Any]:
    response = client.post(f"/api/{path}", json=body)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    return data


# -- the app -------------------------------------------------------------------------------
def test_health_and_page(client: Any) -> None:
    assert client.get("/api/health").json()["ok"] is True
    page = client.get("/")
    assert page.status_code == 200
    assert "<title>boardlab</title>" in page.text
    for name in ("common.js", "pegs.js", "hex.js", "ioiwari.js", "mars.js", "shongololo.js"):
        assert client.get(f"/{name}").status_code == 200


@pytest.mark.parametrize(
    ("body", "headers", "status", "message"),
    [
        (b'{"board": ', {"content-type": "application/json"}, 400, "not JSON this page sends"),
        (b"[1, 2]", {"content-type": "application/json"}, 400, "not a JSON object"),
        (b"\xff\xfe", {"content-type": "application/json"}, 400, "not JSON this page sends"),
        (b'{"board": "english"}', {"content-type": "text/plain"}, 415, "Content-Type"),
        (b'{"board": 3}', {"content-type": "application/json"}, 400, "The board must be text"),
        (b'{"board": "chess"}', {"content-type": "application/json"}, 422, "unknown board"),
        (b'{"walks": "yes"}', {"content-type": "application/json"}, 400, "true or false"),
    ],
)
def test_bad_requests_are_refused_with_a_message(
    client: Any, body: bytes, headers: dict[str, str], status: int, message: str
) -> None:
    response = client.post("/api/pegs/state", content=body, headers=headers)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_body_size_is_limited(client: Any) -> None:
    big = b'{"board_file": "' + b"X" * (5 * 1024 * 1024) + b'"}'
    response = client.post(
        "/api/pegs/state", content=big, headers={"content-type": "application/json"}
    )
    assert response.status_code == 413
    assert "too large" in response.json()["error"]

    def chunks() -> Any:  # no Content-Length: counted as it streams
        for _ in range(6):
            yield b" " * (1024 * 1024)

    response = client.post(
        "/api/pegs/state", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_unknown_endpoint_wrong_method_and_foreign_host(client: Any) -> None:
    missing = client.get("/api/pegs/nothing")
    assert missing.status_code == 404 and "no such endpoint" in missing.json()["error"]
    assert client.get("/api/pegs/state").status_code == 405
    assert client.get("/", headers={"host": "evil.example"}).status_code == 400


# -- pegs ----------------------------------------------------------------------------------
def test_pegs_state_is_the_render_picture_with_cell_tags(client: Any) -> None:
    state = post(client, "pegs/state", {"board": "english"})
    assert state["peg_count"] == 32 and len(state["holes"]) == 33
    # one notation on the page, the board's labels (not the English board's Hi-Q numbers)
    assert {m["text"] for m in state["legal"]} == {"B4-D4", "D2-D4", "D6-D4", "F4-D4"}
    assert state["labels"] == state["holes"]
    tagged = re.findall(r'data-cell="([A-Z][0-9]+)"', state["svg"])
    assert tagged == state["holes"]
    untagged = re.sub(r' data-cell="[^"]*"', "", state["svg"])
    assert untagged == svg_picture(Position(named_board("english")))


def test_pegs_move_plays_and_refuses_illegal_moves(client: Any) -> None:
    after = post(client, "pegs/move", {"board": "english", "move": "B4-D4"})
    assert after["peg_count"] == 31 and "B4" not in after["pegs"] and "D4" in after["pegs"]
    assert after["played"]["text"] == "B4-D4"
    body = {"board": "english", "pegs": after["pegs"], "move": "B4-D4"}
    again = post(client, "pegs/move", body, 422)
    assert again["error"] == "B4-D4: no peg at B4" and again["kind"] == "IllegalMoveError"
    wrong = post(client, "pegs/move", {"board": "english", "move": "A1-A3"}, 422)
    assert "not a hole" in wrong["error"]
    walk = post(client, "pegs/move", {"board": "english", "move": "D3-D4"}, 422)
    assert "walks are not allowed" in walk["error"]
    walked = post(client, "pegs/move", {"board": "english", "walks": True, "move": "D3-D4"})
    assert walked["played"]["kind"] == "walk"


def test_pegs_board_file_errors_name_line_and_column(client: Any) -> None:
    bad = post(client, "pegs/state", {"board_file": "XXO\nXQO\n"}, 422)
    assert bad["error"].startswith("The board file, line 2, column 2:"), bad
    assert bad["kind"] == "ParseError"
    good = post(client, "pegs/state", {"board_file": "XXO\n"})
    assert good["pegs"] == ["A1", "A2"] and good["board_file"] == "XXO\n"


def test_pegs_hint_keeps_the_game_solvable(client: Any) -> None:
    from boardlab.pegs.solver import make_problem, solve

    hint = post(client, "pegs/hint", {"board": "english"})
    assert hint["proven"] and hint["solved"] and len(hint["moves"]) == 31
    position = Position(named_board("english"))
    position.play(position.board.parse_move(hint["moves"][0]))
    assert solve(make_problem(position.board, position.bits)).solved


def test_pegs_hint_gives_the_proof_when_there_is_no_solution(client: Any) -> None:
    hint = post(client, "pegs/hint", {"board": "french"})
    assert hint["proven"] and hint["solved"] is False and hint["moves"] == []
    assert "position class" in hint["reason"]
    hint = post(client, "pegs/hint", {"board": "triangle-4", "goal": "any"})
    assert hint["solved"] is False and "no single peg" in hint["reason"]


def test_pegs_hint_and_solve_answer_the_results_as_dict(client: Any) -> None:
    """The web adds nothing of its own: the answer is the solver's result as the CLI's
    ``--json`` prints it (``pegs solve``, ``pegged solve`` with walks)."""
    from boardlab.pegs.pegged import PeggedSolver
    from boardlab.pegs.solver import make_problem, parse_goal, solve

    board = named_board("triangle-5")
    expected = solve(make_problem(board, goal=parse_goal(board, "any"))).as_dict()
    for verb in ("hint", "solve"):
        found = post(client, f"pegs/{verb}", {"board": "triangle-5", "goal": "any"})
        assert list(found) == list(expected)
        del found["seconds"]
        assert found == {k: v for k, v in expected.items() if k != "seconds"}
    assert expected["method"] == "depth-first search (boardlab.pegs.solver)"
    text = (DATA / "pegged" / "data" / "example.txt").read_text()
    pegged = PeggedSolver(Limit(time=5), seed=0).solve(parse_board_file(text)).as_dict()
    found = post(client, "pegs/hint", {"board_file": text, "walks": True, "time": 5})
    assert list(found) == list(pegged) and found["solution"] == pegged["solution"]
    assert found["reason"] == pegged["reason"] == "3 moves (1 walk), optimal (exhaustive search)"
    assert found["method"] == "PEGGED optimiser (boardlab.pegs.pegged)"


def test_pegs_walks_without_an_answer_are_results_too(client: Any) -> None:
    apart = "_____\n_____\nXOO_X\n_____\n_____\n"
    found = post(client, "pegs/solve", {"board_file": apart, "walks": True, "time": 5})
    assert found["solved"] is False and found["proven"] is True and found["solution"] == []
    assert "can never meet" in found["reason"] and found["bound"] is None
    one = post(client, "pegs/hint", {"board_file": "___\n_X_\n___\n", "walks": True})
    assert one["solved"] and one["proven"] and one["solution"] == []
    assert one["reason"] == "one peg left"


def test_pegs_solve_answer_is_judged_valid(client: Any) -> None:
    found = post(client, "pegs/solve", {"board": "triangle-5", "goal": "any"})
    assert found["solved"] and len(found["moves"]) == 13
    text = "\n".join(found["moves"])
    assert judge_text(Position(named_board("triangle-5")), text).solved
    verdict = post(client, "pegs/judge", {"board": "triangle-5", "moves": text})
    assert verdict["solved"] and verdict["pegs_left"] == 1


def test_pegs_walks_use_the_pegged_solver(client: Any) -> None:
    board = (DATA / "pegged" / "data" / "example.txt").read_text()
    found = post(client, "pegs/solve", {"board_file": board, "walks": True, "time": 5})
    assert found["solved"] and found["walks"] == 1 and found["moves"] == 3
    text = "\n".join(found["solution"])
    assert judge_text(parse_board_file(board), text, walks=True).solved


def test_pegs_judge_hands_back_the_moves_to_replay(client: Any) -> None:
    solved = post(client, "pegs/solve", {"board": "triangle-5", "goal": "any"})
    text = "\n".join(solved["moves"])
    verdict = post(client, "pegs/judge", {"board": "triangle-5", "moves": text})
    assert verdict["valid"] and verdict["solved"] and len(verdict["replay"]) == 13
    assert [f"{m['from']}-{m['to']}" for m in verdict["replay"]] == text.split("\n")
    lines = text.split("\n")
    broken = [*lines[:3], "A1-A1", *lines[3:]]
    bad = post(client, "pegs/judge", {"board": "triangle-5", "moves": "\n".join(broken)})
    assert not bad["valid"] and bad["line"] == 4 and len(bad["replay"]) == 3
    english = post(client, "pegs/judge", {"board": "english", "moves": "D2-D4\nB4-D4\n"})
    assert english["reason"] == "line 2: B4-D4: D4 is not empty"  # the board's notation


def test_pegs_classes_explain_an_impossible_start(client: Any) -> None:
    french = post(client, "pegs/classes", {"board": "french"})
    assert not french["possible"] and french["ends"] == []
    assert "no sequence of jumps from this position can leave one peg" in french["explanation"]
    assert "D4" not in french["starts"] and "C4" in french["starts"] and len(french["starts"]) == 16
    english = post(client, "pegs/classes", {"board": "english", "start": "C4"})
    assert english["possible"] and english["ends"] == ["C1", "C4", "C7", "F4"]
    assert "can only be in C1, C4, C7, F4" in english["explanation"]
    walks = post(client, "pegs/classes", {"board": "english", "walks": True})
    assert walks["possible"] and not walks["applies"]


def test_pegs_walk_search_on_64_holes_keeps_its_time(client: Any) -> None:
    """The PEGGED beam once answered after 7.5 s with 3 s given (and took 500 MB): the
    server's answer now comes within the time asked for; the margin is for a loaded
    machine, and 1 s on a second run of the same search would be missed by far without it."""
    import time

    from boardlab.pegs.pegged.generate import random_board_text

    board = random_board_text(11, 7, 30, seed=0, density=0.85)
    body = {"board_file": board, "walks": True, "time": 1.0}
    for _ in range(2):  # the first run may load the beam's kernel
        began = time.perf_counter()
        answer = client.post("/api/pegs/solve", json=body)
        assert time.perf_counter() - began < 2.5
        assert answer.status_code == 200 and answer.json()["solved"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"board": "english", "time": 0}, "The time must be from 0.1 to 60."),
        ({"board": "english", "time": "fast"}, "The time must be a number."),
        ({"board": "english", "pegs": "D4"}, "The pegs must be a list."),
        ({"board": "english", "pegs": [4]}, "A peg (number 1) must be text."),
        ({"board": "english", "goal": "Q1"}, "Q1 is not a hole of the english board"),
        ({"board": "english", "goal": "../etc/passwd"}, "not a hole name"),
        ({"board": "english", "pegs": []}, "the start has no pegs"),
    ],
)
def test_pegs_hint_validates_its_fields(client: Any, body: dict[str, Any], message: str) -> None:
    response = client.post("/api/pegs/hint", json=body)
    assert 400 <= response.status_code < 500
    assert message in response.json()["error"]


# -- hex -----------------------------------------------------------------------------------
def test_hex_game_replay_move_engine_and_chain(client: Any) -> None:
    # HexGui's names: red (player 1) joins top and bottom, down column b here
    state = post(client, "hex/state", {"size": 3, "moves": ["b1", "a1", "b2", "a2"]})
    assert state["to_move"] == 1 and state["winner"] is None and len(state["legal"]) == 5
    assert state["cells"][:4] == ["a1", "b1", "c1", "a2"]  # row by row, as drawn
    assert re.findall(r'data-cell="([a-z][0-9]+)"', state["svg"]) == state["cells"]
    assert state["stones"] == {"1": ["b1", "b2"], "2": ["a1", "a2"]}
    won = post(client, "hex/move", {"size": 3, "moves": state["moves"], "move": "b3"})
    assert won["winner"] == 1 and sorted(won["chain"]) == ["b1", "b2", "b3"]
    over = post(client, "hex/engine", {"size": 3, "moves": won["moves"]}, 422)
    assert "game is over" in over["error"]
    taken = post(client, "hex/move", {"size": 3, "moves": ["b2"], "move": "b2"}, 422)
    assert taken["error"] == "cell b2 is already occupied"
    replay = post(client, "hex/state", {"size": 3, "moves": ["b2", "b2"]}, 422)
    assert replay["error"].startswith("move 2 (b2):")
    off = post(client, "hex/move", {"size": 3, "moves": [], "move": "d1"}, 422)
    assert "off the 3x3 board" in off["error"]
    reply = post(client, "hex/engine", {"size": 5, "moves": ["c3"], "playouts": 300, "seed": 4})
    assert reply["moves"][0] == "c3" and reply["engine"]["move"] == reply["moves"][1]
    assert reply["engine"]["move"] != "c3" and reply["to_move"] == 1


def test_hex_review_gives_every_position_and_its_limits(client: Any) -> None:
    found = post(client, "hex/review", {"size": 3, "moves": ["a1", "a2", "a3"], "playouts": 100})
    assert found["playouts"] == 100
    points = found["points"]
    assert [p["ply"] for p in points] == [0, 1, 2, 3]
    assert [p["move"] for p in points] == [None, "a1", "a2", "a3"]
    assert [p["winner"] for p in points] == [1, 2, 1, 2]
    assert all(p["proven"] is True for p in points)
    assert [p["turned"] for p in points] == [False, True, True, True]
    bad = post(client, "hex/review", {"size": 3, "moves": [], "playouts": 5}, 400)
    assert "playouts" in bad["error"]


def test_hex_solve_matches_the_solver(client: Any) -> None:
    found = post(client, "hex/solve", {"size": 3, "moves": []})
    assert found["winner"] == 1 and found["complete"]
    assert set(found["winning_moves"]) == {"b2", "a2", "a3", "c1", "c2"}


def test_hex_numbers_the_stones_and_marks_the_last_one(client: Any) -> None:
    state = post(client, "hex/state", {"size": 5, "moves": ["c3", "b2", "d2"]})
    assert state["numbers"] == {"c3": 1, "b2": 2, "d2": 3} and state["last"] == "d2"
    assert state["solvable"] and not state["swap"] and not state["can_swap"]
    big = post(client, "hex/state", {"size": 7, "moves": []})
    assert not big["solvable"]  # 49 empty cells: the exact solver would not finish


def test_hex_swap_rule_for_the_person_and_the_engine(client: Any) -> None:
    first = post(client, "hex/state", {"size": 5, "swap": True, "moves": ["b4"]})
    assert first["can_swap"] and first["to_move"] == 2
    swapped = post(client, "hex/move", {"size": 5, "swap": True, "moves": ["b4"], "move": "swap"})
    assert swapped["moves"] == ["b4", "swap-pieces"] and swapped["to_move"] == 1
    assert swapped["stones"] == {"1": [], "2": ["d2"]} and swapped["numbers"] == {"d2": 2}
    off = post(client, "hex/move", {"size": 5, "moves": ["b4"], "move": "swap"}, 422)
    assert "swap" in off["error"]
    # the centre of 3 x 3 wins for player 1: the engine (player 2) takes it by the swap
    body = {"size": 3, "swap": True, "moves": ["b2"], "playouts": 50}
    engine = post(client, "hex/engine", body)
    assert engine["engine"]["move"] == "swap-pieces" and engine["moves"] == ["b2", "swap-pieces"]


def test_hex_analysis_does_not_play(client: Any) -> None:
    body = {"size": 5, "moves": ["c3"], "playouts": 300, "seed": 1}
    found = post(client, "hex/analyze", body)
    assert found["to_move"] == 2 and found["move"] == found["top"][0]["move"]
    assert 0 <= found["win_rate"] <= 1 and len(found["top"]) > 1
    assert "c3" not in {entry["move"] for entry in found["top"]}


def test_hex_sgf_save_and_load_round_trip(client: Any) -> None:
    game = {"size": 5, "swap": True, "moves": ["a1", "swap-pieces", "c3", "b4"]}
    text = post(client, "hex/sgf", game)["sgf"]
    assert text.startswith("(;FF[4]GM[11]SZ[5]") and "W[swap-pieces]" in text
    loaded = post(client, "hex/load", {"sgf": text})
    assert loaded["moves"] == game["moves"] and loaded["swap"]
    setup = post(client, "hex/load", {"sgf": "(;FF[4]GM[11]SZ[3]AB[a1])"}, 422)
    assert "empty board" in setup["error"]
    broken = post(client, "hex/load", {"sgf": "(;FF[4]GM[11]SZ[3];B[z9])"}, 422)
    assert broken["error"].startswith("The SGF, line 1, column 22:")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"size": 0}, "The board size must be a whole number from 1 to 26."),
        ({"size": 3, "moves": "b2"}, "The moves must be a list."),
        ({"size": 3, "moves": ["zz"]}, "bad cell 'zz'"),
        ({"size": 3, "time": -1}, "The engine's time must be from 0.01 to 30."),
    ],
)
def test_hex_validates_its_fields(client: Any, body: dict[str, Any], message: str) -> None:
    response = client.post("/api/hex/engine", json=body)
    assert 400 <= response.status_code < 500
    assert message in response.json()["error"]


# -- ioiwari -------------------------------------------------------------------------------
def test_ioiwari_engine_plays_a_best_move_and_analysis_matches(client: Any) -> None:
    start = [4, 3, 2, 4, 2, 3, 2]
    found = post(client, "ioiwari/analyze", {"start": start})
    assert found["value"] == 2 and found["best"] == [2, 4, 7]
    assert found["final_banks"] == [11, 9]
    reply = post(client, "ioiwari/engine", {"start": start, "seed": 3})
    assert reply["engine"]["move"] in (2, 4, 7) and reply["to_move"] == 2
    statement = post(client, "ioiwari/state", {"start": start, "moves": [2, 3, 5, 4, 5, 7]})
    assert statement["over"] and statement["banks"] == [11, 9] and statement["winner"] == 1
    assert re.findall(r'data-cell="([0-9])"', statement["svg"]) == [str(i) for i in range(1, 8)]


def test_ioiwari_refuses_illegal_moves_and_bad_starts(client: Any) -> None:
    start = [4, 3, 2, 4, 2, 3, 2]
    empty = post(client, "ioiwari/move", {"start": start, "moves": [2], "move": 2}, 422)
    assert empty["error"] == "pit 2 is empty"
    none = post(client, "ioiwari/move", {"start": start, "move": 9}, 400)
    assert none["error"] == "The pit must be a whole number from 1 to 7."
    replay = post(client, "ioiwari/state", {"start": start, "moves": [2, 2]}, 422)
    assert replay["error"] == "move 2 (pit 2): pit 2 is empty"
    short = post(client, "ioiwari/state", {"start": [4, 3, 2]}, 400)
    assert short["error"] == "The start must have exactly 7 values."
    big = post(client, "ioiwari/state", {"start": [6, 3, 2, 4, 2, 3, 0]}, 400)
    assert big["error"] == "A pit of the start (number 1) must be a whole number from 0 to 5."
    assert big["field"] == "start"  # for a program; the page shows only the words
    fresh = post(client, "ioiwari/start", {"seed": 5})
    assert sum(fresh["start"]) == 20 and all(2 <= x <= 4 for x in fresh["start"])


# -- mars ----------------------------------------------------------------------------------
def test_mars_solve_and_judge_the_sample(client: Any) -> None:
    sample = client.get("/api/mars/sample").json()
    found = post(client, "mars/solve", {"map": sample["map"]})
    assert (found["best"], found["max_rocks"], found["proven"]) == (5, 3, True)
    assert found["svg"].startswith("<svg")
    assert found["steps"] == found["moves"].count("\n") == 32  # the result's own count
    mine = post(client, "mars/judge", {"map": sample["map"], "moves": found["moves"]})
    assert mine["legal"] and mine["percent"] == 100.0 and mine["steps"] == 32
    theirs = post(client, "mars/judge", sample)
    assert theirs["score"] == 5 and theirs["svg"] is not None
    broken = post(client, "mars/judge", {"map": sample["map"], "moves": "1 0\n1 0\n1 0\n"})
    assert not broken["legal"] and broken["line"] == 3 and "rough terrain" in broken["reason"]
    bad = post(client, "mars/solve", {"map": "2\n3\n1\n0 7 0\n"}, 422)
    assert bad["error"].startswith("The map, line 4,")


# -- shongololo ----------------------------------------------------------------------------
def test_shongololo_solve_and_judge(client: Any) -> None:
    found = post(client, "shongololo/solve", {"input": "2\n3\n2\n", "time": 1})
    assert (found["eaten"], found["bound"], found["proven"]) == (8, 10, True)
    body = {"input": "2 3 2", "answer": found["answer"], "best": 8}
    verdict = post(client, "shongololo/judge", body)
    assert verdict["valid"] and verdict["score"] == 100.0 and verdict["eaten"] == 8
    broken = post(client, "shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\nE 2 2 2\n"})
    assert not broken["valid"] and broken["line"] == 2
    bad = post(client, "shongololo/solve", {"input": "2\n3\n33\n"}, 422)
    assert bad["error"] == "The fruit, line 3, column 1: H must be 1 to 32, got 33"


def test_shongololo_judge_takes_a_blank_best_count_as_none(client: Any) -> None:
    answer = "E 1 1 1\nM 1 1 1\nE 2 1 1\n"
    for best in ({}, {"best": None}, {"best": 0}):
        verdict = post(client, "shongololo/judge", {"input": "2 3 2", "answer": answer, **best})
        assert verdict["valid"] and verdict["score"] is None, best
    scored = post(client, "shongololo/judge", {"input": "2 3 2", "answer": answer, "best": 4})
    assert scored["score"] == 50.0
    bad = post(client, "shongololo/judge", {"input": "2 3 2", "answer": answer, "best": 13}, 400)
    assert bad["error"].startswith("The best known count must be a whole number from 0 to 12")


def test_shongololo_run_for_the_3d_view_matches_the_answer(client: Any) -> None:
    found = post(client, "shongololo/solve", {"input": "2\n3\n2\n", "time": 1})
    assert found["blocks"] == 12  # the result's own: the fruit's volume
    blocks = found["run"]
    assert blocks["box"] == [2, 3, 2]
    moves = [line.split()[1:] for line in found["answer"].splitlines() if line.startswith("M")]
    assert blocks["spine"] == [[int(v) for v in move] for move in moves]
    assert blocks["head"] == blocks["spine"][-1]
    assert len(blocks["spine"]) + len(blocks["leaves"]) == found["eaten"]
    stopped = post(client, "shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\nE 2 2 2\n"})
    assert stopped["run"]["spine"] == [] and stopped["run"]["leaves"] == [[1, 1, 1]]


# -- the command ---------------------------------------------------------------------------
def test_serve_command_binds_localhost_and_prints_the_url() -> None:
    import subprocess
    import sys

    import httpx

    process = subprocess.Popen(
        [sys.executable, "-m", "boardlab", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:([0-9]+)/", line)
        assert match, line
        answer = httpx.get(f"{match.group(0)}api/health", timeout=10)
        assert answer.json()["ok"] is True
    finally:
        process.terminate()
        process.wait(timeout=10)
    assert process.stderr is not None and process.stderr.read() == ""


def test_serve_command_refuses_a_bad_port(capsys: pytest.CaptureFixture[str]) -> None:
    from boardlab.cli import main

    with pytest.raises(SystemExit) as caught:
        main(["serve", "--port", "70000"])
    assert caught.value.code == 2
    assert "a port is 0..65535" in capsys.readouterr().err


def test_hex_engine_opens_off_centre_under_the_swap_rule(client: Any) -> None:
    """With the swap rule the engine's first stone is the near-balanced one every front
    end plays (hex.player.choose_move), not the centre the swap would take."""
    from boardlab.hex.engine.opening import balanced_opening
    from boardlab.hex.rules import vertex

    found = post(client, "hex/engine", {"size": 5, "swap": True, "moves": [], "playouts": 200})
    assert found["moves"] == [vertex(balanced_opening(5, 0)[0], 5)]
    assert found["moves"] != ["c3"] and "near-balanced" in found["engine"]["reason"]


# -- the Hi-Q contest program ------------------------------------------------------------------
def test_hiq_runs_the_statements_sample_and_names_a_bad_line(client: Any) -> None:
    sample = client.get("/api/hiq/sample").json()["input"]
    found = post(client, "hiq/run", {"input": sample})
    assert found["output"] == "HI Q OUTPUT\n51\n0\n561\n98\nEND OF OUTPUT\n"
    assert found["sums"] == [51, 0, 561, 98]
    assert found["trace"][0].startswith("game 1: 5 pegs: 10 12 17 19 25")
    assert sum(line.startswith("game ") for line in found["trace"]) == 4
    bad = post(client, "hiq/run", {"input": "1\n10 x 0\n"}, 422)
    assert bad["error"].startswith("The input, line 2,")


# -- words -----------------------------------------------------------------------------------
def test_the_messages_count_in_words(client: Any) -> None:
    """A count agrees with its noun, a range reads "1 to 999", a judge answers about the
    moves the player typed."""
    found = post(client, "hiq/run", {"input": "1\n5 0\n"})
    assert found["trace"][0] == "game 1: 1 peg: 5"
    line = "D2-D4 B4-D4\n"
    verdict = post(client, "pegs/judge", {"board": "english", "moves": line})
    assert not verdict["valid"] and "D4-B4" not in verdict["reason"]
    assert "D2-D4 and B4-D4" in verdict["reason"] and "one move a line" in verdict["reason"]
    long = post(client, "pegs/judge", {"board": "english", "moves": "x" * 1_000_001}, 413)
    assert long["error"] == "The move list is too long: at most 1,000,000 characters fit."
    bad = post(client, "mars/solve", {"map": "1000\n2\n2\n0 0\n0 0\n"}, 422)
    assert "1 to 999" in bad["error"] and ".." not in bad["error"]
    judged = post(client, "mars/judge", {"map": "2\n2\n2\n0 0\n0 0\n", "moves": "3 1\n"})
    assert "(the pod releases 1 to 2)" in " ".join(judged["report"])
    lost = post(client, "pegs/hint", {"board": "triangle-5", "goal": "A1", "time": 5})
    assert "positions searched" not in lost["reason"] and " 1 dead ends" not in lost["reason"]


def test_the_toxic_judge_says_no_more_than_it_knows_of_a_stopped_run(client: Any) -> None:
    found = post(client, "shongololo/solve", {"input": "2\n3\n2\n", "time": 1})
    assert found["proven"]
    verdict = post(client, "shongololo/judge", {"input": "2 3 2", "answer": found["answer"]})
    assert "could go on" not in verdict["summary"] and "a run may stop" in verdict["summary"]
    early = post(client, "shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\nM 1 1 1\n"})
    assert early["summary"].endswith("stopped early: block 2 1 1 could still be eaten")


def test_unknown_request_fields_are_refused_by_name(client: Any) -> None:
    bad = post(client, "hex/engine", {"size": 5, "playout": 30}, 400)
    assert bad["field"] == "playout"
    assert bad["error"] == (
        'The request holds a field this API does not know: "playout" '
        "(/api/docs lists the fields of every request)."
    )
    post(client, "pegs/state", {"board": "english", "bord": "french"}, 400)


def test_the_api_page_reads_as_html_and_the_footer_points_to_it(client: Any) -> None:
    docs = client.get("/api/docs").text
    assert "``" not in docs and ":func:" not in docs and ":mod:" not in docs
    assert "<code>moves</code>" in docs
    page = client.get("/").text
    assert '<a href="/api/docs">' in page and "docs/web.md" not in page


def test_the_mars_limits_on_the_page_come_from_the_schema(client: Any) -> None:
    spec = client.get("/api/openapi.json").json()
    field = spec["components"]["schemas"]["MarsMap"]["properties"]["map"]
    assert field["x-vehicles"] == [1, 999] and field["x-sides"] == [1, 128]
    page = client.get("/").text
    assert "999" not in page and "128" not in page
    assert 'data-range="MarsMap.map x-vehicles"' in page
