"""Engine layer: the Hex engine, Monte Carlo tree search with RAVE and an MCTS-solver.

Each iteration descends the tree (UCT blended with RAVE/AMAF values), expands a leaf
once it has been visited ``expand_threshold`` times (dead cells are not given
children), checks whether the move into a new node has just won (proofs propagate:
a node with a winning child is lost for the player who moved into it, a node whose
children all lose is won) and finishes the game with a random playout in which a
player answers an intrusion into its bridges or edge bridges. The loop itself is the
numba kernel :func:`boardlab.hex.engine.kernel.mcts_iterate`, run in batches so the Python
side can watch the clock: a search never runs past its time limit.

Before the tree search, the root is checked in plain Python for a winning move and
for a single opponent threat that must be blocked.

Results are reproducible from the seed under a playout (``Limit(nodes=...)``) limit
with one thread; under a time limit the number of playouts depends on the machine.

Near the end of a game on a board up to 8x8 the engine asks :meth:`MctsEngine.prove_win`
for a proven winning move; the engine room has no prover (it imports nothing of
:mod:`boardlab.hex.prover`), so that hook proves nothing here, and
:class:`boardlab.hex.player.SolvingEngine` (the engine every front end plays) answers it
with the exact solver. The balanced opening lives in :mod:`boardlab.hex.engine.opening`,
the swap decision in :mod:`boardlab.hex.player`, the game clock of the IOI library in
:mod:`boardlab.hex.hexlib`.
"""

from __future__ import annotations

import copy
import time
import zipfile
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.core.hashing import splitmix64
from boardlab.core.limits import Budget, Limit
from boardlab.hex.board import bridge_table, neighbours
from boardlab.hex.cellsets import as_int, words
from boardlab.hex.connections import MAX_SIZE as MAX_VC_SIZE
from boardlab.hex.engine.growth import Share, Step, grow
from boardlab.hex.engine.mustplay import link_table
from boardlab.hex.engine.patterns import square_table
from boardlab.hex.inferior import pruned_moves
from boardlab.hex.rules import (
    EMPTY,
    Cell,
    Position,
    game_over,
    opponent,
)

__all__ = [
    "MctsEngine",
    "SearchResult",
    "Tables",
    "tables",
    "warm_up",
    "winning_cells",
]

#: The smallest tree an engine may be given (nodes).
MIN_NODES = 1000
#: Below this many seconds left, no new batch of playouts starts.
_LAST_BATCH_SECONDS = 0.01

DEFAULT_PLAYOUTS = 20_000
#: Tree nodes an engine may hold by default. On 11x11 a 1 s search grows about 1.5
#: million (every expansion adds a node per legal child); with 1 million the tree stopped
#: growing part way through the second, and in self-play at 1 s a move the engine with
#: 3 million won 13 of 18 games against the one with 1 million. Node arrays are
#: allocated zeroed (untouched pages cost no memory): about 45 bytes a node used.
DEFAULT_MAX_NODES = 3_000_000
#: Visits a leaf gets before it is given its children (each expansion tests every
#: child for death, scores its patterns and finds the must-play region).
EXPAND_VISITS = 4
#: Virtual RAVE visits a new child gets at its pattern win rate (0: no prior).
PRIOR_VISITS = 20.0
#: Visits after which a tree node is analysed for virtual connections, and the carrier
#: combinations that analysis may try (see ``_kernel.mcts_iterate``).
KNOWLEDGE_VISITS = 300
KNOWLEDGE_WORK = 50_000
#: The exact solver is tried near the end only on boards up to 8x8 (its DFPN); past them
#: the virtual connections stand in for it (in self-play on 11x11 at 0.25 s a move the
#: engine without the alpha-beta endgame won 30 of 50 games: the root analysis finds the
#: wins it found, and the search keeps the 30 % of the time it took).
ENDGAME_CELLS = 64
#: The share of a timed move's limit the exact solver may take before the tree search.
ENDGAME_SHARE = 0.3
#: The move-pattern weights (made by ``scripts/hex_patterns.py``).
PATTERN_FILE = "patterns.npz"
#: Visits after which a tree node is evaluated by the policy network (the root at once);
#: 0 leaves the network out.
NET_VISITS = 64
#: The weight of the network's probability in the selection (``w * p / sqrt(n + 1)``):
#: in self-play on 11x11 at 0.5 s a move the engine with 1.0 won 14 of 20 games against
#: the one with 0 (both with the network).
POLICY_WEIGHT = 1.0
#: The weight from 13x13 up, where the search is shallower: on the positions before the
#: engine's losing moves in its 13x13 games against MoHex 2.0, 3.0 avoided three times as
#: many of them, and at equal time against MoHex it won 20 of 40 games where 1.0 had won
#: 15 of 40 (``docs/benchmarks/hex.md``).
POLICY_WEIGHT_LARGE = 3.0
#: The smallest board that gets :data:`POLICY_WEIGHT_LARGE`.
LARGE_BOARD = 13


