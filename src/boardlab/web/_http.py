"""Interface layer: request reading and validation shared by the web API modules.

Every endpoint takes one JSON object. :func:`read_object` checks the content type and
parses the body (nesting and integer lengths bounded, so no request can make the
parser fail with a 500); the ``field_*`` helpers check one field each and raise
:class:`ApiError` (a 400 with a one-line message naming the field) when it is missing
or of the wrong kind. Errors of the game layers (:class:`BoardlabError`) become 422
answers.

:func:`endpoint` runs each handler in a worker thread, never on the event loop, and
watches the client meanwhile: when it goes away the request's
:class:`~boardlab.core.limits.Stop` is cancelled. A handler hands its search to
:func:`run_job`, which waits for a slot of the app's :class:`~boardlab.web._jobs.JobPool`
(a bounded queue: 503 with ``Retry-After`` when full) and runs it under that stop and
the server's time cap. Handlers are plain functions (no ``async``): they run in their
thread without an event loop, the body already read for :func:`read_object`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Stop
from boardlab.web._jobs import (
    JobCancelledError,
    JobPool,
    MemoryCapError,
    Owner,
    QueueFullError,
)

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
#: The deepest nesting of arrays and objects a body may have.
MAX_DEPTH = 32
#: The most digits of an integer in a body.
MAX_DIGITS = 100
#: The longest error message or verdict text answered (a game's message may quote the
#: request).
MAX_MESSAGE = 300
#: The fields of an answer that hold a verdict's words (cut to :data:`MAX_MESSAGE`).
VERDICT_TEXTS = ("reason", "summary", "report")
#: The request header naming the page (tab) a request comes from; a newer search from
#: the same page cancels the older one.
PAGE_HEADER = "x-boardlab-page"
_JOB = "boardlab.job"
#: Where :func:`endpoint` keeps the request body it read on the loop (see read_object).
_BODY = "boardlab.body"
#: Threads for requests that are not searches (more such requests wait on the loop).
LIGHT_THREADS = 16

T = TypeVar("T")
Obj = dict[str, Any]


class ApiError(Exception):
    """A request the API refuses: HTTP ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers


def read_object(request: Request) -> Obj:
    """The request body as a JSON object (read on the event loop by :func:`endpoint`
    before the handler runs).

    :raises ApiError: 415 unless the content type is ``application/json``; 400 for a body
        that is not UTF-8 JSON or not an object.
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    body = request.scope.get(_BODY)
    if not isinstance(body, bytes):
        raise RuntimeError("read_object is for handlers wrapped by endpoint()")
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise ApiError(400, "malformed JSON: the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise ApiError(
            400, f"malformed JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError:  # an integer of more than 4,300 digits
        raise _too_long() from None
    _check_shape(data)
    if not isinstance(data, dict):
        raise ApiError(400, f"the body must be a JSON object, got {type(data).__name__}")
    return data


def _too_deep() -> ApiError:
    return ApiError(400, f"malformed JSON: nested more than {MAX_DEPTH} levels deep")


def _too_long() -> ApiError:
    return ApiError(400, f"malformed JSON: an integer of more than {MAX_DIGITS} digits")


def _check_shape(data: object) -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` and integers longer than
    :data:`MAX_DIGITS` digits (iteratively: no recursion on the request's shape)."""
    big = 10**MAX_DIGITS
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        items: Any
        if isinstance(value, dict):
            items = value.values()
        elif isinstance(value, list):
            items = value
        else:
            if isinstance(value, int) and abs(value) >= big:
                raise _too_long()
            continue
        if depth > MAX_DEPTH:
            raise _too_deep()
        for item in items:
            if isinstance(item, dict | list):
                stack.append((item, depth + 1))
            elif isinstance(item, int) and abs(item) >= big:
                raise _too_long()


def _missing(name: str) -> ApiError:
    return ApiError(400, f"missing field {name!r}")


def clip(text: str, most: int = QUOTED_CHARS) -> str:
    """``text`` cut to ``most`` characters (ending in ``...`` when cut).

    >>> clip("x" * 50, 10)
    'xxxxxxx...'
    """
    return text if len(text) <= most else text[: most - 3] + "..."


def _wrong(name: str, wanted: str, value: object) -> ApiError:
    return ApiError(400, f"field {name!r} must be {wanted}, got {clip(json.dumps(value))}")


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
        raise ApiError(400, f"field {name!r} must be in {low}..{high}, got {clip(str(value))}")
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


@dataclass(frozen=True, slots=True)
class _Job:
    owner: Owner
    stop: Stop


