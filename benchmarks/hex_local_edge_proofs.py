"""Benchmark helper: the prover given its groups' edge connections proven on made-up positions.

For a position and the player who just moved (the *owner*), every analysis with the
owner's opponent to move first asks, for each of the owner's groups (``--nodes groups``;
``liberties`` adds every empty cell next to one) and each of the owner's two edges,
whether the group joins that edge inside the *cone* between them: the empty cells no
farther from the edge than the group and at most the group's distance plus ``--slack``
from it. The question goes to boardlab's own prover on a made-up position: the cone as it
is (the owner's stones in it kept), the group tied to the owner's far edge by a straight
chain of the owner's stones, every other cell the opponent's, the opponent to move (the
cone's cells next to the chain, other than the group's own liberties, are left out, so
the chain joins nothing the group does not). The owner wins there exactly when the group
joins the edge inside the cone whatever the opponent plays first, and the proof's cells
in the cone are a carrier. The answers (kept by made-up position) are handed to the
owner's H-search as full connections, as ``hex_seeded_connections.py`` hands it MoHex's,
and the position is proven without them and with them: positions analysed, seconds, and
what the local proofs cost. A diagnostic of what such connections are worth, not a claim
about strength.

    NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/hex_local_edge_proofs.py \\
        --sgf .../8x8-henderson-93.sgf --play "w e6" --nodes groups
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.prover.dfpn import Dfpn, OutOfBudgetError
from boardlab.hex.prover.solver import new_search, solve
from boardlab.hex.rules import BLACK, WHITE
from hex_seeded_connections import (
    Connection,
    flood,
    helped_search,
    neighbour_masks,
    read_position,
    search_class,
    spread,
)

#: Where each player's two edge lines lie among the solver's four (black's first).
_FIRST_LINE = {BLACK: 0, WHITE: 2}
#: The step away from each edge line (row, column), towards the opposite one.
_AWAY = {0: (0, 1), 1: (0, -1), 2: (1, 0), 3: (-1, 0)}

Nodes = Callable[[int, list[int], int, int], list[int]]


@dataclass
class Tally:
    """What the local proofs cost: questions, answers kept, joins, positions analysed."""

    asked: int = 0
    kept: int = 0
    joined: int = 0
    analysed: int = 0
    seconds: float = 0.0
    answers: dict[tuple[int, int, int], int | None] = field(default_factory=dict)


def edge_distance(n: int, cell: int, line: int) -> int:
    """Rows between ``cell`` and the solver's edge line ``line`` (0 on it)."""
    row, column = divmod(cell, n)
    return (column, n - 1 - column, row, n - 1 - row)[line]


