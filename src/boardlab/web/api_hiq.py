"""Interface layer: the Hi-Q contest program (Mid-Atlantic 1996) under ``/api/hiq/`` (sample, run).

``run`` reads a contest input (``input``: the number of games, then each game's occupied
holes in the English board's Hi-Q numbers, ended by 0) with
:func:`boardlab.pegs.formats.parse_hiq_input` and answers the contest output and the
trace of every jump (:func:`boardlab.pegs.hiq.trace`); a malformed input is a 422 naming
its line and column. ``sample`` is the statement's input.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.routing import Route

from boardlab.web._http import Obj, endpoint, read_request
from boardlab.web.answers_games import HiqOutput, HiqSample
from boardlab.web.schemas import HIQ_MAX_INPUT, HiqRun

__all__ = ["MAX_INPUT", "routes"]

#: The longest contest input read (characters).
MAX_INPUT = HIQ_MAX_INPUT


def sample(request: Request) -> Obj:
    """``GET /api/hiq/sample``: the statement's sample input."""
    from boardlab.pegs.hiq import SAMPLE_INPUT

    return {"input": SAMPLE_INPUT}


def run(request: Request) -> Obj:
    """``POST /api/hiq/run``: the contest output of ``input`` and the trace of its games."""
    from boardlab.pegs import hiq
    from boardlab.pegs.formats import format_hiq_output, parse_hiq_input

    text = read_request(request, HiqRun).input
    games = parse_hiq_input(text, "input")
    return {
        "output": format_hiq_output(hiq.run(games)),
        "sums": hiq.run(games),
        "trace": hiq.trace(games),
    }


routes = [
    Route("/hiq/sample", endpoint(sample, HiqSample), methods=["GET"]),
    Route("/hiq/run", endpoint(run, HiqOutput), methods=["POST"]),
]
