"""Interface layer: request reading and validation shared by the web API modules.

Every endpoint takes one JSON object. :func:`read_object` checks the content type and
parses the body; the ``field_*`` helpers check one field each and raise
:class:`ApiError` (a 400 with a one-line message naming the field) when it is missing
or of the wrong kind. Errors of the game layers (:class:`BoardlabError`) become 422
answers in :mod:`boardlab.web.app`.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from boardlab.core.errors import BoardlabError

__all__ = [
    "ApiError",
    "Obj",
    "endpoint",
    "error_response",
    "field_bool",
    "field_float",
    "field_int",
    "field_int_list",
    "field_str",
    "field_str_list",
    "read_object",
    "run_job",
]

#: How much of a wrong value an error message quotes back (characters).
QUOTED_CHARS = 40
#: The longest item of a list of short strings (names, moves).
SHORT_STRING = 64

T = TypeVar("T")
Obj = dict[str, Any]


class ApiError(Exception):
    """A request the API refuses: HTTP ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_object(request: Request) -> Obj:
    """The request body as a JSON object.

    :raises ApiError: 415 unless the content type is ``application/json``; 400 for a body
        that is not UTF-8 JSON or not an object.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    body = await request.body()
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "malformed JSON: the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def _missing(name: str) -> ApiError:
    return ApiError(400, f"missing field {name!r}")


def _wrong(name: str, wanted: str, value: object) -> ApiError:
    shown = json.dumps(value)
    if len(shown) > QUOTED_CHARS:
        shown = shown[: QUOTED_CHARS - 3] + "..."
    return ApiError(400, f"field {name!r} must be {wanted}, got {shown}")


def field_str(data: Obj, name: str, default: str | None = None, *, max_len: int = 10_000) -> str:
    """A string field of at most ``max_len`` characters (``default`` when absent).

    :raises ApiError: when it is missing without a default, not a string, or too long.
    """
    if name not in data or data[name] is None:
        if default is None:
            raise _missing(name)
        return default
    value = data[name]
    if not isinstance(value, str):
        raise _wrong(name, "a string", value)
    if len(value) > max_len:
        raise ApiError(
            413, f"field {name!r} is too long: {len(value)} characters (at most {max_len})"
        )
    return value


def field_int(data: Obj, name: str, default: int | None = None, *, low: int, high: int) -> int:
    """An integer field in ``low..high`` (``default`` when absent).

    :raises ApiError: when it is missing without a default, not an integer, or out of range.
    """
    if name not in data or data[name] is None:
        if default is None:
            raise _missing(name)
        return default
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise _wrong(name, "an integer", value)
    if not low <= value <= high:
        raise ApiError(400, f"field {name!r} must be in {low}..{high}, got {value}")
    return value


def field_float(
    data: Obj, name: str, default: float | None = None, *, low: float, high: float
) -> float:
    """A number field in ``low..high`` (``default`` when absent).

    :raises ApiError: when it is missing without a default, not a number, or out of range.
    """
    if name not in data or data[name] is None:
        if default is None:
            raise _missing(name)
        return default
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _wrong(name, "a number", value)
    if not low <= value <= high:
        raise ApiError(400, f"field {name!r} must be in {low:g}..{high:g}, got {value:g}")
    return float(value)


def field_bool(data: Obj, name: str, default: bool) -> bool:
    """A boolean field (``default`` when absent).

    :raises ApiError: when it is not true or false.
    """
    if name not in data or data[name] is None:
        return default
    value = data[name]
    if not isinstance(value, bool):
        raise _wrong(name, "true or false", value)
    return value


def _list(data: Obj, name: str, max_items: int) -> list[Any] | None:
    if name not in data or data[name] is None:
        return None
    value = data[name]
    if not isinstance(value, list):
        raise _wrong(name, "a list", value)
    if len(value) > max_items:
        raise ApiError(413, f"field {name!r} has {len(value)} items (at most {max_items})")
    return value


def field_str_list(
    data: Obj, name: str, default: list[str] | None = None, *, max_items: int = 10_000
) -> list[str]:
    """A list of short strings (``default`` when absent).

    :raises ApiError: when it is missing without a default, not a list of strings, or too long.
    """
    value = _list(data, name, max_items)
    if value is None:
        if default is None:
            raise _missing(name)
        return default
    for item in value:
        if not isinstance(item, str) or len(item) > SHORT_STRING:
            raise _wrong(f"{name}[]", "a short string", item)
    return list(value)


def field_int_list(
    data: Obj,
    name: str,
    default: list[int] | None = None,
    *,
    low: int,
    high: int,
    max_items: int = 10_000,
) -> list[int]:
    """A list of integers in ``low..high`` (``default`` when absent).

    :raises ApiError: when it is missing without a default, or an item is not such an integer.
    """
    value = _list(data, name, max_items)
    if value is None:
        if default is None:
            raise _missing(name)
        return default
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int) or not low <= item <= high:
            raise _wrong(f"{name}[]", f"an integer in {low}..{high}", item)
    return list(value)


async def run_job(request: Request, work: Callable[[], T]) -> T:
    """Run ``work`` in a worker thread, one heavy job at a time per app."""
    lock = request.app.state.job_lock
    async with lock:
        return await run_in_threadpool(work)


Handler = Callable[[Request], Awaitable[Obj]]


def error_response(status: int, message: str, kind: str | None = None) -> JSONResponse:
    """The JSON answer of a refused request: ``{"error": message, "kind": ...}``."""
    body: Obj = {"error": message}
    if kind is not None:
        body["kind"] = kind
    return JSONResponse(body, status_code=status)


def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """Wrap an API handler: its dict becomes JSON; an :class:`ApiError` its status; a
    :class:`BoardlabError` (bad position, illegal move, parse error) a 422 with the message."""

    @functools.wraps(handler)
    async def wrapper(request: Request) -> Response:
        try:
            result = await handler(request)
        except ApiError as exc:
            return error_response(exc.status, exc.message)
        except BoardlabError as exc:
            return error_response(422, str(exc), type(exc).__name__)
        return JSONResponse(result)

    return wrapper