def default_policy_weight(size: int) -> float:
    """The network's weight in the selection on a ``size`` board when none is given."""
    return POLICY_WEIGHT_LARGE if size >= LARGE_BOARD else POLICY_WEIGHT


#: Virtual visits a network-evaluated node gets at its value head's winning chance (0:
#: the value is not used; a network without a value head is never used so).
VALUE_VISITS = 0.0
#: Whether a node the virtual connections leave open also loses its children on the
#: mover's vulnerable and dominated cells (:func:`boardlab.hex.inferior.pruned_moves`).
INFERIOR = False
#: Whether a tree node's analysis searches only the opponent's connections (its must-play
#: set and a LOSS), at about three fifths of the cost, leaving the mover's winning
#: connections to the analysis of the node's children.
LIGHT_KNOWLEDGE = False


@dataclass(frozen=True, slots=True)
class Tables:
    """Neighbour and bridge tables of one board size, as numpy arrays for the kernels."""

    size: int
    nbr: npt.NDArray[np.int32]
    bridges: npt.NDArray[np.int32]
    nbridge: npt.NDArray[np.int32]
    links: npt.NDArray[np.int32]
    nlinks: npt.NDArray[np.int32]
    squares: npt.NDArray[np.int32]


@cache
def tables(size: int) -> Tables:
    """The kernel tables of a ``size x size`` board (cached)."""
    cells = size * size
    nbr = np.full((cells, 6), -1, np.int32)
    for i, ns in enumerate(neighbours(size)):
        nbr[i, : len(ns)] = ns
    table = bridge_table(size)
    width = max((len(entry) for entry in table), default=0) or 1
    bridges = np.zeros((cells, width, 3), np.int32)
    nbridge = np.zeros(cells, np.int32)
    for i, entry in enumerate(table):
        nbridge[i] = len(entry)
        for k, triple in enumerate(entry):
            bridges[i, k] = triple
    links, nlinks = link_table(size)
    return Tables(size, nbr, bridges, nbridge, links, nlinks, square_table(size))


@cache
def pattern_weights(path: str = "") -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int32]]:
    """The move-pattern weights (the file at ``path``, by default the one shipped with
    boardlab) and the ring-code classes.

    :raises BoardlabError: when the file cannot be read or its weights do not fit.
    """
    from importlib.resources import files

    from boardlab.hex.engine.patterns import NUM_WEIGHTS, ring_canon_table

    name = path or PATTERN_FILE
    source = Path(path) if path else files("boardlab.hex").joinpath("data", PATTERN_FILE)
    try:
        with source.open("rb") as stream:
            weights = np.load(stream)["weights"].astype(np.float64)
    except (OSError, EOFError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise BoardlabError(f"{name}: cannot read the pattern weights: {exc}") from None
    if weights.shape != (NUM_WEIGHTS,):
        raise BoardlabError(
            f"{name}: {weights.shape[0]} weights, the features need {NUM_WEIGHTS}; "
            "run scripts/hex_patterns.py"
        )
    return weights, ring_canon_table()


_NO_NETWORK = (
    np.zeros((7, 6, 1), np.float32),
    np.zeros(1, np.float32),
    np.zeros((0, 7, 1, 1), np.float32),
    np.zeros((0, 1), np.float32),
    np.zeros(1, np.float32),
    np.zeros(1, np.float32),
)


def _network_arrays(
    path: str, params: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.float32], ...]:
    """The policy network's arrays as the kernel takes them (the file at ``path``, by
    default the one shipped); its head bias, pattern weight and value bias go into
    ``params`` (and no virtual value visits when it has no value head).

    :raises BoardlabError: when the file cannot be read or its arrays do not fit.
    """
    from boardlab.hex.engine.network import load_network, one_blas_thread

    net = load_network(path)
    one_blas_thread()
    params[10] = net.head_bias
    params[11] = net.alpha
    params[13] = net.value_bias
    if not net.has_value:
        params[12] = 0.0
    return net.first, net.first_bias, net.hidden, net.hidden_bias, net.head, net.value


Tree = tuple[npt.NDArray[np.int32], npt.NDArray[np.float64], npt.NDArray[np.int8]]
"""A search tree: ``(first, count, move)`` rows, ``(visits, wins, rvisits, rwins)`` rows
and ``proof``, as the kernels keep them."""

#: The most threads :class:`MctsEngine` runs at once (``threads``).
MAX_THREADS = 64
#: Visits from which threads sharing a tree keep a node's counts for a few playouts
#: before adding them, and count no descent under way through it (0: never).
HOT_VISITS = 2000
#: Lost visits a descent under way adds to each node of its path while threads share
#: one tree (see ``kernel.mcts_iterate``).
VIRTUAL_LOSS = 1.0
#: Bytes a tree node's arrays take when it is used: three int32 rows, five float64 rows
#: and the int8 proof.
NODE_BYTES = 3 * 4 + 5 * 8 + 1


