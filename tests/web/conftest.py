"""Fixtures of the web tests: the app in-process, a live server on a free port, Chromium."""

from __future__ import annotations

import os
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("BOARDLAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",  # WebGL in software, for the 3D view
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REFUSED = "Failed to load resource: the server responded with a status of 4"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
#: Holds back, in the page, every answer whose address holds a text, for some milliseconds.
DELAY_ANSWERS = """([fragment, ms]) => {
  const plain = window.fetch;
  window.fetch = async (url, options) => {
    const answer = await plain(url, options);
    if (String(url).includes(fragment)) await new Promise((r) => setTimeout(r, ms));
    return answer;
  };
}"""


@pytest.fixture(scope="session")
def client() -> Iterator[object]:
    """Starlette's test client on the app (no network)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # starlette suggests httpx2, which is not installed
        from starlette.testclient import TestClient

    from boardlab.web.app import create_app

    with TestClient(create_app(testing=True)) as test_client:
        yield test_client


@contextmanager
def served(app: Any) -> Iterator[str]:
    """``app`` served by uvicorn in a thread on a free port of 127.0.0.1; yields its URL."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # NODELAY
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def serve_app() -> Callable[[Any], AbstractContextManager[str]]:
    """:func:`served`, for tests that serve an app of their own."""
    return served


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served by uvicorn in a thread on a free port of 127.0.0.1; yields its URL."""
    from boardlab.web.app import create_app

    with served(create_app()) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Debian's Chromium, headless, driven by Playwright (no browser download)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need Debian's Chromium "
            "(apt-get install -y chromium; `make test` installs it when missing)",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser: object, live_server: str) -> Iterator[object]:
    """A fresh page of the live server; console errors fail the test."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def console(message: Any) -> None:
        # a refused move is a 4xx answer, which Chromium also logs: that is expected
        refused = message.text.startswith(REFUSED)
        if message.type == "error" and not refused:
            errors.append(message.text)

    page.on("console", console)
    page.set_default_timeout(15_000)
    page.base_url = live_server  # type: ignore[attr-defined]
    page.js_errors = errors  # type: ignore[attr-defined]
    page.save_screenshot = lambda name: screenshot(page, name)  # type: ignore[attr-defined]
    # page.delay_answers("hex/solve"): that endpoint's answers arrive 1.5 s late
    page.delay_answers = lambda fragment, ms=1500: page.evaluate(  # type: ignore[attr-defined]
        DELAY_ANSWERS, [fragment, ms]
    )
    yield page
    context.close()


@pytest.fixture(scope="session")
def shoot() -> Callable[[object, str], Path]:
    """:func:`screenshot`, for tests that open pages of their own."""
    return screenshot


def screenshot(page: object, name: str) -> Path:
    """Save a full-page screenshot under build/screenshots/ and return its path."""
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
