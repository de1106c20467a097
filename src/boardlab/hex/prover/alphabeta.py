"""Prover layer: the alpha-beta Hex solver, for boards above the DFPN's 8x8.

It works on big-int bitsets in a padded layout (cell ``(r, c)`` is bit ``r * (n + 1) + c``;
the spare column stops shifts from wrapping). At each node of its boolean negamax (does
the side to move win?):

1. a cell that joins the mover's edges at once wins;
2. two or more such cells for the opponent lose; exactly one must be blocked;
3. a *virtual win* of the mover (a chain of its groups and edges linked by bridges and
   edge bridges, every link owning two private empty cells) wins;
4. a virtual win of the opponent restricts the moves to its carrier (a move outside it
   cannot stop the connection), the *must-play* region;
5. dead cells (four consecutive neighbours of one colour, edges included:
   :func:`boardlab.hex.board.run_dead`) are skipped;
6. a move after which the mover has a virtual win wins (tried before any recursion);
7. the rest is searched centre first (:func:`boardlab.hex.board.centre_order`), with a
   transposition table keyed by the position up to the 180-degree rotation (which maps
   the board to itself, edges included).

It honours a :class:`~boardlab.core.limits.Limit` (time and/or nodes).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from boardlab.core.limits import Budget, Limit
from boardlab.hex.board import DIRECTIONS, EDGE_TEMPLATES, centre_order, run_dead
from boardlab.hex.prover.result import SolveResult
from boardlab.hex.rules import BLACK, WHITE, Position

__all__ = ["Geometry", "edge_templates", "geometry", "solve_alphabeta"]

#: Nodes 0 and 1 of the connection graph are the two edges.
_EDGES = 2
#: The row of a ziggurat's stone, its edge being row 0 (its template's depth).
_ZIGGURAT_ROW = 2
#: How many steps the path search may take before it gives up.
_PATH_STEPS = 400


@dataclass(frozen=True, slots=True)
class Geometry:
    """Masks of one board size in the padded layout."""

    size: int
    width: int
    full: int
    edges: tuple[tuple[int, int], tuple[int, int]]  # (low, high) lines of players 1 and 2
    order: tuple[int, ...]  # cell bits, centre first
    ring: tuple[tuple[int, ...], ...]  # per bit position, six neighbour bits (0 = off board)
    ring_edge: tuple[tuple[int, ...], ...]  # per bit position, edge owner of off-board slots

    def bit(self, row: int, col: int) -> int:
        """The bit of cell ``(row, col)``."""
        return 1 << (row * self.width + col)

    def spread(self, mask: int) -> int:
        """The on-board cells adjacent to some cell of ``mask``."""
        w = self.width
        return (
            (mask << 1)
            | (mask >> 1)
            | (mask << w)
            | (mask >> w)
            | (mask >> (w - 1))
            | (mask << (w - 1))
        ) & self.full

    def flood(self, seed: int, stones: int) -> int:
        """The stones connected to ``seed & stones``."""
        reached = seed & stones
        while True:
            grown = reached | (self.spread(reached) & stones)
            if grown == reached:
                return reached
            reached = grown

    def rotate(self, mask: int) -> int:
        """The 180-degree rotation of ``mask``."""
        span = (self.size - 1) * self.width + self.size
        return int(format(mask, f"0{span}b")[::-1], 2) if mask else 0


@cache
def geometry(size: int) -> Geometry:
    """The masks of a ``size x size`` board (cached)."""
    width = size + 1
    full = 0
    lines = [0, 0, 0, 0]
    for r in range(size):
        for c in range(size):
            b = 1 << (r * width + c)
            full |= b
            if c == 0:
                lines[0] |= b
            if c == size - 1:
                lines[1] |= b
            if r == 0:
                lines[2] |= b
            if r == size - 1:
                lines[3] |= b
    cells = [divmod(index, size) for index in centre_order(size)]
    order = tuple(r * width + c for r, c in cells)
    rings: list[tuple[int, ...]] = []
    ring_edges: list[tuple[int, ...]] = []
    for pos in range(size * width):
        r, c = divmod(pos, width)
        bits = []
        owners = []
        for dr, dc in DIRECTIONS:
            rr, cc = r + dr, c + dc
            if c < size and 0 <= rr < size and 0 <= cc < size:
                bits.append(1 << (rr * width + cc))
                owners.append(0)
            else:
                bits.append(0)
                row_off = not 0 <= rr < size
                col_off = not 0 <= cc < size
                owners.append(-1 if row_off and col_off else (WHITE if row_off else BLACK))
        rings.append(tuple(bits))
        ring_edges.append(tuple(owners))
    edges = ((lines[0], lines[1]), (lines[2], lines[3]))
    return Geometry(size, width, full, edges, order, tuple(rings), tuple(ring_edges))


@cache
def _ziggurats() -> tuple[tuple[tuple[int, int], ...], ...]:
    """Ziggurat carriers (offsets from a third-row stone at (2, 0), row 0 the edge): the
    second-row templates of :data:`boardlab.hex.board.EDGE_TEMPLATES` with one cell beside
    the stone, turned half a turn (there the edge is below the stone); the cell beside
    the stone first, then the second row and the edge row, each left to right."""
    found = []
    for depth, offsets in EDGE_TEMPLATES:
        beside = [dc for dr, dc in offsets if dr == 0]
        if depth != _ZIGGURAT_ROW or len(beside) != 1:
            continue
        cells = sorted((depth - dr, -dc) for dr, dc in offsets)
        found.append(tuple(sorted(cells, key=lambda cell: (-cell[0], cell[1]))))
    return tuple(found)


@cache
def edge_templates(size: int, player: int) -> tuple[tuple[int, int, int], ...]:
    """``(stone_bit, carrier_mask, side)`` of every ziggurat of ``player`` on the board.

    ``side`` is 0 for the player's low edge (column 0 / row 0) and 1 for the high one.
    """
    g = geometry(size)
    result = []
    for carrier in _ziggurats():
        for col in range(size):
            for side in (0, 1):
                cells = [(2, col), *((r, col + dc) for r, dc in carrier)]
                if side == 1:
                    cells = [(size - 1 - r, size - 1 - c) for r, c in cells]
                if player == BLACK:
                    cells = [(c, r) for r, c in cells]
                if not all(0 <= r < size and 0 <= c < size for r, c in cells):
                    continue
                stone = g.bit(*cells[0])
                mask = 0
                for r, c in cells[1:]:
                    mask |= g.bit(r, c)
                result.append((stone, mask, side))
    return tuple(result)


#: Moves whose virtual connections a node tests between two looks at the clock.
_BUDGET_EVERY = 16


class _OutOfBudgetError(Exception):
    pass


class _Solver:
    def __init__(self, size: int, budget: Budget) -> None:
        self.g = geometry(size)
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple[int, int, int], bool] = {}

    # -- connection tests -------------------------------------------------------------------

    def win_cells(self, stones: int, empty: int, player: int) -> int:
        g = self.g
        low, high = g.edges[player - 1]
        to_low = g.flood(low, stones)
        to_high = g.flood(high, stones)
        return (g.spread(to_low) | low) & (g.spread(to_high) | high) & empty

    def virtual_win(self, stones: int, empty: int, player: int) -> int:
        """The carrier of a virtual connection of ``player``'s edges, or -1 if none found."""
        g = self.g
        low, high = g.edges[player - 1]
        groups: list[int] = []
        rest = stones
        while rest:
            seed = rest & -rest
            group = g.flood(seed, stones)
            groups.append(group)
            rest &= ~group
        # node 0 = low edge, 1 = high edge, 2.. = groups; liberties of an edge are its line
        libs = [low & empty, high & empty] + [g.spread(grp) & empty for grp in groups]
        touches = [(grp & low != 0, grp & high != 0) for grp in groups]
        count = len(libs)
        # groups touching an edge are merged with that edge's node
        direct: list[set[int]] = [set() for _ in range(count)]
        zig: list[list[tuple[int, int]]] = [[] for _ in range(count)]
        for k, (a, b) in enumerate(touches):
            if a:
                direct[0].add(k + 2)
                direct[k + 2].add(0)
            if b:
                direct[1].add(k + 2)
                direct[k + 2].add(1)
        blocked = g.full & ~stones & ~empty
        for stone, template, side in edge_templates(g.size, player):
            if stones & stone and not template & blocked:
                carrier = template & empty
                for k, grp in enumerate(groups):
                    if grp & stone:
                        zig[k + 2].append((side, carrier))
                        zig[side].append((k + 2, carrier))
                        break
        steps = [0]

        def links(node: int, used: int) -> list[tuple[int, int]]:
            found = [(side, carrier) for side, carrier in zig[node] if not carrier & used]
            for other in range(count):
                if other == node:
                    continue
                if other in direct[node]:
                    found.append((other, 0))
                    continue
                if node < _EDGES and other < _EDGES:
                    continue
                common = libs[node] & libs[other] & ~used
                if common and common & (common - 1):
                    first = common & -common
                    second_pool = common & ~first
                    carrier = first | (second_pool & -second_pool)
                    found.append((other, carrier))
            return found

        def dfs(node: int, used: int, visited: int) -> int:
            steps[0] += 1
            if node == 1:
                return used
            if steps[0] > _PATH_STEPS:
                return -1
            for other, carrier in links(node, used):
                if visited >> other & 1:
                    continue
                result = dfs(other, used | carrier, visited | (1 << other))
                if result >= 0:
                    return result
            return -1

        return dfs(0, 0, 1)

    def dead(self, black: int, white: int, empty: int) -> int:
        g = self.g
        found = 0
        rest = empty
        while rest:
            b = rest & -rest
            rest ^= b
            pos = b.bit_length() - 1
            ring = g.ring[pos]
            owners = g.ring_edge[pos]
            colours = []
            for k in range(6):
                nb = ring[k]
                if nb:
                    colours.append(BLACK if black & nb else WHITE if white & nb else 0)
                else:
                    colours.append(owners[k])
            if run_dead(colours):
                found |= b
        return found

    # -- search -----------------------------------------------------------------------------------

    def key(self, mine: int, theirs: int, player: int) -> tuple[int, int, int]:
        g = self.g
        a, b = g.rotate(mine), g.rotate(theirs)
        return min((mine, theirs, player), (a, b, player))

    def candidates(self, mine: int, theirs: int, player: int) -> int | None:
        """Moves worth trying as a bitset; None when the mover wins at once (or virtually)."""
        g = self.g
        empty = g.full & ~(mine | theirs)
        if self.win_cells(mine, empty, player):
            return None
        threats = self.win_cells(theirs, empty, 3 - player)
        if threats:
            return threats if not threats & (threats - 1) else 0
        if self.virtual_win(mine, empty, player) >= 0:
            return None
        moves = empty
        carrier = self.virtual_win(theirs, empty, 3 - player)
        if carrier >= 0:
            moves &= carrier
        black, white = (mine, theirs) if player == BLACK else (theirs, mine)
        alive = moves & ~self.dead(black, white, empty)
        return alive or moves

    def wins(self, mine: int, theirs: int, player: int) -> bool:
        self.nodes += 1
        # the node limit every 256 nodes (as it always was); the clock every node: on a
        # large board one node's connection tests take milliseconds
        if self.budget.exhausted(self.nodes if self.nodes & 255 == 0 else 0):
            raise _OutOfBudgetError
        key = self.key(mine, theirs, player)
        known = self.table.get(key)
        if known is not None:
            return known
        moves = self.candidates(mine, theirs, player)
        result = False
        if moves is None:
            result = True
        else:
            empty = self.g.full & ~(mine | theirs)
            rest = moves
            tried = 0
            while rest:
                b = rest & -rest
                rest ^= b
                tried += 1
                if tried % _BUDGET_EVERY == 0 and self.budget.exhausted():
                    raise _OutOfBudgetError
                if self.virtual_win(mine | b, empty & ~b, player) >= 0:
                    self.table[key] = True
                    return True
            for pos in self.g.order:
                b = 1 << pos
                if moves & b and not self.wins(theirs, mine | b, 3 - player):
                    result = True
                    break
        self.table[key] = result
        return result


