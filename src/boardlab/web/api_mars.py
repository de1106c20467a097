"""Interface layer: the Mars explorer API under ``/api/mars/`` (sample, solve, judge).

``map`` is the text of a MARS.DAT file (vehicles, P, Q, then Q rows of P cells);
``moves`` the text of an answer (one ``VEHICLE DIRECTION`` line per step). ``solve``
runs the optimal solver :func:`boardlab.mars.solver.solve` and draws its routes with
:func:`boardlab.render.mars.svg_routes`; ``judge`` scores an answer with
:func:`boardlab.mars.judge.judge` (the best possible score comes from the solver) and
draws the routes the answer's vehicles took.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from boardlab.web._http import Obj, endpoint, read_request, run_job
from boardlab.web.answers_games import MarsJudged, MarsSample, MarsSolved
from boardlab.web.schemas import MARS_MAX_MAP, MARS_MAX_MOVES, MarsJudge, MarsMap

__all__ = ["routes"]

MAX_MAP = MARS_MAX_MAP
MAX_MOVES = MARS_MAX_MOVES
MAX_ROUTES_DRAWN = 200
MAX_MOVES_RETURNED = 200_000


def sample(request: Request) -> Obj:
    """``GET /api/mars/sample``: the statement's map and its (restored) sample answer."""
    from boardlab.mars.formats import SAMPLE_MAP, SAMPLE_MOVES

    return {"map": SAMPLE_MAP, "moves": SAMPLE_MOVES}


def solve(request: Request) -> Obj:
    """``POST /api/mars/solve``: optimal routes, the best score and its proof, the picture."""
    from boardlab.mars.formats import parse_map
    from boardlab.mars.solver import solve as solve_map
    from boardlab.render.mars import svg_routes

    mars = parse_map(read_request(request, MarsMap).map, source="map")
    solution = run_job(request, lambda: solve_map(mars))
    moves = solution.moves_text()
    drawn = [route.directions for route in solution.routes[:MAX_ROUTES_DRAWN]]
    return {
        **solution.as_dict(),
        "moves": moves if len(moves) <= MAX_MOVES_RETURNED else None,
        "svg": svg_routes(mars, drawn, title="Mars explorer: optimal routes"),
    }


def _answer_routes(moves_text: str, vehicles: int) -> list[str]:
    """The distinct routes of a legal answer (each vehicle's step digits), first seen first."""
    from boardlab.mars.formats import parse_moves

    paths = [""] * (vehicles + 1)
    for step in parse_moves(moves_text):
        paths[step.vehicle] += str(step.direction)
    distinct: list[str] = []
    seen: set[str] = set()
    for path in paths[1:]:
        if path not in seen:
            seen.add(path)
            distinct.append(path)
    return distinct


def judge(request: Request) -> Obj:
    """``POST /api/mars/judge``: the judge's verdict on ``moves`` for ``map``."""
    from boardlab.mars.formats import parse_map
    from boardlab.mars.judge import judge as judge_answer
    from boardlab.mars.solver import solve as solve_map
    from boardlab.render.mars import svg_routes

    asked = read_request(request, MarsJudge)
    mars = parse_map(asked.map, source="map")
    moves = asked.moves

    def work() -> Obj:
        best = solve_map(mars, certify=False).best
        verdict = judge_answer(mars, moves, best=best, source="moves")
        answer: Obj = {**verdict.as_dict(), "report": verdict.lines(), "svg": None}
        if verdict.legal:
            routes = _answer_routes(moves, mars.vehicles)[:MAX_ROUTES_DRAWN]
            answer["svg"] = svg_routes(mars, routes, title="Mars explorer: the judged answer")
        return answer

    return run_job(request, work)


routes = [
    Route("/mars/sample", endpoint(sample, MarsSample), methods=["GET"]),
    Route("/mars/solve", endpoint(solve, MarsSolved), methods=["POST"]),
    Route("/mars/judge", endpoint(judge, MarsJudged), methods=["POST"]),
]
