"""Interface layer: the ASGI app of the local web page (Starlette) and how it is served.

:func:`create_app` builds the app: the static page under ``/``, the JSON API of every
game under ``/api/<game>/...`` with its description (``/api/openapi.json``,
``/api/docs``), a limit on request bodies (413 beyond it, checked before the body is
read), a check of the ``Host`` header (the page answers only to the names it is served
on, which stops DNS-rebinding pages from reaching it; a JSON 400 otherwise), the usual
security headers on every answer, JSON answers for every error, and the job pool that
runs the searches (:mod:`boardlab.web._jobs`). :func:`serve` runs
it with uvicorn, on 127.0.0.1 by default.

>>> app = create_app()
>>> api = app.routes[0]
>>> sorted({route.path.split("/")[1] for route in api.routes})
['docs', 'health', 'hex', 'hiq', 'ioiwari', 'mars', 'openapi.json', 'pegs', 'shongololo']
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

from starlette.applications import Starlette
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.core.errors import BoardlabError
from boardlab.web._heap import limit_arenas
from boardlab.web._http import Obj, clip, endpoint, error_response
from boardlab.web._jobs import MAX_JOB_MEMORY, MAX_JOB_SECONDS, JobPool
from boardlab.web._warm import start_warm_up
from boardlab.web.answers_games import Health

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "MAX_BODY",
    "MAX_JOB_MEMORY",
    "MAX_JOB_SECONDS",
    "BodyLimit",
    "HostCheck",
    "SecurityHeaders",
    "create_app",
    "serve",
]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Largest request body accepted (a Mars answer for 999 vehicles is about 1.5 MB).
MAX_BODY = 4 * 1024 * 1024
#: Searches that may wait for a slot, per slot.
WAITING_PER_SLOT = 4
#: Seconds a thread holds the interpreter before another may run (Python's default is
#: 0.005): shorter turns keep quick answers quick while searches and judges run.
SWITCH_INTERVAL = 0.001
STATIC = Path(__file__).parent / "static"
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")
#: The host name of Starlette's test client, allowed only by ``create_app(testing=True)``.
TEST_NAME = "testserver"
SECURITY_HEADERS = {
    "content-security-policy": "frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
}
_log = logging.getLogger(__name__)


class BodyLimit:
    """ASGI middleware: refuse a request body over ``limit`` bytes with 413.

    A declared ``Content-Length`` over the limit is refused before anything is read; a
    body streamed without one is counted as it arrives.
    """

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", []):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.limit:
                    await self._refuse(scope, receive, send)
                    return
        seen = 0
        too_large = False

        async def counted() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    too_large = True
                    raise _TooLargeError
            return message

        try:
            await self.app(scope, counted, send)
        except _TooLargeError:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(413, f"request body too large (at most {self.limit} bytes)")
        await response(scope, receive, send)


class _TooLargeError(Exception):
    pass


def host_name(header: str) -> str:
    """The name of a ``Host`` header without its port, lower case.

    >>> host_name("LocalHost:8000"), host_name("[::1]:8000"), host_name("example.org")
    ('localhost', '[::1]', 'example.org')
    """
    name = header.strip().lower()
    if name.startswith("["):
        return name[: name.find("]") + 1] if "]" in name else name
    return name.rsplit(":", 1)[0] if name.count(":") == 1 else name


class HostCheck:
    """ASGI middleware: answer only to the allowed ``Host`` names (a JSON 400 otherwise).

    A name ``*.example.org`` allows every subdomain of example.org; there is no name that
    allows every host.
    """

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.exact = {name.lower() for name in allowed if not name.startswith("*.")}
        self.suffixes = tuple(name.lower()[1:] for name in allowed if name.startswith("*."))

    def allows(self, header: str) -> bool:
        """Whether a ``Host`` header names an allowed host."""
        name = host_name(header)
        return name in self.exact or (bool(name) and name.endswith(self.suffixes))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            header = Headers(scope=scope).get("host", "")
            if not self.allows(header):
                message = f"host {clip(header)!r} is not allowed (see boardlab serve --allow-host)"
                await error_response(400, message, "HostNotAllowed")(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: add :data:`SECURITY_HEADERS` to every answer (no framing, no
    content sniffing, no referrer)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for key, value in SECURITY_HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, with_headers)


def _health(request: Request) -> Obj:
    """``GET /api/health``: the server is up: its version, games and searches running and
    waiting."""
    from boardlab import __version__

    games = ["pegs", "hex", "ioiwari", "mars", "shongololo"]
    jobs: JobPool = request.app.state.jobs
    return {
        "ok": True,
        "version": __version__,
        "games": games,
        "running": jobs.running,
        "queued": jobs.queued,
    }


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    not_found = exc.status_code == HTTPStatus.NOT_FOUND
    if request.url.path.startswith("/api/") or not not_found:
        detail = f"no such endpoint: {request.url.path}" if not_found else exc.detail
        return error_response(exc.status_code, str(detail))
    return JSONResponse({"error": "not found"}, status_code=404)


async def _server_error(request: Request, exc: Exception) -> Response:
    _log.error("internal error on %s", request.url.path, exc_info=exc)
    return error_response(500, f"internal error ({type(exc).__name__}); see the server's log")


def _api_routes() -> list[BaseRoute]:
    from boardlab.web import (
        api_hex,
        api_hiq,
        api_ioiwari,
        api_mars,
        api_pegs,
        api_pegs_check,
        api_shongololo,
        openapi,
    )

    routes: list[BaseRoute] = [
        Route("/health", endpoint(_health, Health, on_loop=True), methods=["GET"])
    ]
    modules = (api_pegs, api_pegs_check, api_hiq, api_hex, api_ioiwari, api_mars, api_shongololo)
    for module in modules:
        routes.extend(module.routes)
    return routes + openapi.routes(routes)


def create_app(
    hosts: tuple[str, ...] = (),
    max_body: int = MAX_BODY,
    *,
    testing: bool = False,
    slots: int | None = None,
    waiting: int | None = None,
    job_seconds: float = MAX_JOB_SECONDS,
    job_memory: int = MAX_JOB_MEMORY,
) -> Starlette:
    """The web app.

    ``hosts`` are the names the page may be reached by besides the local ones
    (``testing`` adds ``testserver``, the name Starlette's test client sends). ``slots``
    searches run at once (default: one per core), ``waiting`` more may queue (default
    four per slot) and each runs at most ``job_seconds`` and grows the server by at most
    ``job_memory`` bytes.
    """
    allowed = (*LOCAL_NAMES, *((TEST_NAME,) if testing else ()), *hosts)
    middleware = [
        Middleware(SecurityHeaders),
        Middleware(HostCheck, allowed=allowed),
        Middleware(BodyLimit, limit=max_body),
    ]
    routes = [
        Mount("/api", routes=_api_routes(), name="api"),
        Mount("/", app=StaticFiles(directory=STATIC, html=True), name="static"),
    ]
    app = Starlette(
        routes=routes,
        middleware=middleware,
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
    slots = slots if slots is not None else os.cpu_count() or 1
    waiting = waiting if waiting is not None else WAITING_PER_SLOT * slots
    app.state.jobs = JobPool(slots, waiting, job_seconds, job_memory)
    return app


def allowed_hosts(host: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """The host names a server bound to ``host`` answers to besides the local ones.

    A non-local address needs the names given explicitly (``--allow-host``).

    :raises BoardlabError: for a non-local bind without names, or a name ``*``.
    """
    if any(name.strip() in ("", "*") for name in names):
        raise BoardlabError("--allow-host needs a host name (there is no name for every host)")
    if host not in LOCAL_NAMES and not names:
        raise BoardlabError(
            f"--host {host} lets other machines reach the page: "
            "name the host names it may be reached by with --allow-host NAME"
        )
    return names


def serve(
    host: str = DEFAULT_HOST,
    port: int = DEFAULT_PORT,
    ready: Callable[[str], None] | None = None,
    *,
    allow_hosts: tuple[str, ...] = (),
    slots: int | None = None,
    warm_up: bool = False,
) -> None:
    """Serve the page with uvicorn until interrupted; ``ready(url)`` is called once the
    address is bound (``port`` 0 picks a free port, and the URL names it). With
    ``warm_up`` the Hex engine's kernels are compiled and loaded in the background from
    the start (:mod:`boardlab.web._warm`), not inside a player's first engine move.

    :raises BoardlabError: for a non-local ``host`` without ``allow_hosts``.
    :raises OSError: when the address cannot be bound.
    """
    import socket
    import sys

    import uvicorn

    hosts = allowed_hosts(host, allow_hosts)
    sys.setswitchinterval(SWITCH_INTERVAL)
    limit_arenas(slots if slots is not None else os.cpu_count() or 1)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # asyncio sets TCP_NODELAY only on sockets whose proto says TCP: without it every
    # answer on a kept-alive connection waited about 40 ms for the delayed ACK of its headers
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    bound = sock.getsockname()[1]
    config = uvicorn.Config(create_app(hosts, slots=slots), log_level="warning")
    if ready is not None:
        shown = f"[{host}]" if ":" in host else host
        ready(f"http://{shown}:{bound}/")
    warm = start_warm_up() if warm_up else None
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        if warm is not None:
            warm.stop()
