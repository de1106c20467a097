"""Prover layer: a virtual connection written as steps a checker can verify, for proof trees.

A proof tree (:mod:`boardlab.hex.prover.prooftree`) may end a node where the winner
holds a full virtual connection between its two edges: whoever moves, the winner
answers each of the loser's moves inside the carrier and joins its edges (with the
winner to move, a semi one will do: the winner plays its key first). The checker
(:mod:`boardlab.hex.proofcheck`) cannot trust the prover's H-search, so the connection
comes as its derivation: a list of steps, each built from earlier ones by Anshelevich's
rules, which the checker verifies one by one on the position.

The nodes are the winner's edges (``-1`` the first line, ``-2`` the last), the winner's
stone groups (named by any of their cells) and empty cells. A step is

- ``["t", a, b]``: ``a`` and ``b`` touch (adjacent cells, a cell next to a group, a
  cell on an edge line or a group touching it): a full connection with no carrier;
- ``["and", i, j, z]``: steps ``i`` (between ``x`` and ``z``) and ``j`` (between ``z``
  and ``y``), both full, with disjoint carriers holding none of ``x``, ``y`` and ``z``:
  through a group or edge ``z`` a full connection between ``x`` and ``y`` with the
  union of the carriers; through an empty cell ``z`` a semi one (the winner must play
  ``z``), the union and ``z`` its carrier;
- ``["or", i, j, ...]``: semi connections between the same two nodes whose carriers
  share no cell: a full one, the union its carrier (the loser can spoil one move of
  each at a time, and one of them is always left).

The last step is a full connection between the two edges, or, with the winner to move,
a semi one (the winner plays its key: an AND step through an empty cell). With the
loser to move, semi connections between the edges tell where the loser must play
(:func:`must_play`): in every one's carrier, or the winner plays that one's key.

:func:`certify` finds one by a plain H-search of its own (no edge templates: a
connection only a template proves is not certified here, and the tree goes on below
that node instead) on a position the tree has already reduced to the cells its proof
rests on, so the boards it sees are small. On boards of at most 64 cells the search
runs compiled (:mod:`boardlab.hex.prover.certify_kernel`, every connection's
derivation logged and read back); the plain Python search here is its reference.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from boardlab.hex.board import neighbours

__all__ = ["FIRST_EDGE", "LAST_EDGE", "certify", "must_play"]

#: The node names of the winner's two edge lines.
FIRST_EDGE, LAST_EDGE = -1, -2
#: Connections kept per pair of nodes (the smallest carriers win).
_MOST_FULL, _MOST_SEMI = 8, 12
#: Subsets of semi connections the OR rule tries per new semi connection.
_OR_STEPS = 64
#: Carrier combinations tried in all before the search gives up.
_MAX_WORK = 20_000
#: Boards of at most this many cells get the compiled search (one-word carriers).
_COMPILED_CELLS = 64


class _Search:
    """One H-search with every connection's derivation kept (see the module's text)."""

    def __init__(
        self, n: int, own: int, empty: int, lines: tuple[int, int], semi: bool = False
    ) -> None:
        #: a semi connection between the edges ends the search too
        self.semi_ends = semi
        self.steps: list[tuple[Any, ...]] = []
        #: per step: (one end, the other end, full?, carrier)
        self.facts: list[tuple[int, int, bool, int]] = []
        #: per pair of nodes (smaller first): its connections as (carrier, step)
        self.full: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.semi: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.linked: dict[int, set[int]] = {}
        self.queue: deque[int] = deque()
        self.work = 0
        self.done = -1
        self.cells, touches = _nodes(n, own, empty, lines)
        for a, b in touches:
            self._add_full(a, b, 0, ("t", a, b))

    def _add_full(self, a: int, b: int, carrier: int, step: tuple[Any, ...]) -> None:
        key = (a, b) if a < b else (b, a)
        kept = self.full.get(key)
        if kept is None:
            kept = self.full[key] = []
        if not _room(kept, carrier, _MOST_FULL):
            return
        index = self._new(a, b, True, carrier, step)
        kept.append((carrier, index))
        self.linked.setdefault(a, set()).add(b)
        self.linked.setdefault(b, set()).add(a)
        self.queue.append(index)
        if key == (LAST_EDGE, FIRST_EDGE):
            self.done = index

    def _add_semi(self, a: int, b: int, carrier: int, step: tuple[Any, ...]) -> None:
        key = (a, b) if a < b else (b, a)
        for c, _ in self.full.get(key, ()):
            if c & ~carrier == 0:
                return
        kept = self.semi.get(key)
        if kept is None:
            kept = self.semi[key] = []
        if not _room(kept, carrier, _MOST_SEMI):
            return
        index = self._new(a, b, False, carrier, step)
        kept.append((carrier, index))
        if self.semi_ends and key == (LAST_EDGE, FIRST_EDGE):
            self.done = index
            return
        self._or_rule(a, b, index, carrier, kept)

    def _new(self, a: int, b: int, full: bool, carrier: int, step: tuple[Any, ...]) -> int:
        self.steps.append(step)
        self.facts.append((a, b, full, carrier))
        return len(self.steps) - 1

    def _or_rule(self, a: int, b: int, new: int, mine: int, semis: list[tuple[int, int]]) -> None:
        """Subsets of the pair's semi connections, ``new`` (carrier ``mine``) among them,
        whose carriers share no cell: each makes a full connection (depth first, a
        bounded number)."""
        common = mine
        for c, _ in semis:
            common &= c
        if common:
            return
        others = [e for e in semis if e[1] != new]
        stack: list[tuple[int, tuple[int, ...], int, int]] = [(0, (new,), mine, mine)]
        tried = 0
        while stack and tried < _OR_STEPS:
            start, chosen, inter, union = stack.pop()
            for k in range(start, len(others)):
                tried += 1
                carrier, index = others[k]
                meet = inter & carrier
                if meet == inter:
                    continue
                if meet == 0:
                    self._add_full(a, b, union | carrier, ("or", *chosen, index))
                else:
                    stack.append((k + 1, (*chosen, index), meet, union | carrier))

    def run(self) -> int:
        """The step of a full connection between the two edges (or a semi one, when
        those end the search), or -1."""
        facts, full, linked, cells = self.facts, self.full, self.linked, self.cells
        while self.queue and self.done < 0 and self.work < _MAX_WORK:
            s = self.queue.popleft()
            x0, x1, _, c1 = facts[s]
            if (c1, s) not in full.get((x0, x1) if x0 < x1 else (x1, x0), ()):
                continue  # dropped for a smaller carrier since
            for x, z in ((x0, x1), (x1, x0)):
                if z < 0:
                    continue  # never through an edge (as the prover's H-search)
                bx = 1 << x if x >= 0 else 0
                through_cell = z in cells
                zbit = 1 << z
                for y in list(linked.get(z, ())):
                    if y == x:
                        continue
                    by = 1 << y if y >= 0 else 0
                    if by & c1:
                        continue
                    for c2, t in list(full.get((z, y) if z < y else (y, z), ())):
                        self.work += 1
                        if c1 & c2 or (bx | by) & c2:
                            continue
                        if through_cell:
                            self._add_semi(x, y, c1 | c2 | zbit, ("and", s, t, z))
                        else:
                            self._add_full(x, y, c1 | c2, ("and", s, t, z))
                        if self.done >= 0:
                            return self.done
        return self.done

    def certificate(self, *lasts: int) -> list[list[Any]]:
        """The steps ``lasts`` rest on, renumbered in order (references before use), the
        last of ``lasts`` last."""
        order = _in_order(lasts, self._refs)
        number = {s: i for i, s in enumerate(order)}
        out: list[list[Any]] = []
        for s in order:
            step = self.steps[s]
            if step[0] == "and":
                out.append(["and", number[step[1]], number[step[2]], step[3]])
            elif step[0] == "or":
                out.append(["or", *(number[r] for r in step[1:])])
            else:
                out.append(list(step))
        return out

    def _refs(self, s: int) -> list[int]:
        """The steps step ``s`` is made of."""
        step = self.steps[s]
        return list(step[1:3] if step[0] == "and" else step[1:] if step[0] == "or" else ())


def _in_order(lasts: tuple[int, ...], refs: Callable[[int], list[int]]) -> list[int]:
    """The steps ``lasts`` rest on (``refs`` names the steps a step is made of), each
    after the steps it is made of, the last of ``lasts`` last (a depth-first walk)."""
    order: list[int] = []
    seen: set[int] = set()
    stack = [(last, False) for last in reversed(lasts)]
    while stack:
        s, ready = stack.pop()
        if ready:
            order.append(s)
            continue
        if s in seen:
            continue
        seen.add(s)
        stack.append((s, True))
        stack.extend((r, False) for r in refs(s) if r not in seen)
    return order


def _room(kept: list[tuple[int, int]], carrier: int, most: int) -> bool:
    """Make room for ``carrier`` in a pair's list of ``(carrier, step)``: False when a
    carrier within it is there already, or the list is full of carriers no larger;
    else the carriers holding it and, when the list is full, its largest go."""
    wider = False
    for c, _ in kept:
        if c & ~carrier == 0:
            return False
        wider = wider or carrier & ~c == 0
    if wider:
        kept[:] = [e for e in kept if carrier & ~e[0]]
    if len(kept) >= most:
        worst = max(kept, key=lambda e: e[0].bit_count())
        if worst[0].bit_count() <= carrier.bit_count():
            return False
        kept.remove(worst)
    return True


def _nodes(
    n: int, own: int, empty: int, lines: tuple[int, int]
) -> tuple[set[int], list[tuple[int, int]]]:
    """The empty cells and the pairs of nodes that touch: a group is named by its lowest
    cell, an edge by :data:`FIRST_EDGE` or :data:`LAST_EDGE`."""
    around = neighbours(n)
    group: dict[int, int] = {}
    for cell in range(n * n):
        if own >> cell & 1 and cell not in group:
            stack, group[cell] = [cell], cell
            while stack:
                c = stack.pop()
                for d in around[c]:
                    if own >> d & 1 and d not in group:
                        group[d] = cell
                        stack.append(d)
    cells = {c for c in range(n * n) if empty >> c & 1}
    touches: set[tuple[int, int]] = set()
    for c in range(n * n):
        if c not in cells and c not in group:
            continue
        a = group.get(c, c)
        for edge, line in ((FIRST_EDGE, lines[0]), (LAST_EDGE, lines[1])):
            if line >> c & 1:
                touches.add((a, edge))
        for d in around[c]:
            if d in cells or d in group:
                b = group.get(d, d)
                if a != b and (a in cells or b in cells):
                    touches.add((min(a, b), max(a, b)))
    return cells, sorted(touches)


class _Compiled:
    """The same search compiled (:mod:`boardlab.hex.prover.certify_kernel`), on boards of
    at most 64 cells: its log read back into the checker's steps."""

    def __init__(
        self, n: int, own: int, empty: int, lines: tuple[int, int], semi: bool = False
    ) -> None:
        from boardlab.hex.prover.certify_kernel import search_log

        cells, touches = _nodes(n, own, empty, lines)
        self.nn = nn = n * n + 2
        is_cell = np.zeros(nn, np.bool_)
        for c in cells:
            is_cell[c] = True
        pairs = np.array([[self._id(a), self._id(b)] for a, b in touches], np.int64)
        found = search_log(
            nn,
            is_cell,
            pairs.reshape(-1, 2),
            semi,
            _MAX_WORK,
            _MOST_FULL,
            _MOST_SEMI,
            _OR_STEPS,
        )
        self.done = int(found[0])
        self.kind, self.ends_a, self.ends_b, self.carrier = found[1:5]
        self.ref1, self.ref2, self.through, self.pool = found[5:9]
        #: the semi connections between the edges kept at the end: (carrier, entry)
        self.edge_semis = [(int(self.carrier[e]), int(e)) for e in found[9][: found[10]]]

    def _id(self, name: int) -> int:
        return self.nn - 2 if name == FIRST_EDGE else self.nn - 1 if name == LAST_EDGE else name

    def _name(self, node: int) -> int:
        return FIRST_EDGE if node == self.nn - 2 else LAST_EDGE if node == self.nn - 1 else node

    def _refs(self, e: int) -> list[int]:
        from boardlab.hex.prover.certify_kernel import KIND_AND, KIND_OR

        if self.kind[e] == KIND_AND:
            return [int(self.ref1[e]), int(self.ref2[e])]
        if self.kind[e] == KIND_OR:
            start = int(self.ref1[e])
            return [int(r) for r in self.pool[start : start + int(self.ref2[e])]]
        return []

    def certificate(self, *lasts: int) -> list[list[Any]]:
        """The steps ``lasts`` rest on, renumbered in order (references before use)."""
        from boardlab.hex.prover.certify_kernel import KIND_AND, KIND_OR

        order = _in_order(lasts, self._refs)
        number = {e: i for i, e in enumerate(order)}
        out: list[list[Any]] = []
        for e in order:
            refs = [number[r] for r in self._refs(e)]
            if self.kind[e] == KIND_AND:
                out.append(["and", *refs, self._name(int(self.through[e]))])
            elif self.kind[e] == KIND_OR:
                out.append(["or", *refs])
            else:
                out.append(["t", self._name(int(self.ends_a[e])), self._name(int(self.ends_b[e]))])
        return out


