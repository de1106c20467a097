"""Judge layer: replay a stored Hex proof tree with the rules alone, trusting no search.

A proof says that ``winner`` wins a position (``root``: both players' stones and the side
to move). It is a graph of nodes, node 0 the root; every node is one position, found by
playing the moves from the root, and holds ``[kept, moves, pairs]``:

- ``kept``: a set of cells (bit ``r * n + c``, the rules' cell index). Every empty cell
  outside it is given to the loser before anything else is checked. Extra stones never
  help their owner's opponent in Hex (a stone of the loser's more cannot join the
  winner's edges, nor cut less), so if the winner wins the *filled* position, the winner
  wins the node's own position. Most of the saving is here: the prover's proof sets say
  which cells its win rests on.
- ``moves``: ``[[cell, child], ...]``. With the winner to move, exactly one: the
  winner's move and the node it leads to. With the loser to move, one for *every* empty
  cell of the filled position: the loser's every move and the node after it; or, when
  the node carries a connection (its fourth part, below) holding semi connections
  between the winner's edges, one for every empty cell inside all their carriers (the
  loser's must-play region: a loser's move outside one of them, the winner plays its
  key and holds a full connection, which that move does not touch).
- a node with no moves is a leaf, and is won in one of four ways the checker sees for
  itself on the filled position: the winner's edges are already joined; or ``pairs``,
  pairwise disjoint pairs of empty cells, join them (both cells of a pair touch two of
  the winner's groups or edges, so whichever cell the loser takes, the winner takes the
  other: bridges, edge bridges and chains of them); or the node's fourth part, a
  ``connection``, derives a full virtual connection between the winner's edges by
  Anshelevich's rules, step by step (:func:`_connection_step` says what each step must
  hold), or with the winner to move a semi one (an AND step through an empty cell: the
  winner plays that cell and holds two full connections with disjoint carriers); or at
  most :data:`BRUTE_EMPTY` empty cells are left, and the checker plays every game out.

A node reached along two paths must be reached in the same position. The checker stops
at the first node that breaks a rule and names it by the moves leading to it (HexGui's
names). The file is gzip-compressed JSON: ``{"format": "boardlab-hex-proof",
"version": 4, "size": n, "winner": 1 or 2, "root": {"black": bits, "white": bits,
"to_move": 1 or 2}, "nodes": [[kept, moves, pairs], ...]}``, a node with a connection
``[kept, moves, pairs, connection]`` (moves only with the loser to move); versions 1
(no connections), 2 (full connections only) and 3 (connections at leaves only) are
read too.

>>> from boardlab.hex.rules import Position
>>> position = Position(2)
>>> position.play_index(1)   # black (joins the columns) on the top-right cell
>>> proof = {"format": FORMAT, "version": VERSION, "size": 2, "winner": 1,
...          "root": {"black": 2, "white": 0, "to_move": 2},
...          "nodes": [[15, [[0, 1], [2, 2], [3, 3]], []], [15, [], []],
...                    [15, [[0, 4]], []], [15, [], []], [15, [], []]]}
>>> check_proof(proof).line()
'OK: 5 nodes (1 joined, 0 pairs, 0 connection, 2 played out)'
>>> proof["nodes"][0][1].pop()   # the loser's move b2 (HexGui's name) left unanswered
[3, 3]
>>> check_proof(proof).line()
"BAD at the root: the loser's moves b2 have no answer"

"""

from __future__ import annotations

import gzip
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.hex.board import neighbours, vertex

__all__ = [
    "BRUTE_EMPTY",
    "FORMAT",
    "VERSION",
    "ProofCheck",
    "check_proof",
    "check_proof_file",
    "edges_joined",
    "played_out_wins",
    "read_proof",
]

FORMAT = "boardlab-hex-proof"
VERSION = 4
#: The versions the checker reads (version 1's nodes have no connection part, version
#: 2's connections are all full ones, version 3's are all at leaves).
VERSIONS = (1, 2, 3, 4)
#: A leaf with at most this many empty cells (after the loser's fill) is played out.
BRUTE_EMPTY = 9
#: The largest board a proof may be written for (cells fit in one Python int anyway).
MAX_SIZE = 26


