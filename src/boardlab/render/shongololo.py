"""Render layer: the eaten blocks of an iShongololo run, layer by layer (ASCII and SVG).

Each layer is one height ``z``; its rows are ``y`` (W axis) from 1 at the top and its
columns ``x`` (L axis) from 1 at the left. ``#`` is a block the iShongololo moved
through (the spine), ``o`` an eaten block it never entered (a leaf), ``.`` a solid
block; ``@`` marks where it stopped.

>>> from boardlab.shongololo.blocks import Action, Box
>>> from boardlab.shongololo.rules import Shongololo
>>> state = Shongololo(Box(2, 3, 2))
>>> for line in ("E 1 1 1", "M 1 1 1", "E 2 1 1", "E 1 1 2", "E 1 2 1", "M 1 2 1"):
...     state.play(Action.parse(line))
>>> print(layers_text(state))
z=1   z=2
#o    o.
@.    ..
..    ..
"""

from __future__ import annotations

from boardlab.render import svg
from boardlab.shongololo.blocks import Block
from boardlab.shongololo.rules import Shongololo

__all__ = ["HEAD", "LEAF", "SOLID", "SPINE", "layers_text", "svg_picture"]

SPINE, LEAF, SOLID, HEAD = "#", "o", ".", "@"


def _symbols(state: Shongololo) -> dict[Block, str]:
    marks = {block: LEAF for block in state.eaten_blocks()}
    for block in state.path:
        marks[block] = SPINE
    if state.position is not None:
        marks[state.position] = HEAD
    return marks


def layers_text(state: Shongololo, per_row: int | None = None) -> str:
    """Every layer ``z = 1 .. H`` as a grid of symbols, ``per_row`` layers side by side.

    By default as many layers go side by side as fit in about 100 columns.
    """
    box = state.box
    marks = _symbols(state)
    width = max(box.length, 3 + len(str(box.height)))
    if per_row is None:
        per_row = max(1, 100 // (width + 2))
    blocks_of_rows: list[str] = []
    for first in range(1, box.height + 1, per_row):
        heights = range(first, min(box.height, first + per_row - 1) + 1)
        lines = ["  ".join(f"z={z}".ljust(width) for z in heights).rstrip()]
        for y in range(1, box.width + 1):
            cells = [
                "".join(marks.get(Block(x, y, z), SOLID) for x in range(1, box.length + 1)).ljust(
                    width
                )
                for z in heights
            ]
            lines.append("  ".join(cells).rstrip())
        blocks_of_rows.append("\n".join(lines))
    return "\n\n".join(blocks_of_rows)


def svg_picture(state: Shongololo, cell: int = 8, per_row: int = 8) -> str:
    """The layers as an SVG picture: dark spine, green leaves, red head, pale solid blocks."""
    box = state.box
    marks = _symbols(state)
    gap = 2 * cell
    pane_w, pane_h = box.length * cell, box.width * cell
    columns = min(per_row, box.height)
    rows = (box.height + columns - 1) // columns
    total_w = columns * (pane_w + gap) + gap
    total_h = rows * (pane_h + gap + cell) + gap
    colours = {SPINE: "#2b2b2b", HEAD: "#c0392b", LEAF: "#8fbf6a", SOLID: "#f3ecd9"}
    body: list[str] = []
    for z in range(1, box.height + 1):
        col, row = (z - 1) % columns, (z - 1) // columns
        ox = gap + col * (pane_w + gap)
        oy = gap + cell + row * (pane_h + gap + cell)
        body.append(svg.text(ox, oy - 3, f"z={z}", font_size=cell, font_family="monospace"))
        for y in range(1, box.width + 1):
            for x in range(1, box.length + 1):
                symbol = marks.get(Block(x, y, z), SOLID)
                body.append(
                    svg.rect(
                        ox + (x - 1) * cell,
                        oy + (y - 1) * cell,
                        cell,
                        cell,
                        fill=colours[symbol],
                        stroke="#d0c8b0",
                        stroke_width=0.3,
                    )
                )
    title = f"iShongololo in a {box.length}x{box.width}x{box.height} fruit: {len(marks)} eaten"
    return svg.document(total_w, total_h, body, title=title)
