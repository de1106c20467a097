"""Solver layer: depth-first proof-number search (DFPN) over Hex positions up to 8x8.

Positions are two Python ints (cell ``(r, c)`` at bit ``r * n + c``) and the side to
move. Each new position is analysed once by the numba kernel
(:func:`boardlab.hex._solver_kernel.analyse`: H-search virtual connections for both
players, dead cells, must-play) and the verdict and candidate moves are cached. The
search is Nagai's df-pn in negamax form with the 1 + epsilon trick (Pawlewicz and Lew):
a node's proof number is the least disproof number of its children, its disproof number
the sum of their proof numbers. A child never visited starts at ``(1, k)`` where ``k`` is
the number of its own candidate moves, so replies that leave the opponent few moves (a
small must-play region) are tried first. Positions are keyed up to the 180-degree
rotation, which maps the board and both players' edges to themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np

from boardlab.core.limits import Budget

__all__ = ["INF", "MAX_CELLS", "Dfpn"]

INF = 1 << 40
MAX_CELLS = 64
EPSILON = 0.25
# A node limit charges each analysed position as this many nodes: one kernel analysis
# costs about as much time as 50 nodes of the alpha-beta solver, so a caller's node
# limit buys either solver about the same work.
ANALYSIS_COST = 50

Key = tuple[int, int, int]
Child = tuple[int, int, int, Key]  # move bit, black, white, key


class OutOfBudgetError(Exception):
    """The search ran out of its limit."""


@cache
def _reverse_table(bits: int) -> Callable[[int], int]:
    """A function reversing the low ``bits`` bits of an int (the 180-degree rotation)."""
    byte_rev = [int(f"{b:08b}"[::-1], 2) for b in range(256)]
    nbytes = (bits + 7) // 8
    shift = nbytes * 8 - bits

    def reverse(x: int) -> int:
        out = 0
        for _ in range(nbytes):
            out = (out << 8) | byte_rev[x & 255]
            x >>= 8
        return out >> shift

    return reverse


class Dfpn:
    """A df-pn search on one ``n x n`` board (``n * n <= 64``), reusable across calls.

    The budget counts analysed positions (kernel calls, the expensive unit), each as
    ``ANALYSIS_COST`` nodes of a node limit; ``nodes`` counts the visits of the search.
    """

    def __init__(
        self, n: int, budget: Budget, kf: int = 12, ks: int = 16, max_work: int = 200_000
    ) -> None:
        from boardlab.hex._solver_kernel import neighbour_masks

        if n * n > MAX_CELLS:
            raise ValueError(f"board {n}x{n} is too large for the DFPN solver")
        self.n = n
        self.budget = budget
        self.kf, self.ks, self.max_work = kf, ks, max_work
        self.nbr, self.lines = neighbour_masks(n)
        self.board = (1 << (n * n)) - 1
        self.reverse = _reverse_table(n * n)
        self.tt: dict[Key, tuple[int, int]] = {}
        self.info: dict[Key, tuple[int, list[Child]]] = {}
        self.cheap: set[Key] = set()
        self.nodes = 0
        self.analysed = 0
        self.eager = True
        self.centre_order = self._centre_order()

    def _centre_order(self) -> list[int]:
        n = self.n
        mid = (n - 1) / 2
        cells = sorted(
            range(n * n),
            key=lambda i: (
                abs(i // n - mid) + abs(i % n - mid) + abs(i // n + i % n - 2 * mid),
                i,
            ),
        )
        return cells

    def key(self, black: int, white: int, player: int) -> Key:
        """The position key, the same for a position and its 180-degree rotation."""
        rb, rw = self.reverse(black), self.reverse(white)
        return (black, white, player) if (black, white) <= (rb, rw) else (rb, rw, player)

    def analyse(self, black: int, white: int, player: int, work: int) -> tuple[int, int]:
        """The kernel's ``(verdict, moves)`` for a position, ``work`` combinations a search."""
        from boardlab.hex._solver_kernel import analyse

        self.analysed += 1
        if self.budget.exhausted(self.analysed * ANALYSIS_COST):
            raise OutOfBudgetError
        verdict, moves = analyse(
            self.n,
            self.nbr,
            self.lines,
            np.uint64(black),
            np.uint64(white),
            player,
            self.kf,
            self.ks,
            work,
        )
        return int(verdict), int(moves)

    def expand(
        self, key: Key, black: int, white: int, player: int, thorough: bool = True
    ) -> tuple[int, list[Child]]:
        """Verdict and children of a position (analysed once, then cached).

        A position first met as a child gets a cheaper analysis (a tenth of the work);
        the full one is done when the search enters it. Both are sound; the thorough one
        finds more connections, hence fewer candidate moves.
        """
        found = self.info.get(key)
        if found is not None and (not thorough or key not in self.cheap):
            return found
        work = self.max_work if thorough else self.max_work // 10
        verdict, moves = self.analyse(black, white, player, work)
        if thorough:
            self.cheap.discard(key)
        else:
            self.cheap.add(key)
        children: list[Child] = []
        if verdict == 0:
            for cell in self.centre_order:
                b = 1 << cell
                if moves & b:
                    cb, cw = (black | b, white) if player == 1 else (black, white | b)
                    children.append((b, cb, cw, self.key(cb, cw, 3 - player)))
        result = (verdict, children)
        self.info[key] = result
        return result

    def bounds(self, key: Key, black: int, white: int, player: int) -> tuple[int, int]:
        """``(pn, dn)`` of a position: from the table, else from its analysis."""
        found = self.tt.get(key)
        if found is not None:
            return found
        if not self.eager and key not in self.info:
            return 1, 1
        verdict, children = self.expand(key, black, white, player, thorough=False)
        if verdict == 1:
            return 0, INF
        if verdict == -1:
            return INF, 0
        return 1, len(children)

    def mid(self, key: Key, black: int, white: int, player: int, pn_th: int, dn_th: int) -> None:
        """Search the position until its proof or disproof number reaches its threshold."""
        self.nodes += 1
        verdict, children = self.expand(key, black, white, player)
        if verdict != 0:
            self.tt[key] = (0, INF) if verdict == 1 else (INF, 0)
            return
        tt = self.tt
        other = 3 - player
        while True:
            best = -1
            best_dn = INF + 1
            best_pn = 0
            second = INF
            total = 0
            for index, (_, cb, cw, ck) in enumerate(children):
                cpn, cdn = self.bounds(ck, cb, cw, other)
                total += cpn
                if cdn < best_dn:
                    second = best_dn
                    best_dn, best_pn, best = cdn, cpn, index
                elif cdn < second:
                    second = cdn
            pn = min(best_dn, INF)
            dn = min(total, INF)
            if pn >= pn_th or dn >= dn_th or pn == 0 or dn == 0:
                tt[key] = (pn, dn)
                return
            child_pn_th = min(INF, dn_th - dn + best_pn)
            grown = max(second + 1, int(second * (1 + EPSILON)))
            child_dn_th = min(pn_th, grown)
            _, cb, cw, ck = children[best]
            self.mid(ck, cb, cw, other, child_pn_th, child_dn_th)

    def prove(self, black: int, white: int, player: int) -> bool:
        """True if ``player`` to move wins (raises :class:`OutOfBudgetError` past the limit)."""
        key = self.key(black, white, player)
        self.mid(key, black, white, player, INF, INF)
        pn, _ = self.tt[key]
        return pn == 0

    def winning_child(self, black: int, white: int, player: int) -> int | None:
        """A proven winning move (as a bit) of a position proven won, from the table."""
        key = self.key(black, white, player)
        _, children = self.expand(key, black, white, player)
        for b, cb, cw, ck in children:
            if self.bounds(ck, cb, cw, 3 - player)[1] == 0:
                return b
        return None
