"""Render layer: Hex positions as ASCII diagrams and SVG, the winning chain highlighted.

:func:`diagram` is the position file's diagram, in the IOI orientation of
:mod:`boardlab.hex.rules` (player 1, X, joins the left and right edges).
:func:`hexgui_diagram` and :func:`svg_picture` draw the board as HexGui does, the
orientation every result names its cells in: black (player 1, X, red) joins the top and
bottom edges, white (player 2, O, blue) the left and right ones, and ``c5`` is column c,
row 5 (:meth:`~boardlab.hex.board.Cell.vertex`).

>>> from boardlab.hex.rules import Cell, Position
>>> p = Position(2)
>>> p.play(Cell.parse("a1")); p.play(Cell.parse("a2")); p.play(Cell.parse("b1"))
>>> print(diagram(p), end="")
   a b
 1 x x
 2  O .
"""

from __future__ import annotations

import math

from boardlab.hex.board import LETTERS
from boardlab.hex.formats import HEXGUI_HEADER, format_diagram, format_hexgui_diagram
from boardlab.hex.rules import BLACK, WHITE, Position
from boardlab.render import svg

__all__ = ["HEXGUI_HEADER", "diagram", "hexgui_diagram", "svg_picture"]

COLOURS = {BLACK: "#d33", WHITE: "#36c"}
#: The fill of every hexagon (the web page finds the cells by it).
CELL_FILL = "#f4e7c5"


def diagram(position: Position) -> str:
    """The position file diagram; the winning chain's stones in lower case."""
    return format_diagram(position, set(position.winning_chain()))


def hexgui_diagram(position: Position) -> str:
    """The board as HexGui draws it, after :data:`HEXGUI_HEADER`: the diagram of the
    position across the long diagonal, so its letters and numbers are the names every
    result gives the cells; the winning chain's stones (only when the game is won, as
    the SVG marks them) in lower case.

    >>> from boardlab.hex.rules import Cell
    >>> p = Position(2)
    >>> p.play(Cell.parse("b1"))
    >>> print(hexgui_diagram(p), end="")
    # HexGui orientation: X = black joins top and bottom, O = white left and right
       a b
     1 . .
     2  X .
    """
    return format_hexgui_diagram(position)


def svg_picture(position: Position, cell: float = 28.0) -> str:
    """A standalone SVG of the board as HexGui draws it (black, red, joins top and
    bottom): hexagons in HexGui's reading order (``a1 b1 ... a2 b2 ...``), stones,
    coordinates, edge colours."""
    n = position.size
    radius = cell / math.sqrt(3)
    margin = cell * 1.2

    def centre(row: int, col: int) -> tuple[float, float]:
        return margin + col * cell + row * cell / 2, margin + row * radius * 1.5

    chain = set(position.winning_chain())
    body: list[str] = []
    width = margin * 2 + (n - 1) * cell * 1.5 + cell
    height = margin * 2 + (n - 1) * radius * 1.5 + radius
    # edge bands: player 1 top/bottom, player 2 left/right
    x0, y0 = centre(0, 0)
    x1, y1 = centre(0, n - 1)
    x2, y2 = centre(n - 1, 0)
    x3, y3 = centre(n - 1, n - 1)
    pad = cell * 0.75
    body.append(
        svg.line(x0 - pad, y0 - pad, x1 + pad, y1 - pad, stroke=COLOURS[BLACK], stroke_width=4)
    )
    body.append(
        svg.line(x2 - pad, y2 + pad, x3 + pad, y3 + pad, stroke=COLOURS[BLACK], stroke_width=4)
    )
    body.append(
        svg.line(x0 - pad, y0 - pad, x2 - pad, y2 + pad, stroke=COLOURS[WHITE], stroke_width=4)
    )
    body.append(
        svg.line(x1 + pad, y1 - pad, x3 + pad, y3 + pad, stroke=COLOURS[WHITE], stroke_width=4)
    )
    for row in range(n):
        for col in range(n):
            cx, cy = centre(row, col)
            corners = [
                (
                    cx + radius * math.cos(math.radians(90 + 60 * k)),
                    cy + radius * math.sin(math.radians(90 + 60 * k)),
                )
                for k in range(6)
            ]
            index = col * n + row  # the cell HexGui draws at this row and column
            body.append(svg.polygon(corners, fill=CELL_FILL, stroke="#7a6a4f", stroke_width=1))
            owner = position.board[index]
            if owner:
                body.append(
                    svg.circle(
                        cx,
                        cy,
                        radius * 0.72,
                        fill=COLOURS[owner],
                        stroke="#000" if index in chain else "none",
                        stroke_width=3 if index in chain else 0,
                    )
                )
    for col in range(n):
        cx, cy = centre(0, col)
        body.append(
            svg.text(cx, cy - radius * 1.4, LETTERS[col], font_size=11, text_anchor="middle")
        )
    for row in range(n):
        cx, cy = centre(row, 0)
        body.append(
            svg.text(cx - cell * 0.9, cy + 4, str(row + 1), font_size=11, text_anchor="end")
        )
    return svg.document(width, height, body, title=f"Hex {n}x{n}")
