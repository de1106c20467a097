"""Benchmark: the one-process Hex DFPN under one setting of its search, on 8x8 openings.

Each opening (black's stone on a cell, white to move) is proven by
``hex.prover.solver.solve`` in this process (kernels loaded first, one question at a
time), with the DFPN's settings changed by ``--set NAME=VALUE`` (repeatable):

- ``epsilon``: the 1 + epsilon trick's growth of a child's threshold
  (``hex.prover.dfpn.EPSILON``);
- ``widening``: the share of a node's children its proof numbers count
  (``Dfpn.widening``);
- ``region_depth``: captured regions filled down to this depth less one (1: the root only;
  ``Dfpn.region_depth``);
- ``vc_fill_from``: the board size from which every analysis fills the regions captured
  through a connection (``Dfpn.vc_fill_from``);
- ``recall_children`` (0 or 1): every child looked up among the stored proofs each time a
  node counts them (``Dfpn.recall_children``);
- ``far_pairs_from``: the board size from which every analysis fills the captured pairs
  at any distance (``Dfpn.far_pairs_from``, :mod:`boardlab.hex.prover.farpairs`; 9: off
  on 8x8);
- ``local_games_from``: the board size from which every analysis fills the regions of
  two or three cells their local game settles (``Dfpn.local_games_from``,
  :mod:`boardlab.hex.prover.localfill`; 9: off on 8x8).

The positions analysed are the same on every machine (the search is deterministic); the
seconds are one core's (pin the process, e.g. ``taskset -c 0``, and run one setting a
core). Every answer is checked against the published winner of its opening. With
``--mohex`` (or ``$MOHEX``) MoHex 2.0's DFPN answers each opening on one thread in the
same run, and the ratio of the total times is printed.

    NUMBA_NUM_THREADS=1 taskset -c 0 .venv/bin/python benchmarks/bench_hex_dfpn_settings.py \\
        --openings d5,c6,b8,d1,c4,d2 --set epsilon=0.0625 --set region_depth=1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

from bench_hex_prover_parallel import theirs
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.prover import dfpn
from boardlab.hex.prover.openings import published_winners
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Position
from boardlab.peers.mohex import mohex_binary

SIZE = 8
#: Settings that are numbers, and where each lives.
_CLASS_SETTINGS = {
    "widening": float,
    "region_depth": int,
    "vc_fill_from": int,
    "recall_children": int,
    "far_pairs_from": int,
    "local_games_from": int,
}


def apply(settings: Sequence[str]) -> list[str]:
    """Set each ``NAME=VALUE`` on the one-word DFPN; the settings as applied.

    :raises BoardlabError: for an unknown name or a value that is not a number.
    """
    applied = []
    for text in settings:
        name, _, value = text.partition("=")
        name = name.strip()
        if name != "epsilon" and name not in _CLASS_SETTINGS:
            known = ", ".join(["epsilon", *_CLASS_SETTINGS])
            raise BoardlabError(f"--set {text}: no setting {name!r} (known: {known})")
        try:
            number = float(value) if name == "epsilon" else _CLASS_SETTINGS[name](value)
        except ValueError:
            raise BoardlabError(f"--set {text}: {value!r} is not a number") from None
        if name == "epsilon":
            dfpn.EPSILON = number
        else:
            setattr(dfpn.Dfpn, name, bool(number) if name == "recall_children" else number)
        applied.append(f"{name}={value}")
    return applied


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--openings", default="d5,c6,b8,d1", help="8x8 opening cells (default d5,c6,b8,d1)"
    )
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--time", type=float, default=300.0, help="seconds a proof at most")
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX); without one MoHex is skipped")
    args = parser.parse_args(argv)
    try:
        applied = apply(args.set)
        cells = [(cell, vertex_index(cell, SIZE)) for cell in args.openings.split(",") if cell]
    except (BoardlabError, ValueError) as exc:
        print(exc, file=sys.stderr)
        return 2
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print("MoHex: no binary given (--mohex or $MOHEX): its column is left out")
    published, _ = published_winners(SIZE)
    solve(Position(3), Limit(time=5))  # load the kernels before any clock
    print(f"settings: {', '.join(applied) or 'as shipped'}; epsilon {dfpn.EPSILON}")
    ours_total = theirs_total = 0.0
    analysed_total = 0
    wrong = 0
    for name, index in cells:
        position = Position(SIZE)
        position.play_index(index)
        started = time.perf_counter()
        result = solve(position, Limit(time=args.time), all_moves=False)
        spent = time.perf_counter() - started
        ours_total += spent
        analysed_total += result.nodes
        expected = published.get(index)
        right = result.winner is not None and result.winner == expected
        wrong += result.winner is not None and not right
        line = f"  {name}: boardlab {result.winner} {spent:.1f} s ({result.nodes} analysed)"
        if binary:
            winner, seconds = theirs(binary, SIZE, name, args.time)
            theirs_total += seconds
            line += f"  MoHex {winner} {seconds:.1f} s"
        verdict = "right" if right else ("unsolved" if result.winner is None else "WRONG")
        print(f"{line}  {verdict}", flush=True)
    print(f"total: boardlab {ours_total:.1f} s, {analysed_total} analysed", end="")
    if binary:
        print(f"; MoHex {theirs_total:.1f} s; ratio {ours_total / theirs_total:.2f}", end="")
    print(f"; {wrong} wrong")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
