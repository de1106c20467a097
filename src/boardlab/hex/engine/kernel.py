"""Engine layer: numba kernels of the Hex engine (playouts, dead cells, the MCTS loop).

Boards are ``int8`` arrays of ``n * n`` cells (0 empty, 1 player 1 joining the columns,
2 player 2 joining the rows). The random numbers come from a xorshift64* generator
whose state is a one-element ``uint64`` array, so a playout is a pure function of
board, seed and tables; ``tests/hex/twin.py`` replays it in plain Python and the tests
compare the two bit for bit.

The tree lives in flat arrays (one slot per node): ``move``, ``first`` (index of the
first child, -1 while not expanded), ``count`` (number of children), ``visits``,
``wins`` (for the player who moved into the node), the RAVE pair ``rvisits``/``rwins``,
``policy`` (the network's probability of the move into the node, 0 until its parent
was evaluated) and ``proof`` (+1: the move into the node wins, -1: it loses, 0:
unknown).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from boardlab.core.atomics import atomic_add, compare_and_swap, release_fence
from boardlab.core.jit import jit
from boardlab.hex.board import DEAD_RUN
from boardlab.hex.cellsets import Cells, put_row
from boardlab.hex.connections import KEEP_FULL, KEEP_SEMI, LOSS, OPEN, WIN
from boardlab.hex.connections import analyse as analyse_connections
from boardlab.hex.engine.mustplay import must_play
from boardlab.hex.engine.network import PLANES, input_planes, policy_logits
from boardlab.hex.engine.patterns import scores
from boardlab.hex.inferior import pruned_moves

__all__ = [
    "dead_cells",
    "group_wins",
    "mcts_iterate",
    "playout",
    "rand_below",
    "winner_full",
]

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]
F32 = npt.NDArray[np.float32]
U64 = npt.NDArray[np.uint64]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S33 = np.uint64(33)
_MULT = np.uint64(2685821657736338717)

#: Stone codes on the board arrays.
_BLACK, _WHITE = 1, 2
#: Bridge-table markers of a bridge to the mover's own edge (see ``rules.bridge_table``).
_EDGE_OF_BLACK, _EDGE_OF_WHITE = -1, -2
#: Expansion's mark of a dead cell inside the region (a child only when nothing else is).
_DEAD_IN_REGION = 2
#: The RAVE updates of hot nodes a thread keeps before adding them to the shared tree.
_RAVE_LOG = 1 << 16
#: Playouts between the additions of the hot nodes' kept counts to the shared tree.
_HOT_FLUSH = 64


@jit
def rand_below(state: U64, bound: int) -> int:
    """A uniform-ish integer in ``0..bound-1`` from the xorshift64* state (advanced)."""
    x = state[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    state[0] = x
    r = (x * _MULT) >> _S33
    return int(r % np.uint64(bound))


@jit
def winner_full(board: I8, n: int, nbr: I32, stack: I32, seen: I8) -> int:
    """The winner of a full board: 1 when player 1's stones join column 0 to n-1, else 2."""
    cells = n * n
    for i in range(cells):
        seen[i] = 0
    top = 0
    for r in range(n):
        i = r * n
        if board[i] == 1:
            seen[i] = 1
            stack[top] = i
            top += 1
    while top > 0:
        top -= 1
        i = stack[top]
        if i % n == n - 1:
            return 1
        for k in range(6):
            j = nbr[i, k]
            if j >= 0 and seen[j] == 0 and board[j] == 1:
                seen[j] = 1
                stack[top] = j
                top += 1
    return 2


@jit
def group_wins(board: I8, n: int, nbr: I32, start: int, stack: I32, seen: I8) -> bool:
    """True when the group of the stone at ``start`` touches both of its owner's edges."""
    player = board[start]
    cells = n * n
    for i in range(cells):
        seen[i] = 0
    seen[start] = 1
    stack[0] = start
    top = 1
    low = False
    high = False
    while top > 0:
        top -= 1
        i = stack[top]
        line = i % n if player == 1 else i // n
        if line == 0:
            low = True
        if line == n - 1:
            high = True
        if low and high:
            return True
        for k in range(6):
            j = nbr[i, k]
            if j >= 0 and seen[j] == 0 and board[j] == player:
                seen[j] = 1
                stack[top] = j
                top += 1
    return False


