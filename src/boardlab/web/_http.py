"""Interface layer: request reading and validation shared by the web API modules.

Every endpoint takes one JSON object, declared as a :mod:`boardlab.web.schemas` struct:
:func:`read_request` checks the content type and decodes the body into it with msgspec,
which checks every type, range, length and count on the way (a body nested too deep or
holding a huge number is refused, never a 500). Whatever a request gets wrong, a field
out of its limits (400, 413 for a text or list too long) or a game layer's
:class:`BoardlabError` (422), is put in the player's words by one function,
:func:`in_words`: the box's name as the page shows it, never a field's key or a type.

:func:`endpoint` runs each handler in a worker thread, never on the event loop, and
watches the client meanwhile: when it goes away the request's
:class:`~boardlab.core.limits.Stop` is cancelled. A handler hands its search to
:func:`run_job`, which waits for a slot of the app's :class:`~boardlab.web._jobs.JobPool`
(a bounded queue: 503 with ``Retry-After`` when full) and runs it under that stop and
the server's time cap. Handlers are plain functions (no ``async``): they run in their
thread without an event loop, the body already read for :func:`read_request`.
"""

from __future__ import annotations

import asyncio
import functools
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread
import msgspec
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import Receive

from boardlab.core.errors import BoardlabError, ParseError
from boardlab.core.limits import Stop
from boardlab.web._jobs import (
    JobCancelledError,
    JobPool,
    MemoryCapError,
    Owner,
    QueueFullError,
)
from boardlab.web.schemas import Request as Schema

__all__ = [
    "ApiError",
    "Declared",
    "Obj",
    "answer_of",
    "endpoint",
    "error_response",
    "in_words",
    "read_request",
    "run_job",
]

#: The longest item of a list of short strings (names, moves).
SHORT_STRING = 64
#: The longest error message or verdict text answered (a game's message may quote the
#: request).
MAX_MESSAGE = 300
#: The fields of an answer that hold a verdict's words (cut to :data:`MAX_MESSAGE`).
VERDICT_TEXTS = ("reason", "summary", "report")
#: The request header naming the page (tab) a request comes from; a newer search from
#: the same page cancels the older one.
PAGE_HEADER = "x-boardlab-page"
_JOB = "boardlab.job"
#: Where :func:`endpoint` keeps the request body it read on the loop (see read_request).
_BODY = "boardlab.body"
#: Where :func:`read_request` notes the request's schema (for :func:`in_words`).
_SCHEMA = "boardlab.schema"
#: The attribute of an :func:`endpoint` that holds its declared answer.
_DECLARED = "boardlab_answer"
#: Threads for requests that are not searches (more such requests wait on the loop).
LIGHT_THREADS = 16

T = TypeVar("T")
S = TypeVar("S", bound=Schema)
Obj = dict[str, Any]
#: An endpoint's declared answer: an answer struct, or a union of tagged ones (a type
#: msgspec converts into).
Declared = Any


class ApiError(Exception):
    """A request the API refuses: HTTP ``status``, a one-line ``message`` in the player's
    words and, for a program, the ``field`` it is about (None when none)."""

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers
        self.field = field


def read_request(request: Request, schema: type[S]) -> S:
    """The request body decoded into ``schema`` (read on the event loop by
    :func:`endpoint` before the handler runs).

    :raises ApiError: 415 unless the content type is ``application/json``; 400 (413 for
        a text or list over its length) for a body that is not such an object, in the
        player's words (:func:`in_words`).
    """
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    body = request.scope.get(_BODY)
    if not isinstance(body, bytes):
        raise RuntimeError("read_request is for handlers wrapped by endpoint()")
    request.scope[_SCHEMA] = schema
    try:
        return msgspec.json.decode(body, type=schema)
    except (msgspec.ValidationError, msgspec.DecodeError, RecursionError) as exc:
        raise refusal(exc, schema) from None


def clip(text: str, most: int = 40) -> str:
    """``text`` cut to ``most`` characters (ending in ``...`` when cut).

    >>> clip("x" * 50, 10)
    'xxxxxxx...'
    """
    return text if len(text) <= most else text[: most - 3] + "..."


# -- errors in the player's words ---------------------------------------------------------------

_UNKNOWN = re.compile(r"Object contains unknown field `([^`]*)`")
_AT = re.compile(r" - at `\$\.(?P<name>\w+)(?:\[(?P<index>\d+)\])?[^`]*`$")
_KINDS = {
    "int": "a whole number",
    "float": "a number",
    "bool": "yes or no (true or false)",
    "str": "text",
    "array": "a list",
    "object": "a JSON object",
}


@dataclass(frozen=True, slots=True)
class _Field:
    """What :func:`in_words` needs of a field: its box's name and its limits."""

    title: str
    kind: str
    low: float | None = None
    high: float | None = None
    shortest: int | None = None
    longest: int | None = None


