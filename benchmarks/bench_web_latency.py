"""Benchmark: the web server stays responsive while searches run (issue 18).

Claim: while four slow searches run, ``GET /api/health`` and a small ``POST
/api/pegs/judge`` answer in under 100 ms; a search whose client went away stops, so a
30-playout engine move does not wait behind abandoned solves.

It starts ``boardlab serve --port 0`` in a fresh process on 127.0.0.1 and measures, in
the same run, each endpoint's latency (sequential requests on one keep-alive
connection):

* on the idle server (the peer);
* while four slow searches run (two 9 x 9 Hex solves, an 11 x 11 Hex engine move and a
  Wiegleb peg solve, ``--seconds`` each; with one slot per core the rest wait);
* while the same four run and a 200,000-line peg judge is answered beside them;

and then the time of a 30-playout Hex engine move right after three 9 x 9 solves were
abandoned by their clients (which disconnect after 0.5 s).

Run: ``.venv/bin/python benchmarks/bench_web_latency.py [--requests N] [--seconds S]``
(about 40 s with the defaults).
"""

from __future__ import annotations

import argparse
import contextlib
import re
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

import httpx

SLOW_SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("hex/solve", {"size": 9, "moves": []}),
    ("hex/solve", {"size": 9, "moves": ["e5"]}),
    ("hex/engine", {"size": 11, "moves": []}),
    ("pegs/solve", {"board": "wiegleb"}),
]
SMALL_JUDGE = {"board": "english", "moves": "B4-D4\nC6-C4\n"}
BIG_JUDGE = {"board": "english", "moves": "B4-D4\n" * 200_000}
ABANDON_AFTER = 0.5
LIMIT_MS = 100.0


def start_server(workers: int | None) -> tuple[subprocess.Popen[str], str]:
    """``boardlab serve --port 0`` in a fresh process; its base URL."""
    extra = [] if workers is None else ["--workers", str(workers)]
    process = subprocess.Popen(
        [sys.executable, "-m", "boardlab", "serve", "--port", "0", *extra],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    match = re.search(r"http://127\.0\.0\.1:[0-9]+", process.stdout.readline())
    if match is None:
        process.terminate()
        raise SystemExit("the server did not start")
    return process, match.group(0)


def latencies(client: httpx.Client, path: str, body: object | None, count: int) -> list[float]:
    """Milliseconds of ``count`` sequential requests (GET without a body)."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        answer = client.get(path) if body is None else client.post(path, json=body)
        times.append((time.perf_counter() - started) * 1000)
        answer.raise_for_status()
    return times


def in_background(url: str, path: str, body: object, timeout: float) -> threading.Thread:
    """Send one request from a thread (its answer, or its timeout, is ignored)."""

    def send() -> None:
        with contextlib.suppress(httpx.TimeoutException):
            httpx.post(f"{url}/api/{path}", json=body, timeout=timeout)

    thread = threading.Thread(target=send, daemon=True)
    thread.start()
    return thread


def row(scenario: str, endpoint: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[max(0, round(0.9 * len(ordered)) - 1)]
    ok = "yes" if ordered[-1] < LIMIT_MS else "NO"
    return (
        f"{scenario:<34} {endpoint:<12} {len(times):>3} {statistics.median(times):>9.1f} "
        f"{p90:>8.1f} {ordered[-1]:>8.1f}  {ok}"
    )


def measure(url: str, count: int, seconds: float) -> None:
    print(
        f"{'scenario':<34} {'endpoint':<12} {'n':>3} {'median ms':>9} {'p90 ms':>8} "
        f"{'max ms':>8}  <{LIMIT_MS:.0f} ms"
    )
    print("-" * 92)
    with httpx.Client(base_url=url, timeout=60) as client:
        latencies(client, "/api/health", None, 3)  # warm the connection and the imports
        latencies(client, "/api/pegs/judge", SMALL_JUDGE, 3)
        for path, body in SLOW_SEARCHES:  # warm the kernels (numba cache) with tiny limits
            client.post(f"/api/{path}", json={**body, "time": 0.1})

        def both(scenario: str) -> None:
            print(row(scenario, "health", latencies(client, "/api/health", None, count)))
            print(
                row(
                    scenario, "pegs/judge", latencies(client, "/api/pegs/judge", SMALL_JUDGE, count)
                )
            )

        both("idle server (peer)")
        searches = [
            in_background(url, path, {**body, "time": seconds}, seconds + 60)
            for path, body in SLOW_SEARCHES
        ]
        time.sleep(0.5)  # let them start
        both("4 slow searches running")
        judge = in_background(url, "pegs/judge", BIG_JUDGE, 120)
        time.sleep(0.2)
        both("4 searches + 200,000-line judge")
        for thread in [*searches, judge]:
            thread.join()

        abandoned = [
            in_background(url, "hex/solve", {"size": 9, "moves": [], "time": 30}, ABANDON_AFTER)
            for _ in range(3)
        ]
        for thread in abandoned:
            thread.join()
        started = time.perf_counter()
        move = client.post("/api/hex/engine", json={"size": 9, "moves": [], "playouts": 30})
        move.raise_for_status()
        waited = time.perf_counter() - started
    print(
        f"\n30-playout Hex engine move right after 3 abandoned 9 x 9 solves "
        f"(clients gone after {ABANDON_AFTER} s): {waited * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20, help="requests per row (20)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each slow search (10 s)")
    parser.add_argument("--workers", type=int, default=None, help="server slots (one per core)")
    args = parser.parse_args()
    process, url = start_server(args.workers)
    try:
        print(f"python {sys.version.split()[0]}; server {url} (boardlab serve --port 0)\n")
        measure(url, args.requests, args.seconds)
    finally:
        process.terminate()
        process.wait(timeout=10)


if __name__ == "__main__":
    main()
