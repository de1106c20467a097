"""Soak test: the web server (``boardlab serve``) under several clients for an hour.

Claim: an hour of several clients at once, every endpoint of the API (read from the
server's own ``/api/openapi.json`` when the run starts, so a new endpoint is covered),
legal and bad requests, long searches stopped half-way and saved games reloaded, leaves
the server as it found it:

* its resident memory is flat after the warm-up (the first sixth of the run: ten minutes
  of an hour): the last sample at most 10 % above the first one after the warm-up;
* ``GET /api/health`` answers under 100 ms at the 99th percentile in every tenth of the
  run;
* no answer is a 5xx and no request fails to connect or is cut off, but those the soak
  stops itself;
* every answer is the documented one: a bad request gets its 4xx, a search replaced by a
  newer one of its page its 409 (its 200 when it had ended before the newer one came, the
  memory cap's 422 when the server grew past it meanwhile), a saved game reloads as it
  was saved;
* at the end no search runs or waits, and the server's threads are back to their
  baseline (both counted once the server has been quiet for 11 s, when the worker threads
  of its thread pool that were idle 10 s are let go).

What each client does, in a loop until the time is up, a short pause between steps: a
legal request to any endpoint of the document (the half of its steps), a bad one
(malformed JSON, a body that is no object, a field of the wrong kind or out of its
limits, a field the API does not know, a wrong content type, a wrong method, an unknown
path), a long search stopped half-way (its client goes away after 0.3 to 2 s, or a newer
search of the same page replaces it, as the page does when a player asks again), or a
saved game reloaded (a Hex game played, saved as SGF and loaded back; an Ioiwari game
played and replayed from its moves). Two more threads time ``GET /api/health`` (four
times a second) and a short request (a two-jump peg judge, once a second). The
server's resident memory and thread count are sampled each minute (a sixtieth of the
run for shorter runs), with psutil on the server's pid.

Run: ``.venv/bin/python benchmarks/soak_web.py [--minutes 60] [--clients 4]
[--out benchmarks/results/soak/web-60min.json]``; it starts ``boardlab serve --port 0``
itself, or soaks a server already running on this machine with ``--url
http://127.0.0.1:PORT/`` (its pid found by its port, or given with ``--pid``). Exit
status 0 when the verdict is a pass, 1 when it fails, 2 for bad options.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psutil

import soak_verdict as sv

#: The goal on ``/api/health`` (milliseconds, at the 99th percentile).
HEALTH_MS = 100.0
#: Health probes and short requests per second.
HEALTH_EVERY = 0.25
SHORT_EVERY = 1.0
#: Seconds of quiet after which the server's idle worker threads are let go (anyio
#: lets a worker go once it has been idle 10 s and another request comes).
QUIET = 11.0
#: The parts of the run the health goal is checked on, each on its own.
HEALTH_PARTS = 10
#: A client's steps: what it does, and how often (weights).
STEPS = {"legal": 50, "bad": 25, "stopped": 10, "reload": 15}
SHORT_JUDGE = {"board": "english", "moves": "B4-D4\nC6-C4\n"}
PAGE_HEADER = "x-boardlab-page"
#: Long searches a client stops half-way (path, body): each would run the server's cap.
LONG_SEARCHES: list[tuple[str, dict[str, Any]]] = [
    ("/api/hex/solve", {"size": 9, "moves": [], "time": 30}),
    ("/api/hex/engine", {"size": 11, "moves": [], "time": 30}),
    ("/api/hex/analyze", {"size": 11, "moves": ["f6"], "time": 30}),
    ("/api/pegs/solve", {"board": "wiegleb", "time": 60}),
]
#: The answer of a search stopped at the server's memory cap (documented; the cap counts
#: the whole server's growth while the search runs, other searches' included).
MEMORY_STOP = 422
#: Seconds after the newer search of a page was sent within which the older one may still
#: have ended on its own (its answer on its way as the newer one arrived).
RACE = 0.1
#: The longest text or list a bad request makes one longer than its limit.
LONGEST_BAD = 100_000
#: The most unexpected answers kept, word for word, in the records.
KEEP_SURPRISES = 50


# -- what was seen -------------------------------------------------------------------------------


@dataclass(slots=True)
class Record:
    """One sample of the run: the server's process and what the clients saw since the last."""

    seconds: float
    rss: int
    rss_floor: int
    rss_peak: int
    threads: int
    threads_peak: int
    requests: int
    statuses: dict[str, int]
    health_count: int
    health_p50_ms: float | None
    health_p99_ms: float | None
    health_max_ms: float | None
    short_p50_ms: float | None
    short_p99_ms: float | None
    stopped: int
    errors: int
    surprises: int
    load: float


