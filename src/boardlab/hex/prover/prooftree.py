"""Prover layer: a proven position's solution tree, written for the checker to replay.

After a DFPN search (:class:`boardlab.hex.prover.dfpn.Dfpn`) has proven a position, this
module walks the proof down to positions a checker sees are won by itself, and writes
the tree in the format of :mod:`boardlab.hex.proofcheck` (which imports nothing of the
prover's): at every node the empty cells outside the search's proof set are given to
the loser (the winner still wins then: that is what a proof set is), then

- with the winner to move, one winning move (the search names it, or proves one);
- with the loser to move, every empty cell of that filled position (but see the last
  case below), each proven again by the search (the moves its must-play analysis never
  searched included);
- a leaf where the winner's edges are joined, or joined through pairwise disjoint pairs
  of empty cells (bridges, edge bridges; found greedily here, checked there), or where
  at most :data:`PLAY_OUT` empty cells are left for the checker to play out, or where a
  full virtual connection joins them (with the winner to move, a semi one: the winner
  plays its key), written as its derivation (:mod:`boardlab.hex.prover.certify`) for the
  checker to verify step by step;
- with the loser to move and semi connections between the winner's edges, only the
  moves inside all their carriers (the derivation written with the node): outside one,
  the winner plays that one's key and is joined by a full connection.

Nodes are shared by position (a graph, not a tree), so a position reached along two
lines is written once.
"""

from __future__ import annotations

import gzip
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.core.errors import BoardlabError
from boardlab.hex.board import neighbours
from boardlab.hex.prover.certify import certify, must_play

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = ["PLAY_OUT", "ProofTooLargeError", "build_proof", "write_proof"]

#: A leaf may keep this many empty cells at most: the checker plays them out
#: (:data:`boardlab.hex.proofcheck.BRUTE_EMPTY`, the same number; a test holds them equal).
PLAY_OUT = 9
FORMAT = "boardlab-hex-proof"
VERSION = 4


class ProofTooLargeError(Exception):
    """The tree grew past the node limit (or the time) it was given."""