def _field(info: msgspec.inspect.Type) -> _Field:
    """The title, kind and limits of a field's type (the first choice of an optional one)."""
    if isinstance(info, msgspec.inspect.UnionType):
        info = next(t for t in info.types if not isinstance(t, msgspec.inspect.NoneType))
    title = ""
    if isinstance(info, msgspec.inspect.Metadata):
        title = str((info.extra_json_schema or {}).get("title", ""))
        info = info.type
    kind = type(info).__name__.removesuffix("Type").lower()
    low = getattr(info, "ge", None)
    high = getattr(info, "le", None)
    shortest = getattr(info, "min_length", None)
    longest = getattr(info, "max_length", None)
    return _Field(title, kind, low, high, shortest, longest)


def _fields(schema: type[Schema]) -> dict[str, tuple[_Field, _Field | None]]:
    """Each field of ``schema`` by name: itself and, for a list, one of its items."""
    info = msgspec.inspect.type_info(schema)
    assert isinstance(info, msgspec.inspect.StructType)
    found: dict[str, tuple[_Field, _Field | None]] = {}
    for field in info.fields:
        whole = field.type
        inner = whole
        if isinstance(inner, msgspec.inspect.UnionType):
            inner = next(t for t in inner.types if not isinstance(t, msgspec.inspect.NoneType))
        if isinstance(inner, msgspec.inspect.Metadata):
            inner = inner.type
        item = _field(inner.item_type) if isinstance(inner, msgspec.inspect.ListType) else None
        found[field.name] = (_field(whole), item)
    return found


def _number(value: float | None) -> str:
    """``value`` as a reader writes it: ``1,000,000``, ``0.01``."""
    if value is None:
        return ""
    return f"{int(value):,}" if float(value).is_integer() else f"{value}"


def _limit_words(field: _Field, what: str) -> str:
    """Why ``what`` (the box, or one of its items) is refused, from its declared limits."""
    title = what[0].upper() + what[1:]
    if field.kind in ("int", "float") and (field.low is not None or field.high is not None):
        whole = " a whole number" if field.kind == "int" else ""
        return f"{title} must be{whole} from {_number(field.low)} to {_number(field.high)}."
    if field.kind == "str" and field.longest is not None:
        return f"{title} is too long: at most {field.longest:,} characters fit."
    if field.kind == "list" and field.shortest is not None and field.shortest == field.longest:
        return f"{title} must have exactly {field.longest} values."
    if field.kind == "list" and field.longest is not None:
        return f"There are too many {what.removeprefix('The ')}: at most {field.longest:,}."
    return f"{title} is not what this page can take."


def in_words(error: Exception, schema: type[Schema] | None) -> str:
    """The one sentence a player reads for what a request got wrong: a msgspec
    validation or decode error, or a game layer's :class:`BoardlabError` (a parse error
    of a box is named by the box, its line and its column). It names the page's box
    (each field's title), never a field's key or a type."""
    if isinstance(error, ParseError) and schema is not None and error.source is not None:
        box = _fields(schema).get(error.source)
        if box is not None:
            where = "".join(
                f", {name} {value}"
                for name, value in (("line", error.line), ("column", error.column))
                if value is not None
            )
            return f"{box[0].title}{where}: {error.message}"
    if isinstance(error, BoardlabError):
        return str(error)
    if isinstance(error, RecursionError) or schema is None:
        return "The request is not one this page sends (nested too deep)."
    if isinstance(error, msgspec.DecodeError) and not isinstance(error, msgspec.ValidationError):
        return f"The request is not JSON this page sends ({str(error).rstrip('.').lower()})."
    text = str(error)
    unknown = _UNKNOWN.match(text)
    if unknown is not None:
        return (
            f'The request holds a field this API does not know: "{clip(unknown.group(1))}" '
            "(/api/docs lists the fields of every request)."
        )
    missing = re.fullmatch(r"Object missing required field `(\w+)`", text)
    fields = _fields(schema)
    if missing is not None and missing.group(1) in fields:
        return f"{fields[missing.group(1)][0].title} is missing."
    at = _AT.search(text)
    if at is None or at.group("name") not in fields:
        return "The request is not one this page sends (it is not a JSON object)."
    whole, item = fields[at.group("name")]
    field, what = whole, whole.title
    if at.group("index") is not None and item is not None:
        field, what = item, f"{item.title} (number {int(at.group('index')) + 1})"
    wanted = re.match(r"Expected `(\w+)[^`]*`, got `(\w+)`", text)
    if wanted is not None:
        kind = _KINDS.get(wanted.group(1), "another kind")
        return f"{what[0].upper() + what[1:]} must be {kind}."
    return _limit_words(field, what)


def refusal(error: Exception, schema: type[Schema]) -> ApiError:
    """The :class:`ApiError` of a request msgspec refused: 413 for a text or list over
    its length, else 400, in the player's words, naming the field for a program."""
    text = str(error)
    at = _AT.search(text)
    too_long = "of length <=" in text and at is not None and at.group("index") is None
    name = at.group("name") if at is not None else None
    unknown = _UNKNOWN.match(text)
    if unknown is not None:
        name = clip(unknown.group(1))
    return ApiError(413 if too_long else 400, in_words(error, schema), field=name)