def _bits(position: Position) -> tuple[int, int]:
    g = geometry(position.size)
    black = white = 0
    for index, value in enumerate(position.board):
        if value:
            r, c = divmod(index, position.size)
            if value == BLACK:
                black |= g.bit(r, c)
            else:
                white |= g.bit(r, c)
    return black, white


def _index(pos: int, g: Geometry) -> int:
    r, c = divmod(pos, g.width)
    return r * g.size + c


def solve_alphabeta(
    position: Position, limit: Limit | None = None, all_moves: bool = True
) -> SolveResult:
    """:func:`solve` by the alpha-beta search (any board size)."""
    budget = (limit or Limit()).start()
    size = position.size
    player = position.to_move
    solver = _Solver(size, budget)
    if position.winner is not None:
        return SolveResult(position.winner, player, (), (), True, 0, budget.elapsed)
    black, white = _bits(position)
    mine, theirs = (black, white) if player == BLACK else (white, black)
    g = solver.g
    winning: list[int] = []
    losing: list[int] = []
    complete = True
    winner: int | None = None
    cells = [pos for pos in g.order if not (mine | theirs) >> pos & 1]
    quick = set()
    for pos in cells:
        b = 1 << pos
        rest = g.full & ~(mine | theirs | b)
        if solver.win_cells(mine, b, player) or solver.virtual_win(mine | b, rest, player) >= 0:
            quick.add(pos)
    winning = [_index(pos, g) for pos in cells if pos in quick]
    try:
        for pos in cells:
            if pos in quick or (winning and not all_moves):
                continue
            if solver.wins(theirs, mine | 1 << pos, 3 - player):
                losing.append(_index(pos, g))
            else:
                winning.append(_index(pos, g))
    except _OutOfBudgetError:
        complete = False
    if winning:
        winner = player
    elif complete:
        winner = 3 - player
    complete = complete and (all_moves or not winning)
    return SolveResult.of_indices(
        position, winner, winning, losing, complete, solver.nodes, budget.elapsed
    )