class _Walk:
    """Builds the node list of one proof (see the module's text)."""

    def __init__(
        self,
        search: Dfpn,
        winner: int,
        max_nodes: int,
        first: int | None,
        deadline: float | None = None,
        connections: bool = True,
    ) -> None:
        n = search.n
        #: a ``time.monotonic()`` value past which the walk gives up
        self.deadline = deadline
        self.search = search
        self.n = n
        self.full = (1 << (n * n)) - 1
        self.winner = winner
        self.max_nodes = max_nodes
        #: the winner's move at the root, when given (a winning reply named elsewhere)
        self.first = first
        self.nbr = [sum(1 << j for j in ns) for ns in neighbours(n)]
        self.nbr_list = neighbours(n)
        column0 = sum(1 << (r * n) for r in range(n))
        row0 = (1 << n) - 1
        self.edges = {1: (column0, column0 << (n - 1)), 2: (row0, row0 << (n * (n - 1)))}
        self.nodes: list[list[Any]] = []
        self.index: dict[tuple[int, int, int], int] = {}
        #: end a node where a certified connection joins the winner's edges (a full one,
        #: or a semi one with the winner to move)
        self.connections = connections

    def joined(self, stones: int, player: int) -> bool:
        first, last = self.edges[player]
        reached = frontier = stones & first
        while frontier:
            grown = 0
            rest = frontier
            while rest:
                low = rest & -rest
                grown |= self.nbr[low.bit_length() - 1]
                rest ^= low
            frontier = grown & stones & ~reached
            reached |= frontier
        return bool(reached & last)

    def pairs(self, stones: int, empty: int) -> list[list[int]] | None:
        """Disjoint pairs of adjacent empty cells that join the winner's edges (taken
        greedily), or None."""
        player = self.winner
        first, last = self.edges[player]
        parent: dict[int, int] = {-1: -1, -2: -2}

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        def touching(cell: int) -> set[int]:
            found = {find(j) for j in self.nbr_list[cell] if stones >> j & 1}
            if first >> cell & 1:
                found.add(find(-1))
            if last >> cell & 1:
                found.add(find(-2))
            return found

        cells = [c for c in range(self.n * self.n) if stones >> c & 1]
        for c in cells:
            parent[c] = c
        for c in cells:
            for other in touching(c) - {find(c)}:
                parent[find(other)] = find(c)
        candidates = [
            (x, y)
            for x in range(self.n * self.n)
            if empty >> x & 1
            for y in self.nbr_list[x]
            if y > x and empty >> y & 1
        ]
        used = 0
        taken: list[list[int]] = []
        changed = True
        while changed and find(-1) != find(-2):
            changed = False
            for x, y in candidates:
                if used >> x & 1 or used >> y & 1:
                    continue
                common = sorted(touching(x) & touching(y))
                if len(common) < 2:  # noqa: PLR2004 - a pair joins two things
                    continue
                for other in common[1:]:
                    parent[find(other)] = find(common[0])
                used |= (1 << x) | (1 << y)
                taken.append([x, y])
                changed = True
        return taken if find(-1) == find(-2) else None

    def wins(self, black: int, white: int, player: int) -> bool:
        """Does the winner win with ``player`` to move (by the search)?"""
        mover_wins = self.search.prove(black, white, player)
        return mover_wins == (player == self.winner)

    def kept(self, black: int, white: int, player: int) -> int:
        """The search's proof set of a proven position (its empty cells), else every
        empty cell."""
        empty = self.full & ~(black | white)
        key = self.search.key(black, white, player)
        if key not in self.search.proofs:
            return empty
        return self.search.proof_of(key, black, white) & empty

    def winning_move(self, black: int, white: int) -> int:
        """A move of the winner's that keeps the win (the search's, else one proven)."""
        search, player, loser = self.search, self.winner, 3 - self.winner
        empty = self.full & ~(black | white)
        found = search.winning_child(black, white, player)
        tried = []
        if found is not None and found & empty:
            tried.append(found.bit_length() - 1)
        tried += [c for c in search.centre_order if empty >> c & 1]
        for cell in tried:
            b = 1 << cell
            child = (black | b, white) if player == 1 else (black, white | b)
            if not search.prove(*child, loser):
                return cell
        raise BoardlabError("the search finds no winning move in a position it proved won")

    def build(self, black: int, white: int, player: int) -> int:
        """The node of a position the winner wins with ``player`` to move."""
        key = (black, white, player)
        found = self.index.get(key)
        if found is not None:
            return found
        if len(self.nodes) >= self.max_nodes:
            raise ProofTooLargeError
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise ProofTooLargeError
        at = len(self.nodes)
        self.index[key] = at
        node: list[Any] = [0, [], []]
        self.nodes.append(node)
        winner, loser = self.winner, 3 - self.winner
        if self.joined(black if winner == 1 else white, winner):
            return at
        if not self.wins(black, white, player):
            raise BoardlabError("a position of the proof is not won by its winner")
        kept = self.kept(black, white, player)
        named = at == 0 and player == winner and self.first is not None
        if named:  # the root's move is named, proven on the root as it is: no fill
            kept = self.full & ~(black | white)
        fill = self.full & ~(black | white) & ~kept
        if loser == 1:
            black |= fill
        else:
            white |= fill
        node[0] = kept
        own = black if winner == 1 else white
        if not named and self.joined(own, winner):
            return at
        pairs = None if named else self.pairs(own, kept)
        if pairs is not None:
            node[2] = pairs
            return at
        if not named and bin(kept).count("1") <= PLAY_OUT:
            return at
        if self.connections and not named and player == winner:
            # the winner to move seldom holds a full connection, but often a semi one
            # (it would play that connection's key): certified too
            steps = certify(self.n, own, kept, self.edges[winner], semi=True)
            if steps is not None:
                node.append(steps)
                return at
        if player == winner:
            if at == 0 and self.first is not None:
                cell, self.first = self.first, None
            else:
                cell = self.winning_move(black, white)
            b = 1 << cell
            child = (black | b, white) if player == 1 else (black, white | b)
            node[1] = [[cell, self.build(*child, loser)]]
            return at
        answered = kept
        if self.connections and not named:
            narrowed = must_play(self.n, own, kept, self.edges[winner])
            if narrowed is not None:  # its cells always fewer than kept's
                steps, answered = narrowed
                node.append(steps)
        moves = []
        for cell in range(self.n * self.n):
            if answered >> cell & 1:
                b = 1 << cell
                child = (black | b, white) if player == 1 else (black, white | b)
                moves.append([cell, self.build(*child, winner)])
        node[1] = moves
        return at


def build_proof(
    search: Dfpn,
    black: int,
    white: int,
    player: int,
    winner: int,
    max_nodes: int = 1_000_000,
    first: int | None = None,
    deadline: float | None = None,
    connections: bool = True,
) -> dict[str, Any]:
    """The proof (the checker's format) that ``winner`` wins the position with
    ``player`` to move, from ``search``, which may search on where its table has no
    answer (the caller sets its budget: past it
    :class:`~boardlab.hex.prover.classify.OutOfBudgetError` is raised).

    ``first`` is the winner's move at the root (when the winner is to move there and
    the root keeps that cell), else the search's own.

    :raises ProofTooLargeError: past ``max_nodes`` nodes, or past ``deadline`` (a
        ``time.monotonic()`` value).
    :raises BoardlabError: when the search does not find ``winner`` the winner.
    """
    walk = _Walk(search, winner, max_nodes, first, deadline, connections)
    walk.build(black, white, player)
    return {
        "format": FORMAT,
        "version": VERSION,
        "size": search.n,
        "winner": winner,
        "root": {"black": black, "white": white, "to_move": player},
        "nodes": walk.nodes,
    }


def write_proof(proof: dict[str, Any], path: Path) -> None:
    """Write ``proof`` to ``path`` as gzip-compressed JSON, whole or not at all (a
    temporary file renamed).

    :raises BoardlabError: when the file cannot be written.
    """
    temporary = path.with_name(path.name + ".partial")
    try:
        with gzip.open(temporary, "wt", encoding="utf-8", compresslevel=6) as stream:
            json.dump(proof, stream, separators=(",", ":"))
        os.replace(temporary, path)
    except OSError as error:
        raise BoardlabError(f"{path}: cannot write the proof ({error.strerror})") from None
