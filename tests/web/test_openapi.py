"""The typed API: /api/openapi.json is the server's own checks, a person can read it at
/api/docs, and no refusal a player can meet names a field, a type or a file."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from boardlab.web.schemas import ENDPOINTS

#: Words a player never typed: field keys (those not plain words), type names, JSON paths.
KEYS = sorted(
    {f.name for s in ENDPOINTS.values() for f in msgspec.structs.fields(s) if "_" in f.name}
)
FOREIGN = re.compile(
    r"`|\$\.|\bfield\b|\b(int|str|float|bool|array|object|null|NoneType)\b|"
    + "|".join(re.escape(key) for key in KEYS)
)


def spec_of(client: Any) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    spec: dict[str, Any] = response.json()
    return spec


def test_the_document_describes_every_endpoint_and_its_request(client: Any) -> None:
    spec = spec_of(client)
    assert spec["openapi"].startswith("3.1")
    schemas = spec["components"]["schemas"]
    for path, struct in ENDPOINTS.items():
        operation = spec["paths"]["/api" + path]["post"]
        ref = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/" + struct.__name__)
        assert operation["summary"] and "400" in operation["responses"]
        names = {f.name for f in msgspec.structs.fields(struct)}
        assert set(schemas[struct.__name__]["properties"]) == names
    assert "/api/health" in spec["paths"] and "get" in spec["paths"]["/api/health"]
    refusal = schemas["Refusal"]["properties"]
    assert set(refusal) == {"error", "field", "kind"}


def test_the_documents_limits_are_the_servers(client: Any) -> None:
    schemas = spec_of(client)["components"]["schemas"]
    time = schemas["HexSearch"]["properties"]["time"]
    assert (time["minimum"], time["maximum"]) == (0.01, 30.0)
    # one past the documented limit is refused, the limit itself is taken
    body = {"size": 3, "playouts": 1, "time": time["maximum"]}
    assert client.post("/api/hex/analyze", json=body).status_code == 200
    body["time"] = time["maximum"] + 0.01
    assert client.post("/api/hex/analyze", json=body).status_code == 400
    sgf = schemas["HexLoad"]["properties"]["sgf"]["maxLength"]
    over = client.post("/api/hex/load", json={"sgf": "(" * (sgf + 1)})
    assert over.status_code == 413 and over.json()["field"] == "sgf"


def test_the_solvers_limit_is_in_the_document(client: Any) -> None:
    from boardlab.web.api_hex import SOLVE_EMPTY

    solvable = spec_of(client)["components"]["schemas"]["HexState"]["properties"]["solvable"]
    assert solvable["x-most-empty"] == SOLVE_EMPTY == 25  # the page says it from here


def test_the_readable_page_lists_every_endpoint(client: Any) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for path in ENDPOINTS:
        assert f"POST /api{path}" in page.text
    assert "The engine&#x27;s time" in page.text and "0.01 to 30.0" in page.text


def bad_values(spec: dict[str, Any]) -> list[object]:
    """Values of a wrong kind and values out of a field's limits."""
    if "anyOf" in spec:
        spec = next(choice for choice in spec["anyOf"] if choice.get("type") != "null")
    values: list[object] = [{"nested": [1]}]
    kind = spec.get("type")
    values.append("text" if kind != "string" else 12)
    if "maximum" in spec:
        values.append(spec["maximum"] + 1)
        values.append(10**40)
    if "minimum" in spec:
        values.append(spec["minimum"] - 1)
    if "maxLength" in spec:
        values.append("x" * (spec["maxLength"] + 1))
    if "maxItems" in spec:
        values.append([spec["items"].get("default", 1)] * (spec["maxItems"] + 1))
    if kind == "array":
        values.append([None])
        values.append([{"a": 1}])
    return values


@pytest.mark.parametrize("path", sorted(ENDPOINTS))
def test_no_refusal_names_a_field_or_a_type(client: Any, path: str) -> None:
    struct = ENDPOINTS[path]
    schema = spec_of(client)["components"]["schemas"][struct.__name__]
    seen = 0
    for name, field_spec in schema["properties"].items():
        for value in bad_values(field_spec):
            response = client.post("/api" + path, json={name: value})
            if response.status_code == 200:
                continue
            words = response.json()["error"]
            assert not FOREIGN.search(words), (path, name, value, words)
            assert words[:1].isupper(), words
            seen += 1
    if schema.get("required"):  # a required field left out is named by its box too
        missing = client.post("/api" + path, json={})
        assert missing.status_code == 400
        assert " is missing." in missing.json()["error"]
        assert not FOREIGN.search(missing.json()["error"]), missing.json()
    assert seen


