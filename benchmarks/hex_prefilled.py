"""Benchmark helper: what a fill-in saves the prover, one position proven with given cells filled.

Reads a HexGui SGF position, plays the given moves, and proves it with boardlab's DFPN
(one process), once as it stands and once for each ``--fill`` set: HexGui cell names
each followed by ``fb`` or ``fw`` (the stone filled in, as MoHex's ``vc-build`` and
``compute-inferior`` print their fill-in); ``--no-far-pairs`` leaves out the prover's
captured pairs at any distance. It prints, for each, the winner and the
positions analysed. A fill copied from another program is taken on trust here: the
figure says how much that knowledge would save, not that it is right.

    .venv/bin/python benchmarks/hex_prefilled.py --sgf .../11x11-henderson-86.sgf \\
        --to-move white --play d4 --fill "f8 fw h8 fw" --fill "d8 fw e8 fw"
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.connections import MAX_SIZE
from boardlab.hex.formats import parse_sgf
from boardlab.hex.prover.classify import OutOfBudgetError
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.verdicts import warm
from boardlab.hex.prover.wide import fresh_search
from boardlab.hex.rules import BLACK, WHITE


def stones_with(n: int, black: int, white: int, fill: str) -> tuple[int, int]:
    """The stones with ``fill`` (``CELL fb|fw ...``) added.

    :raises BoardlabError: for a malformed fill.
    """
    words = fill.split()
    if len(words) % 2:
        raise BoardlabError(f"--fill {fill!r}: cells and fb/fw come in pairs")
    for cell, kind in zip(words[::2], words[1::2], strict=True):
        if kind not in ("fb", "fw"):
            raise BoardlabError(f"--fill {fill!r}: {kind!r} is not fb or fw")
        bit = 1 << vertex_index(cell, n)
        if kind == "fb":
            black |= bit
        else:
            white |= bit
    return black, white


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sgf", type=Path, required=True, help="a HexGui SGF position")
    parser.add_argument("--to-move", choices=("black", "white"), required=True)
    parser.add_argument("--play", default="", help="moves played first (HexGui names)")
    parser.add_argument("--fill", action="append", default=[], help="CELL fb|fw ...")
    parser.add_argument("--time", type=float, default=120.0, help="seconds a proof at most")
    parser.add_argument(
        "--no-far-pairs",
        action="store_true",
        help="without the captured pairs at any distance",
    )
    args = parser.parse_args(argv)
    try:
        position = parse_sgf(args.sgf.read_text(), str(args.sgf))
        n = position.size
        black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
        white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
        player = BLACK if args.to_move == "black" else WHITE
        for move in args.play.split():
            if player == BLACK:
                black |= 1 << vertex_index(move, n)
            else:
                white |= 1 << vertex_index(move, n)
            player = 3 - player
        fills = [("as given", black, white)]
        fills += [(fill, *stones_with(n, black, white, fill)) for fill in args.fill]
    except (BoardlabError, OSError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.no_far_pairs:
        Dfpn.far_pairs_from = MAX_SIZE + 1
    warm()  # the kernels compiled before timing
    for name, b, w in fills:
        search = fresh_search(n, Limit(time=args.time).start(), None)
        started = time.perf_counter()
        try:
            wins = search.prove(b, w, player)
        except OutOfBudgetError:
            print(f"{name}: unsolved in {args.time:g} s ({search.analysed} analysed)")
            continue
        mover = "black" if player == BLACK else "white"
        verdict = f"{mover} {'wins' if wins else 'loses'}"
        print(
            f"{name}: {verdict}, {search.analysed} analysed, {time.perf_counter() - started:.2f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
