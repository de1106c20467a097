"""Benchmark helper: the intrusion rule, a prototype of a connection rule past the OR rule.

The OR rule makes a full connection of semi connections whose carriers share no cell.
When they do share cells (the set ``common``), the connection may still hold: the
owner answers an intrusion outside ``common`` with the key of a semi connection it
leaves whole, and an intrusion inside ``common`` with a reply after which the
connection is full again. :func:`intrusion_fulls` looks for that second answer by
H-search (one search per intrusion and reply tried), for the connections between each
of the owner's groups and the owner's two edges, and returns the full connections found
(carrier: every semi carrier, each intrusion with its reply and the full carrier after
it). That is the kind of connection MoHex 2.0's VC patterns give it (a second-row
ladder into a corner, say) and that boardlab's H-search does not derive.

Plain Python around the compiled H-search, one-word boards (up to 8x8): a measuring
tool for ``bench_hex_vc_decided.py --intrusion``, not the prover's code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from boardlab.hex.board import neighbours
from boardlab.hex.connections import knowledge
from boardlab.hex.hsearch import FULL_ROW, SEMI_ROW, hsearch
from boardlab.hex.prover.dfpn import Dfpn

Rows = npt.NDArray[np.uint64]
_NO_ROWS = np.empty((0, 2), np.uint64)


@dataclass
class Rule:
    """The rule's limits and what it did."""

    common: int = 2  # the most shared cells a pair's semi connections may have
    replies: int = 60  # replies tried to each intrusion (cells of the semi carriers)
    searches: int = 0  # H-searches run
    found: int = 0  # full connections added


def _group(n: int, stones: int, cell: int) -> int:
    """The cells of the group of ``stones`` that holds ``cell``."""
    around = neighbours(n)
    group, stack = 1 << cell, [cell]
    while stack:
        for d in around[stack.pop()]:
            if stones >> d & 1 and not group >> d & 1:
                group |= 1 << d
                stack.append(d)
    return group


def _full_to_line(
    n: int, own: int, opp: int, player: int, cell: int, line: int, rule: Rule
) -> int | None:
    """The smallest carrier of a full connection, found by H-search, between the group of
    ``own`` holding ``cell`` and the line node ``line`` (``n*n`` or ``n*n + 1``)."""
    rule.searches += 1
    kb = knowledge(n, 1)
    first = 2 * (player - 1)
    found = hsearch(
        n, kb.nbr, (np.uint64(own),), (np.uint64(opp),), (kb.lines[first][0],),
        (kb.lines[first + 1][0],), 16, 24, 200_000, False, _NO_ROWS, True, kb.templates[:0], first,
    )  # fmt: skip
    group = _group(n, own, cell)
    best: int | None = None
    for code_word, carrier_word in found[6][1:]:
        code = int(code_word)
        a, b = code >> 8 & 255, code >> 16 & 255
        if code & 255 != FULL_ROW or line not in (a, b):
            continue
        other = b if a == line else a
        if other < n * n and group >> other & 1:
            carrier = int(carrier_word)
            if best is None or carrier.bit_count() < best.bit_count():
                best = carrier
    return best


def intrusion_fulls(
    n: int, table: Rows, own: int, opp: int, player: int, rule: Rule
) -> list[tuple[int, int, int]]:
    """``(a, b, carrier)`` of the full connections the intrusion rule adds to ``table``
    (an H-search table of ``player``'s, :func:`boardlab.hex.hsearch.hsearch`'s layout,
    on the stones ``own`` and ``opp``): between one of the owner's groups and one of its
    edges, where the table has two or more semi connections and no full one."""
    semis: dict[tuple[int, int], list[int]] = {}
    fulls: set[tuple[int, int]] = set()
    for code_word, carrier_word in table[1:]:
        code = int(code_word)
        pair = (code >> 8 & 255, code >> 16 & 255)
        if code & 255 == FULL_ROW:
            fulls.add(pair)
        elif code & 255 == SEMI_ROW:
            semis.setdefault(pair, []).append(int(carrier_word))
    added = []
    board = (1 << n * n) - 1
    for (a, b), carriers in semis.items():
        if (a, b) in fulls or len(carriers) < 2 or max(a, b) < n * n:
            continue
        cell, line = (a, b) if b >= n * n else (b, a)
        if cell >= n * n or not own >> cell & 1:
            continue
        common, union = board, 0
        for carrier in carriers:
            common &= carrier
            union |= carrier
        if not common or common.bit_count() > rule.common:
            continue
        total = union
        for intrusion in (c for c in range(n * n) if common >> c & 1):
            near = [r for r in neighbours(n)[intrusion] if union >> r & 1]
            rest = [r for r in range(n * n) if union >> r & 1 and r != intrusion and r not in near]
            replies = near + rest
            answer = None
            for reply in replies[: rule.replies]:
                after = _full_to_line(
                    n, own | 1 << reply, opp | 1 << intrusion, player, cell, line, rule
                )
                if after is not None:
                    answer = 1 << intrusion | 1 << reply | after
                    break
            if answer is None:
                break
            total |= answer
        else:
            added.append((a, b, total))
    rule.found += len(added)
    return added


def _with_rows(table: Rows, rows: list[tuple[int, int, int]]) -> Rows:
    if not rows:
        return table
    extra = [[np.uint64(FULL_ROW | a << 8 | b << 16), np.uint64(c)] for a, b, c in rows]
    return np.vstack([table, np.array(extra, np.uint64)])


def analyse_with_rule(
    search: Dfpn, black: int, white: int, player: int, rule: Rule, rounds: int = 1
) -> int:
    """The verdict of ``search``'s analysis (1 won, -1 lost, 0 open for the side to move)
    after up to ``rounds`` rounds of the intrusion rule on both players' tables, each
    round's connections handed to the analysis as the tables it starts from."""
    verdict, _, black_r, white_r, _, (mine, theirs) = search.analyse(black, white, player)
    for _ in range(rounds):
        if verdict != 0:
            break
        own, other = (black_r, white_r) if player == 1 else (white_r, black_r)
        my_rows = intrusion_fulls(search.n, mine, own, other, player, rule)
        their_rows = intrusion_fulls(search.n, theirs, other, own, 3 - player, rule)
        if not my_rows and not their_rows:
            break
        seed = (_with_rows(theirs, their_rows), _with_rows(mine, my_rows))
        verdict, _, black_r, white_r, _, (mine, theirs) = search.analyse(black, white, player, seed)
    return verdict
