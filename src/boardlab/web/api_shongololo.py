"""Interface layer: the Toxic iShongololo API under ``/api/shongololo/`` (solve, judge).

``input`` is the contest input (L, W and H, each 1..32); ``answer`` the text of an
answer (one ``E x y z`` or ``M x y z`` line per action). ``solve`` runs
:func:`boardlab.shongololo.solver.solve` for ``time`` seconds and draws the eaten
layers with :func:`boardlab.render.shongololo.svg_picture`; ``judge`` checks an answer
with :func:`boardlab.shongololo.judge.judge_text` and draws what it ate up to its
first broken rule. Both answers are the result's ``as_dict()`` (the CLI's ``--json``)
and add only what the page shows: the answer text, the pictures and ``run``
(:func:`run_of`): the box and the eaten blocks by kind, which the page draws in 3D (the
result's own ``blocks`` is the fruit's volume, kept).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.routing import Route

from boardlab.web._http import ApiError, Obj, endpoint, read_request, run_job
from boardlab.web.answers_games import ShongololoJudged, ShongololoSolved
from boardlab.web.schemas import (
    TOXIC_MAX_ANSWER,
    TOXIC_MAX_INPUT,
    TOXIC_MAX_TIME,
    ShongololoJudge,
    ShongololoSolve,
)

if TYPE_CHECKING:
    from boardlab.shongololo.rules import Shongololo

__all__ = ["routes", "run_of"]

MAX_INPUT = TOXIC_MAX_INPUT
MAX_ANSWER = TOXIC_MAX_ANSWER
MAX_TIME = TOXIC_MAX_TIME  # the server's cap on every search


def run_of(state: Shongololo) -> Obj:
    """The run as JSON for a 3D view: the box ``[L, W, H]``, the spine (the blocks it moved
    through, in order), the leaves (eaten, never entered) and the head (where it stopped);
    blocks are ``[x, y, z]`` from 1."""
    spine = [[b.x, b.y, b.z] for b in state.path]
    entered = set(state.path)
    leaves = [[b.x, b.y, b.z] for b in state.eaten_blocks() if b not in entered]
    head = state.position
    box = state.box
    return {
        "box": [box.length, box.width, box.height],
        "spine": spine,
        "leaves": leaves,
        "head": None if head is None else [head.x, head.y, head.z],
    }


#: The layer picture is laid out to fit this many pixels across (the page's picture box)
#: at :data:`LAYER_CELL` pixels a block; a long fruit gets fewer layers a row, never
#: smaller blocks (the box scrolls down instead).
PICTURE_WIDTH = 660
LAYER_CELL = 14
LAYERS_A_ROW = 8


def layer_picture(state: Shongololo) -> str:
    """The layers of ``state`` as SVG, laid out for the page."""
    from boardlab.render.shongololo import svg_picture

    pane = (state.box.length + 2) * LAYER_CELL
    per_row = max(1, min(LAYERS_A_ROW, (PICTURE_WIDTH - 2 * LAYER_CELL) // pane))
    return svg_picture(state, cell=LAYER_CELL, per_row=per_row)


def solve(request: Request) -> Obj:
    """``POST /api/shongololo/solve``: a long legal run, its count against the proven bound,
    the answer text and the layers."""
    from boardlab.render.shongololo import layers_text
    from boardlab.shongololo.formats import format_actions, parse_input
    from boardlab.shongololo.rules import Shongololo
    from boardlab.shongololo.solver import solve as solve_box

    asked = read_request(request, ShongololoSolve)
    box = parse_input(asked.input, source="input")
    seconds, seed = asked.time, asked.seed

    def work() -> Obj:
        solution = solve_box(box, seconds, seed)
        state = Shongololo(box)
        for action in solution.actions:
            state.push(action)
        return {
            **solution.as_dict(),
            "answer": format_actions(solution.actions),
            "layers": layers_text(state),
            "svg": layer_picture(state),
            "run": run_of(state),
        }

    return run_job(request, work)


def judge(request: Request) -> Obj:
    """``POST /api/shongololo/judge``: the judge's verdict on ``answer``; ``best`` (blocks)
    gives the contest score in percent."""
    from boardlab.shongololo.formats import parse_input
    from boardlab.shongololo.judge import judge_text
    from boardlab.shongololo.rules import Shongololo

    asked = read_request(request, ShongololoJudge)
    box = parse_input(asked.input, source="input")
    answer = asked.answer
    if asked.best is not None and asked.best > box.volume:
        raise ApiError(
            400,
            f"The best known count must be a whole number from 0 to {box.volume:,} "
            "(the blocks of this fruit).",
            field="best",
        )
    best = asked.best

    def work() -> Obj:
        from boardlab.core.errors import ParseError
        from boardlab.shongololo.formats import parse_actions

        verdict = judge_text(box, answer, source="answer", best=best or None)
        state = Shongololo(box)
        try:
            for entry in parse_actions(answer, source="answer"):
                if state.why_illegal(entry.action) is not None:
                    break
                state.push(entry.action)
        except ParseError:
            pass
        return {
            **verdict.as_dict(),
            "svg": layer_picture(state),
            "run": run_of(state),
        }

    return run_job(request, work)


routes = [
    Route("/shongololo/solve", endpoint(solve, ShongololoSolved), methods=["POST"]),
    Route("/shongololo/judge", endpoint(judge, ShongololoJudged), methods=["POST"]),
]
