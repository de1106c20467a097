"""Interface layer: ``boardlab serve``, the local web page for every game.

It binds 127.0.0.1 unless ``--host`` says otherwise (another address needs the host
names the page may be reached by, ``--allow-host NAME``), prints the URL once the
address is bound, and serves until interrupted (Ctrl-C). ``--workers`` searches run at
once (default one per core). The Hex engine's kernels are compiled in the background
from the start (not with ``--no-warm-up``). Starlette and uvicorn are imported only when
the server starts, so ``boardlab --help`` stays light.
"""

from __future__ import annotations

import argparse
import sys

from boardlab.cli._command import Game, Verb
from boardlab.cli._types import count_of

__all__ = ["GAME"]


#: The largest TCP port number.
MAX_PORT = 65535


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= MAX_PORT:
        raise argparse.ArgumentTypeError(f"a port is 0..{MAX_PORT} (0: any free port), got {value}")
    return value


def _configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only)",
    )
    parser.add_argument(
        "--port", type=_port, default=8000, help="port (default 8000; 0 picks a free one)"
    )
    parser.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the page may be reached by (repeatable; *.example.org for its "
        "subdomains); needed with a --host other than this machine",
    )
    parser.add_argument(
        "--workers",
        type=count_of("workers"),
        default=None,
        help="searches run at once (default: one per core); more wait in a bounded queue",
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="do not compile the Hex engine's kernels in the background at start (they are "
        "then compiled inside the first engine move of each board width: minutes on a "
        "fresh install)",
    )


def _run(args: argparse.Namespace) -> int:
    from boardlab.core.errors import BoardlabError
    from boardlab.web.app import serve

    def ready(url: str) -> None:
        print(f"boardlab serve: the page is at {url}  (Ctrl-C stops the server)", flush=True)
        if args.host not in ("127.0.0.1", "localhost", "::1"):
            print(
                f"boardlab serve: warning: listening on {args.host}; "
                "other machines may reach the page",
                file=sys.stderr,
                flush=True,
            )

    try:
        serve(
            args.host,
            args.port,
            ready,
            allow_hosts=tuple(args.allow_host),
            slots=args.workers,
            warm_up=not args.no_warm_up,
        )
    except OSError as exc:
        raise BoardlabError(
            f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
        ) from None
    return 0


_SERVE = Verb(
    "run", "serve the web page (/ for people, /api/<game>/... for scripts)", _configure, _run
)
GAME = Game("serve", "the local web page for every game", (), default=_SERVE)
