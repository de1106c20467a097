"""Interface layer: the ASGI app of the local web page (Starlette) and how it is served.

:func:`create_app` builds the app: the static page under ``/``, the JSON API of every
game under ``/api/<game>/...``, a limit on request bodies (413 beyond it, checked
before the body is read), a check of the ``Host`` header (the page answers only to the
names it is served on, which stops DNS-rebinding pages from reaching it) and JSON
answers for every error. :func:`serve` runs it with uvicorn, on 127.0.0.1 by default.

>>> app = create_app()
>>> api = app.routes[0]
>>> sorted({route.path.split("/")[1] for route in api.routes})
['health', 'hex', 'ioiwari', 'mars', 'pegs', 'shongololo']
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from boardlab.web._http import Obj, endpoint, error_response

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "MAX_BODY", "BodyLimit", "create_app", "serve"]

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Largest request body accepted (a Mars answer for 999 vehicles is about 1.5 MB).
MAX_BODY = 4 * 1024 * 1024
STATIC = Path(__file__).parent / "static"
LOCAL_NAMES = ("127.0.0.1", "localhost", "::1", "[::1]")


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


async def _health(request: Request) -> Obj:
    from boardlab import __version__

    games = ["pegs", "hex", "ioiwari", "mars", "shongololo"]
    return {"ok": True, "version": __version__, "games": games}


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    not_found = exc.status_code == HTTPStatus.NOT_FOUND
    if request.url.path.startswith("/api/") or not not_found:
        detail = f"no such endpoint: {request.url.path}" if not_found else exc.detail
        return error_response(exc.status_code, str(detail))
    return JSONResponse({"error": "not found"}, status_code=404)


async def _server_error(request: Request, exc: Exception) -> Response:
    return error_response(500, f"internal error: {type(exc).__name__}: {exc}")


def _api_routes() -> list[BaseRoute]:
    from boardlab.web import api_hex, api_ioiwari, api_mars, api_pegs, api_shongololo

    routes: list[BaseRoute] = [Route("/health", endpoint(_health), methods=["GET"])]
    for module in (api_pegs, api_hex, api_ioiwari, api_mars, api_shongololo):
        routes.extend(module.routes)
    return routes


def create_app(hosts: tuple[str, ...] = (), max_body: int = MAX_BODY) -> Starlette:
    """The web app; ``hosts`` are extra names the page may be reached by (besides the
    local ones and ``testserver``, the name used by Starlette's test client)."""
    allowed = [*LOCAL_NAMES, "testserver", *hosts]
    middleware = [
        Middleware(TrustedHostMiddleware, allowed_hosts=allowed),
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
    app.state.job_lock = asyncio.Lock()
    return app


def serve(
    host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, ready: Callable[[str], None] | None = None
) -> None:
    """Serve the page with uvicorn until interrupted; ``ready(url)`` is called once the
    address is bound (``port`` 0 picks a free port, and the URL names it).

    :raises OSError: when the address cannot be bound.
    """
    import socket

    import uvicorn

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    bound = sock.getsockname()[1]
    wildcard = host in ("0.0.0.0", "::", "")
    hosts = ("*",) if wildcard else (() if host in LOCAL_NAMES else (host,))
    config = uvicorn.Config(create_app(hosts), log_level="warning")
    if ready is not None:
        shown = f"[{host}]" if ":" in host else host
        ready(f"http://{shown}:{bound}/")
    uvicorn.Server(config).run(sockets=[sock])