@dataclass(frozen=True, slots=True)
class ProofCheck:
    """The checker's answer: ``ok``, the distinct nodes walked, the leaves by kind
    (``joined``, ``pairs``, ``played out``) and, when not ok, the first bad node (the
    moves from the root, HexGui's names) and why."""

    ok: bool
    nodes: int
    leaves: dict[str, int]
    bad_path: tuple[str, ...] = ()
    reason: str = ""
    #: the winner's move at the root (HexGui's name) when the winner is to move there
    root_move: str | None = None

    def as_dict(self) -> dict[str, object]:
        """The answer as JSON-ready values."""
        return {
            "ok": self.ok,
            "nodes": self.nodes,
            "leaves": dict(self.leaves),
            "bad_path": list(self.bad_path),
            "reason": self.reason,
            "root_move": self.root_move,
        }

    def line(self) -> str:
        """One line: OK with the counts, or the first bad node."""
        if self.ok:
            kinds = ", ".join(f"{count} {kind}" for kind, count in self.leaves.items())
            return f"OK: {self.nodes} nodes ({kinds or 'no leaves'})"
        where = " ".join(self.bad_path) or "the root"
        return f"BAD at {where}: {self.reason}"


class _Bad(Exception):  # noqa: N818 - a node of the proof is bad
    """A node breaks a rule (the message says which)."""


