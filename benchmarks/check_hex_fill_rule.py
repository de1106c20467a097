"""Checks a candidate Hex fill-in rule on random positions: does the fill ever change the winner?

    .venv/bin/python benchmarks/check_hex_fill_rule.py --size 5 --trials 3000 --seed 9 \\
        --stones b3 --empty b2,d1 --black a1,b1,c1 --white a2,a3

A rule (HexGui's cells; black joins rows 1 and N, white columns a and the last): black's
stones ``--stones`` (and white's ``--white-stones``) on the board and the cells of
``--empty``, ``--black`` and ``--white`` empty; it says the ``--black`` cells may be
filled with black stones and the ``--white`` cells with white ones at once. Each trial
draws a position that fits it (every other cell empty, black or white at random) and
solves it with each side to move, as it is and with the fill played, by the DFPN (a fresh
search each); with at most ``--minimax-upto`` empty cells also by plain minimax (every
game played out by the proof checker's rules, :func:`boardlab.hex.proofcheck.played_out_wins`),
which must agree. A random check, not a proof: it finds counterexamples, it cannot show there
are none. Prints the first five and the count; exit status 1 if any, 2 on bad input.

With ``--mohex-fillin`` the fill checked is MoHex 2.0's own: on each drawn position
(the rule's stones and empty cells still hold; its ``--black`` and ``--white`` cells are
left empty), the cells MoHex's ``compute-fillin`` fills for the side to move (its
captured, permanently inferior and dead cells, iterated). MoHex is built outside the
repository (``--mohex PATH`` or ``$MOHEX``); it is told the stones one by one, in no
particular order, and the board is cleared between positions.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/check_hex_fill_rule.py --size 5 \\
        --trials 500 --seed 1 --mohex-fillin
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence

from boardlab.core.errors import BoardlabError, ProtocolError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index, vertex_names
from boardlab.hex.gtp import vertex
from boardlab.hex.proofcheck import edges_joined, played_out_wins
from boardlab.hex.prover.dfpn import MAX_CELLS, Dfpn
from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, fill_in_cells, mohex_binary, running_mohex


def cells_of(text: str, size: int) -> int:
    """The bit set of a comma-separated list of HexGui's cell names ('' for none).

    :raises BoardlabError: for a name that is not a cell of the board.
    """
    bits = 0
    for name in filter(None, (part.strip() for part in text.split(","))):
        bits |= 1 << vertex_index(name, size)
    return bits


def dfpn_wins(size: int, black: int, white: int, player: int) -> bool:
    """Does ``player`` to move win? A fresh DFPN search."""
    if edges_joined(size, black, 1) or edges_joined(size, white, 2):
        return edges_joined(size, black if player == 1 else white, player)
    return Dfpn(size, Limit(time=600).start()).prove(black, white, player)


def mohex_fill(
    process: GtpProcess, size: int, black: int, white: int, player: int
) -> tuple[int, int]:
    """The cells MoHex's ``compute-fillin`` fills black and white (two bit sets) on the
    position of these stones with ``player`` to move."""
    process.new_game(size)
    for stones, colour in ((black, BLACK), (white, WHITE)):
        for cell in range(size * size):
            if stones >> cell & 1:
                process.play(colour, vertex(cell, size))
    answer = process.command(f"compute-fillin {'b' if player == BLACK else 'w'}")
    filled = [0, 0]
    for cell, colour in fill_in_cells(answer, size).items():
        filled[colour - 1] |= 1 << cell
    return filled[0], filled[1]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, required=True, help="board size (3 to 8)")
    parser.add_argument("--trials", type=int, default=1000, help="random positions (1000)")
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (1)")
    parser.add_argument("--stones", default="", help="black's stones of the rule")
    parser.add_argument("--white-stones", default="", help="white's stones of the rule")
    parser.add_argument("--empty", default="", help="cells the rule wants empty, unfilled")
    parser.add_argument("--black", default="", help="empty cells the rule fills black")
    parser.add_argument("--white", default="", help="empty cells the rule fills white")
    parser.add_argument(
        "--minimax-upto",
        type=int,
        default=10,
        help="also plain minimax up to this many empty cells (10)",
    )
    parser.add_argument(
        "--mohex-fillin",
        action="store_true",
        help="check MoHex's compute-fillin on each position instead of the rule's fill",
    )
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    args = parser.parse_args(argv)
    if args.size < 3 or args.size * args.size > MAX_CELLS or args.trials < 1:
        print("--size must be 3 to 8 and --trials at least 1", file=sys.stderr)
        return 2
    n = args.size
    try:
        rule = [
            cells_of(text, n)
            for text in (args.stones, args.white_stones, args.empty, args.black, args.white)
        ]
    except BoardlabError as exc:
        print(f"check_hex_fill_rule: {exc}", file=sys.stderr)
        return 2
    taken = 0
    for part in rule:
        if taken & part:
            print("check_hex_fill_rule: a cell is named twice in the rule", file=sys.stderr)
            return 2
        taken |= part
    binary = mohex_binary(args.mohex) if args.mohex_fillin else None
    if args.mohex_fillin and binary is None:
        print(f"check_hex_fill_rule: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    if binary is None:
        return check(args, rule, taken, None)
    try:
        with running_mohex(binary) as process:
            return check(args, rule, taken, process)
    except ProtocolError as exc:
        print(f"check_hex_fill_rule: MoHex failed: {exc}", file=sys.stderr)
        return 2


def check(args: argparse.Namespace, rule: list[int], taken: int, mohex: GtpProcess | None) -> int:
    """Draw the positions (every cell but the rule's ``taken`` ones free) and compare each
    one's winner before and after its fill (the rule's, or MoHex's when ``mohex`` is
    given); the exit status of :func:`main`."""
    n = args.size
    stones, white_stones, _, fill_black, fill_white = rule
    if mohex is not None:
        taken &= ~(fill_black | fill_white)  # the rule's fill cells are free cells here
    rng = random.Random(args.seed)
    free = [c for c in range(n * n) if not taken >> c & 1]
    filled_cells = 0
    found = checked = by_minimax = 0
    for _ in range(args.trials):
        black, white = stones, white_stones
        for cell in rng.sample(free, rng.randint(0, len(free) * 2 // 3)):
            if rng.random() < 0.5:
                black |= 1 << cell
            else:
                white |= 1 << cell
        for player in (1, 2):
            if mohex is not None:
                fill_black, fill_white = mohex_fill(mohex, n, black, white, player)
            filled_cells += (fill_black | fill_white).bit_count()
            before = dfpn_wins(n, black, white, player)
            after = dfpn_wins(n, black | fill_black, white | fill_white, player)
            checked += 1
            holes = n * n - (black | white).bit_count()
            if holes <= args.minimax_upto:
                by_minimax += 1
                if (
                    played_out_wins(n, black, white, player) != before
                    or played_out_wins(n, black | fill_black, white | fill_white, player) != after
                ):
                    print("the DFPN and plain minimax disagree", file=sys.stderr)
                    return 1
            if before != after:
                found += 1
                if found <= 5:
                    print(
                        f"changes the winner: black {vertex_names(black, n)}; "
                        f"white {vertex_names(white, n)}; "
                        f"{'black' if player == 1 else 'white'} to move wins as it is: {before}, "
                        f"filled: {after}"
                    )
    whose = "MoHex's compute-fillin, " if mohex is not None else ""
    print(
        f"{n}x{n}: {checked} positions ({args.trials} drawn, each side to move; {by_minimax} "
        f"also by plain minimax), {whose}{filled_cells} cells filled in all, "
        f"{found} where the fill changes the winner"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
