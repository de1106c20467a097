"""The web server's machinery: the job pool (slots, bounded queue, fairness, replacement,
cancellation, the time cap), the JSON guards, the host rules and the security headers.

Searches here are bounded by nodes, events or the server's cap, never by asserting on
wall-clock time; the waits below are hang guards only.
"""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from boardlab.core.limits import Limit, Stop
from boardlab.web._jobs import JobCancelledError, JobPool, MemoryCapError, Owner, QueueFullError
from boardlab.web.app import create_app

HANG = 30.0  # seconds: a hang guard, never a measurement
A, B = Owner("10.0.0.1"), Owner("10.0.0.2")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette suggests httpx2, which is not installed
    from starlette.testclient import TestClient


def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (a hang guard fails the test after :data:`HANG` s)."""
    deadline = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.005)


def spin() -> str:
    """A search with no limit of its own: it ends only when its stop says so."""
    budget = Limit().start()
    while not budget.exhausted():
        time.sleep(0.001)
    return "stopped"


class Background:
    """``pool.run`` of one job in a thread; ``result`` is its value or its exception."""

    def __init__(
        self,
        pool: JobPool,
        owner: Owner,
        work: Callable[[], Any],
        arrival: int | None = None,
    ) -> None:
        self.stop = Stop()
        self.result: Any = None
        self.thread = threading.Thread(target=self._run, args=(pool, owner, work, arrival))
        self.thread.start()

    def _run(
        self, pool: JobPool, owner: Owner, work: Callable[[], Any], arrival: int | None
    ) -> None:
        try:
            self.result = pool.run(owner, self.stop, work, arrival)
        except Exception as exc:
            self.result = exc

    def join(self) -> Any:
        self.thread.join(HANG)
        assert not self.thread.is_alive()
        return self.result


# -- the pool ------------------------------------------------------------------------------
def test_pool_queue_is_bounded_and_refuses_with_a_retry_time() -> None:
    pool = JobPool(slots=1, waiting=2, seconds=HANG)
    release = threading.Event()
    jobs = [Background(pool, Owner("10.0.0.9"), release.wait)]
    until(lambda: pool.running == 1)
    jobs += [Background(pool, Owner(f"10.0.1.{i}"), release.wait) for i in range(2)]
    until(lambda: pool.queued == 2)
    with pytest.raises(QueueFullError) as refused:
        pool.run(Owner("10.0.2.1"), Stop(), lambda: None)
    assert refused.value.retry_after >= 1 and "busy" in str(refused.value)
    release.set()
    assert [job.join() for job in jobs] == [True, True, True]
    assert (pool.running, pool.queued) == (0, 0)


def test_pool_one_client_holds_at_most_half_the_queue() -> None:
    pool = JobPool(slots=1, waiting=4, seconds=HANG)
    release = threading.Event()
    jobs = [Background(pool, A, release.wait) for _ in range(3)]  # 1 running, 2 waiting
    until(lambda: pool.queued == 2)
    with pytest.raises(QueueFullError, match="too many of your searches"):
        pool.run(A, Stop(), lambda: None)
    other = Background(pool, B, release.wait)
    until(lambda: pool.queued == 3)
    release.set()
    assert [job.join() for job in [*jobs, other]] == [True] * 4


def test_pool_fairness_prefers_the_idle_client() -> None:
    pool = JobPool(slots=2, waiting=4, seconds=HANG)
    order: list[str] = []
    gates = {name: threading.Event() for name in ("A1", "B1", "A2", "B2")}

    def job(name: str) -> Callable[[], None]:
        def work() -> None:
            order.append(name)
            gates[name].wait()

        return work

    jobs = [Background(pool, A, job("A1")), Background(pool, B, job("B1"))]
    until(lambda: pool.running == 2 and len(order) == 2)  # both started, not only admitted
    jobs.append(Background(pool, A, job("A2")))
    until(lambda: pool.queued == 1)
    jobs.append(Background(pool, B, job("B2")))
    until(lambda: pool.queued == 2)
    gates["A1"].set()  # A's slot frees: A has nothing running, B has B1: A2 goes
    until(lambda: len(order) == 3)
    assert order[2] == "A2"
    for gate in gates.values():
        gate.set()
    for background in jobs:
        background.join()
    assert order[3] == "B2"


def test_pool_a_newer_job_of_the_same_page_cancels_the_older() -> None:
    pool = JobPool(slots=1, waiting=0, seconds=HANG)
    page = Owner("10.0.0.1", "tab-1")
    running = Background(pool, page, spin)
    until(lambda: pool.running == 1)
    newer = Background(pool, page, lambda: "newer")  # waits for the slot it frees
    assert isinstance(running.join(), JobCancelledError)
    assert "replaced by a newer request" in str(running.result)
    assert newer.join() == "newer"


def test_pool_a_job_that_arrived_first_but_enters_late_never_replaces_the_newer() -> None:
    """The web server numbers requests as they arrive; a request that then waited longer
    for a thread than a newer one of its page is refused, and the newer one runs on."""
    pool = JobPool(slots=1, waiting=1, seconds=HANG)
    page = Owner("10.0.0.1", "tab-1")
    older, newer = pool.arrival(), pool.arrival()
    running = Background(pool, page, spin, arrival=newer)
    until(lambda: pool.running == 1)
    late = Stop()
    with pytest.raises(JobCancelledError, match="replaced by a newer request"):
        pool.run(page, late, lambda: "older", older)
    assert late.cancelled  # the page's late request is told it was replaced
    assert not running.stop.cancelled and pool.running == 1
    running.stop.cancel("done")
    assert str(running.join()) == "done"
    # once the newer job is over, its page's older request is still refused
    with pytest.raises(JobCancelledError):
        pool.run(page, Stop(), lambda: "older", older)
    assert pool.run(page, Stop(), lambda: "next", pool.arrival()) == "next"


def test_pool_another_page_or_client_does_not_cancel() -> None:
    pool = JobPool(slots=2, waiting=2, seconds=HANG)
    first = Background(pool, Owner("10.0.0.1", "tab"), spin)
    until(lambda: pool.running == 1)
    assert pool.run(Owner("10.0.0.2", "tab"), Stop(), lambda: 1) == 1
    assert pool.run(Owner("10.0.0.1", "other"), Stop(), lambda: 2) == 2
    assert pool.run(Owner("10.0.0.1"), Stop(), lambda: 3) == 3
    assert not first.stop.cancelled
    first.stop.cancel("done")
    assert isinstance(first.join(), JobCancelledError)


def test_pool_cancel_while_waiting_and_while_running() -> None:
    pool = JobPool(slots=1, waiting=2, seconds=HANG)
    running = Background(pool, A, spin)
    until(lambda: pool.running == 1)
    waiting = Background(pool, B, lambda: "never")
    until(lambda: pool.queued == 1)
    waiting.stop.cancel("the client went away")
    assert str(waiting.join()) == "the client went away"
    running.stop.cancel("the client went away")
    assert isinstance(running.join(), JobCancelledError)
    assert (pool.running, pool.queued) == (0, 0)


def test_pool_caps_the_time_of_a_search_with_no_limit() -> None:
    pool = JobPool(slots=1, waiting=0, seconds=0.05)
    stop = Stop()
    assert pool.run(A, stop, spin) == "stopped"  # without the cap it would never end
    assert stop.deadline is not None and not stop.cancelled


def hog() -> int:
    """A search that takes memory until its stop says so (8 MB a step)."""
    budget = Limit().start()
    held: list[bytearray] = []
    while not budget.exhausted() and len(held) < 1000:
        held.append(bytearray(8 * 2**20))
        time.sleep(0.002)
    return len(held)


def test_pool_caps_the_memory_a_search_takes() -> None:
    pool = JobPool(slots=1, waiting=0, seconds=HANG, memory=64 * 2**20)
    with pytest.raises(MemoryCapError, match="more than 64 MB"):
        pool.run(A, Stop(), hog)
    assert pool.run(A, Stop(), lambda: "small") == "small"  # the next job runs as usual
    assert pool.running == 0


def test_pool_checks_its_sizes() -> None:
    with pytest.raises(ValueError, match="slots"):
        JobPool(slots=0, waiting=0, seconds=1)


# -- the API through the pool ----------------------------------------------------------------
@pytest.fixture()
def small() -> Iterator[tuple[Any, JobPool]]:
    """An app with one slot and no waiting room, and its pool."""
    app = create_app(testing=True, slots=1, waiting=0)
    with TestClient(app) as client:
        yield client, app.state.jobs


def post_in_background(client: Any, path: str, body: object, page: str) -> dict[str, Any]:
    out: dict[str, Any] = {}

    def send() -> None:
        out["response"] = client.post(f"/api/{path}", json=body, headers={"X-Boardlab-Page": page})

    out["thread"] = threading.Thread(target=send)
    out["thread"].start()
    return out


LONG_SOLVE = {"size": 9, "moves": [], "time": 30}  # the 9x9 solve never ends in 30 s


def test_api_full_queue_is_503_and_the_same_page_replaces(small: tuple[Any, JobPool]) -> None:
    client, pool = small
    first = post_in_background(client, "hex/solve", LONG_SOLVE, "page-1")
    until(lambda: pool.running == 1)
    busy = client.post("/api/hex/solve", json={"size": 2}, headers={"X-Boardlab-Page": "page-2"})
    assert busy.status_code == 503 and int(busy.headers["retry-after"]) >= 1
    assert "busy" in busy.json()["error"]
    light = client.post("/api/hex/state", json={"size": 3})  # not a search: no queue
    assert light.status_code == 200
    newer = client.post("/api/hex/solve", json={"size": 2}, headers={"X-Boardlab-Page": "page-1"})
    assert newer.status_code == 200 and newer.json()["complete"], newer.text[:300]
    first["thread"].join(HANG)
    replaced = first["response"]
    assert replaced.status_code == 409
    assert replaced.json()["error"] == "cancelled: replaced by a newer request from the same page"


def test_api_server_caps_a_search_by_playouts() -> None:
    app = create_app(testing=True, slots=1, job_seconds=0.3)
    with TestClient(app) as capped:
        body = {"size": 11, "moves": [], "playouts": 1_000_000, "seed": 1}
        answer = capped.post("/api/hex/engine", json=body)
    assert answer.status_code == 200
    assert 0 < answer.json()["engine"]["playouts"] < 1_000_000


def test_api_client_that_goes_away_cancels_its_search(
    serve_app: Callable[[Any], Any],
) -> None:
    import httpx

    app = create_app(slots=1, waiting=0)
    pool: JobPool = app.state.jobs
    with serve_app(app) as url:
        with pytest.raises(httpx.ReadTimeout):
            httpx.post(f"{url}/api/hex/solve", json=LONG_SOLVE, timeout=1.0)
        until(lambda: pool.running == 0)  # cancelled, long before the 30 s of its time
        answer = httpx.post(f"{url}/api/hex/solve", json={"size": 2}, timeout=HANG)
        assert answer.status_code == 200
        assert answer.headers["x-frame-options"] == "DENY"


# -- JSON guards ---------------------------------------------------------------------------
def post_raw(client: Any, body: bytes, path: str = "pegs/state") -> Any:
    return client.post(f"/api/{path}", content=body, headers={"content-type": "application/json"})


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "not one this page sends"),
        # an unknown field is refused before its value is read, however deep
        (b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", 'does not know: "a"'),
        (b'{"size": ' + b"9" * 5000 + b"}", "The board size must be a whole number from 1 to 26"),
        (b'{"size": -' + b"9" * 200 + b"}", "The board size must be a whole number from 1 to 26"),
        (b'{"moves": ["a1", ' + b"9" * 101 + b"]}", "A move (number 2) must be text"),
    ],
)
def test_deep_nesting_and_long_integers_are_400(client: Any, body: bytes, message: str) -> None:
    response = post_raw(client, body, "hex/state")
    assert response.status_code == 400
    assert message in response.json()["error"]


def test_fields_a_request_does_not_declare_are_refused_whatever_their_shape(client: Any) -> None:
    body = b'{"size": 3, "a": ' + b"[" * 40 + b"]" * 40 + b', "b": ' + b"9" * 5000 + b"}"
    response = post_raw(client, body, "hex/state")
    assert response.status_code == 400 and response.json()["field"] == "a"
    assert 'does not know: "a"' in response.json()["error"]
    long_key = b'{"size": 3, "' + b"k" * 5000 + b'": 1}'
    response = post_raw(client, long_key, "hex/state")
    assert response.status_code == 400 and len(response.content) < 400


def test_errors_never_quote_the_request_at_length(client: Any) -> None:
    huge = "x" * 1_000_000
    for path, body in [
        ("hex/state", {"size": huge}),
        ("hex/state", {"size": 10**99}),
        ("pegs/state", {"board": "y" * 30}),
        ("shongololo/judge", {"input": "2 3 2", "answer": "E " + "9" * 500_000}),
        ("pegs/judge", {"board": "english", "moves": "5-17\n" + "B" * 900_000}),
        ("mars/judge", {"map": "1\n3\n2\n0 2 1\n2 0 0\n", "moves": "1 " + "7" * 500_000}),
    ]:
        response = client.post(f"/api/{path}", json=body)
        assert len(response.content) < 2000, (path, response.content[:200])


def test_a_server_error_names_no_exception_text() -> None:
    from starlette.routing import Route

    from boardlab.web._http import endpoint

    def broken(request: Any) -> dict[str, Any]:
        raise RuntimeError("secret detail " + "z" * 10_000)

    app = create_app(testing=True)
    app.routes[0].routes.append(Route("/broken", endpoint(broken, dict[str, Any]), methods=["GET"]))
    with TestClient(app, raise_server_exceptions=False) as client:
        response = client.get("/api/broken")
    assert response.status_code == 500
    assert "secret" not in response.text and "RuntimeError" in response.json()["error"]


def test_api_a_search_past_the_memory_cap_is_422() -> None:
    from starlette.routing import Route

    from boardlab.web._http import endpoint, run_job

    def greedy(request: Any) -> dict[str, Any]:
        return {"held": run_job(request, hog)}

    app = create_app(testing=True, job_memory=64 * 2**20)
    app.routes[0].routes.append(Route("/greedy", endpoint(greedy, dict[str, Any]), methods=["GET"]))
    with TestClient(app) as client:
        response = client.get("/api/greedy")
        assert response.status_code == 422
        assert "more than 64 MB (its cap)" in response.json()["error"]
        assert client.get("/api/health").status_code == 200


# -- hosts and headers ---------------------------------------------------------------------
def test_host_check_answers_json_and_testserver_is_for_tests_only() -> None:
    with TestClient(create_app()) as production:
        refused = production.get("/api/health")  # the test client sends Host: testserver
        assert refused.status_code == 400
        assert refused.json()["kind"] == "HostNotAllowed"
        assert "'testserver' is not allowed" in refused.json()["error"]
        local = production.get("http://localhost:8000/api/health")
        assert local.status_code == 200
        assert production.get("/", headers={"host": "[::1]:8000"}).status_code == 200
    with TestClient(create_app(("boards.example.org", "*.lan"))) as named:
        assert named.get("http://boards.example.org/api/health").status_code == 200
        assert named.get("http://pc.lan/api/health").status_code == 200
        assert named.get("http://evil.example/api/health").status_code == 400
        assert named.get("http://lan/api/health").status_code == 400


def test_security_headers_on_every_answer(client: Any) -> None:
    for response in [
        client.get("/"),
        client.get("/api/health"),
        client.get("/api/nothing"),
        client.post("/api/pegs/state", json={"board": "chess"}),
        client.get("/", headers={"host": "evil.example"}),
    ]:
        headers = response.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--host", "0.0.0.0"], "name the host names it may be reached by with --allow-host"),
        (["--host", "192.168.1.5"], "--allow-host NAME"),
        (["--host", "0.0.0.0", "--allow-host", "*"], "there is no name for every host"),
        (["--workers", "0"], "workers must be at least 1"),
    ],
)
def test_serve_refuses_an_open_bind_without_host_names(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardlab.cli import main

    try:
        status = main(["serve", "--port", "0", *args])
    except SystemExit as exited:  # argparse's refusals exit, the library's errors return
        status = int(str(exited.code))
    assert status == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_serve_allows_named_hosts_on_an_open_bind() -> None:
    from boardlab.web.app import allowed_hosts

    assert allowed_hosts("0.0.0.0", ("boards.lan",)) == ("boards.lan",)
    assert allowed_hosts("127.0.0.1", ()) == ()
    assert json.dumps(allowed_hosts("::1", ())) == "[]"


@pytest.mark.parametrize(
    "name",
    [
        "boardlab.core.limits",
        "boardlab.web._jobs",
        "boardlab.web._memory",
        "boardlab.web._heap",
        "boardlab.web._http",
        "boardlab.web.app",
    ],
)
def test_the_examples_in_the_docstrings_hold(name: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0