def hex_distance(n: int, a: int, b: int) -> int:
    """Moves between two cells of the board."""
    (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
    dr, dc = rb - ra, cb - ca
    return max(abs(dr), abs(dc), abs(dr + dc))


def made_up(
    n: int, own: int, opp: int, node: int, line: int, slack: int
) -> tuple[int, int, int, int]:
    """``(owner's stones, opponent's stones, cone)`` of the made-up position for
    ``node`` (a stone of the owner's or an empty cell taken as one) and edge ``line``,
    and the owner's group there."""
    nbr = neighbour_masks(n)
    group = flood(nbr, 1 << node, own | 1 << node)
    cells = [c for c in range(n * n) if group >> c & 1]
    depth = min(edge_distance(n, c, line) for c in cells)
    cone = kept = 0
    for cell in range(n * n):
        if group >> cell & 1 or edge_distance(n, cell, line) > depth:
            continue
        if min(hex_distance(n, cell, c) for c in cells) > depth + slack:
            continue
        if own >> cell & 1:
            kept |= 1 << cell
        elif not opp >> cell & 1:
            cone |= 1 << cell
    row, column = divmod(min(cells, key=lambda c: edge_distance(n, c, line)), n)
    step_row, step_column = _AWAY[line]
    chain = 0
    while True:
        row, column = row + step_row, column + step_column
        if not (0 <= row < n and 0 <= column < n):
            break
        chain |= 1 << (row * n + column)
    cone &= ~(spread(nbr, chain) & ~spread(nbr, group))
    mine = group | chain | kept
    return mine, ((1 << n * n) - 1) & ~(mine | cone), cone, group


def joins(
    n: int,
    owner: int,
    own: int,
    opp: int,
    node: int,
    line: int,
    slack: int,
    tally: Tally,
    positions: int,
) -> int | None:
    """The carrier of the owner's connection from ``node`` to edge ``line`` inside its
    cone, proven on the made-up position (kept in ``tally``); None if none is proven."""
    mine, theirs, cone, _ = made_up(n, own, opp, node, line, slack)
    black, white = (mine, theirs) if owner == BLACK else (theirs, mine)
    key = (black, white, owner)
    tally.asked += 1
    if key in tally.answers:
        tally.kept += 1
        return tally.answers[key]
    started = time.perf_counter()
    search = search_class(n)(n, Limit(nodes=positions).start())
    carrier: int | None = None
    try:
        if not search.prove(black, white, 3 - owner):
            found = search.key(black, white, 3 - owner)
            carrier = search.proof_of(found, black, white) & cone
    except OutOfBudgetError:
        carrier = None
    tally.analysed += search.analysed
    tally.seconds += time.perf_counter() - started
    tally.answers[key] = carrier
    tally.joined += carrier is not None
    return carrier


def group_nodes(n: int, nbr: list[int], own: int, opp: int) -> list[int]:
    """One cell of each of the owner's groups."""
    seen = 0
    found = []
    for cell in range(n * n):
        if own >> cell & 1 and not seen >> cell & 1:
            seen |= flood(nbr, 1 << cell, own)
            found.append(cell)
    return found


def liberty_nodes(n: int, nbr: list[int], own: int, opp: int) -> list[int]:
    """The groups' cells of :func:`group_nodes` and every empty cell next to a group."""
    free = spread(nbr, own) & ~(own | opp)
    return group_nodes(n, nbr, own, opp) + [c for c in range(n * n) if free >> c & 1]


def searching(n: int, owner: int, nodes: Nodes, slack: int, positions: int, tally: Tally) -> Dfpn:
    """A fresh DFPN search whose every analysis with the owner's opponent to move starts
    the owner's H-search with the connections :func:`joins` proves there."""
    nbr = neighbour_masks(n)
    first = _FIRST_LINE[owner]

    def proven(own: int, opp: int) -> list[Connection]:
        listed = []
        for node in nodes(n, nbr, own, opp):
            for side in range(2):
                carrier = joins(n, owner, own, opp, node, first + side, slack, tally, positions)
                if carrier is not None:
                    listed.append(Connection(node, n * n + side, carrier, ""))
        return listed

    return helped_search(n, owner, proven)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sgf", type=Path, required=True, help="a HexGui SGF position")
    parser.add_argument("--play", default="", help="moves first, e.g. 'w e6; b c3'")
    parser.add_argument("--nodes", choices=("groups", "liberties"), default="groups")
    parser.add_argument("--slack", type=int, default=2, help="the cone's width (default 2)")
    parser.add_argument(
        "--local-positions", type=int, default=200, help="positions a local proof may take"
    )
    parser.add_argument("--time", type=float, default=300.0, help="seconds a proof at most")
    args = parser.parse_args(argv)
    try:
        position = read_position(args.sgf, args.play)
    except (BoardlabError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    n = position.size
    owner = 3 - position.to_move
    nodes = group_nodes if args.nodes == "groups" else liberty_nodes
    tally = Tally()
    for name, search in (
        ("without them", new_search(n)),
        ("with them", searching(n, owner, nodes, args.slack, args.local_positions, tally)),
    ):
        started = time.perf_counter()
        result = solve(position, Limit(time=args.time), all_moves=False, search=search)
        spent = time.perf_counter() - started
        winner = {BLACK: "black", WHITE: "white"}.get(result.winner or 0, "unknown")
        print(f"proof {name}: {winner} wins, {result.nodes} positions, {spent:.2f} s")
    print(
        f"local proofs: {tally.asked} asked, {tally.kept} answered from the kept ones, "
        f"{tally.joined} joins found, {tally.analysed} positions analysed in "
        f"{tally.seconds:.2f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
