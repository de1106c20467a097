"""Where boardlab's lost Hex games were lost: the move that turned an open or won
position into a proven loss, found by walking each game backwards with a prover.

For every kept game that boardlab lost (SGF files under the given folders, as
``bench_hex_mohex.py`` writes them; boardlab's colour from ``PB``/``PW``), the positions
after boardlab's moves are proven from the last one back: MoHex's ``dfpn-solve-state``
(``--seconds`` a position), confirmed by boardlab's own solver with ``--check``. The walk
stops at the first position that is not a proven loss for boardlab: the boardlab move
after it is the *blunder*. A histogram is printed by phase (stones on the board when
the blunder was played: opening under 10 % of the cells, endgame from 35 %) and by kind:

- ``missed win``: the position before the blunder was a proven win for boardlab;
- ``edge``: the blunder, or the winning reply to it, lies within two rows of an edge
  (edge templates and ladders are fought there);
- ``middle``: an open position lost away from the edges (a missed virtual connection
  or a weak shape in the open);
- ``never open``: every position boardlab faced that the prover could decide was lost
  already (its proof reached the first move boardlab played).

MoHex is built outside the repository (see ``bench_hex_mohex.py``): ``--mohex PATH`` or
``$MOHEX``. Run from the repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/hex_blunders.py RESULTS/RUN_FOLDER

``--json OUT`` also writes each blunder with the moves before it (the position boardlab
faced), the suite ``hex_blunder_suite.py`` plays engine settings on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.hex.formats import RecordedGame, parse_game_sgf
from boardlab.hex.judge import Prover
from boardlab.hex.match import SolverProver
from boardlab.hex.rules import BLACK, WHITE, Cell
from boardlab.peers.mohex import (
    MOHEX_ABSENT,
    CheckedProver,
    MohexProver,
    mohex_binary,
)

#: Shares of the board's cells that end the opening and start the endgame.
OPENING_SHARE = 0.10
ENDGAME_SHARE = 0.35
#: Rows from an edge where templates and ladders are fought.
EDGE_ROWS = 2


@dataclass(frozen=True)
class Blunder:
    """The losing move of one game: its ply (0-based), vertex, phase and kind, and the
    moves before it."""

    name: str
    ply: int
    move: str
    reply: str | None
    phase: str
    kind: str
    size: int
    before: tuple[str, ...]

    def record(self, game: str) -> dict[str, object]:
        """The blunder as one JSON object of ``--json``'s list."""
        return {
            "game": game,
            "size": self.size,
            "ply": self.ply,
            "moves": list(self.before),
            "blunder": self.move,
            "reply": self.reply,
            "phase": self.phase,
            "kind": self.kind,
        }


def phase_of(ply: int, size: int) -> str:
    share = ply / (size * size)
    if share < OPENING_SHARE:
        return "opening"
    return "endgame" if share >= ENDGAME_SHARE else "middlegame"


def near_edge(vertex: str | None, size: int) -> bool:
    if vertex is None:
        return False
    try:
        cell = Cell.parse(vertex, size)
    except BoardlabError:
        return False
    return min(cell.row, cell.col, size - 1 - cell.row, size - 1 - cell.col) < EDGE_ROWS


def find_blunder(name: str, game: RecordedGame, ours: int, prover: Prover) -> Blunder | None:
    """The first boardlab move after which the position is a proven loss for boardlab
    while the position before it was not (None when no position after a boardlab move
    is proven lost)."""
    mine = [ply for ply in range(len(game.moves)) if (ply % 2 == 0) == (ours == BLACK)]
    blunder: int | None = None
    for ply in reversed(mine):
        verdict = prover(game.size, game.moves[: ply + 1])
        if verdict is None or verdict.winner == ours:
            break
        blunder = ply
    if blunder is None:
        return None
    before = prover(game.size, game.moves[:blunder]) if blunder > mine[0] else None
    reply = game.moves[blunder + 1] if blunder + 1 < len(game.moves) else None
    move = game.moves[blunder]
    if blunder == mine[0] and before is None:
        kind = "never open"
    elif before is not None and before.winner == ours:
        kind = "missed win"
    elif near_edge(move, game.size) or near_edge(reply, game.size):
        kind = "edge"
    else:
        kind = "middle"
    return Blunder(
        name,
        blunder,
        move,
        reply,
        phase_of(blunder, game.size),
        kind,
        game.size,
        tuple(game.moves[:blunder]),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--seconds", type=float, default=20.0, help="MoHex's DFPN a position")
    parser.add_argument(
        "--check", type=float, default=0.0, help="boardlab's solver a position (0: MoHex alone)"
    )
    parser.add_argument("--json", type=Path, help="write the blunders and their positions here")
    args = parser.parse_args(argv)
    args.mohex = mohex_binary(args.mohex)
    if args.mohex is None:
        print(f"hex_blunders: {MOHEX_ABSENT}", file=sys.stderr)
        return 2
    prover: Prover = MohexProver(args.mohex, args.seconds)
    if args.check > 0:
        prover = CheckedProver(prover, SolverProver(args.check))
    blunders: list[Blunder] = []
    records: list[dict[str, object]] = []
    lost = undecided = 0
    for path in sorted(p for folder in args.folders for p in folder.rglob("*.sgf")):
        try:
            game = parse_game_sgf(path.read_text(encoding="utf-8"), str(path))
        except (BoardlabError, OSError) as exc:
            print(f"hex_blunders: skipped {path}: {exc}", file=sys.stderr)
            continue
        ours = BLACK if game.black == "boardlab" else WHITE
        if game.winner is None or game.winner == ours:
            continue
        lost += 1
        found = find_blunder(path.name, game, ours, prover)
        if found is None:
            undecided += 1
            print(f"{path.name}: no position after a boardlab move proven lost", flush=True)
            continue
        blunders.append(found)
        records.append(found.record(f"{path.parent.name}/{path.name}"))
        print(
            f"{path.name}: move {found.ply + 1} {found.move} ({found.phase}, {found.kind}),"
            f" answered {found.reply or '-'}",
            flush=True,
        )
    print(f"\n{lost} lost games, {len(blunders)} blunders found, {undecided} undecided")
    for title, counts in (
        ("by phase", Counter(b.phase for b in blunders)),
        ("by kind", Counter(b.kind for b in blunders)),
    ):
        print(title + ":")
        for key, count in counts.most_common():
            print(f"  {key:<12} {count:>3}  {'#' * count}")
    if args.json is not None:
        args.json.write_text(json.dumps(records, indent=1) + "\n", encoding="utf-8")
        print(f"{len(records)} positions written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
