"""Every message the API can return, walked: the schema's refusals of every field of every
endpoint (a value of the wrong kind, out of range, too long, missing, a field it does not
know) and each game's errors (bad files, bad moves, bad answers). None names a field's
key, a class or an internal name, writes a range as ``1..9`` or a count with the wrong
noun (``1 pegs``)."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from boardlab.web.schemas import ENDPOINTS

#: A word a program uses, not a player: a key or a function's name (``board_file``,
#: ``why_illegal``), a class (``ParseError``, ``HexGame``), Python's or JSON's nothing,
#: a range in dots, a quoted literal.
FOREIGN = re.compile(
    r"\b[a-z]+_[a-z_]+\b"
    r"|\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b"
    r"|\b(?:None|null|NoneType|undefined|NaN|dict|str|int|float|bool)\b"
    r"|\d\.\.\d|``|\$\."
)
#: Names a player knows that look like classes.
KNOWN_NAMES = {"HexGui", "MoHex"}
#: One of something, with a plural noun (``1 pegs``); words after a 1 that are no nouns.
ONE_PLURAL = re.compile(r"(?<![\d,.\-])\b1 ([a-z]+s)\b")
NOT_NOUNS = {"is", "has", "was", "as", "plus", "minus", "this", "its", "holds", "takes"}


def foreign_words(message: str) -> list[str]:
    """What in ``message`` a player should not read (an empty list when it reads well)."""
    found = [m.group(0) for m in FOREIGN.finditer(message) if m.group(0) not in KNOWN_NAMES]
    nouns = [m.group(1) for m in ONE_PLURAL.finditer(message)]
    found += [f"1 {noun}" for noun in nouns if noun not in NOT_NOUNS]
    return found


def test_the_walk_can_fail() -> None:
    for bad in (
        "the board_file is bad",
        "ParseError: x",
        "got None",
        "must be in 1..9",
        "game 1: 1 pegs",
        "score: 1 points",
        "at `$.size`",
    ):
        assert foreign_words(bad), bad
    for good in (
        "The board size must be a whole number from 1 to 26.",
        "HexGui's names",
        "game 1: 1 peg: 5",
        "1 is the first pit",
        "The board file, line 2, column 2:",
    ):
        assert not foreign_words(good), good


def wrong_values(spec: dict[str, Any]) -> list[Any]:
    """Values a field of this JSON Schema refuses: another kind, below and above its range,
    one item too many or too long."""
    if "anyOf" in spec:
        spec = next(choice for choice in spec["anyOf"] if choice.get("type") != "null")
    kind = spec.get("type")
    values: list[Any] = [{"a": 1}]
    if kind in ("integer", "number"):
        values += [spec["minimum"] - 1] if "minimum" in spec else []
        values += [spec["maximum"] + 1] if "maximum" in spec else []
        values += [1.5] if kind == "integer" else []
    if kind == "string" and spec.get("maxLength", 0) <= 300_000:
        values.append("x" * (spec["maxLength"] + 1))
    if kind == "array":
        values.append([{"a": 1}])
        if spec.get("maxItems", 10**6) <= 10_000:
            item = spec.get("items", {})
            filler = item.get("minimum", "a1") if item.get("type") == "integer" else "a1"
            values.append([filler] * (spec["maxItems"] + 1))
    if kind == "boolean":
        values.append("yes")
    return values


def refusals(client: Any) -> list[tuple[str, Any, str]]:
    """Every refusal of the schema: (endpoint, body, error) for every field's wrong values,
    an empty body, a field the API does not know and a body that is not JSON."""
    spec = client.get("/api/openapi.json").json()
    schemas = spec["components"]["schemas"]
    found = []
    for path, request in ENDPOINTS.items():
        schema = schemas[request.__name__]
        bodies: list[Any] = [{}, {"colour": "red"}, [1], "x"]
        for field, field_spec in schema["properties"].items():
            bodies += [{field: value} for value in wrong_values(field_spec)]
        for body in bodies:
            response = client.post(f"/api{path}", json=body)
            if response.status_code >= 400:
                found.append((path, body, response.json()["error"]))
        response = client.post(
            f"/api{path}", content=b'{"a": ', headers={"content-type": "application/json"}
        )
        found.append((path, "{", response.json()["error"]))
    return found


#: Each game's errors: bodies the games refuse (422) or judge broken, and the answer's
#: field holding the words.
GAME_ERRORS: list[tuple[str, dict[str, Any], str]] = [
    ("pegs/state", {"board": "chess"}, "error"),
    ("pegs/state", {"board_file": "XXX\nX?X\n"}, "error"),
    ("pegs/state", {"board": "english", "start": "Z9"}, "error"),
    ("pegs/state", {"board": "english", "pegs": ["Z9"]}, "error"),
    ("pegs/move", {"board": "english", "move": "D4-D6"}, "error"),
    ("pegs/move", {"board": "english", "move": "D2-D5"}, "error"),
    ("pegs/move", {"board": "english", "move": "nonsense"}, "error"),
    ("pegs/hint", {"board": "english", "goal": "Q1"}, "error"),
    ("pegs/hint", {"board": "english", "pegs": []}, "error"),
    ("pegs/hint", {"board": "french", "time": 1}, "reason"),
    ("pegs/solve", {"board": "english", "start": "C1", "goal": "D4", "time": 1}, "reason"),
    ("pegs/judge", {"board": "english", "moves": "D2-D4 B4-D4\n"}, "reason"),
    ("pegs/judge", {"board": "english", "moves": "D2-D4\nD2-D4\n"}, "reason"),
    ("pegs/judge", {"board": "english", "moves": "Z9-Z7\n"}, "reason"),
    ("pegs/judge", {"board": "english", "moves": "B4-D4\n"}, "summary"),
    ("pegs/classes", {"board": "french"}, "explanation"),
    ("hex/state", {"size": 3, "moves": ["zz"]}, "error"),
    ("hex/state", {"size": 3, "moves": ["b2", "b2"]}, "error"),
    ("hex/state", {"size": 3, "moves": ["swap-pieces"]}, "error"),
    ("hex/move", {"size": 2, "moves": ["a1", "b1", "a2"], "move": "b2"}, "error"),
    ("hex/engine", {"size": 2, "moves": ["a1", "b1", "a2"]}, "error"),
    ("hex/load", {"sgf": "(;FF[4]GM[11]SZ[3];B[z9])"}, "error"),
    ("hex/load", {"sgf": "(;FF[4]GM[11]SZ[3]AB[a1])"}, "error"),
    ("hex/load", {"sgf": "not sgf"}, "error"),
    ("ioiwari/state", {"start": [4, 3, 2, 4, 2, 3, 2], "moves": [1, 1]}, "error"),
    ("ioiwari/move", {"start": [0, 0, 0, 0, 0, 0, 1], "move": 1}, "error"),
    ("ioiwari/state", {"start": [9, 3, 2, 4, 2, 3, 2]}, "error"),
    ("mars/solve", {"map": "1000\n2\n2\n0 0\n0 0\n"}, "error"),
    ("mars/solve", {"map": "1\n2\n2\n0 7\n0 0\n"}, "error"),
    ("mars/solve", {"map": "1\n2\n"}, "error"),
    ("mars/judge", {"map": "2\n2\n2\n0 0\n0 0\n", "moves": "3 1\n"}, "report"),
    ("mars/judge", {"map": "1\n3\n1\n0 0 0\n", "moves": "1 0\n1 1\n1 1\n1 1\n"}, "report"),
    ("mars/judge", {"map": "1\n2\n2\n0 0\n0 0\n", "moves": "x y\n"}, "report"),
    ("shongololo/solve", {"input": "2\n3\n33\n"}, "error"),
    ("shongololo/solve", {"input": "2 3"}, "error"),
    ("shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\nE 2 2 2\n"}, "summary"),
    ("shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\nM 1 1 1\n"}, "summary"),
    ("shongololo/judge", {"input": "2 3 2", "answer": ""}, "summary"),
    ("shongololo/judge", {"input": "2 3 2", "answer": "X 1 1 1\n"}, "summary"),
    ("shongololo/judge", {"input": "2 3 2", "answer": "E 1 1 1\n", "best": 13}, "error"),
    ("hiq/run", {"input": "1\n40 0\n"}, "error"),
    ("hiq/run", {"input": "x"}, "error"),
]


def words_of(answer: Any) -> list[str]:
    """Every string in an answer's words field (a string, a list, or nested)."""
    if isinstance(answer, str):
        return [answer]
    if isinstance(answer, list):
        return [text for item in answer for text in words_of(item)]
    if isinstance(answer, dict):
        return [text for item in answer.values() for text in words_of(item)]
    return []