#: A request for every endpoint, small enough to answer at once (two for the union of
#: the peg solvers: the jump solver, the PEGGED optimiser with and without an answer).
CALLS: list[tuple[str, dict[str, Any] | None]] = [
    ("/health", None),
    ("/hex/state", {"size": 3, "moves": ["a1", "b2"]}),
    ("/hex/move", {"size": 3, "moves": ["a1"], "move": "b2"}),
    ("/hex/engine", {"size": 3, "moves": ["a1"], "playouts": 20}),
    ("/hex/analyze", {"size": 4, "moves": ["a1"], "playouts": 50}),
    ("/hex/solve", {"size": 3, "moves": ["a1"]}),
    ("/hex/review", {"size": 3, "moves": ["a1", "b2", "c3"], "playouts": 50}),
    ("/hex/sgf", {"size": 3, "moves": ["a1"]}),
    ("/hex/load", {"sgf": "(;FF[4]GM[11]SZ[3];B[a1];W[b2])"}),
    ("/hiq/sample", None),
    ("/hiq/run", {"input": "1\n1 2 3 0\n"}),
    ("/ioiwari/start", {"seed": 1}),
    ("/ioiwari/state", {"start": [1, 0, 0, 2, 0, 0, 1]}),
    ("/ioiwari/move", {"start": [1, 0, 0, 2, 0, 0, 1], "move": 1}),
    ("/ioiwari/engine", {"start": [1, 0, 0, 2, 0, 0, 1]}),
    ("/ioiwari/analyze", {"start": [1, 0, 0, 2, 0, 0, 1], "moves": [1]}),
    ("/ioiwari/review", {"start": [1, 0, 0, 2, 0, 0, 1], "moves": [1]}),
    ("/mars/sample", None),
    ("/mars/solve", {"map": "1\n2\n2\n0 1\n0 0\n"}),
    ("/mars/judge", {"map": "1\n2\n2\n0 1\n0 0\n", "moves": "1 1\n1 0\n"}),
    ("/mars/judge", {"map": "1\n2\n2\n0 0\n0 0\n", "moves": "1 5\n"}),
    ("/pegs/boards", None),
    ("/pegs/state", {"board": "triangle-4"}),
    ("/pegs/move", {"board": "english", "move": "D2-D4"}),
    ("/pegs/hint", {"board": "english", "pegs": ["D2", "D3"]}),
    ("/pegs/solve", {"board": "english", "pegs": ["D2", "D3"], "walks": True}),
    ("/pegs/solve", {"board": "english", "pegs": [], "walks": True}),
    ("/pegs/judge", {"board": "english", "moves": "D2-D4\nD2-D4\n"}),
    ("/pegs/classes", {"board": "english"}),
    ("/shongololo/solve", {"input": "2\n3\n2\n", "time": 0.1}),
    ("/shongololo/judge", {"input": "2\n3\n2\n", "answer": "E 1 1 1\nM 1 1 1\n", "best": 2}),
]


def declared_answers() -> dict[str, Any]:
    from boardlab.web.app import create_app
    from boardlab.web.openapi import answers

    api = create_app().routes[0]
    return answers(api.routes)  # type: ignore[attr-defined]


def test_every_endpoint_declares_its_answer(client: Any) -> None:
    spec = spec_of(client)
    schemas = spec["components"]["schemas"]
    operations = 0
    for path, methods in spec["paths"].items():
        for operation in methods.values():
            schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
            refs = [choice["$ref"] for choice in schema.get("anyOf", [schema])]
            for ref in refs:  # a declared struct, never a bare "object"
                assert ref.startswith("#/components/schemas/"), (path, schema)
                assert schemas[ref.rsplit("/", 1)[1]]["properties"], (path, ref)
            operations += 1
    assert operations == len(declared_answers())
    assert {"/api" + path for path, _ in CALLS} == set(spec["paths"]) - {
        "/api/openapi.json",
        "/api/docs",
    }


@pytest.mark.parametrize(("path", "body"), CALLS, ids=[path for path, _ in CALLS])
def test_every_answer_is_its_declared_schema(
    client: Any, path: str, body: dict[str, Any] | None
) -> None:
    from jsonschema import Draft202012Validator

    spec = spec_of(client)
    response = client.get("/api" + path) if body is None else client.post("/api" + path, json=body)
    assert response.status_code == 200, response.text
    operation = spec["paths"]["/api" + path]["get" if body is None else "post"]
    schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
    # the published document's schema (its references resolved in the document)
    Draft202012Validator({**schema, "components": spec["components"]}).validate(response.json())
    # and the struct the server declares, which refuses a field too many or missing
    msgspec.convert(response.json(), declared_answers()[path])


def test_an_answer_that_drifts_from_its_declaration_is_the_servers_error() -> None:
    from starlette.applications import Starlette
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from boardlab.web._http import endpoint
    from boardlab.web.answers_games import HiqSample

    def answer(extra: bool) -> Any:
        body = {"input": "4"} | ({"extra": 1} if extra else {})
        return endpoint(lambda request: body, HiqSample, on_loop=True)

    app = Starlette(routes=[Route("/kept", answer(False)), Route("/drifted", answer(True))])
    with TestClient(app, raise_server_exceptions=False) as test_client:
        assert test_client.get("/kept").json() == {"input": "4"}
        assert test_client.get("/drifted").status_code == 500
