"""Interface layer: the BOARD argument every ``boardlab pegs`` verb shares."""

from __future__ import annotations

import argparse

__all__ = ["BOARD_HELP", "add_board_arguments"]

BOARD_HELP = (
    "a named board (english, french, wiegleb, asymmetric, diamond, triangle-N) or a board file"
)


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """The BOARD argument and ``--start`` shared by every pegs verb."""
    parser.add_argument("board", metavar="BOARD", help=BOARD_HELP)
    parser.add_argument(
        "--start",
        metavar="START",
        help="the pegs at the start: 'full', a hole name (the single vacancy there) "
        "or a board file",
    )