class _Board:
    """The rules' facts the checker needs, on bit sets of one ``n x n`` board."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        self.nbr = [sum(1 << j for j in ns) for ns in neighbours(n)]
        self.nbr_list = neighbours(n)
        column0 = sum(1 << (r * n) for r in range(n))
        row0 = (1 << n) - 1
        # player 1 joins the first and last columns, player 2 the first and last rows
        self.edges = {
            1: (column0, column0 << (n - 1)),
            2: (row0, row0 << (n * (n - 1))),
        }
        self.memo: dict[tuple[int, int, int], bool] = {}
        # the brute force tries the cells nearest the centre first (a winning move is
        # found sooner there, which cuts the games it plays out)
        middle = (n - 1) / 2
        self.centre_first = [
            1 << c
            for c in sorted(
                range(self.cells), key=lambda c: abs(c // n - middle) + abs(c % n - middle)
            )
        ]

    def joined(self, stones: int, player: int) -> bool:
        """Do ``player``'s ``stones`` join that player's two edges? (A flood fill by
        whole-board shifts, one per direction, each step; its twin is the cell-by-cell
        fill the tests run.)"""
        first, last = self.edges[player]
        n, left, right = self.n, self.edges[1][0], self.edges[1][1]
        not_left, not_right = self.full & ~left, self.full & ~right
        reached = stones & first
        while True:
            grown = (
                ((reached >> 1) & not_right)
                | ((reached << 1) & not_left)
                | (reached >> n)
                | (reached << n)
                | ((reached >> (n - 1)) & not_left)
                | ((reached << (n - 1)) & not_right)
            )
            grown = (grown & stones) | reached
            if grown == reached:
                return bool(reached & last)
            reached = grown

    def pairs_join(
        self, stones: int, player: int, empty: int, pairs: list[tuple[int, int]]
    ) -> bool:
        """Do the pairwise disjoint ``pairs`` of empty cells join ``player``'s edges?"""
        used = 0
        for x, y in pairs:
            if max(x, y) >= self.cells:
                raise _Bad(f"pair {x}-{y} names a cell off the board")
            bits = (1 << x) | (1 << y)
            if x == y or bits & ~empty or bits & used:
                raise _Bad(f"pair {vertex(x, self.n)}-{vertex(y, self.n)} is not two free cells")
            used |= bits
        # components: every stone its own, the two edges as nodes -1 and -2
        parent: dict[int, int] = {-1: -1, -2: -2}

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        first, last = self.edges[player]
        rest = stones
        while rest:
            low = rest & -rest
            cell = low.bit_length() - 1
            parent[cell] = cell
            rest ^= low
        rest = stones
        while rest:
            low = rest & -rest
            cell = low.bit_length() - 1
            rest ^= low
            for other in self._touching(cell, stones, first, last):
                parent[find(other)] = find(cell)

        changed = True
        while changed:
            changed = False
            for x, y in pairs:
                common = {find(a) for a in self._touching(x, stones, first, last)} & {
                    find(a) for a in self._touching(y, stones, first, last)
                }
                roots = sorted(common)
                for other in roots[1:]:
                    if find(other) != find(roots[0]):
                        parent[find(other)] = find(roots[0])
                        changed = True
        return find(-1) == find(-2)

    def connection_joins(
        self, stones: int, player: int, empty: int, steps: list[Any], semi: bool = False
    ) -> bool:
        """Do the ``steps`` (see :func:`_connection_step`) derive a full connection of
        ``player`` between its two edges (or, with ``semi``, when ``player`` is to move,
        a semi one), through ``empty`` cells only? A step that breaks a rule is bad (the
        reason names it)."""
        facts = self.connection_facts(stones, player, empty, steps)
        if not facts or facts[-1][0] != (-2, -1) or not (facts[-1][1] or semi):
            kind = "a full or semi" if semi else "a full"
            raise _Bad(f"the connection's last step is not {kind} connection of the edges")
        return True

    def connection_facts(
        self, stones: int, player: int, empty: int, steps: list[Any]
    ) -> list[tuple[tuple[int, int], bool, int]]:
        """What each of the ``steps`` derives (see :func:`_connection_step`): its ends,
        full or semi, its carrier. A step that breaks a rule is bad."""
        groups = self._groups(stones)
        facts: list[tuple[tuple[int, int], bool, int]] = []
        for k, step in enumerate(steps):
            facts.append(_connection_step(self, groups, player, empty, facts, k, step))
        return facts

    def must_play(self, stones: int, player: int, empty: int, steps: list[Any]) -> int | None:
        """With ``player``'s opponent to move: the ``empty`` cells the opponent must play
        in, by the ``steps``' connections between ``player``'s edges: None when the last
        step is a full one (the opponent cannot stop it), else the intersection of the
        carriers of the steps that are semi ones (a move outside one of them, ``player``
        plays its key and holds a full connection). Bad when there is neither."""
        facts = self.connection_facts(stones, player, empty, steps)
        if facts and facts[-1][0] == (-2, -1) and facts[-1][1]:
            return None
        carriers = [c for ends, full, c in facts if ends == (-2, -1) and not full]
        if not carriers:
            raise _Bad("the connection derives no connection of the edges")
        cells = empty
        for carrier in carriers:
            cells &= carrier
        return cells

    def _groups(self, stones: int) -> dict[int, int]:
        """Each stone's group: the set of its cells (a bit set)."""
        out: dict[int, int] = {}
        rest = stones
        while rest:
            group = rest & -rest
            while (grown := self.spread(group) & stones) != group:
                group = grown
            bits = group
            while bits:
                b = bits & -bits
                bits ^= b
                out[b.bit_length() - 1] = group
            rest &= ~group
        return out

    def spread(self, cells: int) -> int:
        """The cells next to ``cells`` (theirs included)."""
        out, bits = cells, cells
        while bits:
            b = bits & -bits
            bits ^= b
            out |= self.nbr[b.bit_length() - 1]
        return out

    def _touching(self, cell: int, stones: int, first: int, last: int) -> list[int]:
        """The stones and edges (-1, -2) next to ``cell``."""
        found = [j for j in self.nbr_list[cell] if stones >> j & 1]
        if first >> cell & 1:
            found.append(-1)
        if last >> cell & 1:
            found.append(-2)
        return found

    def wins(self, black: int, white: int, to_move: int, winner: int) -> bool:
        """Does ``winner`` win with ``to_move`` to move? Every game played out (memoised).

        Hex has no draws, so this is :meth:`mover_wins` or its negation."""
        return self.mover_wins(black, white, to_move) == (winner == to_move)

    def mover_wins(self, black: int, white: int, to_move: int) -> bool:
        """Does the player ``to_move`` win? Every game played out, each position once.

        A game is cut short when one side cannot join its edges even with every empty
        cell: Hex has no draws, so the other side wins however the cells are filled."""
        key = (black, white, to_move)
        found = self.memo.get(key)
        if found is not None:
            return found
        own, other = (black, white) if to_move == 1 else (white, black)
        empty = self.full & ~(black | white)
        if not self.joined(other | empty, 3 - to_move):
            result = True
        elif not self.joined(own | empty, to_move):
            result = False
        else:
            result = False
            for low in self.centre_first:
                if not empty & low:
                    continue
                child = (black | low, white) if to_move == 1 else (black, white | low)
                if not self.mover_wins(*child, 3 - to_move):
                    result = True
                    break
        self.memo[key] = result
        return result


@cache
def _board(size: int) -> _Board:
    return _Board(size)