@dataclass(slots=True)
class Tally:
    """What the clients saw, shared by their threads (under ``lock``)."""

    started: float = field(default_factory=time.monotonic)
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    health: list[tuple[float, float]] = field(default_factory=list)
    short: list[float] = field(default_factory=list)
    steps: Counter[str] = field(default_factory=Counter)
    asked: set[str] = field(default_factory=set)
    stopped: int = 0
    errors: list[str] = field(default_factory=list)
    surprises: list[str] = field(default_factory=list)
    window: dict[str, Any] = field(default_factory=dict)

    def status(self, code: int) -> None:
        with self.lock:
            self.statuses[str(code)] += 1
            self.window.setdefault("statuses", Counter())[str(code)] += 1

    def step(self, kind: str) -> None:
        with self.lock:
            self.steps[kind] += 1

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)
            self.window["errors"] = self.window.get("errors", 0) + 1

    def surprise(self, what: str) -> None:
        with self.lock:
            if len(self.surprises) < KEEP_SURPRISES:
                self.surprises.append(what)
            self.window["surprises"] = self.window.get("surprises", 0) + 1

    def stop(self) -> None:
        with self.lock:
            self.stopped += 1
            self.window["stopped"] = self.window.get("stopped", 0) + 1

    def health_ms(self, ms: float, moment: float | None = None) -> None:
        moment = time.monotonic() if moment is None else moment
        with self.lock:
            self.health.append((moment - self.started, ms))
            self.window.setdefault("health", []).append(ms)

    def short_ms(self, ms: float) -> None:
        with self.lock:
            self.short.append(ms)
            self.window.setdefault("short", []).append(ms)

    def take_window(self) -> dict[str, Any]:
        with self.lock:
            window, self.window = self.window, {}
        return window


def _ms(value: float) -> float | None:
    """Milliseconds rounded for the records (None for no value)."""
    return None if math.isnan(value) else round(value, 2)


def sample(tally: Tally, process: psutil.Process, sizes: Sequence[tuple[int, int]]) -> Record:
    """A record of the server now (``sizes``: its resident size and threads sampled since
    the last record) and of what the clients saw since the last record."""
    window = tally.take_window()
    rss = process.memory_info().rss
    threads = process.num_threads()
    sizes = [*sizes, (rss, threads)]
    health = window.get("health", [])
    short = window.get("short", [])
    statuses = dict(sorted(window.get("statuses", Counter()).items()))
    return Record(
        seconds=round(time.monotonic() - tally.started, 1),
        rss=rss,
        rss_floor=min(size for size, _ in sizes),
        rss_peak=max(size for size, _ in sizes),
        threads=threads,
        threads_peak=max(count for _, count in sizes),
        requests=sum(statuses.values()),
        statuses=statuses,
        health_count=len(health),
        health_p50_ms=_ms(sv.percentile(health, 50)),
        health_p99_ms=_ms(sv.percentile(health, 99)),
        health_max_ms=_ms(max(health, default=math.nan)),
        short_p50_ms=_ms(sv.percentile(short, 50)),
        short_p99_ms=_ms(sv.percentile(short, 99)),
        stopped=window.get("stopped", 0),
        errors=window.get("errors", 0),
        surprises=window.get("surprises", 0),
        load=round(os.getloadavg()[0], 2),
    )


# -- requests ------------------------------------------------------------------------------------


class Api:
    """The endpoints of the server's OpenAPI document and how to make their requests."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.schemas: dict[str, Any] = spec["components"]["schemas"]
        self.gets: list[str] = []
        self.posts: dict[str, dict[str, Any]] = {}
        for path, operations in spec["paths"].items():
            if path in ("/api/openapi.json", "/api/docs"):
                continue
            if "get" in operations:
                self.gets.append(path)
            if "post" in operations:
                body = operations["post"].get("requestBody", {})
                ref = body.get("content", {}).get("application/json", {}).get("schema", {})
                name = ref.get("$ref", "").rsplit("/", 1)[-1]
                self.posts[path] = self.schemas.get(name, {"properties": {}})
        self.saved: dict[str, Any] = {}  # answers the recipes reuse (samples, saved games)

    def paths(self) -> list[tuple[str, str]]:
        return [("GET", path) for path in self.gets] + [("POST", path) for path in self.posts]

    def legal(self, path: str, rng: random.Random) -> dict[str, Any]:
        """A legal body for ``path``: the recipe of a known endpoint, else the schema's
        defaults with the least of each required field."""
        recipe = RECIPES.get(path)
        if recipe is not None:
            return recipe(rng, self.saved)
        schema = self.posts[path]
        return {
            name: least(prop)
            for name, prop in schema["properties"].items()
            if name in schema.get("required", [])
        }


def plain(prop: dict[str, Any]) -> dict[str, Any]:
    """A property's schema without its ``null`` choice."""
    for choice in prop.get("anyOf", []):
        if choice.get("type") != "null":
            return dict(choice)
    return prop


def least(prop: dict[str, Any]) -> Any:
    """The least value of a property's kind within its limits."""
    prop = plain(prop)
    kind = prop.get("type")
    if kind in ("integer", "number"):
        return prop.get("minimum", 0)
    if kind == "array":
        return [least(prop.get("items", {}))] * prop.get("minItems", 0)
    if kind == "boolean":
        return False
    if kind == "object":
        return {}
    return ""


