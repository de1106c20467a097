"""Benchmark helper: the virtual connections MoHex 2.0 finds on a position only as built.

Loads a HexGui SGF position into MoHex, plays the given moves, and asks MoHex's
connection engine (``vc-build``, then ``vc-between-cells-full`` and ``-semi`` for
every pair of the named cells and edges) twice: as built, and after the GTP commands of
``--setting`` (those of ``--common`` before both). It prints each connection MoHex lists
the first time and not the second, in MoHex's own words (the two ends, full or semi,
the carrier and a semi's key), the smallest carriers first: the knowledge that setting
takes away. Without ``--setting`` it prints every connection MoHex lists as built: the
listing ``hex_seeded_connections.py`` seeds boardlab's search with (give ``--common
"param_player_board use_ice 0"`` then, so that no carrier leaves out a cell MoHex filled
in). ``--cells all`` names every cell of the board and the player's two edges. A
diagnostic of what MoHex knows, not a claim about boardlab; nothing of MoHex's is copied.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/hex_mohex_connections.py \\
        --sgf .../8x8-henderson-93.sgf --who white --cells "east d3 e6 g2 g4 f3" \\
        --setting "param_player_vc use_non_edge_patterns 0"
    MOHEX=/path/to/mohex .venv/bin/python benchmarks/hex_mohex_connections.py \\
        --sgf .../8x8-henderson-93.sgf --play "w e6" --who white --cells all \\
        --common "param_player_board use_ice 0" > LISTING.txt
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.hex.board import vertex_names
from boardlab.hex.formats import parse_sgf
from boardlab.peers.mohex import MOHEX_ABSENT, mohex_binary, running_mohex


def connections(
    binary: str, sgf: Path, play: Sequence[str], who: str, cells: Sequence[str], setting: str
) -> set[str]:
    """Every connection line MoHex gives between two of ``cells`` for ``who`` (``b`` or
    ``w``) on the position of ``sgf`` (an absolute path) after ``play`` (``COLOUR CELL``
    moves), MoHex set up first by the GTP commands of ``setting`` (``;`` between them)
    and run in a folder of its own (:func:`running_mohex`).

    :raises ProtocolError: when MoHex refuses a command or fails.
    """
    settings = [line.strip() for line in setting.split(";") if line.strip()]
    with running_mohex(binary, settings) as mohex:
        mohex.command(f"loadsgf {sgf}")
        for move in play:
            mohex.command(f"play {move}")
        mohex.command(f"vc-build {who}")
        found: set[str] = set()
        for x, y in combinations(cells, 2):
            for kind in ("full", "semi"):
                reply = mohex.command(f"vc-between-cells-{kind} {who} {x} {y}")
                found.update(line.strip() for line in reply.splitlines() if line.strip())
        return found


def every_node(sgf: Path, who: str) -> list[str]:
    """Every cell of the SGF's board (HexGui's names) and ``who``'s two edges.

    :raises BoardlabError: when the file is not a HexGui position.
    """
    size = parse_sgf(sgf.read_text(), str(sgf)).size
    edges = ["west", "east"] if who == "white" else ["north", "south"]
    return edges + vertex_names((1 << size * size) - 1, size).split()


def carrier_size(line: str) -> int:
    """The cells of a connection line's carrier (its first bracketed list)."""
    start, end = line.find("["), line.find("]")
    return len(line[start + 1 : end].split()) if 0 <= start < end else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sgf", type=Path, required=True, help="a HexGui SGF position")
    parser.add_argument("--play", default="", help="moves first, e.g. 'w h2; b c3'")
    parser.add_argument("--who", choices=("black", "white"), required=True)
    parser.add_argument("--cells", required=True, help="cells and edges, e.g. 'east g7 h5'")
    parser.add_argument(
        "--setting",
        help="GTP commands, ';' between them (the second asking; without it, every connection "
        "as built is printed)",
    )
    parser.add_argument(
        "--common", default="", help="GTP commands before both askings, ';' between them"
    )
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    args = parser.parse_args(argv)
    cells = args.cells.split()
    if (len(cells) < 2 and cells != ["all"]) or len(set(cells)) < len(cells):
        print("--cells: two or more different cells or edges", file=sys.stderr)
        return 2
    play = [move.strip() for move in args.play.split(";") if move.strip()]
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(MOHEX_ABSENT, file=sys.stderr)
        return 2
    if not args.sgf.is_file():
        print(f"{args.sgf}: no such file", file=sys.stderr)
        return 2
    who = args.who[0]
    try:
        if cells == ["all"]:
            cells = every_node(args.sgf, args.who)
        sgf = args.sgf.resolve()
        built = connections(binary, sgf, play, who, cells, args.common)
        if args.setting is None:
            print(f"{len(built)} connections as built:")
            for line in sorted(built, key=lambda line: (carrier_size(line), line)):
                print(f"  {line}")
            return 0
        without = connections(binary, sgf, play, who, cells, f"{args.common};{args.setting}")
    except BoardlabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    only = sorted(built - without, key=lambda line: (carrier_size(line), line))
    print(f"{len(built)} connections as built, {len(without)} after {args.setting!r}")
    print(f"{len(only)} only as built:")
    for line in only:
        print(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
