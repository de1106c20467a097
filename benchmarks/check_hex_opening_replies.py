"""Every white reply of ``hex openings`` tables proven winning again by a fresh solve.

    .venv/bin/python benchmarks/check_hex_opening_replies.py 7 DIR1/table.json DIR2/table.json

For each searched opening with a reply (the twins are their turns), the position after
black's opening and white's reply is solved by a new search (``solve``, black to move);
the reply is confirmed when white wins. Prints one line a reply and the count not
confirmed; exit status 1 if any.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from boardlab.core.limits import Limit
from boardlab.hex.board import vertex_index
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import WHITE, Position


def main(argv: list[str]) -> int:
    size = int(argv[0])
    pairs: set[tuple[str, str]] = set()
    for path in argv[1:]:
        for row in json.loads(Path(path).read_text())["table"]:
            if row["reply"] and not row["by_symmetry"]:
                pairs.add((row["opening"], row["reply"]))
    bad = 0
    for opening, reply in sorted(pairs):
        position = Position(size)
        position.play_index(vertex_index(opening, size))
        position.play_index(vertex_index(reply, size))
        began = time.perf_counter()
        result = solve(position, Limit(time=600), all_moves=False)
        confirmed = result.winner == WHITE
        bad += not confirmed
        verdict = "white wins" if confirmed else f"NOT CONFIRMED (winner {result.winner})"
        print(f"{opening} {reply} {verdict} {time.perf_counter() - began:.1f}s", flush=True)
    print(f"{len(pairs)} replies, {bad} not confirmed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