def out_of_limits(prop: dict[str, Any]) -> tuple[Any, int] | None:
    """A value just past a property's limits and the status it must get (400 for a
    number, 413 for a text or list too long), or None when it has no limit to pass."""
    prop = plain(prop)
    kind = prop.get("type")
    if kind in ("integer", "number") and "maximum" in prop:
        return prop["maximum"] + 1, 400
    if kind in ("integer", "number") and "minimum" in prop:
        return prop["minimum"] - 1, 400
    if kind == "string" and prop.get("maxLength", LONGEST_BAD) < LONGEST_BAD:
        return "x" * (prop["maxLength"] + 1), 413
    if kind == "array" and prop.get("maxItems", LONGEST_BAD) < LONGEST_BAD:
        return [least(prop.get("items", {}))] * (prop["maxItems"] + 1), 413
    return None


def hex_game(rng: random.Random, size: int, stones: int) -> list[str]:
    """``stones`` distinct random cells of a ``size`` board (too few for a win)."""
    cells = [f"{chr(ord('a') + col)}{row + 1}" for row in range(size) for col in range(size)]
    return rng.sample(cells, stones)


def _hex_move(rng: random.Random, saved: dict[str, Any]) -> dict[str, Any]:
    size = rng.randint(5, 7)
    moves = hex_game(rng, size, rng.randint(1, 5))
    return {"size": size, "moves": moves[:-1], "move": moves[-1]}


def _hex_search(rng: random.Random, saved: dict[str, Any]) -> dict[str, Any]:
    size = rng.randint(5, 7)
    body = {"size": size, "moves": hex_game(rng, size, rng.randint(0, 4))}
    return body | {"playouts": rng.choice([50, 100, 200]), "seed": rng.randrange(1000)}


def _ioiwari(rng: random.Random, saved: dict[str, Any]) -> dict[str, Any]:
    game = saved.get("ioiwari")
    if game is not None and rng.random() < 0.5:
        return {"seed": game["seed"], "moves": game["moves"]}
    return {"seed": rng.randrange(1000)}


def _ioiwari_move(rng: random.Random, saved: dict[str, Any]) -> dict[str, Any]:
    game = saved.get("ioiwari") or {"seed": 0, "moves": [], "legal": [1]}
    return {"seed": game["seed"], "moves": game["moves"], "move": rng.choice(game["legal"])}


RECIPES: dict[str, Callable[[random.Random, dict[str, Any]], dict[str, Any]]] = {
    "/api/pegs/state": lambda r, s: {"board": r.choice(["english", "french", "triangle-5"])},
    "/api/pegs/move": lambda r, s: {"board": "english", "move": r.choice(["B4-D4", "D2-D4"])},
    "/api/pegs/hint": lambda r, s: {"board": r.choice(["triangle-5", "english"]), "time": 0.5},
    "/api/pegs/solve": lambda r, s: {"board": r.choice(["triangle-5", "triangle-6"]), "time": 1},
    "/api/pegs/judge": lambda r, s: dict(SHORT_JUDGE),
    "/api/pegs/classes": lambda r, s: {"board": r.choice(["english", "triangle-5"])},
    "/api/hiq/run": lambda r, s: {"input": s["hiq"]},
    "/api/hex/state": lambda r, s: {"size": 6, "moves": hex_game(r, 6, r.randint(0, 6))},
    "/api/hex/move": _hex_move,
    "/api/hex/engine": _hex_search,
    "/api/hex/analyze": _hex_search,
    "/api/hex/solve": lambda r, s: {"size": 4, "moves": hex_game(r, 4, r.randint(0, 3)), "time": 2},
    "/api/hex/review": lambda r, s: {"size": 5, "moves": hex_game(r, 5, 4), "playouts": 50},
    "/api/hex/sgf": lambda r, s: {"size": 6, "moves": hex_game(r, 6, r.randint(0, 6))},
    "/api/hex/load": lambda r, s: {"sgf": s["sgf"]},
    "/api/ioiwari/start": lambda r, s: {"seed": r.randrange(1000)},
    "/api/ioiwari/review": _ioiwari,
    "/api/ioiwari/state": _ioiwari,
    "/api/ioiwari/move": _ioiwari_move,
    "/api/ioiwari/engine": _ioiwari,
    "/api/ioiwari/analyze": _ioiwari,
    "/api/mars/solve": lambda r, s: {"map": s["mars"]["map"]},
    "/api/mars/judge": lambda r, s: dict(s["mars"]),
    "/api/shongololo/solve": lambda r, s: {"input": "2\n3\n2\n", "time": 0.5},
    "/api/shongololo/judge": lambda r, s: {"input": "2 3 2", "answer": "E 1 1 1\nE 2 2 2\n"},
}


