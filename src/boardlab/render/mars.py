"""Render layer: ASCII and SVG pictures of a Mars explorer map and its vehicles' routes.

A route is given as its step digits (``0`` south, ``1`` east) from the pod; routes are
labelled ``a``, ``b``, ... in order (the labels repeat after 26). In the ASCII picture
``#`` is rough terrain, ``*`` a rock no route visits, ``.`` unused clear ground, a
lowercase label the first route over a cell and an uppercase label the route whose
vehicle collects the rock there first.

>>> from boardlab.mars.formats import parse_map
>>> print(ascii_routes(parse_map("1\\n3\\n2\\n0 2 1\\n2 0 0\\n"), ["101", "011"]), end="")
aA#
Baa
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from boardlab.mars.rules import route_cells
from boardlab.mars.values import ROCK, ROUGH, MarsMap
from boardlab.render.svg import circle, document, group, line, rect, text

__all__ = ["LETTERS", "ascii_routes", "label", "svg_routes"]

#: Routes are labelled a..z, then the letters come round again.
LETTERS = 26
#: Cells smaller than this (pixels) get no "pod" caption.
CAPTION_MIN_SIDE = 12

_PALETTE = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#e377c2",
    "#8c564b",
    "#bcbd22",
    "#7f7f7f",
)


def label(index: int) -> str:
    """The letter of route ``index`` (0-based): a..z, then again."""
    return chr(ord("a") + index % LETTERS)


def _marks(mars: MarsMap, routes: Sequence[str]) -> list[list[str]]:
    grid = [["#" if c == ROUGH else "*" if c == ROCK else "." for c in row] for row in mars.rows]
    for index, directions in enumerate(routes):
        mark = label(index)
        for x, y in route_cells(directions, (0, 0)):
            if y >= mars.height or x >= mars.width:
                break
            here = grid[y][x]
            if here == "*":
                grid[y][x] = mark.upper()
            elif here == ".":
                grid[y][x] = mark
    return grid


def ascii_routes(mars: MarsMap, routes: Sequence[str]) -> str:
    """The map as text, one line a row, with the routes drawn on it."""
    return "".join("".join(row) + "\n" for row in _marks(mars, routes))


def svg_routes(mars: MarsMap, routes: Sequence[str], title: str = "") -> str:
    """A standalone SVG picture: terrain, rocks (filled when collected) and routes."""
    side = max(4, min(28, 720 // max(mars.width, mars.height)))
    margin = side
    width = mars.width * side + 2 * margin
    height = mars.height * side + 2 * margin
    marks = _marks(mars, routes)
    body: list[str] = [rect(0, 0, width, height, fill="#f6efe6")]
    cells: list[str] = []
    for y, row in enumerate(mars.rows):
        for x, cell in enumerate(row):
            px, py = margin + x * side, margin + y * side
            if cell == ROUGH:
                cells.append(rect(px, py, side, side, fill="#6b5a4a"))
            elif cell == ROCK:
                collected = marks[y][x].isupper()
                cells.append(
                    circle(
                        px + side / 2,
                        py + side / 2,
                        side * 0.32,
                        fill="#c0392b" if collected else "#ffffff",
                        stroke="#7b241c",
                        stroke_width=max(1.0, side / 12),
                    )
                )
    body.append(group(cells))
    for index, directions in enumerate(routes):
        points = route_cells(directions, (0, 0))
        colour = _PALETTE[index % len(_PALETTE)]
        offset = (index % 5 - 2) * side * 0.06
        segments = [
            line(
                margin + (a[0] + 0.5) * side + offset,
                margin + (a[1] + 0.5) * side + offset,
                margin + (b[0] + 0.5) * side + offset,
                margin + (b[1] + 0.5) * side + offset,
            )
            for a, b in pairwise(points)
        ]
        body.append(
            group(
                segments,
                stroke=colour,
                stroke_width=max(1.0, side / 8),
                stroke_linecap="round",
                opacity=0.8,
            )
        )
    body.append(rect(margin, margin, side, side, fill="none", stroke="#000", stroke_width=2))
    body.append(
        rect(
            margin + (mars.width - 1) * side,
            margin + (mars.height - 1) * side,
            side,
            side,
            fill="none",
            stroke="#000",
            stroke_width=2,
        )
    )
    if side >= CAPTION_MIN_SIDE:
        body.append(text(margin, margin - 4, "pod", font_size=side * 0.6, font_family="sans-serif"))
        body.append(
            text(
                margin + (mars.width - 1) * side,
                height - margin + side * 0.7,
                "transmitter",
                font_size=side * 0.6,
                font_family="sans-serif",
            )
        )
    return document(width, height, body, title=title or "Mars explorer routes")
