"""Render layer: Ioiwari positions and games as ASCII text and as SVG.

>>> from boardlab.ioiwari.rules import Position
>>> print(board_text(Position((4, 3, 2, 4, 2, 3, 2))))
pit      1  2  3  4  5  6  7
beads    4  3  2  4  2  3  2
banks    player 1: 0   player 2: 0   player 1 to move
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from boardlab.ioiwari.rules import IOI, Move, Position, State, Variant
from boardlab.render import svg

__all__ = ["board_svg", "board_text", "transcript"]


def board_text(position: Position) -> str:
    """Three lines: pit labels, beads, banks and the player to move."""
    labels = "".join(f"{label:>3}" for label in range(1, len(position.pits) + 1))
    beads = "".join(f"{count:>3}" for count in position.pits)
    first, second = position.banks
    over = not any(position.pits)
    turn = "game over" if over else f"player {position.to_move} to move"
    return (
        f"pit    {labels}\nbeads  {beads}\nbanks    player 1: {first}   player 2: {second}   {turn}"
    )


def transcript(start: Sequence[int], moves: Sequence[Move], variant: Variant = IOI) -> str:
    """A game as the statement's table: pits and banks after each move.

    >>> print(transcript((4, 3, 2, 4, 2, 3, 2), [Move(2)]))
    Operation/Pit label     1  2  3  4  5  6  7  Bank 1  Bank 2
    Initial situation       4  3  2  4  2  3  2       0       0
    Player 1's move: 2      4  0  3  5  0  3  2       3       0

    :raises IllegalMoveError: when a move is illegal.
    """
    state = State(variant, start)
    labels = "".join(f"{label:>3}" for label in range(1, variant.pits + 1))
    rows = [f"{'Operation/Pit label':<22}{labels}  Bank 1  Bank 2"]

    def row(title: str) -> str:
        beads = "".join(f"{count:>3}" for count in state.pits)
        return f"{title:<22}{beads}{state.banks[0]:>8}{state.banks[1]:>8}"

    rows.append(row("Initial situation"))
    for move in moves:
        player = state.to_move
        state.play(move)
        rows.append(row(f"Player {player}'s move: {move.pit}"))
    return "\n".join(rows)


def board_svg(position: Position, size: int = 320, last: int | None = None) -> str:
    """The round board: pits clockwise from the top with their beads and their counts,
    banks in the middle; ``last`` (a pit number) is ringed as the pit sown last."""
    centre = size / 2
    ring = size * 0.36
    radius = size * 0.085
    body = [svg.circle(centre, centre, size * 0.47, fill="#d9b382", stroke="#8a5a2b")]
    count = len(position.pits)
    for index, beads in enumerate(position.pits):
        angle = 2 * math.pi * index / count - math.pi / 2
        x = centre + ring * math.cos(angle)
        y = centre + ring * math.sin(angle)
        sown = last == index + 1
        body.append(
            svg.circle(
                x,
                y,
                radius,
                fill="#7a4a1e",
                stroke="#f2c200" if sown else "#4a2a0e",
                stroke_width=4 if sown else 1,
            )
        )
        for bead in range(beads):
            spin = 2 * math.pi * bead / max(beads, 1)
            offset = 0 if beads == 1 else radius * 0.5
            body.append(
                svg.circle(
                    x + offset * math.cos(spin),
                    y + offset * math.sin(spin),
                    radius * 0.22,
                    fill="#f4f0e8",
                )
            )
        lx = centre + (ring + radius * 1.6) * math.cos(angle)
        ly = centre + (ring + radius * 1.6) * math.sin(angle)
        body.append(svg.text(lx, ly + 4, str(index + 1), text_anchor="middle", font_size=12))
        cx = centre + (ring - radius * 1.7) * math.cos(angle)
        cy = centre + (ring - radius * 1.7) * math.sin(angle)
        body.append(
            svg.text(cx, cy + 4, f"{beads}", text_anchor="middle", font_size=11, class_="count")
        )
    first, second = position.banks
    body.append(
        svg.text(centre, centre - 6, f"bank 1: {first}", text_anchor="middle", font_size=14)
    )
    body.append(
        svg.text(centre, centre + 14, f"bank 2: {second}", text_anchor="middle", font_size=14)
    )
    return svg.document(size, size, body, title=f"Ioiwari {position}")
