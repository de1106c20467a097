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
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index, vertex_names
from boardlab.hex.proofcheck import edges_joined, played_out_wins
from boardlab.hex.prover.dfpn import MAX_CELLS, Dfpn


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
    stones, white_stones, _, fill_black, fill_white = rule
    taken = 0
    for part in rule:
        if taken & part:
            print("check_hex_fill_rule: a cell is named twice in the rule", file=sys.stderr)
            return 2
        taken |= part
    rng = random.Random(args.seed)
    free = [c for c in range(n * n) if not taken >> c & 1]
    found = checked = by_minimax = 0
    for _ in range(args.trials):
        black, white = stones, white_stones
        for cell in rng.sample(free, rng.randint(0, len(free) * 2 // 3)):
            if rng.random() < 0.5:
                black |= 1 << cell
            else:
                white |= 1 << cell
        for player in (1, 2):
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
    print(
        f"{n}x{n}: {checked} positions ({args.trials} drawn, each side to move; {by_minimax} "
        f"also by plain minimax), {found} where the fill changes the winner"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