class Client:
    """One client: an HTTP connection of its own and a loop of steps until ``done``."""

    def __init__(self, url: str, api: Api, tally: Tally, seed: int, pause: float) -> None:
        self.url = url
        self.api = api
        self.tally = tally
        self.rng = random.Random(seed)
        self.pause = pause
        self.http = httpx.Client(base_url=url, timeout=httpx.Timeout(60.0))

    def send(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        content: bytes | None = None,
        headers: dict[str, str] | None = None,
        timeout: float | None = None,
        http: httpx.Client | None = None,
    ) -> httpx.Response | None:
        """One request; its status tallied (a transport failure is an error, a timeout
        the caller asked for is a stopped search). None when no answer came."""
        options: dict[str, Any] = {"headers": headers}
        if content is not None:
            options["content"] = content
        elif body is not None:
            options["json"] = body
        if timeout is not None:
            options["timeout"] = timeout
        try:
            answer = (http or self.http).request(method, path, **options)
        except httpx.TimeoutException:
            if timeout is not None and timeout < 30:  # 30 s is the server's cap on a search
                self.tally.stop()
            else:
                self.tally.error(f"{method} {path}: no answer in time")
            return None
        except httpx.HTTPError as exc:
            self.tally.error(f"{method} {path}: {type(exc).__name__}: {exc}")
            return None
        self.tally.status(answer.status_code)
        return answer

    def expect(self, answer: httpx.Response | None, statuses: Sequence[int], what: str) -> None:
        if answer is not None and answer.status_code not in statuses:
            text = answer.text[:160].replace("\n", " ")
            self.tally.surprise(f"{what}: {answer.status_code} ({text}), expected {statuses}")

    def run(self, done: threading.Event) -> None:
        kinds = list(STEPS)
        weights = list(STEPS.values())
        try:
            while not done.is_set():
                kind = self.rng.choices(kinds, weights)[0]
                self.tally.step(kind)
                try:
                    getattr(self, kind)()
                except (ValueError, KeyError, TypeError, IndexError) as exc:  # an odd answer
                    self.tally.error(f"a {kind} step: {type(exc).__name__}: {exc}")
                done.wait(self.rng.uniform(0, 2 * self.pause))
        finally:
            self.http.close()

    def legal(self) -> None:
        method, path = self.rng.choice(self.api.paths())
        self.tally.asked.add(f"{method} {path}")
        if method == "GET":
            answer = self.send("GET", path)
        else:
            answer = self.send("POST", path, self.api.legal(path, self.rng))
        expected = [200, 422] if path in ("/api/hex/move", "/api/ioiwari/move") else [200]
        if path not in RECIPES and method == "POST":
            expected = [200, 400, 413, 422]  # an endpoint the soak has no recipe for yet
        self.expect(answer, expected, f"legal {method} {path}")

    def bad(self) -> None:
        rng = self.rng
        path = rng.choice(list(self.api.posts))
        schema = self.api.posts[path]
        kind = rng.choice(
            ["json", "not-object", "kind", "limits", "unknown", "type", "method", "path"]
        )
        json_type = {"content-type": "application/json"}
        if kind == "json":
            answer = self.send("POST", path, content=b'{"size": 5, "moves": [', headers=json_type)
            self.expect(answer, [400], f"malformed JSON to {path}")
        elif kind == "not-object":
            answer = self.send("POST", path, content=b"[1, 2, 3]", headers=json_type)
            self.expect(answer, [400], f"a list to {path}")
        elif kind == "type":
            raw = json.dumps(self.api.legal(path, rng)).encode()
            answer = self.send("POST", path, content=raw, headers={"content-type": "text/plain"})
            self.expect(answer, [415], f"text/plain to {path}")
        elif kind == "method":
            self.expect(self.send("GET", path), [405], f"GET {path}")
        elif kind == "path":
            self.expect(self.send("POST", "/api/soak/nowhere", {}), [404], "an unknown path")
        elif kind == "unknown":
            body = self.api.legal(path, rng) | {"soak_unknown_field": [1, {"a": None}]}
            answer = self.send("POST", path, body)
            self.expect(
                answer,
                [400] if path in RECIPES else [400, 413, 422],
                f"an unknown field to {path}",
            )
        else:
            names = list(schema["properties"])
            if not names:
                return
            name = rng.choice(names)
            body = self.api.legal(path, rng)
            passed = out_of_limits(schema["properties"][name]) if kind == "limits" else None
            if passed is None:
                body[name] = {"nested": [1]}
                self.expect(
                    self.send("POST", path, body), [400], f"{name} of a wrong kind to {path}"
                )
            else:
                body[name], status = passed
                self.expect(
                    self.send("POST", path, body), [status], f"{name} out of limits to {path}"
                )

    def stopped(self) -> None:
        path, body = self.rng.choice(LONG_SEARCHES)
        if self.rng.random() < 0.5:  # the client goes away half-way
            self.send("POST", path, body, timeout=self.rng.uniform(0.3, 2.0))
            return
        # a newer search of the same page replaces it, as the page does
        page = {PAGE_HEADER: f"soak-{uuid.uuid4().hex[:12]}"}
        first: list[tuple[httpx.Response | None, float]] = []

        def ask_older(other: httpx.Client) -> None:
            answer = self.send("POST", path, body, headers=page, http=other)
            first.append((answer, time.monotonic()))

        with httpx.Client(base_url=self.url, timeout=60.0) as other:
            older = threading.Thread(target=ask_older, args=(other,))
            older.start()
            time.sleep(self.rng.uniform(0.3, 1.5))
            sent = time.monotonic()
            newer = self.send("POST", "/api/hex/engine", {"size": 5, "playouts": 100}, headers=page)
            older.join()
        self.expect(newer, [200], "the newer search of a page")
        answer, answered = first[0] if first else (None, sent)
        if answered <= sent:  # it found its answer before the newer one was sent
            self.expect(answer, [200, MEMORY_STOP], f"a search {path} done before")
        elif answered - sent < RACE:  # its search may have ended as the newer one came
            self.expect(answer, [200, 409, MEMORY_STOP], f"a search {path} done as replaced")
        else:
            self.expect(answer, [409, MEMORY_STOP], f"a replaced search {path}")

    def reload(self) -> None:
        if self.rng.random() < 0.5:
            self.reload_hex()
        else:
            self.reload_ioiwari()

    def reload_hex(self) -> None:
        size = self.rng.randint(5, 7)
        moves: list[str] = []
        for _ in range(self.rng.randint(1, 8)):
            state = self.send(
                "POST",
                "/api/hex/move",
                {"size": size, "moves": moves, "move": self.rng.choice(legal_hex(size, moves))},
            )
            if state is None or state.status_code != 200:
                self.expect(state, [200], "a Hex move")
                return
            moves = state.json()["moves"]
            if state.json()["winner"] is not None:
                break
        saved = self.send("POST", "/api/hex/sgf", {"size": size, "moves": moves})
        if saved is None or saved.status_code != 200:
            self.expect(saved, [200], "a Hex game saved")
            return
        self.api.saved["sgf"] = saved.json()["sgf"]
        loaded = self.send("POST", "/api/hex/load", {"sgf": saved.json()["sgf"]})
        self.expect(loaded, [200], "a Hex game loaded")
        if loaded is not None and loaded.status_code == 200 and loaded.json()["moves"] != moves:
            self.tally.surprise(f"a Hex game reloaded as {loaded.json()['moves']}, saved {moves}")

    def reload_ioiwari(self) -> None:
        seed = self.rng.randrange(1000)
        game = self.send("POST", "/api/ioiwari/start", {"seed": seed})
        for _ in range(self.rng.randint(1, 8)):
            if game is None or game.status_code != 200 or game.json()["over"]:
                break
            last = game.json()
            move = self.rng.choice(last["legal"])
            game = self.send(
                "POST", "/api/ioiwari/move", {"seed": seed, "moves": last["moves"], "move": move}
            )
        if game is None or game.status_code != 200:
            self.expect(game, [200], "an Ioiwari move")
            return
        played = game.json()
        if not played["over"]:  # the recipes play on from it
            self.api.saved["ioiwari"] = {
                "seed": seed,
                "moves": played["moves"],
                "legal": played["legal"],
            }
        again = self.send("POST", "/api/ioiwari/state", {"seed": seed, "moves": played["moves"]})
        self.expect(again, [200], "an Ioiwari game reloaded")
        if (
            again is not None
            and again.status_code == 200
            and again.json()["position"] != played["position"]
        ):
            self.tally.surprise(f"an Ioiwari game reloaded as {again.json()['position']}")
        review = self.send("POST", "/api/ioiwari/review", {"seed": seed, "moves": played["moves"]})
        self.expect(review, [200], "an Ioiwari game reviewed")


