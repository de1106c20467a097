"""Benchmark helper: what boardlab's H-search decides when handed another program's connections.

Reads a listing of full connections in MoHex's words (the output of
``hex_mohex_connections.py``: ``white g2 g4 full or [ h1 g3 h3 h4 ] [ ]``), seeds
boardlab's H-search for that player on the position with them (queued as connections
it found itself, so its AND and OR rules combine them with its own), and prints whether
the search then joins the player's edges: with none of them, with all of them, with each
alone, and with all but those that decide alone. It says whether a gap between the two
programs lies in the connections listed (seeded, boardlab derives the rest) or in what is
derived from them (only the largest decides). A diagnostic, not a claim about strength.

    .venv/bin/python benchmarks/hex_seeded_connections.py --sgf POSITION.sgf --who white \\
        --listing LISTING.txt

With ``--show NODES`` instead of a listing it prints the full and semi connections
boardlab's own H-search (from nothing, the solver's lists and templates) finds between
the named cells and edges, in MoHex's words (a group is named by its cell):

    .venv/bin/python benchmarks/hex_seeded_connections.py --sgf POSITION.sgf --play "w e6" \\
        --who white --show "west d3 d4 d5"
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import neighbours, vertex_index, vertex_names
from boardlab.hex.formats import parse_sgf
from boardlab.hex.hsearch import FULL_ROW, PENDING_ROW, SEMI_ROW, hsearch
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.solver import new_search, solve
from boardlab.hex.rules import BLACK, WHITE, Position

_LINE = re.compile(r"^\s*(black|white)\s+(\S+)\s+(\S+)\s+full\s+\S+\s+\[([^\]]*)\]")
#: Where the edge lines of each player lie among the solver's four (black's two first).
_EDGE_ROWS = {BLACK: 0, WHITE: 2}


@dataclass(frozen=True, slots=True)
class Connection:
    """A full connection between two nodes (a cell's index, or ``cells`` and ``cells + 1``
    for the player's two edge lines) with its carrier (a bit a cell), as listed."""

    a: int
    b: int
    carrier: int
    text: str


def edge_node(name: str, player: int, size: int, lines: Sequence[int]) -> int | None:
    """The search's node for MoHex's edge ``name`` of ``player`` (None if not an edge of
    theirs): ``size * size`` for the first of their lines, one more for the second."""
    middle = str(size // 2 + 1)
    last = chr(ord("a") + size - 1)
    inside = {
        "north": "b1",
        "south": f"b{size}",
        "west": f"a{middle}",
        "east": f"{last}{middle}",
    }.get(name)
    if inside is None:
        return None
    cell = vertex_index(inside, size)
    first = _EDGE_ROWS[player]
    for side in range(2):
        if lines[first + side] >> cell & 1:
            return size * size + side
    return None


def read_listing(
    text: str, position: Position, player: int, lines: Sequence[int]
) -> list[Connection]:
    """The full connections of ``player`` in a listing (other lines are skipped).

    :raises BoardlabError: for a cell off the board or a carrier that is not empty.
    """
    size = position.size
    colour = "black" if player == BLACK else "white"
    found: list[Connection] = []
    for number, line in enumerate(text.splitlines(), 1):
        match = _LINE.match(line)
        if match is None or match.group(1) != colour:
            continue
        ends: list[int] = []
        for name in match.group(2, 3):
            node = edge_node(name, player, size, lines)
            ends.append(node if node is not None else vertex_index(name, size))
        carrier = 0
        for name in match.group(4).split():
            cell = vertex_index(name, size)
            if position.board[cell] != 0:
                raise BoardlabError(f"line {number}: carrier cell {name} is not empty")
            carrier |= 1 << cell
        found.append(Connection(ends[0], ends[1], carrier, line.strip()))
    return found


def one_run(text: str, k: int) -> str:
    """The lines after the ``k``-th command line (one starting ``$ ``) of a kept output, up
    to the next; the whole text when it has no command line and ``k`` is 1.

    :raises BoardlabError: when the text has fewer than ``k`` commands.
    """
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            blocks.append([])
        elif blocks:
            blocks[-1].append(line)
    if not blocks and k == 1:
        return text
    if not 1 <= k <= len(blocks):
        raise BoardlabError(f"the listing has {len(blocks)} commands, not {k}")
    return "\n".join(blocks[k - 1])


@cache
def _model_search(size: int) -> Dfpn:
    """One search of the board, made once: its tables and its class serve every call."""
    return new_search(size)


def search_class(size: int) -> type[Dfpn]:
    """The class of the prover's DFPN search on boards of ``size``."""
    return type(_model_search(size))


def board_tables(size: int) -> tuple[Any, Any, Any, int]:
    """The prover's neighbour table, edge lines, edge templates and work bound for a
    board (the one-word search's up to 8x8, the wide one's past it)."""
    search = _model_search(size)
    tables = getattr(search, "knowledge", search)
    return tables.nbr, tables.lines, search.templates, search.max_work


def words(cells: int, width: int) -> tuple[np.uint64, ...]:
    """A bit set as the search's tuple of ``width`` 64-bit words."""
    return tuple(np.uint64(cells >> (64 * i) & (1 << 64) - 1) for i in range(width))


def joins(
    position: Position, player: int, seeded: Sequence[Connection], kf: int, ks: int
) -> tuple[bool, bool]:
    """(full, semi): whether boardlab's H-search for ``player`` joins their edges when
    its own table is given ``seeded`` as connections still to combine."""
    nbr, edge_lines, templates, max_work = board_tables(position.size)
    black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
    own, opp = (black, white) if player == BLACK else (white, black)
    first = _EDGE_ROWS[player]
    width = len(edge_lines[0])
    low, high = (tuple(edge_lines[first + side]) for side in range(2))

    def run(seed: np.ndarray, work: int) -> tuple[bool, bool, np.ndarray]:
        f, s, _, _, _, _, table = hsearch(
            position.size, nbr, words(own, width), words(opp, width), low, high,
            kf, ks, work, False, seed, True, templates, first,
        )  # fmt: skip
        return bool(f), bool(s), table

    f, s, table = run(np.empty((0, 2 * width), np.uint64), max_work)
    if not seeded:
        return f, s
    f, s, _ = run(np.concatenate([table, *connection_rows(seeded, width)]), 100 * max_work)
    return f, s


def minimal(
    position: Position, player: int, listed: Sequence[Connection], best: int, kf: int, ks: int
) -> list[Connection]:
    """A subset of ``listed`` that still joins the edges at rank ``best`` and none of whose
    members can go: each dropped in turn, the largest carriers first, unless the rank
    falls without it."""
    kept = sorted(listed, key=lambda c: (-c.carrier.bit_count(), c.text))
    for c in list(kept):
        trial = [d for d in kept if d is not c]
        if rank(joins(position, player, trial, kf, ks)) >= best:
            kept = trial
    return sorted(kept, key=lambda c: (c.carrier.bit_count(), c.text))


def helped_search(size: int, owner: int, found: Callable[[int, int], Sequence[Connection]]) -> Dfpn:
    """A fresh DFPN search of the board whose every analysis of a position with ``owner``'s
    opponent to move starts ``owner``'s H-search with the connections ``found(own, opp)``
    names there (``own`` the owner's stones, ``opp`` the opponent's), on top of the table
    the search would have started from (its parent's, or one found afresh)."""
    base = search_class(size)
    nbr, edge_lines, templates, _ = board_tables(size)
    width = len(edge_lines[0])
    first = _EDGE_ROWS[owner]
    low, high = (tuple(edge_lines[first + side]) for side in range(2))

    class Helped(base):  # type: ignore[valid-type, misc]
        def analyse(
            self, black: int, white: int, player: int, seed: Any = None
        ) -> tuple[int, int, int, int, int, Any]:
            own, opp = (black, white) if owner == BLACK else (white, black)
            listed = [] if player == owner else found(own, opp)
            if not listed:
                return super().analyse(black, white, player, seed)  # type: ignore[no-any-return]
            none = np.empty((0, 2 * width), np.uint64)
            table = seed[0] if seed is not None and seed[0].shape[0] > 0 else None
            if table is None:
                *_, table = hsearch(
                    size, nbr, words(own, width), words(opp, width), low, high, self.kf,
                    self.ks, self.max_work, False, none, True, templates, first,
                )  # fmt: skip
            rows = [table, *connection_rows(listed, width)]
            seeded = (np.concatenate(rows), none if seed is None else seed[1])
            return super().analyse(black, white, player, seeded)  # type: ignore[no-any-return]

    return Helped(size, Limit().start(), memory=None)


def seeded_search(size: int, owner: int, listed: Sequence[Connection]) -> Dfpn:
    """:func:`helped_search` with the ``listed`` connections still whole in each position
    (both ends not the opponent's, the carrier empty)."""
    cells = size * size

    def live(own: int, opp: int) -> list[Connection]:
        return [
            c
            for c in listed
            if not c.carrier & (own | opp)
            and not any(end < cells and opp >> end & 1 for end in (c.a, c.b))
        ]

    return helped_search(size, owner, live)


def neighbour_masks(size: int) -> list[int]:
    """Each cell's neighbours as a bit set."""
    return [sum(1 << j for j in around) for around in neighbours(size)]


def spread(nbr: list[int], cells: int) -> int:
    """Every cell next to one of ``cells`` (``nbr`` from :func:`neighbour_masks`)."""
    found = 0
    while cells:
        low = cells & -cells
        found |= nbr[low.bit_length() - 1]
        cells ^= low
    return found


def flood(nbr: list[int], seed: int, through: int) -> int:
    """The cells of ``through`` joined to ``seed`` (``seed`` included)."""
    reach = seed
    while True:
        grown = reach | (spread(nbr, reach) & through)
        if grown == reach:
            return reach
        reach = grown


def connection_rows(listed: Sequence[Connection], width: int) -> list[np.ndarray]:
    """The rows of an H-search table that hand it ``listed`` as full connections still to
    combine (each as a full row and a pending one)."""
    rows = []
    for c in listed:
        for kind in (FULL_ROW, PENDING_ROW):
            row = np.zeros((1, 2 * width), np.uint64)
            row[0, 0] = np.uint64(kind | c.a << 8 | c.b << 16)
            row[0, 1 : 1 + width] = words(c.carrier, width)
            rows.append(row)
    return rows


def read_position(sgf: Path, play: str) -> Position:
    """The HexGui SGF position after ``play`` (``COLOUR CELL`` moves, ``;`` between them).

    :raises BoardlabError: for a malformed move or a board past 11x11 (the search's).
    :raises OSError: when the file cannot be read.
    """
    position = parse_sgf(sgf.read_text(), str(sgf))
    for move in (m.split() for m in play.split(";") if m.strip()):
        if len(move) != 2 or move[0][:1].lower() not in ("b", "w"):
            raise BoardlabError(f"--play: {' '.join(move)!r} is not 'COLOUR CELL'")
        position.to_move = BLACK if move[0][:1].lower() == "b" else WHITE
        position.play_index(vertex_index(move[1], position.size))
    if position.size > 11:
        raise BoardlabError(f"{sgf}: the search takes boards up to 11x11")
    return position


def own_connections(
    position: Position, player: int, names: Sequence[str], kf: int, ks: int
) -> list[str]:
    """The full and semi connections of ``player`` between two of ``names`` (cells, or the
    player's edges in MoHex's words) that boardlab's H-search finds from nothing, one line
    each in MoHex's words (a semi one with its key), the full ones first.

    :raises BoardlabError: for a name that is neither a cell nor one of the player's edges.
    """
    size = position.size
    nbr, edge_lines, templates, max_work = board_tables(size)
    lines = [sum(int(w) << (64 * i) for i, w in enumerate(row)) for row in edge_lines]
    black = sum(1 << i for i, v in enumerate(position.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(position.board) if v == WHITE)
    own, opp = (black, white) if player == BLACK else (white, black)
    nbr_masks = neighbour_masks(size)
    nodes: dict[int, str] = {}
    for name in names:
        node = edge_node(name, player, size, lines)
        if node is None and name in ("north", "south", "east", "west"):
            raise BoardlabError(f"--show: {name} is not an edge of this player's")
        if node is not None:
            nodes[node] = name
            continue
        cell = vertex_index(name, size)
        # a stone names its whole group (the table's node), an empty cell itself
        group = flood(nbr_masks, 1 << cell, own) if own >> cell & 1 else 1 << cell
        nodes.update((c, name) for c in range(size * size) if group >> c & 1)
    first = _EDGE_ROWS[player]
    width = len(edge_lines[0])
    low, high = (tuple(edge_lines[first + side]) for side in range(2))
    none = np.empty((0, 2 * width), np.uint64)
    *_, table = hsearch(
        size, nbr, words(own, width), words(opp, width), low, high, kf, ks, max_work,
        False, none, True, templates, first,
    )  # fmt: skip
    colour = "black" if player == BLACK else "white"
    found: list[tuple[int, int, str]] = []
    for row in table[1:]:
        code = int(row[0])
        kind, a, b, key = code & 0xFF, code >> 8 & 0xFF, code >> 16 & 0xFF, code >> 24 & 0xFF
        if kind not in (FULL_ROW, SEMI_ROW) or a not in nodes or b not in nodes:
            continue
        carrier = sum(int(w) << (64 * i) for i, w in enumerate(row[1:]))
        text = f"{colour} {nodes[a]} {nodes[b]} "
        text += "full or" if kind == FULL_ROW else "semi and"
        text += f" [ {vertex_names(carrier, size)} ] [ ]"
        if kind == SEMI_ROW:
            text += f" {vertex_names(1 << key, size)}"
        found.append((kind, carrier.bit_count(), text))
    return [text for *_, text in sorted(found)]


def rank(joined: tuple[bool, bool]) -> int:
    """2 for a full edge-to-edge connection, 1 for a semi one, 0 for none."""
    return 2 if joined[0] else 1 if joined[1] else 0


def describe(joined: tuple[bool, bool]) -> str:
    full, semi = joined
    return "full" if full else "semi" if semi else "no"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--sgf", type=Path, required=True, help="a HexGui SGF position (up to 11x11)"
    )
    parser.add_argument("--play", default="", help="moves first, e.g. 'w h2; b c3'")
    parser.add_argument("--who", choices=("black", "white"), required=True)
    parser.add_argument("--listing", type=Path, help="hex_mohex_connections output")
    parser.add_argument(
        "--show", help="print boardlab's own connections between these cells and edges instead"
    )
    parser.add_argument(
        "--run",
        type=int,
        default=1,
        help="the listing of the K-th command ('$ ' lines)",
    )
    parser.add_argument(
        "--prove",
        type=float,
        metavar="SECONDS",
        help="then prove the position for the side to move, without the listed connections "
        "and with them in every search of the listing's player, SECONDS each at most",
    )
    parser.add_argument("--kf", type=int, default=16, help="full connections kept a pair")
    parser.add_argument("--ks", type=int, default=24, help="semi connections kept a pair")
    args = parser.parse_args(argv)
    player = BLACK if args.who == "black" else WHITE
    try:
        position = read_position(args.sgf, args.play)
        if args.show is not None:
            for line in own_connections(position, player, args.show.split(), args.kf, args.ks):
                print(line)
            return 0
        if args.listing is None:
            raise BoardlabError("--listing or --show is needed")
        lines = [
            sum(int(word) << (64 * i) for i, word in enumerate(row))
            for row in board_tables(position.size)[1]
        ]
        listed = read_listing(one_run(args.listing.read_text(), args.run), position, player, lines)
    except (BoardlabError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{len(listed)} full connections of {args.who} listed; kf {args.kf}, ks {args.ks}")
    own = rank(joins(position, player, [], args.kf, args.ks))
    print(f"boardlab's own search: {('no', 'semi', 'full')[own]}")
    print(f"with all listed: {describe(joins(position, player, listed, args.kf, args.ks))}")
    alone = [c for c in listed if rank(joins(position, player, [c], args.kf, args.ks)) > own]
    print(f"{len(alone)} join the edges better alone than the search without them:")
    for c in alone:
        print(f"  {c.text}   ({c.carrier.bit_count()} cells)")
    rest = [c for c in listed if c not in alone]
    joined = describe(joins(position, player, rest, args.kf, args.ks))
    print(f"with the other {len(rest)}: {joined}")
    best = rank(joins(position, player, listed, args.kf, args.ks))
    if best > own:
        kept = minimal(position, player, listed, best, args.kf, args.ks)
        print(f"a minimal set that joins them as well as all listed ({len(kept)}):")
        for c in kept:
            print(f"  {c.text}   ({c.carrier.bit_count()} cells)")
    if args.prove is not None:
        for name, search in (
            ("without them", new_search(position.size)),
            ("with them", seeded_search(position.size, player, listed)),
        ):
            started = time.perf_counter()
            result = solve(position, Limit(time=args.prove), all_moves=False, search=search)
            spent = time.perf_counter() - started
            winner = {BLACK: "black", WHITE: "white"}.get(result.winner or 0, "unknown")
            print(f"proof {name}: {winner} wins, {result.nodes} positions, {spent:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