def _check_tree_memory(threads: int, max_nodes: int) -> None:
    """Refuse ``threads`` trees whose arrays, filled, would not fit in the free memory.

    :raises BoardlabError: when they would not.
    """
    from boardlab.core.memory import available_memory, format_size

    need = threads * max_nodes * NODE_BYTES
    free = available_memory()
    if need > free:
        raise BoardlabError(
            f"{threads} search trees of {max_nodes:,} nodes need up to {format_size(need)}, "
            f"and {format_size(free)} is free: use fewer threads"
        )


def _merge_root(
    helper: MctsEngine,
    move: npt.NDArray[np.int32],
    children: list[int],
    visits: dict[int, float],
    won: dict[int, float],
    proof: dict[int, int],
) -> int:
    """Add the root children's visits and wins of ``helper``'s last tree to those of
    ``children`` (nodes of a tree whose moves are ``move``), and its proofs; returns the
    helper's playouts."""
    (first, count, hmove, hvisits, hwins, hproof, _), done = helper._last
    by_move = {int(move[c]): c for c in children}
    for h in range(int(first[0]), int(first[0] + count[0])):
        c = by_move.get(int(hmove[h]))
        if c is None:
            continue
        visits[c] += float(hvisits[h])
        won[c] += float(hwins[h])
        if hproof[h] != 0:
            proof[c] = int(hproof[h])
    return done


