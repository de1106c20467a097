"""Benchmark: where MoHex's connections decide a Hex position that ours leave open.

The DFPN solver proves one 7x7 opening (player 2 to move); the proof tree it proved (the
winning child at the winner's positions, every proven child at the loser's) is walked,
and each of its open positions is given, in one MoHex 2.0 process, to ``vc-build``
(MoHex's virtual connections from nothing) and to our kernel's analysis from nothing
with large limits. The table counts the positions by MoHex's verdict (a win for the side
to move, a loss, open) and ours, so the decisions MoHex makes and we do not are counted.
``--no-patterns`` turns MoHex's connection patterns off; ``--mohex-dfpn`` also times
MoHex's DFPN on the opening with and without them. ``--pairs K`` takes the K-th position
(from 0) that MoHex decides and we do not and compares the connections pair by pair:
MoHex's ``vc-between-cells-full``/``-semi`` for every two of the deciding player's nodes
against our H-search table from nothing (``keep``, the same large limits), and lists
MoHex's carriers that none of ours is a subset of, smallest first.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_knowledge.py --opening d3
    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_knowledge.py --no-patterns
    MOHEX=/path/to/mohex .venv/bin/python benchmarks/bench_hex_knowledge.py --no-patterns --pairs 0

MoHex (``--mohex PATH`` or ``$MOHEX``) is built outside the repository (see
``bench_hex_mohex.py``); without it the script says so and prints our side only. Its
board is our transpose (its black joins rows).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from bench_hex_solver import mohex_vertex
from boardlab.core.limits import Budget, Limit
from boardlab.hex.board import neighbours
from boardlab.hex.connections import knowledge
from boardlab.hex.hsearch import FULL_ROW, SEMI_ROW, hsearch
from boardlab.hex.prover.dfpn import Dfpn, Key, Node, Tables
from boardlab.hex.rules import Cell

SIZE = 7
PATTERNS_OFF = ["param_player_vc use_patterns 0", "param_player_vc use_non_edge_patterns 0"]
VERDICT = {1: "win", -1: "loss", 0: "open"}
#: MoHex's names of each player's two edges (low, high: our lines 0 and 1, 2 and 3).
EDGES = {1: ("north", "south"), 2: ("west", "east")}


def proof_tree(
    search: Dfpn, root: Key, first: dict[Key, list[tuple[int, int, int, Key]]]
) -> list[Key]:
    """The open positions of the proof tree below ``root`` (each once)."""
    seen: set[Key] = set()
    found: list[Key] = []

    def proven(key: Key, mover_wins: bool) -> bool:
        pn, dn = search.tt.get(key, (1, 1))
        node = search.info.get(key)
        verdict = 0 if node is None else node.verdict
        return (pn == 0 or verdict == 1) if mover_wins else (dn == 0 or verdict == -1)

    stack = [root]
    while stack:
        key = stack.pop()
        node = search.info.get(key)
        if key in seen or node is None or node.verdict != 0:
            continue
        seen.add(key)
        found.append(key)
        won = search.tt.get(key, (1, 1))[0] == 0
        for _, _, _, child in first[key]:
            if won and proven(child, False):
                stack.append(child)
                break
            if not won and proven(child, True):
                stack.append(child)
    return found


def position_commands(black: int, white: int, size: int) -> list[str]:
    """The GTP commands that put the stones ``black`` and ``white`` on MoHex's board."""
    cells = range(size * size)
    return [f"play b {mohex_vertex(c, size)}" for c in cells if black >> c & 1] + [
        f"play w {mohex_vertex(c, size)}" for c in cells if white >> c & 1
    ]


def numbered_answers(binary: str, script: list[str]) -> dict[int, str]:
    """MoHex's answers to the numbered GTP commands of ``script`` (``quit`` last), by
    number, all asked in one process."""
    out = subprocess.run(
        [binary], input="\n".join(script) + "\n", capture_output=True, text=True, check=False
    ).stdout
    return {int(m[1]): m[2] for m in re.finditer(r"^=(\d+)(.*?)(?=\n\n)", out, re.S | re.M)}