@jit
def _ring_colour(board: I8, n: int, r: int, c: int) -> int:
    if 0 <= r < n and 0 <= c < n:
        return int(board[r * n + c])
    row_off = r < 0 or r >= n
    col_off = c < 0 or c >= n
    if row_off and col_off:
        return -1
    return 2 if row_off else 1


@jit
def is_dead(board: I8, n: int, cell: int) -> bool:
    """True when four consecutive neighbours (edges count) of the empty ``cell`` share a colour.

    Such a cell is dead: a stone of either colour there changes no connection. The rule is
    :func:`boardlab.hex.board.run_dead` (:data:`~boardlab.hex.board.DEAD_RUN` in a row) on
    this kernel's board array, its ring in :data:`~boardlab.hex.board.DIRECTIONS` order.
    """
    r = cell // n
    c = cell % n
    # a tuple, not an array: no allocation (an array here was most of the test's cost)
    ring = (
        _ring_colour(board, n, r, c + 1),
        _ring_colour(board, n, r + 1, c),
        _ring_colour(board, n, r + 1, c - 1),
        _ring_colour(board, n, r, c - 1),
        _ring_colour(board, n, r - 1, c),
        _ring_colour(board, n, r - 1, c + 1),
    )
    for start in range(6):
        colour = ring[start]
        if colour <= 0:
            continue
        run = True
        for k in range(1, DEAD_RUN):
            if ring[(start + k) % 6] != colour:
                run = False
                break
        if run:
            return True
    return False


@jit
def dead_cells(board: I8, n: int, out: I8) -> int:
    """Mark the dead empty cells of ``board`` in ``out`` (1 = dead); returns how many."""
    total = 0
    for i in range(n * n):
        out[i] = 0
        if board[i] == 0 and is_dead(board, n, i):
            out[i] = 1
            total += 1
    return total


@jit
def _bridge_reply(board: I8, me: int, last: int, bridges: I32, nbridge: I32) -> int:
    if last < 0:
        return -1
    for k in range(nbridge[last]):
        a = bridges[last, k, 0]
        b = bridges[last, k, 1]
        y = int(bridges[last, k, 2])
        if board[y] != 0 or board[a] != me:
            continue
        if b >= 0:
            if board[b] == me:
                return y
        elif (b == _EDGE_OF_BLACK and me == _BLACK) or (b == _EDGE_OF_WHITE and me == _WHITE):
            return y
    return -1


@jit
def playout(
    board: I8,
    n: int,
    to_move: int,
    last: int,
    nbr: I32,
    bridges: I32,
    nbridge: I32,
    empties: I32,
    where: I32,
    state: U64,
    stack: I32,
    seen: I8,
) -> int:
    """Fill ``board`` at random with bridge replies (in place) and return the winner.

    The side to move answers an intrusion into one of its bridges (or edge bridges) by
    the opponent's last move with the bridge's other carrier cell; otherwise it plays a
    uniformly random empty cell.
    """
    cells = n * n
    m = 0
    for i in range(cells):
        if board[i] == 0:
            empties[m] = i
            where[i] = m
            m += 1
    player = to_move
    while m > 0:
        cell = _bridge_reply(board, player, last, bridges, nbridge)
        if cell < 0:
            cell = empties[rand_below(state, m)]
        k = where[cell]
        m -= 1
        moved = empties[m]
        empties[k] = moved
        where[moved] = k
        board[cell] = player
        last = cell
        player = 3 - player
    return winner_full(board, n, nbr, stack, seen)


