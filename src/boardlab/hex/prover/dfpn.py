"""Prover layer: depth-first proof-number search (DFPN) over Hex positions up to 8x8.

Positions are two Python ints (cell ``(r, c)`` at bit ``r * n + c``) and the side to
move. Each position the search enters is analysed once by the numba kernel
(:func:`boardlab.hex.prover.verdicts.analyse` on one-word cell sets: H-search virtual
connections for both players, dead cells, must-play) and the verdict and candidate
moves are cached; the candidates are ordered by the players' currents in their resistor
networks (:mod:`boardlab.hex.prover.resistance`), the cells that matter most to both
first. The
search is Nagai's df-pn in negamax form with the 1 + epsilon trick (Pawlewicz and Lew):
a node's proof number is the least disproof number of its children, its disproof number
the sum of their proof numbers, both over the first children in move order only
(widening, as MoHex's DFPN does, whose ``param_dfpn`` lists a base of 1 and a factor of
0.25: here one plus 0.4 of the children; a child proven to lose leaves the list
and lets the next one in). A child not entered yet starts at ``(1, 1)``, unanalysed, so
a position costs one analysis, made when the search enters it, and among equal children
the move order decides. Positions are keyed up to the 180-degree rotation,
which maps the board and both players' edges to themselves. A position not in the table
may still be settled by a stored proof that covers it (:meth:`Dfpn.recall`).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from boardlab.core.limits import Budget
from boardlab.core.memory import default_budget, resident_memory
from boardlab.core.progress import report
from boardlab.hex.board import centre_order, reverse_bits
from boardlab.hex.prover.classify import OutOfBudgetError
from boardlab.hex.prover.store import INF, load_checkpoint, save_checkpoint

if TYPE_CHECKING:
    from boardlab.hex.prover.shared import SharedAnalyses

__all__ = ["INF", "MAX_CELLS", "Dfpn", "OutOfBudgetError"]

MAX_CELLS = 64
# The 1 + epsilon trick: a child is searched until its number passes the second best's
# times 1 + EPSILON (at least the second best plus one, so it acts from 16 on). Measured
# on the 8x8 openings d5, c6, b8, d1, c4 and d2, one process (positions analysed):
# 0.125 gave 30 277, 68 287, 56 109, 56 432, 113 109 and 108 702 (432 916); 0.0625 gave
# 29 911, 65 292, 46 740, 54 419, 107 858 and 96 599 (400 819: fewer on each); 0.03 and
# 0.25 more than 0.0625 on most. On MoHex's 7x7 openings noted 5 s or less 0.0625 costs
# 1 % more (169 912 against 168 115), on its puzzles the same. Earlier, on the kernel of
# the time: the 65 puzzle cases 67,542 at 0.25 and 66,958 at 0.125; the 25 7x7 openings
# 232,859 and 229,928.
EPSILON = 0.0625
# Widening: a node's proof and disproof numbers count only its first
# WIDENING_BASE + int(WIDENING * k) children of the k it still has (in move order); the
# others wait until those are proven to lose and leave the list. Measured on the 7x7
# openings f2 d4 e3 d3 c4 c3 f3 (analysed positions, CPU seconds): all children 15 440 /
# 89.2; 1 + 0.2 k 26 251 / 64.0; 1 + 0.25 k 14 455 / 44.8; 1 + 0.3 k 11 988 / 37.8;
# 1 + 0.33 k 11 053 / 36.0 (kept); 1 + 0.4 k 12 361 / 47.7; 1 + 0.5 k 13 082 / 61.0;
# 2 + 0.25 k 12 888 / 58.4; 1 + 0.15 k 61 332 / 122.9. Below 0.25 one child at a time is
# followed too far. Once the AND rule stopped joining through edges (an analysis got
# eight times cheaper), measured again on the costliest 7x7 first moves d1 c1 b2 f1 e1
# d2 with 16 full and 24 semi connections a pair: 1 + 0.33 k 278 698 / 128.1 (20 and
# 20); 1 + 0.4 k 181 809 / 98.0 (kept); 0.45 182 233 / 100.6; 0.5 177 956 / 108.9; 0.6
# 175 454 / 111.1.
WIDENING = 0.4
WIDENING_BASE = 1
# H-search work (carrier combinations) of each of the two searches of an analysis.
# Measured on the 7x7 openings f2 d4 e3 d3 c4 c3 f3 with both searches seeded from the
# parent's tables: 200 000 took 25 491 analyses (148 s), 300 000 took 17 988 (115 s),
# 400 000 took 15 440 (112 s), 550 000 took 15 468 (123 s) and 800 000 took 16 511
# (139 s). (Earlier, on the 18 6x6 classes with the opponent's search alone seeded,
# 800 000 was best: 6 070 analyses, 23 s, against 8 700 and 29 s at 200 000.)
FULL_WORK = 400_000
# Full and semi connections kept per pair of nodes (the smallest carriers). Measured on
# d1 c1 b2 f1 e1 d2 (7x7, widening 1 + 0.4 k): 12 and 16 took 192 519 analysed positions
# (102.8 s), 16 and 24 181 809 (98.0 s), 20 and 20 182 512 (97.9 s); on the seven
# openings above 8 and 12 took 19 937, 12 and 16 15 267, 16 and 24 12 650, 32 and 64
# 12 419 (all with widening 1 + 0.33 k). The work limit no longer binds there: 200 000
# and 800 000 gave the same search.
KEEP_FULL = 16
KEEP_SEMI = 24
# A node limit charges each analysed position as this many nodes: one kernel analysis
# costs about as much time as 50 nodes of the alpha-beta solver, so a caller's node
# limit buys either solver about the same work.
ANALYSIS_COST = 50

# The process's size is compared with the memory budget once every this many analyses
# (an analysis adds a few kilobytes at most).
MEMORY_CHECK_EVERY = 256
#: Positions :meth:`Dfpn.recall` remembers finding nothing for (then it starts afresh).
_RECALL_MISSES = 1 << 20

# Connection tables (see hex.hsearch.hsearch) of the last analysed open
# positions are kept up to this many bytes, so that their children's analyses start
# from them (the incremental H-search) rather than from nothing.
VC_CACHE_BYTES = 256 * 2**20

#: :attr:`Dfpn.depth` at the question's root.
_ROOT_DEPTH = 1
Key = tuple[int, int, int]
Child = tuple[int, int, int, Key]  # move bit, black, white, key
Vcs = npt.NDArray[np.uint64]  # a connection table of one player (hex.hsearch.hsearch)
NO_VCS: Vcs = np.empty((0, 2), np.uint64)
Tables = tuple[Vcs, Vcs]  # the mover's and the opponent's connection tables
#: The bounds of a position nothing is known of, and of one its analysis found won or lost.
_UNKNOWN = (1, 1)
_WON = (0, INF)
_LOST = (INF, 0)


@dataclass(slots=True)
class Node:
    """What the search knows of one position, in the frame it was first analysed in.

    ``moves`` are the cells of its moves (one byte each) in the order they are tried (see
    :mod:`boardlab.hex.prover.resistance`); they shrink as the search learns: a losing
    move's proof tells which other moves lose too. The moves are kept as bytes, and
    :meth:`Dfpn.children_of` makes the children (stones and keys) from them and from
    ``black`` and ``white``, the stones after the analysis filled captured cells: a list
    of children costs some 300 bytes a move, the bytes one, and most positions the
    search keeps are open ones it has not come back to. ``proof`` gathers the cells a
    loss rests on (see :meth:`Dfpn.mid`); ``fills`` are the cells the analysis filled in
    (captured pairs).
    """

    verdict: int
    moves: bytes
    black: int
    white: int
    proof: int
    fills: int
    rotated: bool
    #: a winning move (as a bit) of a position the analysis found won, 0 if it named none
    win: int = 0


class Dfpn:
    """A df-pn search on one ``n x n`` board (``n * n <= 64``), reusable across calls.

    The budget counts analysed positions (kernel calls, the expensive unit), each as
    ``ANALYSIS_COST`` nodes of a node limit; ``nodes`` counts the visits of the search.

    Every proven position keeps a *proof*: a set of its empty cells such that the winner
    still wins when the loser gets all the other empty cells. When one move of a position
    is proven to lose, every move outside that child's proof loses as well (giving the
    mover more stones cannot help the opponent), so those children are dropped unsearched
    (the proof-set pruning of Henderson, Arneson and Hayward's Hex solver).
    """

    def __init__(
        self,
        n: int,
        budget: Budget,
        kf: int = KEEP_FULL,
        ks: int = KEEP_SEMI,
        max_work: int = FULL_WORK,
        checkpoint: Path | None = None,
        save_every: float = 300.0,
        memory: int | None = None,
    ) -> None:
        from boardlab.hex.board import dead_ring_table, ring_neighbours

        if n * n > self.max_cells:
            raise ValueError(f"board {n}x{n} is too large for this DFPN solver")
        self.n = n
        self.budget = budget
        self.kf, self.ks, self.max_work = kf, ks, max_work
        self.ring = ring_neighbours(n)
        self.table = dead_ring_table()
        self.load_kernel()
        self.board = (1 << (n * n)) - 1
        self.memory = default_budget() if memory is None else memory
        self.memory_base = resident_memory()
        #: what stopped the search before it finished: "memory", "limit" (time, nodes or
        #: an outside stop), None while nothing has
        self.stopped: str | None = None
        self.reverse = reverse_bits(n * n)
        self.tt: dict[Key, tuple[int, int]] = {}
        self.info: dict[Key, Node] = {}
        self.proofs: dict[Key, int] = {}
        #: per winner, by the winner's stones: the proofs of proven positions with the
        #: winner to move, then those with the loser to move
        self.known: dict[int, dict[int, tuple[list[int], list[int]]]] = {1: {}, 2: {}}
        #: proofs filed in ``known`` so far, and per position the count when
        #: :meth:`recall` last found nothing for it (no new proof: nothing again)
        self.filed = 0
        self.recall_missed: dict[Key, int] = {}
        self.vcs: OrderedDict[Key, Tables] = OrderedDict()
        self.dominated_by: dict[int, int] = {}
        self.charged_from = 0  # analysed positions before the current budget
        #: called every MEMORY_CHECK_EVERY analysed positions (a worker of several reads
        #: the others' proofs meanwhile, :mod:`boardlab.hex.prover.jobs`)
        self.meanwhile: Callable[[], None] | None = None
        self.vc_bytes = 0
        self.nodes = 0
        #: how many moves the position :meth:`mid` is on lies below the question's root,
        #: plus one (1 at the root; see :meth:`prove`)
        self.depth = 1
        self.analysed = 0
        self.recalled = 0
        #: the analyses table the workers of a folder share (:mod:`boardlab.hex.prover.
        #: shared`), None for a search of its own; ``shared_hits`` counts the positions
        #: it answered instead of an analysis
        self.shared: SharedAnalyses | None = None
        self.shared_hits = 0
        self.centre_order = centre_order(n)
        self.checkpoint = checkpoint
        self.save_every = save_every
        self.next_save = time.monotonic() + save_every
        self.earlier_analysed, self.earlier_seconds = 0, 0.0
        if checkpoint is not None:
            self.earlier_analysed, self.earlier_seconds = load_checkpoint(self, checkpoint)

    #: The largest board (in cells) the kernel's cell sets hold.
    max_cells = MAX_CELLS
    #: The share of a node's children its proof numbers count (see :data:`WIDENING`).
    widening = WIDENING
    #: Does a node look its unsearched children up among the stored proofs each time it
    #: counts them (:meth:`bounds`), or only the child the search enters (:meth:`mid`)?
    #: On this kernel an analysis costs about 40 look-ups and 1 look-up in 200 finds
    #: something: 7x7 a2, a3, a6 and b4 made 1 918 588 look-ups (8 162 found) and
    #: analysed 108 728 positions in 59.1 s with them, 108 536 (1 614) and 106 922 in
    #: 49.9 s without.
    recall_children = False
    #: Boards of this size and larger have each analysis fill the regions a player
    #: captures through virtual connections (:mod:`boardlab.hex.prover.vcfill`, both of
    #: its forms). MoHex's puzzle suite (noted 5 s or less), analysed positions without
    #: and with the fill: 8x8 14 548 and 10 477, 9x9 1 106 and 963, 11x11 3 576 and 859
    #: (case 154 3 572 and 855); the 7x7 puzzles 51 077 and 46 488 and its 7x7 openings
    #: but case 14 164 632 and 163 202, both at the same time ratio to MoHex (2.0 and 2.1,
    #: 1.9 and 1.9): on small boards the other rules leave out most of what it fills
    #: already, and the filled cells join every proof, which then prunes less.
    vc_fill_from = 8
    #: Boards of this size and larger have each analysis fill the captured pairs of cells
    #: at any distance (:mod:`boardlab.hex.prover.farpairs`) as well as the ring patterns'
    #: touching ones. The 8x8 openings d5, b8, d8, c6, d1, c4 and d2 (one core each, both
    #: runs at once): 422,587 analysed positions in 251.2 s with them, 440,480 in 255.5 s
    #: without; MoHex's 9x9 and 11x11 puzzles noted 10 s or less: 3,277 against 34,234.
    far_pairs_from = 8
    #: Boards of this size and larger have each analysis fill the regions of two or three
    #: cells whose local game settles them (:mod:`boardlab.hex.prover.localfill`).
    local_games_from = 8
    #: Positions at most this many moves below the question's root, less one (2: the
    #: root's children), have the regions a player captures filled before their
    #: analysis (:meth:`fill_regions`); 1: the root only (which
    #: :func:`boardlab.hex.prover.solver.solve` fills itself). On boards up to 8x8 the
    #: root's children gain nothing from it: the 8x8 openings d5, c6, b8, d1, c4 and d2
    #: analyse the same positions at 1 and at 2, in 254.8 s against 268.4 s (epsilon
    #: 0.125) and 238.6 s against 241.7 s (0.0625; one core each); MoHex's 7x7 openings
    #: noted 5 s or less the same 169 912 positions, 53.4 s against 57.5 s. Past 8x8 it
    #: pays (:attr:`boardlab.hex.prover.wide.WideDfpn.region_depth`). The 7x7 puzzles,
    #: earlier: 54 295 positions in 42.3 s at 2, 52 750 in 51.0 s at 3.
    region_depth = 1

    #: Does the H-search start from the edge patterns (connections to an edge it does not
    #: find itself, :func:`boardlab.hex.connections.edge_patterns`)? MoHex's 7x7 openings
    #: noted 5 s or less: 232 859 analysed positions with the 42 of them, 242 240 with
    #: the first 36, 252 303 without (the 36 and the one-stone fourth-row templates:
    #: 258 314). The one-word search finds the templates of the second and third rows
    #: itself.
    edge_patterns = True

    def load_kernel(self) -> None:
        """The one-word tables of the kernel (:mod:`boardlab.hex.prover.verdicts`)."""
        from boardlab.hex.connections import edge_templates, knowledge

        tables = knowledge(self.n, 1)
        self.nbr, self.lines = tables.nbr, tables.lines
        self.templates = edge_templates(self.n, 1, False, self.edge_patterns)

    def charge(self, budget: Budget) -> None:
        """Search on under a new budget (a worker's next task): its node limit counts the
        positions analysed from now on."""
        self.budget = budget
        self.charged_from = self.analysed

    def save(self) -> None:
        """Write the checkpoint (if the search has one): the table, the proofs, and the
        analysed positions and seconds of this and earlier runs."""
        if self.checkpoint is None:
            return
        analysed = self.earlier_analysed + self.analysed
        seconds = self.earlier_seconds + self.budget.elapsed
        save_checkpoint(self, self.checkpoint, analysed, seconds)
        self.next_save = time.monotonic() + self.save_every

    def winner_of(self, key: Key) -> int:
        """The winner (1 or 2) of a proven position, 0 if it is not proven."""
        pn, dn = self.tt.get(key, (1, 1))
        if pn == 0 or dn == 0:
            return key[2] if pn == 0 else 3 - key[2]
        node = self.info.get(key)
        if node is None or node.verdict == 0:
            return 0
        return key[2] if node.verdict == 1 else 3 - key[2]

    def key(self, black: int, white: int, player: int) -> Key:
        """The position key, the same for a position and its 180-degree rotation."""
        rb, rw = self.reverse(black), self.reverse(white)
        return (black, white, player) if (black, white) <= (rb, rw) else (rb, rw, player)

    def rotated(self, key: Key, black: int, white: int) -> bool:
        """Is ``black``/``white`` the 180-degree rotation of the frame ``key`` is stored in?"""
        return (key[0], key[1]) != (black, white)

    def turn(self, cells: int, rotated: bool) -> int:
        """``cells`` moved between a frame and its rotation (the rotation is its own inverse)."""
        return self.reverse(cells) if rotated else cells

    def analyse(
        self, black: int, white: int, player: int, seed: Tables | None = None
    ) -> tuple[int, int, int, int, int, Tables]:
        """The kernel's ``(verdict, moves, black, white, proof, tables)`` for a position
        (the stones after captured cells are filled in), ``max_work`` combinations a
        search; both searches start from the parent's connection tables ``seed`` if given
        (the parent's mover's table for the player who just moved, the parent's
        opponent's for the side to move); ``tables`` are this position's, mover's first."""
        from boardlab.hex.prover.verdicts import analyse

        self.count_analysis()
        black, white, regions = self.fill_regions(black, white)
        verdict, _, moves, reduced_black, reduced_white, proof, mine, theirs = analyse(
            self.n,
            self.nbr,
            self.lines,
            self.ring,
            self.table,
            (np.uint64(black),),
            (np.uint64(white),),
            player,
            self.kf,
            self.ks,
            self.max_work,
            NO_VCS if seed is None else seed[0],
            True,
            NO_VCS if seed is None else seed[1],
            self.templates,
            False,
            self.n >= self.vc_fill_from,
            self.n >= self.far_pairs_from,
            self.n >= self.local_games_from,
        )
        reduced = int(reduced_black[0]), int(reduced_white[0])
        return int(verdict), int(moves[0]), *reduced, int(proof[0]) | regions, (mine, theirs)

    def fill_regions(self, black: int, white: int) -> tuple[int, int, int]:
        """``(black, white, cells)``: the position with the regions a player captures
        filled (:func:`boardlab.hex.prover.regions.region_fill`) when it lies at most
        :attr:`region_depth` - 1 moves below the question's root and not at the root
        (which :func:`boardlab.hex.prover.solver.solve` fills itself), else as given."""
        if not _ROOT_DEPTH < self.depth <= self.region_depth:
            return black, white, 0
        from boardlab.hex.prover.regions import region_fill

        found = region_fill(self.n, black, white, self.budget.exhausted)
        return black | found.black, white | found.white, found.cells

    def count_analysis(self) -> None:
        """Count one kernel analysis against the budget (raises
        :class:`OutOfBudgetError` past it), tell the count to a progress listener
        (:func:`boardlab.core.progress.report`) every :data:`MEMORY_CHECK_EVERY`, and write
        the checkpoint when it is due."""
        self.analysed += 1
        self.stop_if_spent()
        if self.analysed % MEMORY_CHECK_EVERY == 0:
            if self.over_memory():
                self.stopped = "memory"
                raise OutOfBudgetError
            if self.meanwhile is not None:
                self.meanwhile()
            report(self.analysed)
        if self.checkpoint is not None and time.monotonic() >= self.next_save:
            self.save()

    def count_shared(self) -> None:
        """Count a position the shared table answered (no analysis; the budget's time and
        the others' proofs are still looked at every :data:`MEMORY_CHECK_EVERY`)."""
        self.shared_hits += 1
        if self.shared_hits % MEMORY_CHECK_EVERY == 0:
            self.stop_if_spent()
            if self.meanwhile is not None:
                self.meanwhile()

    def stop_if_spent(self) -> None:
        """Raise :class:`OutOfBudgetError` once the budget's time or its node limit (the
        positions analysed under it) is spent."""
        if self.budget.exhausted((self.analysed - self.charged_from) * ANALYSIS_COST):
            self.stopped = "limit"
            raise OutOfBudgetError

    def over_memory(self) -> bool:
        """Has the process grown past the search's memory budget since it started?"""
        return resident_memory() - self.memory_base > self.memory

    def keep_vcs(self, key: Key, vcs: Tables) -> None:
        """Keep an open position's connection tables (oldest dropped first)."""
        self.vcs[key] = vcs
        self.vc_bytes += vcs[0].nbytes + vcs[1].nbytes
        while self.vc_bytes > VC_CACHE_BYTES and len(self.vcs) > 1:
            _, dropped = self.vcs.popitem(last=False)
            self.vc_bytes -= dropped[0].nbytes + dropped[1].nbytes

    def vcs_of(self, key: Key) -> Tables | None:
        """The kept connection tables of a position (mover's first), if still kept."""
        found = self.vcs.get(key)
        if found is not None:
            self.vcs.move_to_end(key)
        return found

    def expand(
        self, key: Key, black: int, white: int, player: int, seed: Tables | None = None
    ) -> Node:
        """What is known of a position (analysed once, then cached).

        ``seed`` is the parent's pair of connection tables, in the frame of ``black`` and
        ``white``. The moves are tried in the order of :meth:`move_order`.
        """
        found = self.info.get(key)
        if found is not None:
            return found
        rotated = self.rotated(key, black, white)
        known = None if self.shared is None else self.shared.get(key, rotated)
        if known is not None:  # another worker's analysis (or this one's, dropped since)
            verdict, moves, rb, rw, proof, order = known
            self.count_shared()
        else:
            verdict, moves, rb, rw, proof, vcs = self.analyse(black, white, player, seed)
            order = ()
            if verdict == 0:
                self.keep_vcs(key, vcs)
                mine = vcs if player == 1 else (vcs[1], vcs[0])
                order = tuple(self.move_order(rb, rw, moves, mine))
            if self.shared is not None:
                self.shared.put(key, rotated, (verdict, moves, rb, rw, proof, order))
        fills = (rb | rw) & ~(black | white)
        win = moves if verdict == 1 else 0
        node = Node(verdict, bytes(order), rb, rw, proof, fills, rotated, win)
        self.info[key] = node
        if verdict != 0:
            self.proofs[key] = self.turn(proof, rotated)
            self.remember(key, player if verdict == 1 else 3 - player)
        return node

    def children_of(self, node: Node, player: int) -> list[Child]:
        """The children of an analysed position with ``player`` to move, in the frame of
        its analysis: ``(move bit, black, white, key)`` for each of its moves, in order."""
        rb, rw = node.black, node.white
        other = 3 - player
        # each child's key from the node's turned stones: a stone on cell c turns to one
        # on the last cell less c, so the stones are turned once, not once a child
        tb, tw = self.reverse(rb), self.reverse(rw)
        last = self.n * self.n - 1
        children: list[Child] = []
        for cell in node.moves:
            b = 1 << cell
            t = 1 << (last - cell)
            if player == 1:
                cb, cw, ub, uw = rb | b, rw, tb | t, tw
            else:
                cb, cw, ub, uw = rb, rw | b, tb, tw | t
            key_of = (cb, cw, other) if (cb, cw) <= (ub, uw) else (ub, uw, other)
            children.append((b, cb, cw, key_of))
        return children

    def move_order(self, black: int, white: int, moves: int, tables: Tables) -> list[int]:
        """The cells of ``moves``, those with the most current in the two players'
        resistor networks first (ties nearest the centre first), each network with its
        player's full connections (``tables``: player 1's, then player 2's). Measured on
        the 18 6x6 opening classes: 6 049 analysed positions against 29 372 when each
        child was first given a cheap analysis and started at (1, its number of moves);
        for the connections' links see
        :data:`boardlab.hex.prover.resistance.VC_CONDUCTANCE`."""
        from boardlab.hex.prover.resistance import move_scores

        if moves & (moves - 1) == 0:  # one move (or none): nothing to order
            return [cell for cell in self.centre_order if moves >> cell & 1]
        scores = move_scores(
            self.n, self.ring, np.uint64(black), np.uint64(white), tables[0], tables[1]
        )
        cells = [cell for cell in self.centre_order if moves >> cell & 1]
        return sorted(cells, key=lambda cell: -scores[cell])

    def remember(self, key: Key, winner: int) -> None:
        """File a proven position under its winner's stones, in both frames, for
        :meth:`recall`."""
        black, white, player = key
        proof = self.proofs[key]
        turned = (self.reverse(black), self.reverse(white), self.reverse(proof))
        for b, w, p in ((black, white, proof), turned):
            stones = b if winner == 1 else w
            lists = self.known[winner].setdefault(stones, ([], []))
            lists[0 if player == winner else 1].append(p)
        self.filed += 1

    def recall(self, black: int, white: int, player: int) -> tuple[int, int] | None:
        """``(winner, proof)`` if a proven position settles this one, else None.

        A position S won by W with proof P (W still wins when the loser gets every
        empty cell outside P) settles any position Q with the same side to move (or W
        to move) in which W has every stone W has in S and the loser has no stone in P:
        Q is S with some cells turned from empty or the loser's to W's and some of the
        loser's cells outside P emptied, none of which can hurt W. Q's proof is P's
        empty cells. The positions tried are those whose winner stones are Q's, or Q's
        less one stone (Rasmussen's template table and Benzene's transposition
        deductions catch the same positions: a loser's useless exchange elsewhere).
        """
        empty = self.board & ~(black | white)
        for winner in (1, 2):
            table = self.known[winner]
            if not table:
                continue
            own, other = (black, white) if winner == 1 else (white, black)
            # the winner to move: both sides' proofs apply, the winner's first
            sides = (0, 1) if player == winner else (1,)
            stones, rest = own, own
            while True:
                found = table.get(stones)
                if found is not None:
                    for side in sides:
                        for proof in found[side]:
                            if not proof & other:
                                return winner, proof & empty
                if not rest:
                    break
                low = rest & -rest
                stones = own & ~low
                rest &= rest - 1
        return None

    def proof_of(self, key: Key, black: int, white: int) -> int:
        """The stored proof of a proven position, in the frame of ``black``/``white``."""
        proof = self.proofs[key]
        return self.turn(proof, self.rotated(key, black, white))

    def bounds(self, key: Key, black: int, white: int, player: int) -> tuple[int, int]:
        """``(pn, dn)`` of a position: from the table, else (with
        :attr:`recall_children`) from a stored proof that covers it, else from its
        analysis if it has one, else ``(1, 1)``."""
        found = self.tt.get(key)
        if found is not None:
            return found
        if self.recall_children and self._settle_by_recall(key, black, white, player):
            return self.tt[key]
        node = self.info.get(key)
        if node is not None and node.verdict != 0:
            return (0, INF) if node.verdict == 1 else (INF, 0)
        return 1, 1

    def _settle(self, key: Key, node: Node, pn: int, dn: int, proof: int) -> None:
        self.tt[key] = (pn, dn)
        if pn == 0 or dn == 0:
            self.proofs[key] = self.turn(proof, node.rotated)
            self.remember(key, self.winner_of(key))

    def _settle_by_recall(self, key: Key, black: int, white: int, player: int) -> bool:
        """Settle a position from :meth:`recall`; True if it was."""
        if self.recall_missed.get(key) == self.filed:
            return False
        hit = self.recall(black, white, player)
        if hit is None:
            if len(self.recall_missed) >= _RECALL_MISSES:
                self.recall_missed.clear()
            self.recall_missed[key] = self.filed
            return False
        winner, proof = hit
        self.recalled += 1
        self.tt[key] = (0, INF) if winner == player else (INF, 0)
        self.proofs[key] = self.turn(proof, self.rotated(key, black, white))
        return True

    def settled_by_store(self, black: int, white: int, player: int) -> bool:
        """Is the position proven, by the table or by a stored proof that covers it
        (:meth:`recall`), even if it was analysed before? (A worker of several asks
        this of its job's position as the others' proofs come in: another worker's
        proof of a sibling may settle it, which this search's own table cannot see.)"""
        key = self.key(black, white, player)
        found = self.tt.get(key)
        if found is not None and 0 in found:
            return True
        return self._settle_by_recall(key, black, white, player)

    def mid(
        self,
        key: Key,
        black: int,
        white: int,
        player: int,
        pn_th: int,
        dn_th: int,
        seed: Tables | None = None,
    ) -> None:
        """Search the position until its proof or disproof number reaches its threshold.

        A won position's proof is its winning move plus that child's proof; a lost one's
        is its own analysis proof plus every child's proof and move. ``seed`` is the
        parent's pair of connection tables (its children are in the parent's frame).
        """
        self.nodes += 1
        found = self.tt.get(key)
        if found is not None and 0 in found:
            return
        if key not in self.info and self._settle_by_recall(key, black, white, player):
            return
        node = self.expand(key, black, white, player, seed=seed)
        if node.verdict != 0:
            self.tt[key] = (0, INF) if node.verdict == 1 else (INF, 0)
            return
        tt = self.tt
        look_up = tt.get
        analysed = self.info.get
        recall_children = self.recall_children
        other = 3 - player
        children = self.children_of(node, player)
        while True:
            best = -1
            best_dn = INF + 1
            best_pn = 0
            second = INF
            total = 0
            allowed = -1
            lost_moves = 0
            window = WIDENING_BASE + int(self.widening * len(children))
            for index, (b, cb, cw, ck) in enumerate(children):
                # :meth:`bounds`, written out: this loop is the search's hottest
                bound = look_up(ck)
                if bound is None:
                    if recall_children:
                        bound = self.bounds(ck, cb, cw, other)
                    else:
                        child = analysed(ck)
                        if child is None or child.verdict == 0:
                            bound = _UNKNOWN
                        else:
                            bound = _WON if child.verdict == 1 else _LOST
                cpn, cdn = bound
                if cpn == 0:
                    lost = self.proof_of(ck, cb, cw) | b
                    node.proof |= lost
                    allowed &= lost
                    lost_moves |= b
                    continue
                if cdn == 0:
                    won = self.proof_of(ck, cb, cw) | b | node.fills
                    self._settle(key, node, 0, INF, won)
                    return
                if index >= window:
                    continue
                total += cpn
                if cdn < best_dn:
                    second = best_dn
                    best_dn, best_pn, best = cdn, cpn, index
                elif cdn < second:
                    second = cdn
            if lost_moves:
                children = [c for c in children if c[0] & allowed and not c[0] & lost_moves]
                node.moves = bytes(c[0].bit_length() - 1 for c in children)
                continue  # count again without the dropped children
            if not children:
                self._settle(key, node, INF, 0, node.proof)
                return
            pn = min(best_dn, INF)
            dn = min(total, INF)
            if pn >= pn_th or dn >= dn_th:
                tt[key] = (pn, dn)
                return
            child_pn_th = min(INF, dn_th - dn + best_pn)
            grown = max(second + 1, int(second * (1 + EPSILON)))
            child_dn_th = min(pn_th, grown)
            _, cb, cw, ck = children[best]
            self.depth += 1
            try:
                self.mid(ck, cb, cw, other, child_pn_th, child_dn_th, self.vcs_of(key))
            finally:
                self.depth -= 1

    def prove(self, black: int, white: int, player: int, below: int = 0) -> bool:
        """True if ``player`` to move wins (raises :class:`OutOfBudgetError` past the limit).

        ``below`` is how many moves the position lies below the question's root (a move
        of the root being classified: 1), for :attr:`depth`."""
        pn, _ = self.work(black, white, player, INF, INF, below)
        return pn == 0

    def work(
        self,
        black: int,
        white: int,
        player: int,
        pn_th: int,
        dn_th: int,
        below: int = 0,
        parent: tuple[int, int] | None = None,
    ) -> tuple[int, int]:
        """Search a position until its proof number reaches ``pn_th`` or its disproof
        number ``dn_th`` (one step of a search whose upper levels someone else keeps,
        :mod:`boardlab.hex.prover.jobs`); its numbers then. Raises
        :class:`OutOfBudgetError` past the limit.

        ``parent`` is the position (black, white) one move above, when there is one: if
        this search analysed it and the position is one of its moves not analysed yet,
        the position is searched as that move, from the parent's connections, as
        :meth:`mid` searches a child (the same analysis a one-process search makes); the
        parent's connections are marked as used, as :meth:`mid` marks them each time it
        searches a child, so that the cache keeps them while the parent's moves are
        searched."""
        key = self.key(black, white, player)
        self.depth = below + 1
        if parent is not None:  # its connections kept fresh (their cache drops the oldest)
            above = self.key(*parent, 3 - player)
            seed = self.vcs_of(above)
            node = None if key in self.info else self.info.get(above)
            moves = [] if node is None else self.children_of(node, 3 - player)
            move = next((c for c in moves if c[3] == key), None)
            if move is not None and seed is not None:
                black, white = move[1], move[2]  # in the frame of the parent's analysis
                self.mid(key, black, white, player, pn_th, dn_th, seed)
                return self.tt[key]
        self.mid(key, black, white, player, pn_th, dn_th)
        return self.tt[key]

    def classification_order(self, black: int, white: int, player: int) -> list[int]:
        """The empty cells in the order :func:`boardlab.hex.prover.solver.solve_dfpn`
        classifies them: the moves no other move dominates first (nearest the centre first), then
        the dominated ones, which :meth:`settled_by_domination` may settle unsearched."""
        from boardlab.hex.inferior import dominators

        found = dominators(
            self.n, self.ring, self.table, (np.uint64(black),), (np.uint64(white),), player
        )
        self.dominated_by = {cell: int(found[cell, 0]) for cell in range(self.n * self.n)}
        empty = [cell for cell in self.centre_order if not (black | white) >> cell & 1]
        return sorted(empty, key=lambda cell: self.dominated_by[cell] != 0)

    def classification_phases(self, order: list[int]) -> list[list[int]]:
        """The moves of ``order`` in the two phases they are classified in
        (:func:`boardlab.hex.prover.classify.classify`): those no other move dominates, then
        the dominated ones (:meth:`classification_order` found them)."""
        return [
            [cell for cell in order if not self.dominated_by[cell]],
            [cell for cell in order if self.dominated_by[cell]],
        ]

    def settled_by_domination(
        self, cell: int, winning: list[int], losing: list[int]
    ) -> bool | None:
        """True if the move ``cell`` wins, False if it loses, by a move already classified
        that dominates it or that it dominates (:meth:`classification_order` found them);
        None if neither settles it. A dominated move is no better than its dominator:
        it loses when the dominator loses, and the dominator wins when it wins."""
        if any(self.dominated_by.get(cell, 0) >> d & 1 for d in losing):
            return False
        if any(self.dominated_by.get(w, 0) >> cell & 1 for w in winning):
            return True
        return None

    def considered_moves(self, black: int, white: int, player: int) -> int | None:
        """The cells of a position's must-play set, less its inferior cells, as the
        analysis found them (None when the analysis settled the position itself)."""
        key = self.key(black, white, player)
        node = self.expand(key, black, white, player)
        if node.verdict != 0:
            return None
        found = 0
        for cell in node.moves:
            found |= 1 << cell
        return self.turn(found, node.rotated != self.rotated(key, black, white))

    def winning_child(self, black: int, white: int, player: int) -> int | None:
        """A proven winning move (as a bit) of a position proven won, from the table."""
        key = self.key(black, white, player)
        node = self.expand(key, black, white, player)
        flip = node.rotated != self.rotated(key, black, white)
        if node.win:
            return self.turn(node.win, flip)
        for b, cb, cw, ck in self.children_of(node, player):
            if self.bounds(ck, cb, cw, 3 - player)[1] == 0:
                return self.turn(b, flip)
        return None
