"""Benchmark: the size of boardlab's Hex proof trees, with and without certified connections.

For each opening (black's stone on a cell, white to move) a fresh DFPN proves the
winner, then the proof tree of :mod:`boardlab.hex.prover.prooftree` is built twice from
that search: with the nodes a certified virtual connection ends (a full one, or a semi
one with the winner to move; :mod:`boardlab.hex.prover.certify`) and without (every
such node played on down to bridges and small positions), and the rules-only checker
(:mod:`boardlab.hex.proofcheck`) replays both. It prints, a line each, the nodes, the
seconds to build and to check, the leaves by kind, and the ratio of the nodes;
``--no-plain`` builds only the certified tree (the plain one of an opening past 6x6
takes hours). No other program writes proofs a checker can replay, so there is no peer
to run beside: the figure is the tree's size.

    NUMBA_NUM_THREADS=1 taskset -c 0 .venv/bin/python benchmarks/bench_hex_proof_trees.py \\
        --size 6 --openings a1,b5,c3 --time 600
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.proofcheck import check_proof
from boardlab.hex.prover.classify import OutOfBudgetError
from boardlab.hex.prover.openings import published_winners
from boardlab.hex.prover.prooftree import ProofTooLargeError, build_proof
from boardlab.hex.prover.verdicts import warm
from boardlab.hex.prover.wide import MAX_WIDE_CELLS, fresh_search

#: Nodes a tree may have before it is given up.
MAX_NODES = 2_000_000


def one_tree(size: int, cell: int, connections: bool, seconds: float) -> str:
    """Prove the opening on ``cell``, build and check its tree; one line."""
    search = fresh_search(size, Limit(time=seconds).start(), None)
    began = time.perf_counter()
    winner = 2 if search.prove(1 << cell, 0, 2) else 1
    proved = time.perf_counter()
    mode = "certified" if connections else "plain"
    try:
        proof = build_proof(
            search, 1 << cell, 0, 2, winner, MAX_NODES, None, time.monotonic() + seconds,
            connections,
        )  # fmt: skip
    except (ProofTooLargeError, OutOfBudgetError):
        return f"{mode:9} winner {winner}, tree not finished in {seconds:.0f} s"
    built = time.perf_counter()
    answer = check_proof(proof)
    checked = time.perf_counter()
    published = published_winners(size)[0].get(cell)
    agrees = "" if published is None else (" agrees" if published == winner else " MISMATCH")
    return (
        f"{mode:9} winner {winner}{agrees}, search {proved - began:.1f} s, "
        f"{len(proof['nodes'])} nodes built in {built - proved:.1f} s, "
        f"checked in {checked - built:.1f} s: {answer.line()}"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=6)
    parser.add_argument("--openings", default="a1,b5,c3", help="HexGui cells, commas between")
    parser.add_argument("--time", type=float, default=600.0, help="seconds a search or tree")
    parser.add_argument("--no-plain", action="store_true", help="the certified tree only")
    args = parser.parse_args(argv)
    if args.size < 2 or args.size**2 > MAX_WIDE_CELLS:
        print(f"bench_hex_proof_trees: --size {args.size} is not 2 to 11", file=sys.stderr)
        return 2
    try:
        cells = [vertex_index(name.strip(), args.size) for name in args.openings.split(",")]
    except (BoardlabError, ValueError) as error:
        print(f"bench_hex_proof_trees: {error}", file=sys.stderr)
        return 2
    warm()
    print(f"{args.size}x{args.size} proof trees, {args.time:.0f} s a search or tree", flush=True)
    for name, cell in zip(args.openings.split(","), cells, strict=True):
        modes = (True,) if args.no_plain else (False, True)
        for connections in modes:
            line = one_tree(args.size, cell, connections, args.time)
            print(f"  {name.strip():4} {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