def test_every_refusal_of_the_schema_reads_as_words(client: Any) -> None:
    found = refusals(client)
    assert len(found) > 150  # every endpoint's every field was tried
    bad = [(path, error, foreign_words(error)) for path, _, error in found if foreign_words(error)]
    assert not bad, bad[:5]


@pytest.mark.parametrize(("path", "body", "key"), GAME_ERRORS)
def test_each_games_errors_read_as_words(
    client: Any, path: str, body: dict[str, Any], key: str
) -> None:
    response = client.post(f"/api/{path}", json=body)
    answer = response.json()
    assert key in answer, (response.status_code, answer)
    texts = words_of(answer[key])
    assert texts and all(texts), answer
    for text in texts:
        assert not foreign_words(text), (path, text, foreign_words(text))


def test_the_walk_covers_every_endpoint() -> None:
    walked = {f"/{path}" for path, _, _ in GAME_ERRORS}
    assert set(ENDPOINTS) - walked <= {
        "/hex/analyze",
        "/hex/solve",
        "/hex/review",
        "/hex/sgf",
        "/ioiwari/start",
        "/ioiwari/review",
        "/ioiwari/engine",
        "/ioiwari/analyze",
    }  # these take a game the others check first, and refuse only what the schema does
    assert all(issubclass(request, msgspec.Struct) for request in ENDPOINTS.values())
