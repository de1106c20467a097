"""Interface layer: the API described as OpenAPI 3.1, and a page of it a person can read.

``GET /api/openapi.json`` is built from the routes and from the request structs of
:mod:`boardlab.web.schemas` (msgspec writes their JSON Schema), so the document is the
server's own checks, not a copy of them; the page reads its boxes' limits from it.
``GET /api/docs`` shows the same document as a plain HTML page (no script, no outside
resources): every endpoint with its summary and each request field's name, kind, limits
and default.

Every endpoint's answer is declared too (:mod:`boardlab.web.answers` and
:mod:`boardlab.web.answers_games`, named by each route's :func:`boardlab.web._http.endpoint`),
and the server sends exactly it. Every refusal is the declared
``Refusal``: the player's words in ``error``, and for a program the ``field`` it is
about and the ``kind`` of game error.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import BaseRoute, Route

from boardlab import __version__
from boardlab.web._http import Declared, answer_of
from boardlab.web.schemas import ENDPOINTS

__all__ = ["Refusal", "answers", "document", "routes"]

_REF = "#/components/schemas/{name}"


class Refusal(msgspec.Struct):
    """A refused request: ``error`` in the player's words; ``field``, the request field
    it is about (for programs); ``kind``, the game error's class for a 422."""

    error: str
    field: str | None = None
    kind: str | None = None


_REFUSALS = {
    "400": "a field outside its limits, or a body that is no such JSON object",
    "413": "a text or list longer than its limit, or a body over the server's limit",
    "415": "a body not sent as application/json",
    "422": "a request the game refuses (an illegal move, a file with an error at a line)",
    "503": "every search slot and queue place is taken (Retry-After says when to retry)",
}


def _summary(route: Route) -> tuple[str, str]:
    """The first sentence of the handler's docstring and the rest."""
    text = " ".join((route.endpoint.__doc__ or "").split())
    head, _, rest = text.partition(": ")
    return (rest or head).strip(), text


def answers(api_routes: Iterable[BaseRoute]) -> dict[str, Declared]:
    """Each endpoint's declared answer (:func:`boardlab.web._http.endpoint`), by path."""
    found: dict[str, Declared] = {}
    for route in api_routes:
        if isinstance(route, Route) and route.path not in ("/openapi.json", "/docs"):
            declared = answer_of(route.endpoint)
            if declared is None:
                raise ValueError(f"the endpoint {route.path} declares no answer")
            found[route.path] = declared
    return found


def document(api_routes: Iterable[BaseRoute], prefix: str = "/api") -> dict[str, Any]:
    """The OpenAPI 3.1 document of ``api_routes`` (mounted at ``prefix``)."""
    api_routes = list(api_routes)
    declared = answers(api_routes)
    kinds = list(dict.fromkeys(declared.values()))
    requests = sorted(set(ENDPOINTS.values()), key=lambda t: t.__name__)
    schemas, components = msgspec.json.schema_components(
        [*kinds, *requests, Refusal], ref_template=_REF
    )
    answer_schema = {kind: schema for kind, schema in zip(kinds, schemas, strict=False)}
    refusal = {"$ref": _REF.format(name="Refusal")}
    paths: dict[str, Any] = {}
    for route in api_routes:
        if not isinstance(route, Route) or route.path not in declared:
            continue
        summary, description = _summary(route)
        answer = {
            "description": "the answer",
            "content": {"application/json": {"schema": answer_schema[declared[route.path]]}},
        }
        for method in sorted((route.methods or set()) - {"HEAD"}):
            operation: dict[str, Any] = {
                "summary": summary,
                "description": description,
                "responses": {
                    "200": answer,
                    **{
                        code: {
                            "description": words,
                            "content": {"application/json": {"schema": refusal}},
                        }
                        for code, words in _REFUSALS.items()
                    },
                },
            }
            schema = ENDPOINTS.get(route.path)
            if method == "POST" and schema is not None:
                operation["requestBody"] = {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": _REF.format(name=schema.__name__)}}
                    },
                }
            paths.setdefault(prefix + route.path, {})[method.lower()] = operation
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "boardlab",
            "version": __version__,
            "description": "The JSON API behind boardlab's web page: every game's state, "
            "moves, engines, solvers and judges. Each POST takes one JSON object and every "
            "answer is the declared one.",
        },
        "paths": paths,
        "components": {"schemas": components},
    }