def mohex_verdicts(
    binary: str,
    keys: list[Key],
    patterns: bool,
    size: int = SIZE,
    settings: tuple[str, ...] = (),
) -> list[str]:
    """MoHex's ``vc-build`` verdict for the side to move of each position ('win',
    'loss' or 'open'), all asked in one process, after the GTP commands ``settings``
    (such as ``param_player_vc use_non_edge_patterns 0``)."""
    script = [f"boardsize {size} {size}", *([] if patterns else PATTERNS_OFF), *settings]
    lines = {"b": "north south", "w": "east west"}
    for j, (black, white, player) in enumerate(keys):
        mine, theirs = ("b", "w") if player == 1 else ("w", "b")
        script.append("clear_board")
        script += position_commands(black, white, size)
        script += [
            f"vc-build {mine}",
            f"{2 * j + 1} vc-between-cells-semi {mine} {lines[mine]}",
            f"{2 * j + 2} vc-between-cells-full {theirs} {lines[theirs]}",
        ]
    script.append("quit")
    answers = numbered_answers(binary, script)
    verdicts = []
    for j in range(len(keys)):
        own, other = answers.get(2 * j + 1, ""), answers.get(2 * j + 2, "")
        verdicts.append(
            "win" if re.search(r"semi|full", own) else "loss" if "full" in other else "open"
        )
    return verdicts


def mohex_dfpn(binary: str, opening: int, patterns: bool) -> str:
    """MoHex's DFPN on the opening: its MID calls, VC builds and seconds."""
    params = [] if patterns else [p.replace("player", "solver") for p in PATTERNS_OFF]
    script = "\n".join(
        [
            "boardsize 7 7",
            *params,
            f"play b {mohex_vertex(opening, SIZE)}",
            "dfpn-solve-state w",
            "quit",
            "",
        ]
    )
    err = subprocess.run([binary], input=script, capture_output=True, text=True, check=False).stderr
    found = {
        k: re.search(rf"^{k} +([0-9.]+)", err, re.M)
        for k in ("MID calls", "VC builds", "Elapsed Time")
    }
    return ", ".join(f"{k} {m[1]}" for k, m in found.items() if m)


Carriers = dict[frozenset[str], list[frozenset[str]]]


def our_table(key: Key, who: int) -> tuple[Carriers, Carriers]:
    """Our full and semi carriers (MoHex's names) of player ``who``, from nothing."""
    black, white, _ = key
    k = knowledge(SIZE, 1)
    own, opp = (black, white) if who == 1 else (white, black)
    low, high = (k.lines[0], k.lines[1]) if who == 1 else (k.lines[2], k.lines[3])
    table = hsearch(
        SIZE, k.nbr, (np.uint64(own),), (np.uint64(opp),), (low[0],), (high[0],), 40, 80,
        10_000_000, False, np.empty((0, 2), np.uint64), True, np.empty((0, 1), np.uint64), 0,
    )[6]  # fmt: skip
    cells = SIZE * SIZE
    names = {cells: [EDGES[who][0]], cells + 1: [EDGES[who][1]]}
    for c in range(cells):  # a group's node is its lowest cell: named by each of its cells
        names.setdefault(c, []).append(mohex_vertex(c, SIZE))
        if own >> c & 1:
            group, todo = {c}, [c]
            while todo:
                v = todo.pop()
                for w in neighbours(SIZE)[v]:
                    if own >> w & 1 and w not in group:
                        group.add(w)
                        todo.append(w)
            names[min(group)] = sorted({*names[min(group)], mohex_vertex(c, SIZE)})
    full: Carriers = {}
    semi: Carriers = {}
    for code_, carrier_ in table[1:]:
        code, carrier = int(code_), int(carrier_)
        kind, a, b = code & 255, code >> 8 & 255, code >> 16 & 255
        cs = frozenset(mohex_vertex(c, SIZE) for c in range(cells) if carrier >> c & 1)
        if kind in (FULL_ROW, SEMI_ROW):
            for x in names[a]:
                for y in names[b]:
                    pair = frozenset((x, y))
                    (full if kind == FULL_ROW else semi).setdefault(pair, []).append(cs)
    return full, semi


def mohex_table(binary: str, key: Key, who: int) -> tuple[Carriers, Carriers]:
    """MoHex's full and semi carriers of player ``who`` (patterns off), every pair."""
    black, white, _ = key
    opp = white if who == 1 else black
    colour = "b" if who == 1 else "w"
    cells = SIZE * SIZE
    nodes = [mohex_vertex(c, SIZE) for c in range(cells) if not opp >> c & 1]
    nodes += list(EDGES[who])
    script = ["boardsize 7 7", *PATTERNS_OFF]
    script += position_commands(black, white, SIZE)
    script.append(f"vc-build {colour}")
    pairs = [(a, b) for i, a in enumerate(nodes) for b in nodes[i + 1 :]]
    for j, (a, b) in enumerate(pairs):
        script.append(f"{2 * j + 1} vc-between-cells-full {colour} {a} {b}")
        script.append(f"{2 * j + 2} vc-between-cells-semi {colour} {a} {b}")
    script.append("quit")
    answers = numbered_answers(binary, script)
    full: Carriers = {}
    semi: Carriers = {}
    for j, (a, b) in enumerate(pairs):
        for number, found in ((2 * j + 1, full), (2 * j + 2, semi)):
            for m in re.finditer(r"(?:full|semi) \w+ \[([^\]]*)\]", answers.get(number, "")):
                found.setdefault(frozenset((a, b)), []).append(frozenset(m[1].split()))
    return full, semi