def played_out_wins(size: int, black: int, white: int, to_move: int) -> bool:
    """Does the side to move win? Every game played out by the checker's own rules
    (small boards only), with a memo of its own that goes when the call returns."""
    return _Board(size).wins(black, white, to_move, to_move)


def edges_joined(size: int, stones: int, player: int) -> bool:
    """Do ``stones`` (a set of cells, bit ``r * size + c``) join ``player``'s two edges
    (player 1 the first and last columns, player 2 the rows)? The checker's test."""
    return _board(size).joined(stones, player)


def _connection_step(
    board: _Board,
    groups: dict[int, int],
    player: int,
    empty: int,
    facts: list[tuple[tuple[int, int], bool, int]],
    k: int,
    step: object,
) -> tuple[tuple[int, int], bool, int]:
    """Step ``k`` of a connection, checked against the ``facts`` of the steps before it:
    its two ends (sorted), full or semi, and its carrier. The ends are nodes: ``-1`` and
    ``-2`` the player's first and last edge, a stone (its whole group) or an empty cell;
    a node stands for a set of cells, its group's or its own.

    - ``["t", a, b]``: ``a`` and ``b`` touch; full, no carrier.
    - ``["and", i, j, z]``: full steps ``i`` and ``j`` meeting at ``z``, their carriers
      disjoint and holding no cell of the three ends; through a group or an edge full,
      through an empty cell semi with ``z`` in its carrier.
    - ``["or", i, j, ...]``: semi steps between the same two nodes whose carriers share
      no cell; full, the union their carrier.
    """
    where = f"connection step {k}"
    if not isinstance(step, list) or not step or step[0] not in ("t", "and", "or"):
        raise _Bad(f"{where} is not a t, and or or step")

    def node(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value in (-1, -2):
            return value
        cell = _int(value, f"{where}'s node")
        if cell >= board.cells:
            raise _Bad(f"{where}: node {cell} is off the board")
        if cell in groups:
            return (groups[cell] & -groups[cell]).bit_length() - 1
        if not empty >> cell & 1:
            raise _Bad(f"{where}: {vertex(cell, board.n)} is neither free nor the winner's")
        return cell

    def cells_of(a: int) -> int:
        return groups[a] if a in groups else 1 << a

    def ref(value: object) -> tuple[tuple[int, int], bool, int]:
        index = _int(value, f"{where}'s reference")
        if index >= k:
            raise _Bad(f"{where} refers to step {index}, not an earlier one")
        return facts[index]

    def free(a: int) -> int:
        return 1 << a if a >= 0 and a not in groups else 0

    if step[0] == "t":
        if len(step) != 3:  # noqa: PLR2004 - ["t", a, b]
            raise _Bad(f"{where} is not [t, a, b]")
        a, b = sorted((node(step[1]), node(step[2])))
        if a == b or b < 0 or not (free(a) or free(b) or a < 0):
            raise _Bad(f"{where}: these two nodes cannot touch")
        if a < 0:
            line = board.edges[player][0 if a == -1 else 1]
            touching = bool(cells_of(b) & line)
        else:
            touching = bool(board.spread(cells_of(a)) & cells_of(b))
        if not touching:
            raise _Bad(f"{where}: the two nodes do not touch")
        return (a, b), True, 0
    if step[0] == "and":
        if len(step) != 4:  # noqa: PLR2004 - ["and", i, j, z]
            raise _Bad(f"{where} is not [and, i, j, z]")
        (ends1, full1, c1), (ends2, full2, c2) = ref(step[1]), ref(step[2])
        z = node(step[3])
        if not (full1 and full2) or z not in ends1 or z not in ends2:
            raise _Bad(f"{where}: two full connections meeting at its node are needed")
        x = ends1[0] if ends1[1] == z else ends1[1]
        y = ends2[0] if ends2[1] == z else ends2[1]
        if x == y or c1 & c2 or (free(x) | free(y) | free(z)) & (c1 | c2):
            raise _Bad(f"{where}: the carriers overlap each other or the ends")
        ends = (min(x, y), max(x, y))
        return (ends, False, c1 | c2 | free(z)) if free(z) else (ends, True, c1 | c2)
    if len(step) < 3:  # noqa: PLR2004 - ["or", i, j, ...]
        raise _Bad(f"{where}: the or rule needs two semi connections at least")
    parts = [ref(value) for value in step[1:]]
    ends = parts[0][0]
    common, union = -1, 0
    for part_ends, part_full, carrier in parts:
        if part_full or part_ends != ends:
            raise _Bad(f"{where}: the or rule takes semi connections of one pair")
        common &= carrier
        union |= carrier
    if common:
        raise _Bad(f"{where}: the semi connections share a cell")
    return ends, True, union


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Bad(f"{what} is not a non-negative whole number")
    return value


def _node(
    nodes: list[Any], index: int
) -> tuple[int, list[tuple[int, int]], list[tuple[int, int]], list[Any]]:
    """``(kept, moves, pairs, connection)`` of node ``index``, their shapes checked (a
    node of three parts has no connection)."""
    if not 0 <= index < len(nodes):
        raise _Bad(f"node {index} does not exist")
    entry = nodes[index]
    if not isinstance(entry, list) or len(entry) not in (3, 4):
        raise _Bad(f"node {index} is not [kept, moves, pairs] or [kept, moves, pairs, connection]")
    connection = entry[3] if len(entry) == 4 else []  # noqa: PLR2004 - the fourth part
    if not isinstance(connection, list):
        raise _Bad(f"node {index}'s connection must be a list")
    kept = _int(entry[0], f"node {index}'s kept set")
    moves, pairs = entry[1], entry[2]
    if not isinstance(moves, list) or not isinstance(pairs, list):
        raise _Bad(f"node {index}'s moves and pairs must be lists")
    out_moves = []
    for item in moves:
        if not isinstance(item, list) or len(item) != 2:  # noqa: PLR2004 - [cell, child]
            raise _Bad(f"node {index}: a move is not [cell, child]")
        out_moves.append((_int(item[0], "a move's cell"), _int(item[1], "a move's child")))
    out_pairs = []
    for item in pairs:
        if not isinstance(item, list) or len(item) != 2:  # noqa: PLR2004 - [x, y]
            raise _Bad(f"node {index}: a pair is not [x, y]")
        out_pairs.append((_int(item[0], "a pair's cell"), _int(item[1], "a pair's cell")))
    return kept, out_moves, out_pairs, connection


def check_proof(proof: Mapping[str, Any]) -> ProofCheck:
    """Walk ``proof`` (the parsed file, see the module's text) from its root; OK only if
    every node reached holds.

    :raises BoardlabError: when ``proof`` is not a proof of this format at all.
    """
    if proof.get("format") != FORMAT or proof.get("version") not in VERSIONS:
        raise BoardlabError(f"not a {FORMAT} file of version {VERSION} or before")
    size, winner, root, nodes = (proof.get(k) for k in ("size", "winner", "root", "nodes"))
    if not isinstance(size, int) or not 1 <= size <= MAX_SIZE or winner not in (1, 2):
        raise BoardlabError("a proof needs a board size of 1 to 26 and a winner of 1 or 2")
    if not isinstance(root, dict) or not isinstance(nodes, list) or not nodes:
        raise BoardlabError("a proof needs a root position and at least one node")
    board = _Board(size)
    leaves = {"joined": 0, "pairs": 0, "connection": 0, "played out": 0}
    try:
        black = _int(root.get("black"), "the root's black stones")
        white = _int(root.get("white"), "the root's white stones")
        to_move = root.get("to_move")
        if (black | white) & ~board.full or black & white or to_move not in (1, 2):
            raise _Bad("the root is not a position of this board")
    except _Bad as bad:
        return ProofCheck(False, 0, leaves, (), str(bad))
    root_to_move = to_move
    seen: dict[int, tuple[int, int, int]] = {}
    stack: list[tuple[int, int, int, int, tuple[int, ...]]] = [(0, black, white, to_move, ())]
    while stack:
        index, black, white, to_move, path = stack.pop()
        position = (black, white, to_move)
        try:
            if index in seen:
                if seen[index] != position:
                    raise _Bad(f"node {index} is reached in two different positions")
                continue
            seen[index] = position
            stack.extend(_check_node(board, nodes, index, position, winner, path, leaves))
        except _Bad as bad:
            names = tuple(vertex(cell, size) for cell in path)
            return ProofCheck(False, len(seen), leaves, names, str(bad))
    first = nodes[0][1] if root_to_move == winner and isinstance(nodes[0], list) else []
    root_move = vertex(first[0][0], size) if first else None
    return ProofCheck(True, len(seen), leaves, root_move=root_move)


def _check_node(
    board: _Board,
    nodes: list[Any],
    index: int,
    position: tuple[int, int, int],
    winner: int,
    path: tuple[int, ...],
    leaves: dict[str, int],
) -> list[tuple[int, int, int, int, tuple[int, ...]]]:
    """Check one node; the children to walk next."""
    black, white, to_move = position
    kept, moves, pairs, connection = _node(nodes, index)
    loser = 3 - winner
    own, other = (black, white) if winner == 1 else (white, black)
    if board.joined(own, winner):
        if moves:
            raise _Bad("the game is over (the winner has joined its edges) but moves follow")
        leaves["joined"] += 1
        return []
    if board.joined(other, loser):
        raise _Bad("the loser has joined its edges")
    if kept & ~board.full:
        raise _Bad("the kept set holds cells off the board")
    empty = board.full & ~(black | white)
    fill = empty & ~kept
    if loser == 1:
        black |= fill
    else:
        white |= fill
    empty &= kept
    own, other = (black, white) if winner == 1 else (white, black)
    if board.joined(other, loser):
        raise _Bad("the cells given to the loser join the loser's edges")
    required = empty  # the loser's moves to answer
    if connection and to_move == loser:
        narrowed = board.must_play(own, winner, empty, connection)
        if narrowed is None or (narrowed == 0 and not moves):
            if moves:
                raise _Bad("a node with moves carries a full connection")
            leaves["connection"] += 1
            return []
        required = narrowed
    elif connection and moves:
        raise _Bad("a node with moves carries a connection")
    if not moves:
        if board.joined(own, winner):
            leaves["joined"] += 1
        elif pairs and board.pairs_join(own, winner, empty, pairs):
            leaves["pairs"] += 1
        elif (
            connection
            and to_move == winner
            and board.connection_joins(own, winner, empty, connection, semi=True)
        ):
            leaves["connection"] += 1
        elif _popcount(empty) <= BRUTE_EMPTY and board.wins(black, white, to_move, winner):
            leaves["played out"] += 1
        elif connection:  # the loser to move, and semi connections only
            names = " ".join(vertex(c, board.n) for c in range(board.cells) if required >> c & 1)
            raise _Bad(f"the loser's moves {names} have no answer")
        else:
            raise _Bad(
                "a leaf the winner has not won: no chain, no pairs and too many cells to play out"
                if _popcount(empty) > BRUTE_EMPTY
                else "a leaf the winner loses when every game is played out"
            )
        return []
    cells = [cell for cell, _ in moves]
    if len(set(cells)) != len(cells) or any(not empty >> cell & 1 for cell in cells):
        raise _Bad("a move is not on a free cell, or is listed twice")
    if to_move == winner:
        if len(moves) != 1:
            raise _Bad(f"the winner to move must name exactly one move, not {len(moves)}")
    elif missing := [c for c in range(board.cells) if required >> c & 1 and c not in cells]:
        names = " ".join(vertex(c, board.n) for c in missing)
        raise _Bad(f"the loser's moves {names} have no answer")
    children = []
    for cell, child in moves:
        bit = 1 << cell
        after = (black | bit, white) if to_move == 1 else (black, white | bit)
        children.append((child, *after, 3 - to_move, (*path, cell)))
    return children


def read_proof(path: Path) -> dict[str, Any]:
    """The proof stored at ``path`` (gzip-compressed JSON).

    :raises BoardlabError: when the file cannot be read or is not gzip-compressed JSON.
    """
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            data = json.load(stream)
    except FileNotFoundError:
        raise BoardlabError(f"{path}: no such proof file") from None
    except (OSError, EOFError, ValueError, RecursionError) as error:
        # ValueError: bad JSON, bad UTF-8, or a number past Python's digit limit
        raise BoardlabError(f"{path}: not a gzip-compressed JSON proof ({error})") from None
    if not isinstance(data, dict):
        raise BoardlabError(f"{path}: not a proof (expected a JSON object)")
    return data


def check_proof_file(path: Path) -> ProofCheck:
    """:func:`check_proof` of the file at ``path``.

    :raises BoardlabError: when the file is not a proof.
    """
    try:
        return check_proof(read_proof(path))
    except BoardlabError as error:
        if str(error).startswith(str(path)):
            raise
        raise BoardlabError(f"{path}: {error}") from None