#: A subtree is reused when the new position is at most this many moves past the old root.
REUSE_PLIES = 4
#: Visits a node of the kept tree needs to keep its children (see ``_kernel.reroot``):
#: in replayed 11x11 games at 1 s a move 16 left 16.5 ms of a move outside the tree's
#: growth against 29.6 ms when every node was copied, and ran 4 % more playouts.
REUSE_VISITS = 16


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A chosen move with its evidence.

    ``cell`` is the move. ``verdict`` is +1 when the move is proven to win for the side
    to move, -1 when every move is proven to lose, 0 otherwise; ``proven`` says whether
    it is +1 or -1. ``win_rate`` is the move's observed playout win rate for the side to
    move; ``top`` lists ``(cell, visits, win_rate)`` of the most visited moves. ``value``
    is the root value for the side to move: the win rate over all the playouts of the
    tree search (``win_rate`` when there was none; 1 or 0 when proven). ``nodes`` counts
    the tree nodes the search held (0 when it answered without a tree), ``playouts`` its
    playouts; a search has no ``bound`` (None). ``visits`` lists ``(index, visits)`` of
    every child of the root the tree search visited (summed over its trees), in cell
    index order: the search's distribution over its moves (empty when it answered
    without a tree).
    """

    cell: Cell
    win_rate: float
    verdict: int
    playouts: int
    nodes: int
    seconds: float
    top: tuple[tuple[Cell, int, float], ...]
    reason: str
    value: float = 0.5
    visits: tuple[tuple[int, int], ...] = ()

    @property
    def proven(self) -> bool:
        """True when the outcome is proven: the move wins, or every move loses."""
        return self.verdict != 0

    @property
    def bound(self) -> None:
        """A search has no bound on its answer (the evidence every game's result has)."""
        return None

    def as_dict(self) -> dict[str, object]:
        """The move and its evidence as JSON-ready values, cells named as HexGui does
        (:meth:`Cell.vertex`); the command line and the web print it as it is."""
        return {
            "move": self.cell.vertex(),
            "win_rate": round(self.win_rate, 4),
            "verdict": self.verdict,
            "proven": self.proven,
            "bound": self.bound,
            "playouts": self.playouts,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "reason": self.reason,
            "top": [
                {"move": cell.vertex(), "visits": v, "win_rate": round(r, 4)}
                for cell, v, r in self.top
            ],
        }


def winning_cells(position: Position, player: int) -> list[int]:
    """Empty cells where a stone of ``player`` would win at once."""
    work = position.copy()
    saved = work.to_move
    work.to_move = player
    found = []
    for index in range(len(work.board)):
        if work.board[index] == EMPTY:
            work.push_index(index)
            if work.winner == player:
                found.append(index)
            work.pop_index()
            work.to_move = player
    work.to_move = saved
    return found


#: The cell-set widths whose kernels this process has loaded (:func:`warm_up`).
_WARM: set[int] = set()


def warm_up(size: int = 3) -> float:
    """Load (or compile) the numba kernels for boards of ``size``'s cell-set width (two
    words up to 11x11, three for 12x12 and 13x13) once per process; returns the seconds
    it took.

    The first call of a kernel costs its cache load or compilation; engines call this
    before a clock starts so a first move is not starved (a search on a board of a width
    not loaded yet loads it first, outside its limit).
    """
    started = time.perf_counter()
    width = _vc_width(size)
    if width not in _WARM:
        _WARM.add(width)
        n = 3 if width == 2 else MAX_VC_SIZE  # noqa: PLR2004
        MctsEngine(seed=0, max_nodes=1000, connections=False).search(Position(n), Limit(nodes=50))
        root_connections(Position(n))
        _filled(np.zeros(n * n, np.int8), n, 1)
    return time.perf_counter() - started


_NO_TEMPLATES = np.zeros((0, 2), np.uint64)


def _vc_width(size: int) -> int:
    """The words of the engine's cell sets (the width its kernel is compiled for) on a
    ``size x size`` board: two up to 11x11 (one width for every small board) and past
    13x13 (no connections there), three for 12x12 and 13x13."""
    return max(2, words(size)) if size <= MAX_VC_SIZE else 2


def _vc_like(size: int) -> tuple[np.uint64, ...]:
    """An empty set of the engine's width (numba compiles the analysis per width)."""
    return tuple(np.uint64(0) for _ in range(_vc_width(size)))


@cache
def _vc_tables(size: int, templates: bool = True) -> tuple[Any, ...]:
    """The virtual-connection tables the kernel takes and an empty set of their width
    (empty tables past 13x13), without the edge templates when ``templates`` is False."""
    from boardlab.hex import connections as _vc

    if size > MAX_VC_SIZE:
        u2 = _NO_TEMPLATES
        return u2, u2, np.zeros((0, 6), np.int64), np.zeros(0, np.bool_), u2, _vc_like(size)
    kb = _vc.knowledge(size, _vc_width(size))
    kept = kb.templates if templates else kb.templates[:0]
    return kb.nbr, kb.lines, kb.ring, kb.table, kept, _vc_like(size)


def _filled(board: npt.NDArray[np.int8], size: int, player: int) -> npt.NDArray[np.int8]:
    """The root board with captured pairs and dead cells filled in (see
    :func:`boardlab.hex.connections.filled_board`), unless that leaves no empty cell."""
    from boardlab.hex import connections as _vc

    kb = _vc.knowledge(size, _vc_width(size))
    filled = _vc.filled_board(size, kb.ring, kb.table, board, player, _vc_like(size))
    return filled if (filled == 0).any() else board


def root_connections(
    position: Position, templates: bool = True, inferior: bool = False
) -> tuple[int, int, list[int] | None]:
    """``(verdict, move, allowed)``: the virtual-connection verdict for the side to move
    (:func:`boardlab.hex.connections.analyse`: WIN, LOSS or OPEN), a winning move (-1 if none is
    known) and, when the opponent threatens a connection (or, with ``inferior``, some
    moves are vulnerable or dominated: :func:`boardlab.hex.inferior.pruned_moves`), the
    cells where a winning move lies if there is one (None when any move may be tried)."""
    from boardlab.hex import connections as _vc

    size = position.size
    kb = _vc.knowledge(size, _vc_width(size))
    board = np.array(position.board, np.int8)
    verdict, move, moves = _vc.analyse(
        size,
        kb.nbr,
        kb.lines,
        kb.ring,
        kb.table,
        kb.templates if templates else kb.templates[:0],
        board,
        position.to_move,
        _vc.KEEP_FULL,
        _vc.KEEP_SEMI,
        _vc.MAX_WORK,
        _vc_like(size),
        True,
    )
    if verdict != _vc.OPEN:
        return int(verdict), int(move) if verdict == _vc.WIN else -1, None
    if inferior:
        moves[0] = pruned_moves(
            size, kb.ring, kb.table, board, position.to_move, moves, _vc_like(size)
        )
    mask = as_int(moves[0])
    cells = [i for i in position.legal_indices() if mask >> i & 1]
    return int(verdict), -1, cells if len(cells) < len(position.legal_indices()) else None


def _keep_to(
    allowed: list[int],
    first: npt.NDArray[np.int32],
    count: npt.NDArray[np.int32],
    move: npt.NDArray[np.int32],
    proof: npt.NDArray[np.int8],
) -> None:
    """Mark the root's children outside ``allowed`` as lost for the mover (their proofs
    come from outside the tree), unless that would leave none open."""
    keep = set(allowed)
    children = range(int(first[0]), int(first[0] + count[0]))
    outside = [c for c in children if int(move[c]) not in keep and proof[c] == 0]
    if len(outside) < sum(1 for c in children if proof[c] == 0):
        for c in outside:
            proof[c] = -1


def _board_after(
    board: npt.NDArray[np.int8], player: int, moves: tuple[int, ...]
) -> npt.NDArray[np.int8]:
    """``board`` after ``moves`` (cell indices), ``player`` moving first."""
    after = board.copy()
    for cell in moves:
        after[cell] = player
        player = 3 - player
    return after


class MctsEngine:
    """UCT + RAVE Monte Carlo tree search with bridge playouts and an MCTS-solver.

    ``seed`` fixes every random choice: the ``k``-th search of an engine uses a stream
    derived from ``(seed, k)``. ``patterns`` names a weights file for the prior (by
    default the one shipped, ``hex/data/patterns.npz``). With ``connections`` (boards up
    to 13x13) the root is first analysed for virtual connections
    (:mod:`boardlab.hex.connections`): a connection of the mover's wins at once, and the tree
    search keeps to the cells inside every threat of the opponent's; a tree node that
    reaches ``knowledge_visits`` visits is analysed the same way in the kernel (0: never),
    with ``light_knowledge`` for the opponent's connections only (its threats and a
    loss; the mover's wins are left to the node's children). ``edge_templates`` False
    leaves the fourth-row edge templates out of that analysis (for measuring what they
    bring). With ``fill_in`` (boards up to 13x13) the tree and its playouts start from
    the root board with its captured pairs and dead cells filled in (the same winner; the moves
    into them are never needed). With ``reuse`` the next search reuses the subtree of the
    position it reached less the moves into cells its own fill-in adds, each node with
    fewer than ``reuse_visits`` visits (or than the visits that bring the analysis or the
    network, when fewer) copied without its children. With ``inferior`` a position
    the connections leave open (the root, and each node analysed in the tree) also
    loses the moves on the mover's vulnerable and dominated cells, as MoHex prunes its
    nodes (:func:`boardlab.hex.inferior.pruned_moves`; a winning move is always kept).

    ``policy_weight`` is the policy network's weight in the selection (``w p / sqrt(n +
    1)``); None, the default, takes it from the board's size
    (:func:`default_policy_weight`: 1 up to 12x12, 3 from 13x13).

    With ``solver_empties`` empty cells or fewer on a board of at most ``solver_cells``
    cells, the exact endgame (:meth:`prove_win`) gets ``solver_share`` of a timed move's
    limit (a quarter of a node limit) before the tree search.

    With ``threads`` above 1 that many threads grow one tree at once (the kernel
    releases the GIL; see ``kernel.mcts_iterate`` for how they share it and
    :mod:`boardlab.hex.engine.growth` for the playouts and nodes they share), each with
    its own random stream: a node limit is the total of their playouts, a time limit
    holds for each; results are then not reproducible. With ``shared_tree`` False they
    grow separate trees instead (root parallelism), each from its own seed and keeping
    its own tree between moves; the root's children are chosen on their visits and
    wins summed over the trees, and a proof in any tree counts. With ``hot_visits`` above
    0, threads sharing the tree keep the visit, win and RAVE counts of a node with that
    many visits (raised above the visits that bring an expansion, an analysis or the
    network) for a few playouts before adding them, and count no virtual loss there:
    the hottest nodes' counts are then written by one core at a time.
    """

    def __init__(
        self,
        seed: int = 0,
        max_nodes: int = DEFAULT_MAX_NODES,
        exploration: float = 0.0,
        rave_bias: float = 0.001,
        expand_threshold: int = EXPAND_VISITS,
        solver_empties: int = 48,
        solver_cells: int = ENDGAME_CELLS,
        solver_share: float = ENDGAME_SHARE,
        must_play: bool = True,
        reuse: bool = True,
        reuse_visits: int = REUSE_VISITS,
        prior: float = PRIOR_VISITS,
        patterns: str = "",
        connections: bool = True,
        knowledge_visits: int = KNOWLEDGE_VISITS,
        fill_in: bool = True,
        edge_templates: bool = True,
        net_visits: int = NET_VISITS,
        policy_weight: float | None = None,
        value_visits: float = VALUE_VISITS,
        inferior: bool = INFERIOR,
        light_knowledge: bool = LIGHT_KNOWLEDGE,
        hot_visits: int = HOT_VISITS,
        network: str = "",
        threads: int = 1,
        shared_tree: bool = True,
    ) -> None:
        if max_nodes < MIN_NODES:
            raise BoardlabError(f"max_nodes must be at least {MIN_NODES}, got {max_nodes}")
        if not 1 <= threads <= MAX_THREADS:
            raise BoardlabError(f"threads must be 1 to {MAX_THREADS}, got {threads}")
        if threads > 1 and not shared_tree:
            _check_tree_memory(threads, max_nodes)
        self.seed = seed
        self.threads = threads
        self.shared_tree = shared_tree
        self.solver_empties = solver_empties
        self.solver_cells = solver_cells
        self.solver_share = solver_share
        self.max_nodes = max_nodes
        self.params = np.array(
            [
                exploration,
                rave_bias,
                float(expand_threshold),
                1.0,
                float(must_play),
                prior,
                # the kernel analyses a node on the one visit that equals this count,
                # and only once it has children; a leaf gets them on the visit that
                # equals ``expand_threshold``, after that visit's analysis check
                float(
                    max(knowledge_visits, expand_threshold + 1)
                    if connections and knowledge_visits
                    else 0
                ),
                float(KNOWLEDGE_WORK),
                float(net_visits),
                POLICY_WEIGHT if policy_weight is None else policy_weight,
                0.0,
                0.0,
                value_visits,
                0.0,
                0.0,  # the virtual loss, set when threads share the tree
                float(inferior),
                float(light_knowledge),
                0.0,  # the hot nodes' visits, set below
            ],
            np.float64,
        )
        if hot_visits < 0:
            raise BoardlabError(f"hot_visits must be 0 or more, got {hot_visits}")
        if hot_visits:
            # a hot node's counts grow in steps: above every count the kernel waits for
            past = max(self.params[2], self.params[6], self.params[8]) + 1.0
            self.params[17] = max(float(hot_visits), past)
        #: The network's weight in the selection as given (None: by the board's size).
        self.policy_weight = policy_weight
        self.network = _network_arrays(network, self.params) if net_visits > 0 else _NO_NETWORK
        self.patterns = pattern_weights(patterns) if prior > 0 else pattern_weights()
        self._searches = 0
        self._last: tuple[tuple[npt.NDArray[Any], ...], int] = ((), 0)
        self.reuse = reuse
        self.reuse_visits = reuse_visits
        self.connections = connections
        self.edge_templates = edge_templates
        self.fill_in = fill_in
        #: The last search's tree, its root (board size and moves), the board it was
        #: grown on (the root's, filled in or not) and the player to move there, for reuse.
        self._tree: tuple[tuple[int, ...], Tree, npt.NDArray[np.int8], int] | None = None
        #: The descents under way through each node when the last search ended (threads
        #: sharing the tree: all 0 once every thread has added its result).
        self._losses = np.zeros(1, np.int32)
        #: Separate trees only: the other trees' engines (``threads - 1`` of them), each
        #: with its own seed.
        self._helpers = (
            [] if shared_tree else [self._twin(seed * 7919 + k) for k in range(1, threads)]
        )

    def _twin(self, seed: int) -> MctsEngine:
        """An engine with the same settings and knowledge, its own seed and no tree."""
        twin = copy.copy(self)
        twin.seed = seed
        twin.threads = 1
        twin.params = self.params.copy()
        twin._searches = 0
        twin._last = ((), 0)
        twin._tree = None
        twin._helpers = []
        return twin

    def search(self, position: Position, limit: Limit | None = None) -> SearchResult:
        """The best move for the side to move in ``position`` within ``limit``.

        Without a limit the search runs :data:`DEFAULT_PLAYOUTS` playouts. The first
        search of a process on a board of each cell-set width first loads the kernels
        (:func:`warm_up`, about 0.5 s from numba's cache), outside the limit; callers with
        a whole-game clock charge it.

        :raises IllegalMoveError: when the game is already over.
        """
        started = time.perf_counter()
        if position.winner is not None:
            raise IllegalMoveError(game_over(position.winner))
        limit = limit or Limit(nodes=DEFAULT_PLAYOUTS)
        if _vc_width(position.size) not in _WARM:
            warm_up(position.size)
            started = time.perf_counter()
        budget = limit.start()
        self._searches += 1
        me = position.to_move
        empty = position.legal_indices()
        wins = winning_cells(position, me)
        if wins:
            return self._quick(wins[0], position, 1, "wins at once", started)
        threats = winning_cells(position, opponent(me))
        if len(threats) == 1:
            return self._quick(threats[0], position, 0, "blocks the only threat", started)
        if len(empty) == 1:
            return self._quick(empty[0], position, 0, "only move", started)
        allowed: list[int] | None = None
        open_position = False  # the virtual connections decide nothing yet
        if self.connections and position.size <= MAX_VC_SIZE:
            verdict, winning, allowed = root_connections(
                position, self.edge_templates, bool(self.params[15])
            )
            open_position = verdict == 0
            if winning >= 0:
                return self._quick(winning, position, 1, "virtual connection: proven win", started)
        if len(empty) <= self.solver_empties and position.size**2 <= self.solver_cells:
            found = self._endgame(position, limit, budget)
            if found is not None:
                return self._quick(found, position, 1, "solver: proven win", started)

        proven_loss = False
        fill = open_position and self.fill_in
        helpers: list[MctsEngine] = []
        for use_proofs in (1.0, 0.0):
            if use_proofs and self._helpers:
                outcome, helpers = self._run_trees(position, limit, budget, allowed, fill)
            else:
                outcome = self._run(position, limit, budget, use_proofs, allowed, fill)
            if outcome is None:
                break
            proven_loss = True
            helpers = []  # the resistant move is looked for in this engine's tree alone
        if outcome is None:
            outcome = self._last
        arrays, done = outcome
        first, count, move, visits_arr, wins_arr, proof_arr, used = arrays
        start, stop = int(first[0]), int(first[0] + count[0])
        children = list(range(start, stop))
        if not children:
            return self._quick(empty[0], position, 0, "no tree", started, done)
        visits = {c: float(visits_arr[c]) for c in children}
        won = {c: float(wins_arr[c]) for c in children}
        proof = {c: int(proof_arr[c]) for c in children}
        nodes = int(used[0])
        for helper in helpers:
            done += _merge_root(helper, move, children, visits, won, proof)
            nodes += int(helper._last[0][6][0])
        winners = [c for c in children if proof[c] == 1]
        non_losing = [c for c in children if proof[c] != -1]
        if proven_loss:
            chosen = max(children, key=lambda c: (visits[c], won[c]))
            verdict, reason = -1, "proven loss; most resistant move"
        elif winners:
            chosen = max(winners, key=lambda c: visits[c])
            verdict, reason = 1, "proven win"
        elif non_losing:
            chosen = max(non_losing, key=lambda c: (visits[c], won[c]))
            verdict, reason = 0, "most visited"
        else:
            chosen = max(children, key=lambda c: visits[c])
            verdict, reason = -1, "proven loss"
        ranked = sorted(children, key=lambda c: -visits[c])[:5]
        top = tuple(
            (
                position.cell(int(move[c])),
                int(visits[c]),
                float(won[c] / visits[c]) if visits[c] else 0.0,
            )
            for c in ranked
        )
        rate = float(won[chosen] / visits[chosen]) if visits[chosen] else 0.0
        total = float(sum(visits[c] for c in children))
        value = float(sum(won[c] for c in children)) / total if total else rate
        if verdict == 1:
            rate = value = 1.0
        elif verdict == -1:
            value = 0.0
        counts = tuple(sorted((int(move[c]), round(visits[c])) for c in children if visits[c] > 0))
        return SearchResult(
            position.cell(int(move[chosen])),
            rate,
            verdict,
            done,
            nodes,
            time.perf_counter() - started,
            top,
            reason,
            value,
            counts,
        )

    def _run_trees(
        self,
        position: Position,
        limit: Limit,
        budget: Budget,
        allowed: list[int] | None,
        fill: bool,
    ) -> tuple[tuple[tuple[npt.NDArray[Any], ...], int] | None, list[MctsEngine]]:
        """This engine's tree search (with proofs) and its helpers' at once, in threads;
        the node limit shared among them. Returns this engine's outcome (see
        :meth:`_run`) and the helpers whose trees ended normally."""
        trees = 1 + len(self._helpers)
        share = None if limit.nodes is None else -(-limit.nodes // trees)
        limit = Limit(time=limit.time, nodes=share)
        runs = []
        with ThreadPoolExecutor(max_workers=trees - 1) as pool:
            for helper in self._helpers:
                helper._searches = self._searches
                own = Budget(limit, started=budget.started, stop=budget.stop)
                runs.append(
                    (helper, pool.submit(helper._run, position, limit, own, 1.0, allowed, fill))
                )
            own = Budget(limit, started=budget.started, stop=budget.stop)
            outcome = self._run(position, limit, own, 1.0, allowed, fill)
            finished = [helper for helper, run in runs if run.result() is None]
        return outcome, finished

    def _endgame(self, position: Position, limit: Limit, budget: Budget) -> int | None:
        """A winning move proven by :meth:`prove_win` within a slice of the budget."""
        remaining = budget.remaining
        if remaining is not None:
            if remaining < _LAST_BATCH_SECONDS:
                return None
            slice_limit = Limit(time=remaining * self.solver_share)
        else:
            slice_limit = Limit(nodes=max(1000, (limit.nodes or DEFAULT_PLAYOUTS) // 4))
        return self.prove_win(position, slice_limit)

    def prove_win(self, position: Position, limit: Limit) -> int | None:
        """The exact endgame: a move proven to win for the side to move within ``limit``,
        None if none is proven. The engine stands on the board and the rules alone and
        proves nothing here; :class:`boardlab.hex.player.SolvingEngine`, the engine every
        front end plays, answers with the prover (:mod:`boardlab.hex.prover`)."""
        return None

    def _run(
        self,
        position: Position,
        limit: Limit,
        budget: Budget,
        use_proofs: float,
        allowed: list[int] | None = None,
        fill: bool = False,
    ) -> tuple[tuple[npt.NDArray[Any], ...], int] | None:
        """One tree search; None when it ends normally, the tree when the root is lost.

        With ``allowed``, the root's other children are marked lost once it is expanded
        (a proof from outside the tree: see :func:`root_connections`); with ``fill`` (an
        open position on a board up to 13x13, the engine's ``fill_in`` on) the search
        starts from the root board with its captured pairs and dead cells filled in. The
        tree is always kept in ``self._last``.
        """
        from boardlab.hex.engine import kernel as _kernel

        me = position.to_move
        params = self.params.copy()
        params[3] = use_proofs
        size = position.size
        if self.policy_weight is None:
            params[9] = default_policy_weight(size)
        tab = tables(size)
        vc_tables = _vc_tables(size, self.edge_templates)
        if size > MAX_VC_SIZE:
            params[6] = 0.0
        max_nodes = self.max_nodes
        nodes = np.zeros((3, max_nodes), np.int32)
        nodes[0] = -1
        first, count, move = nodes[0], nodes[1], nodes[2]
        stats = np.zeros((5, max_nodes), np.float64)
        visits, wins_arr, rvisits, rwins, policy = stats
        proof = np.zeros(max_nodes, np.int8)
        used = np.array([1], np.int32)
        move[0] = -1
        history = (size, *position.indices)  # the board size, then the moves
        given = np.array(position.board, np.int8)
        board = _filled(given, size, me) if fill else given
        start = self._reusable(history) if use_proofs else None
        if start is not None and self._tree is not None:
            old_history, (old_nodes, old_stats, old_proof), old_board, old_player = self._tree
            grown = _board_after(old_board, old_player, history[len(old_history) :])
            # the old tree's positions hold the same stones as the new root's, less what
            # the new fill-in adds (the fill keeps the value: the statistics still hold);
            # the moves into the cells it adds are left out of the copied tree
            stones = grown != 0
            if bool((board[stones] == grown[stones]).all()):
                blocked = (board != 0).astype(np.int8)
                used[0] = _kernel.reroot(
                    start,
                    old_nodes,
                    old_stats,
                    old_proof,
                    nodes,
                    stats,
                    proof,
                    blocked,
                    self._keep_visits(),
                )
                if bool((board != grown).any()):
                    proof[0] = 0  # a proof of the root may rest on a child left out
        last = position.indices[-1] if position.history else -1
        threaded = bool(use_proofs) and self.threads > 1 and self.shared_tree
        threads = self.threads if threaded else 1
        if threaded:
            params[14] = VIRTUAL_LOSS
        # the descents under way through each node and the network's claims (threads only)
        shared = np.zeros((2, max_nodes if threaded else 1), np.int32)
        pool_start = int(used[0])
        # with one thread one slab holds every free node
        slab = (max_nodes - pool_start) // (4 * threads) if threaded else max_nodes
        share = Share(limit.nodes, pool_start, max_nodes, max(slab, size * size + 1))
        slabs = [np.full(4, pool_start, np.int32) for _ in range(threads)]
        tail: tuple[Any, ...] = (*vc_tables, *self.network, shared)

        def stepper(thread: int) -> Step:
            seed = self.seed * 1_000_003 + self._searches
            if thread:
                seed = (self.seed * 7919 + thread) * 1_000_003 + self._searches
            state = np.array([splitmix64(seed)], np.uint64)
            held = slabs[thread]
            share.slab(held)

            def step(iterations: int) -> int:
                return int(
                    _kernel.mcts_iterate(
                        board,
                        size,
                        me,
                        last,
                        iterations,
                        first,
                        count,
                        move,
                        visits,
                        wins_arr,
                        rvisits,
                        rwins,
                        policy,
                        proof,
                        held,
                        tab.nbr,
                        tab.bridges,
                        tab.nbridge,
                        state,
                        params,
                        tab.links,
                        tab.nlinks,
                        *self.patterns,
                        tab.squares,
                        *tail,
                    )
                )

            return step

        def proved() -> bool:
            return bool(use_proofs and proof[0] != 0)

        steps = [stepper(t) for t in range(threads)]
        helpers: list[Future[int]] = []

        def first_batch() -> None:
            if allowed is not None and first[0] >= 0:
                _keep_to(allowed, first, count, move, proof)
            # the other threads start once the root has its children (and their marks)
            helpers.extend(
                pool.submit(grow, steps[t], share, budget, proved, slabs[t])
                for t in range(1, threads)
            )

        with ThreadPoolExecutor(max_workers=max(1, threads - 1)) as pool:
            grow(steps[0], share, budget, proved, slabs[0], first_batch)
            for helper in helpers:
                helper.result()
        done = share.done
        used = np.array([pool_start + share.nodes(slabs)], np.int32)
        self._losses = shared[0]
        self._last = ((first, count, move, visits, wins_arr, proof, used), done)
        if use_proofs and self.reuse:
            self._tree = (history, (nodes, stats, proof), board.copy(), me)
        if (
            use_proofs
            and proof[0] == 1
            and not any(proof[c] == 1 for c in range(int(first[0]), int(first[0] + count[0])))
        ):
            return self._last
        return None

    def _keep_visits(self) -> float:
        """The visits a node of the kept tree needs to keep its children: the engine's
        ``reuse_visits``, lowered to the visits after which a node is analysed or
        evaluated by the network, so that no node loses what those found."""
        keep = float(self.reuse_visits)
        for at in (self.params[6], self.params[8]):
            if at > 0.0:
                keep = min(keep, float(at))
        return keep

    def _reusable(self, history: tuple[int, ...]) -> int | None:
        """The node of the last tree that stands for ``history`` (the board size and the
        moves: its root position's and at most :data:`REUSE_PLIES` more), if it has been
        expanded; else None."""
        if not self.reuse or self._tree is None:
            return None
        old, (nodes, _, _), _, _ = self._tree
        extra = history[len(old) :]
        if history[: len(old)] != old or not 0 < len(extra) <= REUSE_PLIES or min(extra) < 0:
            return None
        node = 0
        for cell in extra:
            start = int(nodes[0, node])
            if start < 0:
                return None
            children = nodes[2, start : start + int(nodes[1, node])]
            found = np.flatnonzero(children == cell)
            if found.size == 0:
                return None
            node = start + int(found[0])
        return node if nodes[0, node] >= 0 else None

    def _quick(
        self,
        move: int,
        position: Position,
        verdict: int,
        reason: str,
        started: float,
        playouts: int = 0,
    ) -> SearchResult:
        rate = 1.0 if verdict == 1 else 0.5
        cell = position.cell(move)
        return SearchResult(
            cell,
            rate,
            verdict,
            playouts,
            0,
            time.perf_counter() - started,
            ((cell, 0, rate),),
            reason,
            0.0 if verdict == -1 else rate,
        )