def legal_hex(size: int, moves: Sequence[str]) -> list[str]:
    taken = set(moves)
    return [c for c in hex_game(random.Random(0), size, size * size) if c not in taken]


def probe(url: str, found: Any, go: Any, done: Any, short: bool) -> None:
    """Time ``GET /api/health`` (or the short request) until ``done``; each answer put in
    the queue ``found`` as (kind, moment, milliseconds, status), a failure as (error, text)."""
    every = SHORT_EVERY if short else HEALTH_EVERY
    kind = "short" if short else "health"
    with httpx.Client(base_url=url, timeout=30.0) as http:
        go.wait()
        while not done.is_set():
            started = time.monotonic()
            try:
                if short:
                    answer = http.post("/api/pegs/judge", json=SHORT_JUDGE)
                else:
                    answer = http.get("/api/health")
            except httpx.HTTPError as exc:
                found.put(("error", f"{kind}: {type(exc).__name__}: {exc}"))
            else:
                ms = (time.monotonic() - started) * 1000
                found.put((kind, started, ms, answer.status_code))
            done.wait(max(0.0, every - (time.monotonic() - started)))


def probes(url: str, found: Any, go: Any, done: Any) -> None:
    """The probes' process (apart from the clients, so that their work does not hold up
    the timing): a ready mark, then once ``go`` is set both probes until ``done``, then
    an end mark."""
    threads = [
        threading.Thread(target=probe, args=(url, found, go, done, s)) for s in (False, True)
    ]
    for thread in threads:
        thread.start()
    found.put(("ready",))
    for thread in threads:
        thread.join()
    found.put(("end",))


