"""Benchmark: what MoHex 2.0's fill-in is worth to boardlab's prover, on one position.

The position (a HexGui or MoHex SGF file, then ``--moves`` played in turn from its side to
move) is solved by boardlab's DFPN three times, each time with other cells filled in as
stones first, as MoHex fills them for the side to move:

- nothing: the position as it is (boardlab's own fill-in still runs inside the search);
- ``compute-fillin``: MoHex's inferior-cell engine alone (captured, permanently inferior
  and dead cells, iterated);
- ``vc-build``: MoHex's board as its solver sees it, the fill-in that also uses virtual
  connections and decompositions.

Each fill keeps the winner (that is what a fill-in is), so all three runs must agree;
the script prints the winner, boardlab's seconds and analysed positions for each, and
MoHex's own ``dfpn-solve-state`` seconds on the position in the same run. The gap
between the rows is what the missing knowledge costs.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_fill_value.py \\
        --sgf /path/to/benzene/regression/sgf/puzzles/11x11-henderson-85.sgf \\
        --to-move white --moves h2
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.formats import parse_sgf
from boardlab.hex.gtp import parse_vertex
from boardlab.hex.judge import color_name
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Cell, Position
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, fill_in_cells, mohex_binary

#: The GTP commands whose answers list fill-in cells (``cell fb`` or ``cell fw``).
FILLS = ("compute-fillin", "vc-build")


def with_stones(position: Position, fills: dict[int, int]) -> Position:
    """``position`` with the ``fills`` played as stones (its side to move kept)."""
    board = list(position.board)
    for cell, colour in fills.items():
        board[cell] = colour
    size = position.size
    black = [Cell.of_index(i, size) for i, v in enumerate(board) if v == BLACK]
    white = [Cell.of_index(i, size) for i, v in enumerate(board) if v == WHITE]
    return Position.from_stones(position.size, black, white, position.to_move)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgf", type=Path, required=True, help="the position's SGF file")
    parser.add_argument("--to-move", choices=("black", "white"), help="side to move first")
    parser.add_argument("--moves", nargs="*", default=[], help="moves played in turn first")
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    parser.add_argument("--time", type=float, default=120.0, help="seconds a run (default 120)")
    args = parser.parse_args(argv)
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(f"bench_hex_fill_value: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    try:
        position = parse_sgf(args.sgf.read_text(), str(args.sgf))
        if args.to_move:
            position.to_move = BLACK if args.to_move == "black" else WHITE
        setup = [f"loadsgf {args.sgf.resolve()}"]
        for move in args.moves:
            setup.append(f"play {color_name(position.to_move)} {move}")
            position.play_index(parse_vertex(move, position.size))
    except (BoardlabError, OSError) as exc:
        print(f"bench_hex_fill_value: {exc}", file=sys.stderr)
        return 2
    mover = color_name(position.to_move)
    process = GtpProcess([binary], timeout=args.time + 60)
    try:
        process.command(f"param_dfpn timelimit {args.time}")
        for line in setup:
            process.command(line)
        fills = {
            name: fill_in_cells(process.command(f"{name} {mover}"), position.size) for name in FILLS
        }
        started = time.perf_counter()
        their_winner = process.command(f"dfpn-solve-state {mover}", args.time + 60).strip()
        their_seconds = time.perf_counter() - started
    except ProtocolError as exc:
        print(f"bench_hex_fill_value: MoHex failed: {exc}", file=sys.stderr)
        return 1
    finally:
        process.close()
    solve(Position(3), Limit(time=5))  # load the kernels before any clock
    print(f"{args.sgf.name} after {' '.join(args.moves) or 'no move'}, {mover} to move")
    print(f"  MoHex dfpn-solve-state: {their_winner} wins, {their_seconds:.1f} s")
    winners = set()
    for name, cells in (("nothing", {}), *fills.items()):
        result = solve(with_stones(position, cells), Limit(time=args.time), all_moves=False)
        winner = "unsolved" if result.winner is None else color_name(result.winner)
        if result.winner is not None:
            winners.add(winner)
        print(
            f"  boardlab, {len(cells):3d} cells filled ({name}): {winner}, "
            f"{result.seconds:.1f} s, {result.nodes} positions analysed"
        )
    if len(winners) > 1 or (winners and their_winner not in winners):
        print("  the winners disagree")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