@jit
def _expand(
    node: int,
    board: I8,
    n: int,
    first: I32,
    count: I32,
    move: I32,
    visits: F64,
    wins: F64,
    rvisits: F64,
    rwins: F64,
    policy: F64,
    proof: I8,
    used: I32,
    dead: I8,
    player: int,
    nbr: I32,
    links: I32,
    nlinks: I32,
    work: I32,
    carriers: I32,
    prune: bool,
    last: int,
    weights: F64,
    canon: I32,
    squares: I32,
    prior: float,
    scored: F64,
    threaded: bool,
) -> None:
    """Give ``node`` its children: the empty cells less the dead ones (all of them when
    every cell is dead) and, with ``prune``, less those outside ``player``'s must-play
    region (:func:`boardlab.hex.engine.mustplay.must_play`).

    With ``prior > 0`` each child starts with ``prior`` virtual RAVE visits whose win
    rate comes from the move patterns (:mod:`boardlab.hex.engine.patterns`): a child ``r``
    times as likely as the average child starts at ``r / (1 + r)`` (a child as likely
    as the average at one half).

    ``threaded`` (threads sharing the tree): the children are published with an atomic
    swap of ``first[node]`` from -1; when another thread published first, this one's
    copies are dropped (its slab's nodes given back) and the node keeps the other's."""
    cells = n * n
    if not (prune and must_play(board, n, player, nbr, links, nlinks, dead, work, carriers)):
        for i in range(cells):
            dead[i] = 1
    # ``dead`` now holds the region (1: allowed); it becomes 0: a child, 1: not one
    live = 0
    for i in range(cells):
        if board[i] == 0 and dead[i] == 1:
            if is_dead(board, n, i):
                dead[i] = _DEAD_IN_REGION
            else:
                dead[i] = 0
                live += 1
    take_all = live == 0
    for i in range(cells):
        if board[i] == 0 and take_all and dead[i] == _DEAD_IN_REGION:
            dead[i] = 0
    total = 0
    for i in range(cells):
        if board[i] == 0 and dead[i] == 0:
            total += 1
    if used[0] + total > used[1]:
        used[2] = 1  # the slab is short: the caller may hand out another
        return
    start = used[0]
    k = start
    for i in range(cells):
        if board[i] == 0 and dead[i] == 0:
            move[k] = i
            first[k] = -1
            count[k] = 0
            visits[k] = 0.0
            wins[k] = 0.0
            rvisits[k] = 0.0
            rwins[k] = 0.0
            policy[k] = 0.0
            proof[k] = 0
            k += 1
    used[0] = k
    if prior > 0.0 and total > 0:
        children = move[start:k]
        _pattern_prior(board, n, player, last, children, weights, canon, squares, scored)
        rvisits[start:k] = prior
        for c in range(total):
            rwins[start + c] = prior * scored[c]
    # published last (``first`` after ``count``): another thread that sees the node
    # expanded sees its children written
    count[node] = total
    release_fence()
    if not threaded:
        first[node] = start
    elif compare_and_swap(first, node, -1, start) != -1:
        used[0] = start  # another thread published its copy first: this one is dropped


@jit
def _pattern_prior(
    board: I8,
    n: int,
    player: int,
    last: int,
    cells: I32,
    weights: F64,
    canon: I32,
    squares: I32,
    scored: F64,
) -> None:
    """Each cell's prior win rate, ``r / (1 + r)`` with ``r`` its pattern probability
    over the average (written into ``scored``)."""
    scores(board, n, player, last, cells, cells.size, weights, canon, squares, scored)
    _win_rates(scored, cells.size)


@jit
def _win_rates(scored: F64, total: int) -> None:
    """Turn the first ``total`` pattern scores into win rates ``r / (1 + r)``, ``r`` each
    one's softmax probability over the average's."""
    top = scored[0]
    for c in range(total):
        top = max(top, scored[c])
    mass = 0.0
    for c in range(total):
        scored[c] = np.exp(scored[c] - top)
        mass += scored[c]
    for c in range(total):
        ratio = scored[c] * total / mass
        scored[c] = ratio / (1.0 + ratio)


