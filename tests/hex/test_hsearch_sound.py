"""Every connection the H-search reports is a real one: brute force on its carrier.

For random 4x4 and 5x5 positions, each full connection of the table (the pending ones
too) is won by its owner in the game "join these two things" played on its carrier alone
with the opponent moving first, and each semi connection after its owner plays its key;
both by plain minimax, the two edge lines counting as the owner's (the H-search's own
model: a connection may pass through an edge)."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from boardlab.hex import connections
from boardlab.hex import hsearch as hsearch_module
from boardlab.hex.rules import random_open_position

NONE = np.empty((0, 2), np.uint64)
NO_TEMPLATES = np.empty((0, 1), np.uint64)


def graph(size: int, player: int) -> list[int]:
    """Each node's neighbours as a bit set: cells ``r * size + c``, then ``player``'s two
    edge lines (``size * size`` and ``size * size + 1``)."""
    cells = size * size
    out = [0] * (cells + 2)
    for i in range(cells):
        r, c = divmod(i, size)
        for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
            if 0 <= r + dr < size and 0 <= c + dc < size:
                out[i] |= 1 << (r + dr) * size + c + dc
        across = c if player == 1 else r
        for line, at in ((cells, 0), (cells + 1, size - 1)):
            if across == at:
                out[i] |= 1 << line
                out[line] |= 1 << i
    return out


def joins(nbr: list[int], owned: int, a: int, b: int) -> bool:
    """Are nodes ``a`` and ``b`` joined through ``owned`` nodes (a bit each)?"""
    group, todo = 1 << a, [a]
    while todo:
        v = todo.pop()
        grown = nbr[v] & owned & ~group
        if grown >> b & 1:
            return True
        group |= grown
        todo += [i for i in range(grown.bit_length()) if grown >> i & 1]
    return a == b


def owner_joins(nbr: list[int], owned: int, free: int, a: int, b: int) -> bool:
    """Plain minimax: the opponent moves first on the ``free`` cells, then the owner,
    and so on; does the owner join ``a`` and ``b`` through ``owned`` and its cells?"""

    @cache
    def opponent_to_move(owned: int, free: int) -> bool:
        if joins(nbr, owned, a, b):
            return True
        if not joins(nbr, owned | free, a, b):
            return False
        cells = [i for i in range(free.bit_length()) if free >> i & 1]
        return all(owner_to_move(owned, free & ~(1 << i)) for i in cells)

    @cache
    def owner_to_move(owned: int, free: int) -> bool:
        cells = [i for i in range(free.bit_length()) if free >> i & 1]
        return any(opponent_to_move(owned | 1 << i, free & ~(1 << i)) for i in cells)

    return opponent_to_move(owned, free)


# carriers up to ``most`` cells are checked (larger ones cost minimax too much)
@pytest.mark.parametrize(("size", "count", "most", "seed"), [(4, 8, 9, 1), (5, 5, 8, 2)])
def test_every_connection_in_the_table_is_real(size: int, count: int, most: int, seed: int) -> None:
    k = connections.knowledge(size, 1)
    rng = random.Random(seed)
    checked = {"full": 0, "semi": 0, "edge": 0}
    cells = size * size
    for _ in range(count):
        p = random_open_position(size, rng.randint(0, size * size // 3), rng)
        black = sum(1 << i for i, v in enumerate(p.board) if v == 1)
        white = sum(1 << i for i, v in enumerate(p.board) if v == 2)
        for player in (1, 2):
            own, opp = (black, white) if player == 1 else (white, black)
            lo, hi = (k.lines[0], k.lines[1]) if player == 1 else (k.lines[2], k.lines[3])
            table = hsearch_module.hsearch(
                size, k.nbr, (np.uint64(own),), (np.uint64(opp),), (lo[0],), (hi[0],),
                16, 24, 100_000, False, NONE, True, NO_TEMPLATES, 0,
            )[6]  # fmt: skip
            nbr = graph(size, player)
            owned = own | 3 << cells  # the edge lines are the owner's
            for code_, carrier_ in table[1:]:
                code, carrier = int(code_), int(carrier_)
                kind, a, b, key = code & 255, code >> 8 & 255, code >> 16 & 255, code >> 24 & 255
                assert not carrier & (own | opp), (repr(p), player, code)
                if bin(carrier).count("1") > most:
                    continue
                ends = (1 << a | 1 << b) & ((1 << cells) - 1)
                if kind == hsearch_module.SEMI_ROW:
                    assert carrier >> key & 1, (repr(p), player, code)
                    real = owner_joins(nbr, owned | ends | 1 << key, carrier & ~(1 << key), a, b)
                    checked["semi"] += 1
                else:
                    real = owner_joins(nbr, owned | ends, carrier, a, b)
                    checked["full"] += 1
                checked["edge"] += a >= cells or b >= cells
                assert real, (repr(p), player, kind, a, b, key, bin(carrier))
    assert min(checked.values()) > 20, checked