def _searched(
    n: int, own: int, empty: int, lines: tuple[int, int], semi: bool, compiled: bool
) -> tuple[int, list[tuple[int, int]], Callable[..., list[list[Any]]]]:
    """``(done, edge semis, certificate)`` of one search, compiled on boards of at most
    64 cells when ``compiled``, else the plain Python one (the reference)."""
    if compiled and n * n <= _COMPILED_CELLS:
        fast = _Compiled(n, own, empty, lines, semi)
        return fast.done, fast.edge_semis, fast.certificate
    search = _Search(n, own, empty, lines, semi)
    last = search.run()
    return last, list(search.semi.get((LAST_EDGE, FIRST_EDGE), ())), search.certificate


def must_play(
    n: int, own: int, empty: int, lines: tuple[int, int], compiled: bool = True
) -> tuple[list[list[Any]], int] | None:
    """With the loser to move: ``(steps, cells)``, a derivation and the ``empty`` cells
    the loser must play in, or None when this search finds no connection of the edges
    that leaves out any of them.

    The steps end at a full connection between the winner's edge ``lines`` (``cells``
    is 0: whatever the loser plays, the winner joins them), or they hold semi
    connections between the edges, and ``cells`` is the intersection of their carriers:
    a loser's move outside one of them, the winner plays that one's key and holds a full
    connection, so only the moves inside all of them are left to answer (the must-play
    region of Henderson's Hex solver). The semi connections are taken smallest carrier
    first, each only if it narrows the intersection."""
    last, edge_semis, certificate = _searched(n, own, empty, lines, False, compiled)
    if last >= 0:
        return certificate(last), 0
    cells, chosen = empty, []
    for carrier, index in sorted(edge_semis, key=lambda e: e[0].bit_count()):
        if cells & ~carrier:
            cells &= carrier
            chosen.append(index)
    return (certificate(*chosen), cells) if chosen else None


def certify(
    n: int,
    own: int,
    empty: int,
    lines: tuple[int, int],
    semi: bool = False,
    compiled: bool = True,
) -> list[list[Any]] | None:
    """The steps of a full connection between the winner's edge ``lines`` (two cell sets)
    for the winner's stones ``own`` through the ``empty`` cells (every other cell the
    loser's), or None when this search finds none. With ``semi`` (the winner to move) a
    semi connection between the edges will do too, and may come first. ``compiled``:
    the compiled search on boards of at most 64 cells, else the plain Python one (the
    reference the tests hold it to; both write the same kind of steps)."""
    last, _, certificate = _searched(n, own, empty, lines, semi, compiled)
    return None if last < 0 else certificate(last)