@jit
def _select(
    node: int,
    first: I32,
    count: I32,
    visits: F64,
    wins: F64,
    rvisits: F64,
    rwins: F64,
    proof: I8,
    exploration: float,
    rave_bias: float,
    policy: F64,
    policy_weight: float,
    losses: I32,
    virtual: float,
) -> int:
    """The child of ``node`` to descend into. With ``virtual > 0`` (threads sharing the
    tree) each child counts ``virtual`` lost visits for every descent now under way
    through it (``losses``), so other threads spread over the siblings."""
    start = first[node]
    best = -1
    best_value = -1e300
    # the exploration and policy terms are added only where they are not zero (most
    # children have no policy, and the default exploration is 0): the same values, and
    # a division and a square root less a child
    explore = exploration != 0.0
    shared = virtual > 0.0
    parent = visits[node] + virtual * losses[node] if shared else visits[node]
    log_parent = np.log(parent + 1.0) if explore else 0.0
    for c in range(start, start + count[node]):
        if proof[c] == 1:
            return c
        if proof[c] == -1:
            continue
        nv = visits[c]
        if shared:
            nv += virtual * losses[c]
        rv = rvisits[c]
        amaf = (rwins[c] + 0.5) / (rv + 1.0)
        if nv > 0.0:
            q = wins[c] / nv
            beta = rv / (rv + nv + rave_bias * rv * nv)
            value = (1.0 - beta) * q + beta * amaf
            if explore:
                value += exploration * np.sqrt(log_parent / nv)
        else:
            value = amaf
            if explore:
                value += exploration * np.sqrt(log_parent)
        if policy[c] != 0.0:
            value += policy_weight * policy[c] / np.sqrt(nv + 1.0)
        if value > best_value:
            best_value = value
            best = c
    if best < 0:
        # every move loses: keep searching the most visited one (resistance)
        best = start
        for c in range(start, start + count[node]):
            if visits[c] > visits[best]:
                best = c
    return best


@jit
def _apply_network(
    node: int,
    board: I8,
    n: int,
    player: int,
    last: int,
    first: I32,
    count: I32,
    move: I32,
    visits: F64,
    wins: F64,
    rvisits: F64,
    rwins: F64,
    policy: F64,
    weights: F64,
    canon: I32,
    squares: I32,
    prior: float,
    scratch: F64,
    net_first: F32,
    net_first_bias: F32,
    net_hidden: F32,
    net_hidden_bias: F32,
    net_head: F32,
    net_value: F32,
    params: F64,
) -> None:
    """Give ``node``'s children (``player`` to move on ``board``) the policy network's
    probabilities (:mod:`boardlab.hex.engine.network`), softmax over the children, in
    ``policy``; with ``prior > 0`` their virtual RAVE wins move from the pattern win rate
    to the network's, ``r / (1 + r)`` with ``r`` the child's probability over the
    average (see :func:`_expand`). With ``params[12] = k > 0`` the node itself gets
    ``k`` virtual visits at the value head's winning chance (``params[13]`` its bias)."""
    cells = n * n
    start = first[node]
    total = count[node]
    empties = np.empty(cells, np.int32)
    k = 0
    for i in range(cells):
        if board[i] == 0:
            empties[k] = i
            k += 1
    found = np.zeros(k, np.float64)
    scores(board, n, player, last, empties, k, weights, canon, squares, found)
    pattern = np.zeros(cells, np.float64)
    for i in range(k):
        pattern[empties[i]] = found[i]
    planes = np.empty((PLANES, n + 2, n + 2), np.float32)
    input_planes(board, n, player, last, pattern, planes)
    logits = np.empty(cells + 1, np.float32)
    policy_logits(
        planes,
        n,
        player,
        net_first,
        net_first_bias,
        net_hidden,
        net_hidden_bias,
        net_head,
        params[10],
        params[11],
        net_value,
        params[13],
        logits,
    )
    value_visits = params[12]
    if value_visits > 0.0:
        # the chance of ``player``, to move here; the node's wins are its mover's
        chance = 1.0 / (1.0 + np.exp(-float(logits[cells])))
        atomic_add(visits, node, value_visits)
        atomic_add(wins, node, value_visits * (1.0 - chance))
    top = -1e30
    for c in range(total):
        top = max(top, float(logits[move[start + c]]))
    mass = 0.0
    for c in range(total):
        mass += np.exp(float(logits[move[start + c]]) - top)
    if prior > 0.0:
        # the children's pattern win rates, as _expand gave them, from the scores in hand
        for c in range(total):
            scratch[c] = pattern[move[start + c]]
        _win_rates(scratch, total)
    for c in range(total):
        p = np.exp(float(logits[move[start + c]]) - top) / mass
        policy[start + c] = max(p, 1e-9)
        if prior > 0.0:
            ratio = p * total
            rwins[start + c] += prior * (ratio / (1.0 + ratio) - scratch[c])