def collect(found: Any, tally: Tally) -> None:
    """Move what the probes' process found into the tally, until its end mark."""
    while True:
        item = found.get()
        if item[0] == "end":
            return
        if item[0] == "ready":
            continue
        if item[0] == "error":
            tally.error(item[1])
            continue
        kind, moment, ms, status = item
        tally.status(status)
        if kind == "health":
            tally.health_ms(ms, moment)
        else:
            tally.short_ms(ms)


# -- the server ----------------------------------------------------------------------------------


def start_server(workers: int | None, log: Path) -> tuple[subprocess.Popen[str], str]:
    """``boardlab serve --port 0`` in a fresh process (its log in ``log``); its URL."""
    extra = [] if workers is None else ["--workers", str(workers)]
    with log.open("w") as errors:
        process = subprocess.Popen(
            [sys.executable, "-m", "boardlab", "serve", "--port", "0", *extra],
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
        )
    assert process.stdout is not None
    match = re.search(r"http://127\.0\.0\.1:[0-9]+/", process.stdout.readline())
    if match is None:
        process.kill()
        process.wait()
        raise SystemExit(f"soak_web: the server did not start (see {log})")
    threading.Thread(target=process.stdout.read, daemon=True).start()  # drain it
    return process, match.group(0)


def server_pid(url: str) -> int | None:
    """The pid of the process listening on the port of ``url`` on this machine."""
    port = urlsplit(url).port
    for connection in psutil.net_connections(kind="tcp"):
        address = connection.laddr  # an empty tuple for a socket bound to no address
        if connection.status == psutil.CONN_LISTEN and address and address.port == port:
            return connection.pid
    return None


def quiet_threads(http: httpx.Client, process: psutil.Process, quiet: float) -> int:
    """The server's threads once it has been quiet ``quiet`` seconds and one request has
    come since (which lets go the idle workers of its thread pool)."""
    time.sleep(quiet)
    http.post("/api/hex/state", json={"size": 3, "moves": []})
    time.sleep(0.5)
    return process.num_threads()


#: How long one priming request may take (it compiles what its search compiles).
PRIME_SECONDS = 900.0


def prime(http: httpx.Client, api: Api) -> list[tuple[str, int]]:
    """Fetch the samples the recipes use and ask every endpoint once (compiling what the
    searches compile on first use, before the clock starts); each request and its status."""
    api.saved["hiq"] = http.get("/api/hiq/sample").json()["input"]
    api.saved["mars"] = http.get("/api/mars/sample").json()
    answer = http.post("/api/hex/sgf", json={"size": 5, "moves": ["c3", "b2"]})
    api.saved["sgf"] = answer.json()["sgf"]
    rng = random.Random(0)
    asked = []
    for method, path in api.paths():
        body = None if method == "GET" else api.legal(path, rng)
        try:  # a cold numba cache compiles on first use: minutes on a loaded machine
            answer = http.request(method, path, json=body, timeout=PRIME_SECONDS)
        except httpx.TimeoutException:
            raise SystemExit(
                f"soak_web: {method} {path} gave no answer within {PRIME_SECONDS:.0f} s "
                "while priming the server"
            ) from None
        asked.append((f"{method} {path}", answer.status_code))
    for path, body in LONG_SEARCHES:  # started and stopped, as the clients do
        with contextlib.suppress(httpx.TimeoutException):
            http.post(path, json=body, timeout=2.0)
    deadline = time.monotonic() + 60
    while http.get("/api/health").json().get("running") and time.monotonic() < deadline:
        time.sleep(0.2)
    return asked


# -- the verdict ---------------------------------------------------------------------------------


def health_parts(health: Sequence[tuple[float, float]], parts: int = HEALTH_PARTS) -> list[float]:
    """The 99th percentile of the health latencies in each of ``parts`` equal parts of
    the run (a part without any is left out: a probe that waited long counts in the part
    where it started)."""
    if not health:
        return []
    end = max(moment for moment, _ in health) or 1.0
    split: list[list[float]] = [[] for _ in range(parts)]
    for moment, ms in health:
        split[min(parts - 1, int(moment / end * parts))].append(ms)
    return [sv.percentile(part, 99) for part in split if part]