def _kind(spec: dict[str, Any]) -> str:
    """A field's kind and limits in words, from its JSON Schema."""
    if "anyOf" in spec:
        kinds = [_kind(choice) for choice in spec["anyOf"] if choice.get("type") != "null"]
        return " or ".join(kinds) + " (or null)"
    kind = {
        "integer": "whole number",
        "number": "number",
        "boolean": "true or false",
        "string": "text",
        "array": "list",
    }.get(spec.get("type", ""), "object")
    limits = []
    if "minimum" in spec or "maximum" in spec:
        limits.append(f"{spec.get('minimum', '')} to {spec.get('maximum', '')}")
    if "maxLength" in spec:
        limits.append(f"at most {spec['maxLength']:,} characters")
    if "minItems" in spec and spec.get("minItems") == spec.get("maxItems"):
        limits.append(f"exactly {spec['maxItems']} items")
    elif "maxItems" in spec:
        limits.append(f"at most {spec['maxItems']:,} items")
    if kind == "list" and "items" in spec:
        limits.append("each " + _kind(spec["items"]))
    return kind + (f" ({'; '.join(limits)})" if limits else "")


def _default(field: str, spec: dict[str, Any], required: set[str]) -> str:
    """A field's default as the page of the API shows it (``required`` when it has none)."""
    if field in required:
        return "required"
    return html.escape(msgspec.json.encode(spec.get("default")).decode())


_ROLE = re.compile(r":\w+:`~?([^`]+)`")
_LITERAL = re.compile(r"``(.+?)``")


def prose(text: str) -> str:
    """A docstring's text as HTML: escaped, its ``literals`` and :func:`roles` as code
    (a role shows its last name).

    >>> prose("the ``moves`` of :func:`boardlab.hex.review.analyse` & more")
    'the <code>moves</code> of <code>analyse()</code> &amp; more'
    """
    escaped = html.escape(text, quote=False)

    def role(found: re.Match[str]) -> str:
        name = found.group(1).rsplit(".", 1)[-1]
        return (
            f"<code>{name}()</code>"
            if found.group(0).startswith(":func:")
            else f"<code>{name}</code>"
        )

    return _LITERAL.sub(r"<code>\1</code>", _ROLE.sub(role, escaped))


def page(spec: dict[str, Any]) -> str:
    """The OpenAPI document as a readable HTML page."""
    schemas = spec["components"]["schemas"]
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        "<title>boardlab API</title><style>body{font-family:sans-serif;max-width:60em;"
        "margin:1em auto;padding:0 1em}table{border-collapse:collapse}td,th{border:1px solid"
        " #ccc;padding:.2em .5em;text-align:left;vertical-align:top}code{font-size:95%}"
        "</style></head><body>",
        f"<h1>boardlab API {html.escape(spec['info']['version'])}</h1>",
        f"<p>{prose(spec['info']['description'])} The machine-readable form is "
        "<a href='openapi.json'>openapi.json</a>. A refused request answers "
        '<code>{"error": words for the player, "field": the field, "kind": ...}</code>'
        " with status 400, 413, 415, 422 or 503.</p>",
    ]
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            parts.append(
                f"<h2 id='{html.escape(path)}'><code>{method.upper()} {html.escape(path)}"
                f"</code></h2><p>{prose(operation['description'])}</p>"
            )
            body = operation.get("requestBody")
            if body is None:
                continue
            name = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
            schema = schemas[name]
            required = set(schema.get("required", []))
            rows = "".join(
                f"<tr><td><code>{html.escape(field)}</code></td>"
                f"<td>{html.escape(str(field_spec.get('title', '')))}</td>"
                f"<td>{html.escape(_kind(field_spec))}</td>"
                f"<td>{_default(field, field_spec, required)}</td></tr>"
                for field, field_spec in schema["properties"].items()
            )
            parts.append(
                "<table><tr><th>field</th><th>on the page</th><th>kind and limits</th>"
                f"<th>default</th></tr>{rows}</table>"
            )
    parts.append("</body></html>")
    return "".join(parts)


def routes(api_routes: list[BaseRoute]) -> list[BaseRoute]:
    """``/openapi.json`` and ``/docs`` for ``api_routes`` (the document made once)."""
    spec = document(api_routes)
    readable = page(spec)

    async def openapi_json(request: Request) -> JSONResponse:
        return JSONResponse(spec)

    async def docs(request: Request) -> HTMLResponse:
        return HTMLResponse(readable)

    return [
        Route("/openapi.json", openapi_json, methods=["GET"]),
        Route("/docs", docs, methods=["GET"]),
    ]