@jit
def mcts_iterate(
    root_board: I8,
    n: int,
    root_to_move: int,
    root_last: int,
    iterations: int,
    first: I32,
    count: I32,
    move: I32,
    visits: F64,
    wins: F64,
    rvisits: F64,
    rwins: F64,
    policy: F64,
    proof: I8,
    used: I32,
    nbr: I32,
    bridges: I32,
    nbridge: I32,
    state: U64,
    params: F64,
    links: I32,
    nlinks: I32,
    weights: F64,
    canon: I32,
    squares: I32,
    vc_nbr: U64,
    vc_lines: U64,
    vc_ring: I64,
    vc_table: B1,
    vc_templates: U64,
    vc_like: Cells,
    net_first: F32,
    net_first_bias: F32,
    net_hidden: F32,
    net_hidden_bias: F32,
    net_head: F32,
    net_value: F32,
    shared: I32,
) -> int:
    """Run up to ``iterations`` MCTS iterations from the root (node 0); returns how many ran.

    ``params`` = (exploration, rave_bias, expand_threshold, use_proofs, must_play,
    prior): with ``prior > 0`` new children start with that many virtual RAVE visits at
    their pattern win rate (``weights``, ``canon`` and ``squares`` of
    :mod:`boardlab.hex.engine.patterns`). With must-play on, a node's children are
    limited to the must-play region of the side to move there
    (:mod:`boardlab.hex.engine.mustplay`, ``links``/``nlinks`` its table). With proofs
    on, a proven win or loss propagates up the tree and the loop stops once the root is proven
    (``proof[0] != 0``); with proofs off only terminal nodes are marked (used to pick the
    most resistant move in a lost position). Node 0 is the root; its "mover" is the side
    not to move.

    ``params[6]`` > 0 (with proofs on, boards up to 13x13): a node other than the root
    that reaches that many visits is analysed once for virtual connections
    (:func:`boardlab.hex.connections.analyse` with ``params[7]`` combinations at most, on the
    tables ``vc_*`` of :func:`boardlab.hex.connections.knowledge`, sets as wide as
    ``vc_like``): a won or lost node is
    proven, and in an open one the children outside the must-play set are marked lost
    (see :func:`_apply_knowledge`).

    ``params[8]`` > 0: the root, and every node that reaches that many visits, is
    evaluated once by the policy network (``net_*``, ``params[10]`` its head bias and
    ``params[11]`` its pattern weight; see :func:`_apply_network`); ``params[9]`` weighs
    the network's probability in the selection, ``policy_weight * p / sqrt(visits + 1)``;
    ``params[12]`` virtual visits at the value head's chance (``params[13]`` its bias).

    New nodes come from the slab ``used`` = (next free node, end of the slab, short): an
    expansion that does not fit sets ``used[2]`` to 1 and leaves the node a leaf.

    ``params[14]`` > 0: several threads run this kernel at once over the same tree, each
    with its own ``state`` and ``used`` slab (the tree search of
    :class:`boardlab.hex.engine.search.MctsEngine` with ``threads``). Each descent then
    counts as ``params[14]`` lost visits of the nodes on its path until its result is
    added (``shared[0]``, the descents under way through each node), the visit and win
    counts are added atomically, a node's children are those of the first thread to
    publish them (see :func:`_expand`; no thread waits for another) and it is evaluated
    by the network by the one thread that swaps ``shared[1]`` from 0 to 1. The RAVE
    counts are added without atomics (an update lost in a race is lost). With 0 (one
    thread) ``shared`` is not read. ``params[17]`` > 0 (threads only): a node with that
    many visits when a descent passes it is hot; the descent counts no lost visit there,
    and its visit, win and RAVE updates there are kept by the thread and added every
    :data:`_HOT_FLUSH` playouts and at the call's end (the visits and wins atomically),
    so that the most visited nodes' counts are not written by every core on every
    playout. It must be above ``params[2]``, ``params[6]`` and ``params[8]`` (counts the
    loop waits for).

    ``params[15]`` > 0: a node analysed for virtual connections (``params[6]``) that stays
    open also loses the children on the mover's vulnerable and dominated cells
    (:func:`boardlab.hex.inferior.pruned_moves`), as MoHex prunes its tree nodes.
    """
    cells = n * n
    exploration = params[0]
    rave_bias = params[1]
    threshold = params[2]
    use_proofs = params[3] != 0.0
    prune = params[4] != 0.0
    prior = params[5]
    know_at = params[6] if use_proofs else 0.0
    know_work = int(params[7])
    net_at = params[8]
    policy_weight = params[9]
    virtual = params[14]
    threaded = virtual > 0.0
    hot = params[17] if threaded else 0.0
    rave_log = np.empty(_RAVE_LOG if hot > 0.0 else 1, np.int64)
    logged = 0
    visit_log = np.empty((cells + 2) * _HOT_FLUSH if hot > 0.0 else 1, np.int64)
    visits_logged = 0
    losses = shared[0]
    claims = shared[1]
    scored = np.empty(cells, np.float64)
    work = np.empty(cells + 4, np.int32)
    carriers = np.empty(cells, np.int32)
    board = np.empty(cells, np.int8)
    empties = np.empty(cells, np.int32)
    where = np.empty(cells, np.int32)
    stack = np.empty(cells, np.int32)
    seen = np.empty(cells, np.int8)
    dead = np.empty(cells, np.int8)
    path = np.empty(cells + 2, np.int32)
    movers = np.empty(cells + 2, np.int32)
    # the nodes of the path that were hot when the descent passed them (threads only)
    warm = np.zeros(cells + 2, np.bool_)
    done = 0
    for _ in range(iterations):
        if use_proofs and proof[0] != 0:
            break
        if hot > 0.0 and done % _HOT_FLUSH == 0:
            _add_visit_log(visit_log, visits_logged, visits, wins)
            visits_logged = 0
            _add_rave_log(rave_log, logged, rvisits, rwins)
            logged = 0
        done += 1
        for i in range(cells):
            board[i] = root_board[i]
        node = 0
        depth = 0
        path[0] = 0
        movers[0] = 3 - root_to_move
        player = root_to_move
        last = root_last
        result = 0
        if threaded:
            warm[0] = hot > 0.0 and visits[0] >= hot
            if not warm[0]:
                atomic_add(losses, 0, 1)
        while True:
            if proof[node] == 1:
                result = movers[depth]
                break
            if (
                know_at > 0.0
                and node != 0
                and visits[node] == know_at
                and proof[node] == 0
                and first[node] >= 0
                and _apply_knowledge(
                    node,
                    board,
                    n,
                    player,
                    first,
                    count,
                    move,
                    proof,
                    vc_nbr,
                    vc_lines,
                    vc_ring,
                    vc_table,
                    vc_templates,
                    vc_like,
                    know_work,
                    params[15] > 0.0,
                    params[16] == 0.0,
                )
            ):
                result = player if proof[node] == -1 else movers[depth]
                break
            if (
                net_at > 0.0
                and first[node] >= 0
                and count[node] > 1
                and policy[first[node]] == 0.0
                and (node == 0 or visits[node] >= net_at)
                and (not threaded or compare_and_swap(claims, node, 0, 1) == 0)
            ):
                _apply_network(
                    node,
                    board,
                    n,
                    player,
                    last,
                    first,
                    count,
                    move,
                    visits,
                    wins,
                    rvisits,
                    rwins,
                    policy,
                    weights,
                    canon,
                    squares,
                    prior,
                    scored,
                    net_first,
                    net_first_bias,
                    net_hidden,
                    net_hidden_bias,
                    net_head,
                    net_value,
                    params,
                )
            if first[node] < 0:
                if visits[node] >= threshold or node == 0:
                    _expand(
                        node,
                        board,
                        n,
                        first,
                        count,
                        move,
                        visits,
                        wins,
                        rvisits,
                        rwins,
                        policy,
                        proof,
                        used,
                        dead,
                        player,
                        nbr,
                        links,
                        nlinks,
                        work,
                        carriers,
                        prune,
                        last,
                        weights,
                        canon,
                        squares,
                        prior,
                        scored,
                        threaded,
                    )
                if first[node] < 0:
                    break
            child = _select(
                node,
                first,
                count,
                visits,
                wins,
                rvisits,
                rwins,
                proof,
                exploration,
                rave_bias,
                policy,
                policy_weight,
                losses,
                virtual,
            )
            if threaded:
                warm[depth + 1] = hot > 0.0 and visits[child] >= hot
                if not warm[depth + 1]:
                    atomic_add(losses, child, 1)
            cell = move[child]
            board[cell] = player
            depth += 1
            path[depth] = child
            movers[depth] = player
            node = child
            last = cell
            if (
                visits[child] == 0.0
                and proof[child] == 0
                and group_wins(board, n, nbr, cell, stack, seen)
            ):
                proof[child] = 1
            player = 3 - player
        if result == 0:
            result = playout(
                board, n, player, last, nbr, bridges, nbridge, empties, where, state, stack, seen
            )
        # back-propagation with RAVE updates and proof propagation
        changed = use_proofs and proof[path[depth]] != 0
        for d in range(depth, -1, -1):
            nd = path[d]
            if threaded and warm[d]:
                visit_log[visits_logged] = 2 * nd + (1 if result == movers[d] else 0)
                visits_logged += 1
            elif threaded:
                atomic_add(visits, nd, 1.0)
                if result == movers[d]:
                    atomic_add(wins, nd, 1.0)
                atomic_add(losses, nd, -1)
            else:
                visits[nd] += 1.0
                if result == movers[d]:
                    wins[nd] += 1.0
            if first[nd] >= 0:
                to_move = 3 - movers[d]
                start = first[nd]
                stop = start + count[nd]
                won = 1.0 if result == to_move else 0.0
                if threaded and warm[d]:
                    # a hot node's RAVE counts: kept here, added every few playouts
                    if logged + stop - start > _RAVE_LOG:
                        _add_rave_log(rave_log, logged, rvisits, rwins)
                        logged = 0
                    for c in range(start, stop):
                        if board[move[c]] == to_move:
                            rave_log[logged] = 2 * c + int(won)
                            logged += 1
                else:
                    for c in range(start, stop):
                        if board[move[c]] == to_move:
                            rvisits[c] += 1.0
                            rwins[c] += won
                if changed and proof[nd] == 0:
                    all_lose = True
                    for c in range(start, stop):
                        if proof[c] == 1:
                            proof[nd] = -1
                            break
                        if proof[c] != -1:
                            all_lose = False
                    if proof[nd] == 0 and all_lose:
                        proof[nd] = 1
                    changed = proof[nd] != 0
                elif d != depth:
                    changed = False
    _add_visit_log(visit_log, visits_logged, visits, wins)
    _add_rave_log(rave_log, logged, rvisits, rwins)
    return done