def judge(
    records: Sequence[Record],
    health: Sequence[tuple[float, float]],
    end: dict[str, Any],
    errors: Sequence[str],
    surprises: int,
) -> list[sv.Check]:
    """The checks of a run: its records, its health latencies (seconds into the run,
    milliseconds), the state of the server at the end, the transport failures and the
    count of unexpected answers."""
    checks = [
        sv.flat_memory(
            "server memory flat after the warm-up (its floor in each sample)",
            [r.rss_floor for r in records],
        )
    ]
    p99s = health_parts(health)
    worst = max(p99s, default=float("nan"))
    checks.append(
        sv.Check(
            f"/api/health under {HEALTH_MS:.0f} ms at the 99th percentile throughout",
            bool(p99s) and all(p < HEALTH_MS for p in p99s),
            f"{len(health)} probes; p99 by tenth of the run: "
            + " ".join(f"{p:.1f}" for p in p99s)
            + f" ms (worst {worst:.1f}); load average at most "
            + f"{max((r.load for r in records), default=0):.1f}",
        )
    )
    statuses: Counter[str] = Counter()
    for record in records:
        statuses.update(record.statuses)
    fives = sum(n for code, n in statuses.items() if code.startswith("5"))
    checks.append(
        sv.Check(
            "no 5xx",
            fives == 0,
            f"{sum(statuses.values())} answers: "
            + ", ".join(f"{code}: {n}" for code, n in sorted(statuses.items())),
        )
    )
    checks.append(
        sv.Check(
            "no request cut off or refused",
            not errors,
            f"{len(errors)}" + (f", first: {errors[0]}" if errors else ""),
        )
    )
    checks.append(sv.Check("every answer as documented", surprises == 0, f"{surprises} otherwise"))
    checks.append(
        sv.Check(
            "no search left running or waiting at the end",
            end.get("running") == 0 and end.get("queued") == 0,
            f"running {end.get('running')}, waiting {end.get('queued')} "
            f"({end.get('waited', 0):.1f} s after the clients stopped)",
        )
    )
    checks.append(
        sv.Check(
            "server threads back to their baseline",
            end.get("threads") is not None and end["threads"] <= end.get("baseline_threads", -1),
            f"{end.get('threads')} at the end, {end.get('baseline_threads')} at the start "
            f"(both after {end.get('quiet', QUIET):g} s quiet)",
        )
    )
    return checks


# -- the run -------------------------------------------------------------------------------------


