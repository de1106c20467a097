"""Render layer: peg-solitaire positions as ASCII diagrams, board files and SVG.

>>> from boardlab.pegs.rules import Position
>>> print(diagram(Position("triangle-4")))
A     O
B    X X
C   X X X
D  X X X X
"""

from __future__ import annotations

from collections.abc import Collection

from boardlab.pegs.cells import Cell
from boardlab.pegs.rules import Position
from boardlab.render import svg

__all__ = ["HOLE", "NO_HOLE", "PEG", "board_file_text", "diagram", "svg_picture"]

PEG, HOLE, NO_HOLE = "X", "O", "_"


def _symbol(position: Position, cell: Cell) -> str:
    if not position.board.has_hole(cell):
        return NO_HOLE
    return PEG if position.has_peg(cell) else HOLE


def board_file_text(position: Position) -> str:
    """The position as a PEGGED board file (``_`` no hole, ``O`` empty, ``X`` peg).

    Only square-lattice boards have a board-file form.

    :raises ValueError: on a triangular board.
    """
    board = position.board
    if board.triangular:
        raise ValueError("a triangular board has no PEGGED board-file form")
    return "".join(
        "".join(_symbol(position, Cell(r, c)) for c in range(board.cols)) + "\n"
        for r in range(board.rows)
    )


def diagram(position: Position) -> str:
    """A readable diagram: row letters, column numbers, ``X`` peg, ``O`` empty hole."""
    board = position.board
    width = len(str(board.cols))
    lines = []
    if board.triangular:
        for r in range(board.rows):
            indent = " " * ((board.rows - 1 - r) * (width + 1) // 2)
            row = " ".join(_symbol(position, Cell(r, k)).rjust(width) for k in range(r + 1))
            lines.append(f"{chr(65 + r)}  {indent}{row}".rstrip())
        return "\n".join(lines)
    lines.append("   " + " ".join(str(c + 1).rjust(width) for c in range(board.cols)))
    for r in range(board.rows):
        row = " ".join(
            _symbol(position, Cell(r, c)).replace(NO_HOLE, " ").rjust(width)
            for c in range(board.cols)
        )
        lines.append(f"{chr(65 + r)}  {row}".rstrip())
    return "\n".join(lines)


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