@jit
def _add_visit_log(visit_log: I64, logged: int, visits: F64, wins: F64) -> None:
    """Add the first ``logged`` visits kept in ``visit_log`` (``2 * node + won``) to the
    shared tree, each as one update."""
    for i in range(logged):
        nd = visit_log[i] >> 1
        atomic_add(visits, nd, 1.0)
        if visit_log[i] & 1:
            atomic_add(wins, nd, 1.0)


@jit
def _add_rave_log(rave_log: I64, logged: int, rvisits: F64, rwins: F64) -> None:
    """Add the first ``logged`` RAVE updates kept in ``rave_log`` (``2 * child + won``)."""
    for i in range(logged):
        c = rave_log[i] >> 1
        rvisits[c] += 1.0
        rwins[c] += float(rave_log[i] & 1)


@jit
def _apply_knowledge(
    node: int,
    board: I8,
    n: int,
    player: int,
    first: I32,
    count: I32,
    move: I32,
    proof: I8,
    vc_nbr: U64,
    vc_lines: U64,
    vc_ring: I64,
    vc_table: B1,
    vc_templates: U64,
    like: Cells,
    work: int,
    inferior: bool,
    thorough: bool,
) -> bool:
    """Analyse ``node`` (``player`` to move on ``board``) for virtual connections; True
    when that proved it. A WIN of the side to move marks the node lost for the player
    who moved into it (-1), a LOSS marks it won (1); an OPEN verdict marks the children
    outside the must-play set lost (-1), unless none would be left open; with ``inferior``
    the must-play set loses the mover's vulnerable and dominated cells first
    (:func:`boardlab.hex.inferior.pruned_moves`)."""
    verdict, _, moves = analyse_connections(
        n,
        vc_nbr,
        vc_lines,
        vc_ring,
        vc_table,
        vc_templates,
        board,
        player,
        KEEP_FULL,
        KEEP_SEMI,
        work,
        like,
        thorough,
    )
    if verdict == WIN:
        proof[node] = -1
        return True
    if verdict == LOSS:
        proof[node] = 1
        return True
    if verdict == OPEN:
        if inferior:
            put_row(moves, 0, pruned_moves(n, vc_ring, vc_table, board, player, moves, like))
        start = first[node]
        stop = start + count[node]
        inside = 0
        for c in range(start, stop):
            m = move[c]
            if proof[c] == 0 and (moves[0, m // 64] >> np.uint64(m % 64)) & np.uint64(1):
                inside += 1
        if inside > 0:
            for c in range(start, stop):
                m = move[c]
                if proof[c] == 0 and not (moves[0, m // 64] >> np.uint64(m % 64)) & np.uint64(1):
                    proof[c] = -1
    return False


@jit
def reroot(
    start: int,
    src: I32,
    src_stats: F64,
    src_proof: I8,
    dst: I32,
    dst_stats: F64,
    dst_proof: I8,
    blocked: I8,
    keep: float,
) -> int:
    """Copy node ``start`` of a tree and everything under it to a new tree whose root
    (node 0) it becomes, breadth-first so each node's children stay contiguous.

    A node below the new root with fewer than ``keep`` visits is copied without its
    children (it is expanded again when next visited): most of a tree's nodes are the
    children of such thinly visited nodes, worth little and costly to copy.

    ``src``/``dst`` stack ``(first, count, move)`` and ``src_stats``/``dst_stats``
    ``(visits, wins, rvisits, rwins, policy)`` as rows of one array each (the destination is
    fresh: ``first`` all -1). Children whose move is into a ``blocked`` cell (one the new
    root board fills) are left out with their subtrees; a node left with no child, or
    whose children do not fit, stays unexpanded. Returns the number of destination nodes
    used.
    """
    capacity = dst.shape[1]
    origin = np.empty(capacity, np.int32)  # origin[k]: the source node of new node k
    origin[0] = start
    used = 1
    head = 0
    while head < used:
        old = origin[head]
        for row in range(src_stats.shape[0]):
            dst_stats[row, head] = src_stats[row, old]
        dst_proof[head] = src_proof[old]
        dst[2, head] = src[2, old]
        children = 0
        if src[0, old] >= 0 and (head == 0 or src_stats[0, old] >= keep):
            for k in range(src[1, old]):
                if blocked[src[2, src[0, old] + k]] == 0:
                    children += 1
        if children > 0 and used + children <= capacity:
            dst[0, head] = used
            dst[1, head] = children
            for k in range(src[1, old]):
                child = src[0, old] + k
                if blocked[src[2, child]] == 0:
                    origin[used] = child
                    used += 1
        else:
            dst[0, head] = -1
            dst[1, head] = 0
        head += 1
    dst[2, 0] = -1
    return used
