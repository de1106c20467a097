"""Prover layer: the DFPN solver on boards of more than 64 cells, up to 11x11.

:class:`WideDfpn` is :class:`boardlab.hex.prover.dfpn.Dfpn` with each position analysed
on two-word cell sets by the prover's one verdict kernel
(:func:`boardlab.hex.prover.verdicts.analyse` with ``regions``: captured pairs filled,
dead cells and dead regions, bounded H-search from the edge templates for both players,
the must-play set less its vulnerable and dominated cells, a proof set), the search of
the player who just moved started from the parent's table of that player's connections
(the incremental H-search, see :meth:`WideDfpn.analyse`), and its moves ordered by the
same resistor networks
(:func:`boardlab.hex.prover.resistance.board_scores`). The rest is the search of
:mod:`boardlab.hex.prover.dfpn`: the table, the 1 + epsilon thresholds, widening, the
180-degree keys and the stored proofs.

The kernel's proofs (the fill-in, the dead cells and the carriers of the connections a
verdict rests on) drive the proof-set pruning of the one-word search. Moves are not
compared by domination.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Budget
from boardlab.hex.cellsets import as_int, as_words
from boardlab.hex.connections import KEEP_FULL, KEEP_SEMI, MAX_WORK, WIN, knowledge
from boardlab.hex.prover.dfpn import MAX_CELLS, Dfpn, Tables

__all__ = ["MAX_WIDE_CELLS", "WideDfpn", "board_array", "fresh_search"]

#: A connection table of two-word sets with no rows.
_NONE = np.empty((0, 4), np.uint64)
#: The largest board the shared kernel takes: 11x11.
MAX_WIDE_CELLS = 121


def board_array(n: int, black: int, white: int) -> npt.NDArray[np.int8]:
    """The ``int8`` board (0 empty, 1 and 2 the players' stones) of two cell sets."""
    width = (n * n + 7) // 8

    def cells(stones: int) -> npt.NDArray[np.uint8]:
        raw = np.frombuffer(stones.to_bytes(width, "little"), np.uint8)
        return np.unpackbits(raw, bitorder="little")[: n * n]

    return (cells(black) + 2 * cells(white)).astype(np.int8)


class WideDfpn(Dfpn):
    """A df-pn search on one ``n x n`` board of up to 121 cells (see the module)."""

    max_cells = MAX_WIDE_CELLS
    #: An analysis here costs about 3.7 ms, so every child is looked up among the stored
    #: proofs each time (11x11 case 154's root: 81 965 positions analysed with it,
    #: 126 451 without).
    recall_children = True
    #: Here the regions are filled two moves below the root too: an analysis costs more
    #: and the filled positions pay (MoHex's 8x8-and-up puzzle cases: 19 248 analysed
    #: positions at this depth, 22 081 at 2; 11x11 case 154 3 500
    #: against 6 180).
    region_depth = 3

    def __init__(
        self,
        n: int,
        budget: Budget,
        kf: int = KEEP_FULL,
        ks: int = KEEP_SEMI,
        max_work: int = MAX_WORK,
        memory: int | None = None,
    ) -> None:
        super().__init__(n, budget, kf, ks, max_work, memory=memory)

    def load_kernel(self) -> None:
        """The shared kernel's tables for this board, the edge patterns with the
        templates."""
        from boardlab.hex.connections import edge_templates

        self.knowledge = knowledge(self.n)
        self.templates = edge_templates(self.n, 2, True, self.edge_patterns)

    def analyse(
        self, black: int, white: int, player: int, seed: Tables | None = None
    ) -> tuple[int, int, int, int, int, Tables]:
        """``(verdict, moves, black, white, proof, tables)`` as the 64-cell search has
        them (``moves`` a winning move when the position is won), the stones as given
        with the captured regions :meth:`fill_regions` filled (the kernel's own fill-in
        is inside its proof, as are the regions), and its tables: the mover's, none for
        the opponent.

        The search of the player who just moved starts from the parent's table of its
        connections (``seed[0]``); the mover's own search starts from nothing. Measured on
        MoHex's puzzle cases 31 (11x11), 21 (9x9), 169 (9x9) and 154 (11x11), analysed
        positions: from nothing 3, 1 371, 6 633, 7 617; both seeded (as the one-word
        search does) 4 489, 378, 8 229, 6 385; the mover's alone 68, 1 391, 7 831, 7 664;
        this one alone 3, 392, 8 349, 6 180. The mover's seed lacks the connections the new
        stone broke and the alternatives its lists had no room for, and its misses cost
        most (case 31).
        """
        from boardlab.hex.prover.verdicts import analyse

        self.count_analysis()
        k = self.knowledge
        black, white, regions = self.fill_regions(black, white)
        verdict, move, moves, _, _, proof, mine, _ = analyse(
            k.n, k.nbr, k.lines, k.ring, k.table, as_words(black, 2), as_words(white, 2),
            player, self.kf, self.ks, self.max_work, _NONE if seed is None else seed[0], True,
            _NONE, self.templates, True, k.n >= self.vc_fill_from,
            k.n >= self.far_pairs_from, k.n >= self.local_games_from,
        )  # fmt: skip
        cells = as_int(moves)
        if verdict == WIN and move >= 0:
            cells = 1 << int(move)  # the kernel's winning move
        rests_on = as_int(proof) | regions
        return int(verdict), cells, black, white, rests_on, (mine, _NONE)

    def move_order(self, black: int, white: int, moves: int, tables: Tables) -> list[int]:
        """The cells of ``moves``, most current in the two resistor networks first (the
        mover's with its full connections: ``tables``, player 1's then player 2's)."""
        from boardlab.hex.prover.resistance import board_scores

        if moves & (moves - 1) == 0:  # one move (or none): nothing to order
            return [cell for cell in self.centre_order if moves >> cell & 1]
        board = board_array(self.n, black, white)
        scores = board_scores(self.n, self.ring, board, tables[0], tables[1])
        cells = [cell for cell in self.centre_order if moves >> cell & 1]
        return sorted(cells, key=lambda cell: -scores[cell])

    def classification_order(self, black: int, white: int, player: int) -> list[int]:
        """The empty cells, nearest the centre first (no move is compared by domination)."""
        self.dominated_by = {cell: 0 for cell in range(self.n * self.n)}
        return [cell for cell in self.centre_order if not (black | white) >> cell & 1]


def fresh_search(
    size: int, budget: Budget, memory: int | None, checkpoint: Path | None = None
) -> Dfpn:
    """A new DFPN search of ``size`` under ``budget``: this two-word one past 64 cells
    (no checkpoint there), the one-word one up to 64."""
    if size * size > MAX_CELLS:
        return WideDfpn(size, budget, memory=memory)
    return Dfpn(size, budget, checkpoint=checkpoint, memory=memory)