@dataclass(frozen=True, slots=True)
class _Job:
    owner: Owner
    stop: Stop
    arrival: int


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
        return pool.run(job.owner, job.stop, work, job.arrival)
    except QueueFullError as exc:
        raise ApiError(503, str(exc), {"Retry-After": str(exc.retry_after)}) from None
    except MemoryCapError as exc:
        raise ApiError(422, f"stopped: {exc}; ask for a smaller search") from None
    except JobCancelledError as exc:
        raise ApiError(409, f"cancelled: {exc}") from None


#: An API handler: a plain function of the request (it runs in a worker thread; the body
#: has been read already, see :func:`read_request`).
Handler = Callable[[Request], Obj]


def error_response(
    status: int,
    message: str,
    kind: str | None = None,
    headers: dict[str, str] | None = None,
    field: str | None = None,
) -> JSONResponse:
    """The JSON answer of a refused request: ``{"error": message, "kind": ...,
    "field": ...}`` (a long message is cut to :data:`MAX_MESSAGE` characters; ``field``
    names the request field for a program, never shown to a player)."""
    body: Obj = {"error": clip(message, MAX_MESSAGE)}
    if kind is not None:
        body["kind"] = kind
    if field is not None:
        body["field"] = field
    return JSONResponse(body, status_code=status, headers=headers)


def _owner(request: Request) -> Owner:
    client = request.client.host if request.client is not None else ""
    page = request.headers.get(PAGE_HEADER)
    return Owner(client, None if page is None else page[:SHORT_STRING])


def _drive(handler: Handler, answer: Declared, request: Request) -> Response:
    """Run a handler in this thread and render its answer here too (a large answer's
    JSON is no work for the loop)."""
    return _answer(handler(request), answer)


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


async def _off_loop(handler: Handler, answer: Declared, request: Request) -> Response:
    request.scope[_BODY] = await request.body()  # read on the loop, for read_request
    stop = Stop()
    pool: JobPool = request.app.state.jobs
    # numbered here, on the loop, in the order the requests came: a request of a page that
    # waits longer for a thread than a newer one of the same page must not replace it
    request.scope[_JOB] = _Job(_owner(request), stop, pool.arrival())
    watcher = asyncio.ensure_future(_watch(request.receive, stop))
    try:
        return await anyio.to_thread.run_sync(
            _drive, handler, answer, request, limiter=_threads(request)
        )
    finally:
        watcher.cancel()


def _answer(answer: Obj, declared: Declared) -> Response:
    """The JSON answer of a handler, checked against its declared answer (a field too
    many, missing or of another kind is the server's error: the answer is exactly what
    ``/api/openapi.json`` says, in the order of the result's ``as_dict``), its verdict
    texts (:data:`VERDICT_TEXTS`, a string or a list of strings) cut to
    :data:`MAX_MESSAGE` characters: a judge's reason may quote the offending line of the
    request, which may be a megabyte long."""
    for key in VERDICT_TEXTS:
        value = answer.get(key)
        if isinstance(value, str):
            answer[key] = clip(value, MAX_MESSAGE)
        elif isinstance(value, list):
            answer[key] = [clip(v, MAX_MESSAGE) if isinstance(v, str) else v for v in value]
    msgspec.convert(answer, declared)  # raises on a field too many, missing or mistyped
    return Response(msgspec.json.encode(answer), media_type="application/json")


def endpoint(
    handler: Handler, answer: Declared, *, on_loop: bool = False
) -> Callable[[Request], Coroutine[Any, Any, Response]]:
    """Wrap an API handler: it runs in a worker thread (``on_loop`` only for trivial
    ones); its dict is checked against its declared ``answer`` (a
    :mod:`boardlab.web.answers` struct, or a union of them; :func:`answer_of` reads it
    back for the API's description) and sent as JSON, verdict texts clipped; an :class:`ApiError`
    becomes its status; a :class:`BoardlabError` (bad position, illegal move, parse
    error) a 422 with the message (clipped)."""

    @functools.wraps(handler)
    async def wrapper(request: Request) -> Response:
        try:
            if on_loop:
                request.scope[_BODY] = await request.body()
                return _answer(handler(request), answer)
            return await _off_loop(handler, answer, request)
        except ApiError as exc:
            return error_response(exc.status, exc.message, headers=exc.headers, field=exc.field)
        except BoardlabError as exc:
            words = in_words(exc, request.scope.get(_SCHEMA))
            return error_response(422, words, type(exc).__name__)

    setattr(wrapper, _DECLARED, answer)
    return wrapper


def answer_of(route_endpoint: object) -> Declared | None:
    """The declared answer of an :func:`endpoint` (None for any other endpoint)."""
    declared: Declared | None = getattr(route_endpoint, _DECLARED, None)
    return declared
