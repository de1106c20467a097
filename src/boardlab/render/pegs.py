"""Render layer: peg-solitaire positions as SVG pictures.

The text forms (the ASCII diagram and the board file) belong to
:mod:`boardlab.pegs.formats`; they are re-exported here for the callers that draw.
"""

from __future__ import annotations

from collections.abc import Collection

from boardlab.pegs.cells import Cell
from boardlab.pegs.formats import HOLE, NO_HOLE, PEG, board_file_text, diagram
from boardlab.pegs.rules import Position
from boardlab.render import svg

__all__ = ["HOLE", "NO_HOLE", "PEG", "board_file_text", "diagram", "svg_picture"]


def svg_picture(
    position: Position,
    highlight: Collection[Cell] = (),
    labels: bool = True,
    spacing: float = 36.0,
) -> str:
    """A standalone SVG drawing of the position; ``highlight`` holes get a ring."""
    board = position.board
    margin = spacing
    radius = spacing * 0.36

    def centre(cell: Cell) -> tuple[float, float]:
        if board.triangular:
            x = margin + (cell.col + (board.rows - 1 - cell.row) / 2) * spacing
            return x, margin + cell.row * spacing * 0.866
        return margin + cell.col * spacing, margin + cell.row * spacing

    width = margin * 2 + (board.cols - 1) * spacing
    height = margin * 2 + (board.rows - 1) * spacing
    body = [svg.rect(0, 0, width, height, fill="#f3e2c0", rx=spacing / 3)]
    for cell in board.cells:
        x, y = centre(cell)
        body.append(svg.circle(x, y, radius, fill="#d8c29b", stroke="#7a5c33"))
        if position.has_peg(cell):
            body.append(svg.circle(x, y, radius * 0.78, fill="#26303a", class_="peg"))
        if cell in highlight:
            body.append(
                svg.circle(x, y, radius * 1.15, fill="none", stroke="#d04020", stroke_width=3)
            )
    if labels:
        size = spacing * 0.3
        for r in range(board.rows):
            y = centre(Cell(r, 0))[1] + size / 3
            body.append(svg.text(size, y, chr(65 + r), font_size=size, fill="#5a4630"))
        if not board.triangular:
            for c in range(board.cols):
                x = centre(Cell(0, c))[0]
                body.append(
                    svg.text(
                        x,
                        margin * 0.45,
                        str(c + 1),
                        font_size=size,
                        fill="#5a4630",
                        text_anchor="middle",
                    )
                )
    title = f"{board.name}: {position.peg_count} pegs"
    return svg.document(width, height, body, title)