def run_job(request: Request, work: Callable[[], T]) -> T:
    """Run ``work`` (a search) in a slot of the app's job pool, under the request's stop
    (cancelled when the client goes away or a newer request of its page arrives) and the
    server's time cap; called from an :func:`endpoint` handler.

    :raises ApiError: 503 with ``Retry-After`` when the queue is full; 422 when the job
        grew the server past its memory cap; 409 when the job was cancelled.
    """
    job = request.scope.get(_JOB)
    if not isinstance(job, _Job):
        raise RuntimeError("run_job is for handlers wrapped by endpoint()")
    pool: JobPool = request.app.state.jobs
    try:
        return pool.run(job.owner, job.stop, work)
    except QueueFullError as exc:
        raise ApiError(503, str(exc), {"Retry-After": str(exc.retry_after)}) from None
    except MemoryCapError as exc:
        raise ApiError(422, f"stopped: {exc}; ask for a smaller search") from None
    except JobCancelledError as exc:
        raise ApiError(409, f"cancelled: {exc}") from None


#: An API handler: a plain function of the request (it runs in a worker thread; the body
#: has been read already, see :func:`read_object`).
Handler = Callable[[Request], Obj]


def error_response(
    status: int, message: str, kind: str | None = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The JSON answer of a refused request: ``{"error": message, "kind": ...}`` (a long
    message is cut to :data:`MAX_MESSAGE` characters)."""
    body: Obj = {"error": clip(message, MAX_MESSAGE)}
    if kind is not None:
        body["kind"] = kind
    return JSONResponse(body, status_code=status, headers=headers)


def _owner(request: Request) -> Owner:
    client = request.client.host if request.client is not None else ""
    page = request.headers.get(PAGE_HEADER)
    return Owner(client, None if page is None else page[:SHORT_STRING])


def _drive(handler: Handler, request: Request) -> Response:
    """Run a handler in this thread and render its answer here too (a large answer's
    JSON is no work for the loop)."""
    return _answer(handler(request))


async def _watch(receive: Receive, stop: Stop) -> None:
    """Cancel ``stop`` when the client disconnects (the body has been read already)."""
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            stop.cancel("the client went away")
            return


def _threads(request: Request) -> anyio.CapacityLimiter:
    """The app's own thread limiter: every job slot and queue place has a thread, plus
    :data:`LIGHT_THREADS` for the other requests (made on first use, inside the loop)."""
    state = request.app.state
    limiter = getattr(state, "threads", None)
    if limiter is None:
        pool: JobPool = state.jobs
        limiter = state.threads = anyio.CapacityLimiter(pool.slots + pool.waiting + LIGHT_THREADS)
    assert isinstance(limiter, anyio.CapacityLimiter)
    return limiter


async def _off_loop(handler: Handler, request: Request) -> Response:
    request.scope[_BODY] = await request.body()  # read on the loop, for read_object
    stop = Stop()
    request.scope[_JOB] = _Job(_owner(request), stop)
    watcher = asyncio.ensure_future(_watch(request.receive, stop))
    try:
        return await anyio.to_thread.run_sync(_drive, handler, request, limiter=_threads(request))
    finally:
        watcher.cancel()


def _answer(answer: Obj) -> JSONResponse:
    """The JSON answer of a handler, its verdict texts (:data:`VERDICT_TEXTS`, a string
    or a list of strings) cut to :data:`MAX_MESSAGE` characters: a judge's reason may
    quote the offending line of the request, which may be a megabyte long."""
    for key in VERDICT_TEXTS:
        value = answer.get(key)
        if isinstance(value, str):
            answer[key] = clip(value, MAX_MESSAGE)
        elif isinstance(value, list):
            answer[key] = [clip(v, MAX_MESSAGE) if isinstance(v, str) else v for v in value]
    return JSONResponse(answer)


def endpoint(
    handler: Handler, *, on_loop: bool = False
) -> Callable[[Request], Coroutine[Any, Any, Response]]:
    """Wrap an API handler: it runs in a worker thread (``on_loop`` only for trivial
    ones); its dict becomes JSON (verdict texts clipped); an :class:`ApiError` its
    status; a :class:`BoardlabError` (bad position, illegal move, parse error) a 422 with
    the message (clipped)."""

    @functools.wraps(handler)
    async def wrapper(request: Request) -> Response:
        try:
            if on_loop:
                request.scope[_BODY] = await request.body()
                return _answer(handler(request))
            return await _off_loop(handler, request)
        except ApiError as exc:
            return error_response(exc.status, exc.message, headers=exc.headers)
        except BoardlabError as exc:
            return error_response(422, str(exc), type(exc).__name__)

    return wrapper