def options(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=60.0, help="length of the run (60)")
    parser.add_argument("--clients", type=int, default=4, help="clients at once (4)")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.1,
        help="a client's mean pause between steps, seconds (0.1)",
    )
    parser.add_argument(
        "--every",
        type=float,
        default=None,
        help="seconds between samples (a sixtieth of the run, at least 1)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="the server's search slots (its default: one per core)",
    )
    parser.add_argument(
        "--url", default=None, help="soak a server already running at http://127.0.0.1:PORT/"
    )
    parser.add_argument("--pid", type=int, default=None, help="that server's pid")
    parser.add_argument("--seed", type=int, default=0, help="the clients' seed (0)")
    parser.add_argument(
        "--quiet",
        type=float,
        default=QUIET,
        help="seconds of quiet before the server's threads are counted, at the start and "
        f"at the end ({QUIET:g}: its idle worker threads are let go after 10 s)",
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=45.0,
        help="seconds the searches may take to stop at the end (45)",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="write the records as JSON there (e.g. benchmarks/results/soak/)",
    )
    args = parser.parse_args(argv)
    if not args.minutes > 0 or not 1 <= args.clients <= 32 or min(args.pause, args.quiet) < 0:
        parser.error("--minutes must be over 0, --clients 1 to 32, --pause and --quiet at least 0")
    if args.every is not None and not args.every > 0:
        parser.error("--every must be over 0")
    if args.url is not None:
        parts = urlsplit(args.url)
        if parts.scheme != "http" or parts.hostname not in ("127.0.0.1", "localhost", "::1"):
            parser.error("--url must be a server on this machine, http://127.0.0.1:PORT/")
    elif args.pid is not None:
        parser.error("--pid goes with --url")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = options(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    seconds = args.minutes * 60
    every = args.every or max(1.0, seconds / 60)
    folder = tempfile.TemporaryDirectory(prefix="soak-web-")
    log = Path(folder.name) / "server.log"
    server: subprocess.Popen[str] | None = None
    if args.url is None:
        server, url = start_server(args.workers, log)
        pid = server.pid
    else:
        url = args.url.rstrip("/") + "/"
        found = args.pid or server_pid(url)
        if found is None:
            print("soak_web: no process listens on that port here; give --pid", file=sys.stderr)
            return 2
        pid = found
    try:
        process = psutil.Process(pid)
        return soak(args, url, process, seconds, every, log if server else None)
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        folder.cleanup()


def soak(
    args: argparse.Namespace,
    url: str,
    process: psutil.Process,
    seconds: float,
    every: float,
    log: Path | None,
) -> int:
    http = httpx.Client(base_url=url, timeout=60.0)
    spec = http.get("/api/openapi.json").json()
    api = Api(spec)
    print(
        f"soak_web: {url}, pid {process.pid}, {len(api.paths())} endpoints, "
        f"{args.clients} clients, {args.minutes:g} min, a sample every {every:g} s",
        flush=True,
    )
    context = multiprocessing.get_context("spawn")
    found, go, probes_done = context.Queue(), context.Event(), context.Event()
    prober = context.Process(target=probes, args=(url, found, go, probes_done), daemon=True)
    prober.start()  # it starts while the endpoints are primed, and waits for go
    try:
        return soak_primed(
            args, http, api, process, seconds, every, log, (prober, found, go, probes_done)
        )
    finally:
        go.set()
        probes_done.set()
        prober.join(60)
        http.close()


def soak_primed(
    args: argparse.Namespace,
    http: httpx.Client,
    api: Api,
    process: psutil.Process,
    seconds: float,
    every: float,
    log: Path | None,
    probing: tuple[Any, Any, Any, Any],
) -> int:
    prober, found, go, probes_done = probing
    primed = prime(http, api)
    baseline = quiet_threads(http, process, args.quiet)
    if found.get(timeout=120)[0] != "ready":
        raise SystemExit("soak_web: the probes did not start")
    tally = Tally()
    for what, status in primed:
        tally.status(status)
        if status != 200:
            tally.surprise(f"{what} answered {status} when the run started")
    done = threading.Event()
    workers = [
        threading.Thread(
            target=Client(str(http.base_url), api, tally, args.seed * 1000 + n, args.pause).run,
            args=(done,),
            name=f"client-{n}",
        )
        for n in range(args.clients)
    ]
    workers.append(threading.Thread(target=collect, args=(found, tally)))
    records = [sample(tally, process, [])]
    go.set()
    for worker in workers:
        worker.start()
    try:
        run(tally, process, records, seconds, every)
    finally:
        done.set()
        probes_done.set()
        prober.join(60)
        for worker in workers:
            worker.join(90)
    if process.is_running():
        records.append(sample(tally, process, []))  # what came after the last sample
    end = finish(http, process, args.settle, baseline, args.quiet)
    checks = judge(records, tally.health, end, tally.errors, sum(r.surprises for r in records))
    text = sv.report(
        f"soak_web: {args.minutes:g} min, steps {dict(tally.steps)}, "
        f"{len(tally.asked)} of {len(api.paths())} endpoints asked at random "
        f"(every one when the run started), {tally.stopped} searches stopped by their clients",
        checks,
    )
    print(text)
    for what in tally.surprises[:10]:
        print(f"  unexpected: {what}")
    for what in tally.errors[:10]:
        print(f"  failed: {what}")
    if log is not None and any(not c.passed for c in checks):
        tail = log.read_text(errors="replace")[-2000:]
        if tail:
            print("the server's log ends:\n" + tail)
    if args.out is not None:
        sv.save(
            args.out,
            args,
            records,
            checks,
            end=end,
            steps=dict(tally.steps),
            stopped=tally.stopped,
            errors=tally.errors[:KEEP_SURPRISES],
            surprises=tally.surprises,
        )
        print(f"records written to {args.out}")
    return 0 if sv.verdict(checks) else 1


def run(
    tally: Tally, process: psutil.Process, records: list[Record], seconds: float, every: float
) -> None:
    """Sample the server each second (ten times in ``every`` seconds, if that is more
    often) and add a record each ``every`` seconds, until the time is up or the server is
    gone."""
    deadline = tally.started + seconds
    next_record = tally.started + every
    sizes: list[tuple[int, int]] = []
    while (now := time.monotonic()) < deadline:
        time.sleep(max(0.0, min(1.0, every / 10, next_record - now, deadline - now)))
        if not process.is_running():
            tally.error("the server exited")
            return
        if time.monotonic() < min(next_record, deadline) - 0.01:
            sizes.append((process.memory_info().rss, process.num_threads()))
            continue
        records.append(sample(tally, process, sizes))
        sizes = []
        next_record += every
        last = records[-1]
        print(
            f"  {last.seconds:7.1f} s  {last.rss_floor / 2**20:7.1f} to "
            f"{last.rss_peak / 2**20:7.1f} MiB  {last.threads:3d} threads  "
            f"{last.requests:5d} answers  health p99 {last.health_p99_ms} ms",
            flush=True,
        )


def finish(
    http: httpx.Client, process: psutil.Process, settle: float, baseline: int, quiet: float
) -> dict[str, Any]:
    """Wait up to ``settle`` seconds for every search to stop; the server's state then
    (its threads once it has been quiet ``quiet`` seconds)."""
    started = time.perf_counter()
    end: dict[str, Any] = {"baseline_threads": baseline}
    while True:
        with contextlib.suppress(httpx.HTTPError, KeyError):
            health = http.get("/api/health").json()
            end |= {"running": health["running"], "queued": health["queued"]}
        waited = time.perf_counter() - started
        if (end.get("running") == 0 and end.get("queued") == 0) or waited > settle:
            break
        time.sleep(0.5)
    end["waited"] = round(waited, 1)
    end["quiet"] = quiet
    end["threads"] = quiet_threads(http, process, quiet) if process.is_running() else None
    end["rss"] = process.memory_info().rss if process.is_running() else None
    return end


if __name__ == "__main__":
    sys.exit(main())