def compare_pairs(binary: str, key: Key, verdict: str, shown: int = 20) -> None:
    """Print the position and MoHex's connections that none of ours is a subset of."""
    black, white, player = key
    who = player if verdict == "win" else 3 - player
    print(f"position (MoHex's frame): black {' '.join(stones(black))}", end="")
    print(f"; white {' '.join(stones(white))}")
    print(f"  player {player} to move; MoHex: {verdict}, by player {who}'s connections")
    theirs, ours = mohex_table(binary, key, who), our_table(key, who)
    for label, mine, other in (("full", theirs[0], ours[0]), ("semi", theirs[1], ours[1])):
        lacking = sorted(
            (len(c), sorted(pair), sorted(c))
            for pair, carriers in mine.items()
            for c in carriers
            if not any(o <= c for o in other.get(pair, []))
        )
        count = sum(map(len, mine.values())), sum(map(len, other.values()))
        print(f"{label}: MoHex {count[0]}, ours {count[1]}; MoHex's not in ours:", end="")
        print(f" {len(lacking)}")
        for size, pair, carrier in lacking[:shown]:
            print(f"  {'-'.join(pair)}: {size} [{' '.join(carrier)}]")


def stones(cells: int) -> list[str]:
    return [mohex_vertex(c, SIZE) for c in range(SIZE * SIZE) if cells >> c & 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opening", default="d3", help="player 1's first stone (our coordinates)")
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--no-patterns", action="store_true", help="MoHex without VC patterns")
    parser.add_argument("--mohex-dfpn", action="store_true", help="also time MoHex's DFPN")
    parser.add_argument("--pairs", type=int, help="compare connections on this undecided one")
    args = parser.parse_args()
    binary = args.mohex or None
    if binary is not None and not Path(binary).is_file():
        print(f"bench_hex_knowledge: no MoHex binary at {binary}", file=sys.stderr)
        return 2
    opening = Cell.parse(args.opening, SIZE).index(SIZE)
    search = Dfpn(SIZE, Budget(Limit(time=600)))
    first: dict[Key, list[tuple[int, int, int, Key]]] = {}
    expand = Dfpn.expand

    def recording(
        self: Dfpn, key: Key, black: int, white: int, player: int, seed: Tables | None = None
    ) -> Node:
        node = expand(self, key, black, white, player, seed)
        first.setdefault(key, self.children_of(node, player))
        return node

    Dfpn.expand = recording  # type: ignore[method-assign]
    won = search.prove(1 << opening, 0, 2)
    Dfpn.expand = expand  # type: ignore[method-assign]
    root = search.key(1 << opening, 0, 2)
    keys = proof_tree(search, root, first)
    winner = 2 if won else 1
    print(f"opening {args.opening}: player {winner} wins, {search.analysed} analysed positions,")
    print(f"  {len(keys)} open positions in the proof tree")
    search.kf, search.ks, search.max_work = 40, 80, 10_000_000  # large limits
    ours = []
    for black, white, player in keys:
        out = search.analyse(black, white, player)  # each H-search from nothing
        ours.append(VERDICT[int(out[0])])
    if binary is None:
        print("MoHex 2.0 is absent (--mohex PATH or $MOHEX): our verdicts only")
        print(dict(Counter(ours)))
        return 0
    theirs = mohex_verdicts(binary, keys, not args.no_patterns)
    label = "MoHex without patterns" if args.no_patterns else "MoHex"
    print(f"{label:>24} {'ours (from nothing)':>20} positions")
    for (m, o), count in sorted(Counter(zip(theirs, ours, strict=True)).items()):
        print(f"{m:>24} {o:>20} {count:9d}")
    extra = sum(1 for m, o in zip(theirs, ours, strict=True) if m != "open" and o == "open")
    print(f"decided by MoHex and not by us: {extra}")
    if args.pairs is not None:
        lacking = [(k, m) for k, m, o in zip(keys, theirs, ours, strict=True) if m != "open" == o]
        if not 0 <= args.pairs < len(lacking):
            print(f"bench_hex_knowledge: --pairs takes 0 to {len(lacking) - 1}", file=sys.stderr)
            return 2
        compare_pairs(binary, *lacking[args.pairs])
    if args.mohex_dfpn:
        print(f"MoHex DFPN with patterns: {mohex_dfpn(binary, opening, True)}")
        print(f"MoHex DFPN without patterns: {mohex_dfpn(binary, opening, False)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
