"""Prover layer: one position proven by several workers at once (job-level proof-number search).

The scheme is job-level proof-number search (Wu, Lin and others, 2010-2013) over DFPN
workers: this process keeps the top of the search tree and hands its leaves out as
*jobs*. A job is one step of a DFPN (:meth:`boardlab.hex.prover.dfpn.Dfpn.work`): the
worker searches the leaf until its proof or disproof number reaches the thresholds this
process computed for it, exactly as a one-process DFPN would have for that node (the
least disproof number among the siblings, grown by the 1 + epsilon trick), or until the
job's :data:`JOB_ANALYSES` run out, and comes back with the leaf's numbers, or with its
value once proven. A leaf whose jobs have analysed :data:`SPLIT_ANALYSES` positions
becomes a node of the tree, its children (its must-play moves less those already proven
to lose, with the numbers the worker's table gives them) new leaves, so that several
workers can share the work under it. The tree's numbers follow the DFPN's negamax rules
(a node's proof number is the least disproof number of its children, its disproof number
the sum of their proof numbers). Each worker is given the most-proving leaf no job is
working on, among those it worked on last if it has one, with one focus: below a node
that looks won for its side to move only its best child is offered, since one winning
move will do. Two workers thus split the replies that must all be refuted below the most
promising move rather than try two moves of which one will do; only when nothing else is
free does a worker try a second move. The tree keeps the DFPN's frames as well: a child
chosen with its thresholds is chosen again, with the same thresholds, until its numbers
reach them (the 1 + epsilon trick, which a choice made afresh at each job would undo),
and a leaf's first analysis starts from its parent's connections when its worker
analysed the parent, as in the one-process search.

A worker keeps its search from one job to the next, and every job of a leaf goes to
the worker that last worked on it when the engine can pin tasks to a worker
(:class:`boardlab.cluster.process_engine.ProcessEngine` with ``pinned``), so its table
carries the leaf's work on. Every worker reads and extends one store of proven
positions (a work folder's ``store``, :mod:`boardlab.hex.prover.workers`): a position
one worker proved settles it for every other at its next job, and a run on the same
folder after a stop starts from everything proven before it. With one worker the
search is the one-process DFPN cut into steps.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boardlab.core.errors import BoardlabError
from boardlab.core.folders import make_folder
from boardlab.core.limits import Budget, Limit
from boardlab.core.progress import report
from boardlab.core.tasks import Engine
from boardlab.hex.prover.classify import OutOfBudgetError

__all__ = ["JOB_ANALYSES", "JobSearchResult", "job", "prove_by_jobs"]

#: Analysed positions a job may spend at most (it comes back sooner when its leaf's
#: numbers reach their thresholds).
JOB_ANALYSES = 2000
#: A leaf becomes a node of the tree once its jobs have analysed this many positions.
SPLIT_ANALYSES = 1000
#: The first job, on the root alone, is this share of a job (the other workers wait
#: for its children).
FIRST_JOB_SHARE = 0.25
#: Jobs each worker has in flight: the next one waits in its queue while it works.
QUEUED = 1
#: A worker reads the others' new proofs at most this often while it searches (and
#: before each job).
READ_SECONDS = 0.25
#: A worker adds what it proved to the store at most this often (and whenever a job
#: proves its leaf).
PUBLISH_SECONDS = 1.0
#: A job analyses at least this many positions (its leaf's own analysis first).
MIN_JOB_ANALYSES = 10
_INF = 1 << 40

#: A child of a job's leaf: (move bit, black, white, proof number, disproof number).
Child = tuple[int, int, int, int, int]


class _SettledError(OutOfBudgetError):
    """A job's position was settled by another worker's proof while it searched."""


def job(
    workdir: str,
    size: int,
    black: int,
    white: int,
    player: int,
    thresholds: tuple[int, int, int],
    analyses: int,
    deadline: float | None,
    memory: int | None,
    parent: tuple[int, int] | None = None,
) -> tuple[int, int, int, int, list[Child], int, str | None, int | None, int]:
    """One step of the DFPN on a leaf in this worker (a task): ``(value, winning move
    bit, proof number, disproof number, children, analysed positions, what stopped the
    search, proof, fills)``.

    ``thresholds`` are the leaf's proof and disproof number thresholds and its depth
    below the root. ``value`` is 1 when ``player`` to move wins (the move bit then a
    winning move), -1 when it loses, 0 when the thresholds were reached or the job's
    ``analyses`` or the run's ``deadline`` (a ``time.time()`` value) ran out first; then
    the children are the leaf's moves still open, in the position's own frame, with the
    numbers the worker's table gives them. ``proof`` is the proven leaf's proof (the
    cells its win rests on, :class:`boardlab.hex.prover.dfpn.Dfpn`; None if the worker
    has none), or for an open one what its analysis and its moves proven to lose rest
    on so far (None before its analysis); ``fills`` the cells its analysis filled in.
    ``parent`` is the position one move above the leaf (black, white) in the tree: a
    worker that analysed it analyses the leaf from its connections
    (:meth:`~boardlab.hex.prover.dfpn.Dfpn.work`), as a one-process search would. A leaf
    another worker's proof settles (a sibling's proof that covers it,
    :meth:`~boardlab.hex.prover.dfpn.Dfpn.settled_by_store`) is settled
    at the job's start or as soon as the proof is read."""
    from boardlab.hex.prover.dfpn import ANALYSIS_COST
    from boardlab.hex.prover.store import INF
    from boardlab.hex.prover.verdicts import warm
    from boardlab.hex.prover.workers import forget, kept_search, publish, read_store

    warm()
    folder = Path(workdir)
    seconds = None if deadline is None else deadline - time.time()
    if seconds is not None and seconds <= 0:
        return 0, 0, 1, 1, [], 0, "limit", None, 0
    limit = Limit(time=seconds, nodes=analyses * ANALYSIS_COST)
    kept = kept_search(folder, size, limit, memory)
    search = kept.search
    before = search.analysed
    pn_th, dn_th, depth = thresholds
    key = search.key(black, white, player)

    def share(now: bool = False) -> None:  # this worker's proofs into the store, when due
        if now or time.monotonic() >= kept.published + PUBLISH_SECONDS:
            publish(kept, folder, "job")
            kept.published = time.monotonic()

    def meanwhile() -> None:  # the others' proofs read, this one's shared, as it searches
        if time.monotonic() >= kept.read + READ_SECONDS:
            fresh = read_store(kept, folder)
            kept.read = time.monotonic()
            if fresh and search.settled_by_store(black, white, player):
                raise _SettledError
        share()

    search.meanwhile = meanwhile
    try:
        if not search.settled_by_store(black, white, player):
            with contextlib.suppress(OutOfBudgetError):  # then the numbers it reached
                search.work(black, white, player, pn_th, dn_th, depth, parent)
    finally:
        search.meanwhile = None
    pn, dn = search.tt.get(key, (1, 1))
    value, win = (1, 0) if pn == 0 else (-1, 0) if dn == 0 else (0, 0)
    children: list[Child] = []
    node = search.info.get(key)
    proof: int | None = None  # not known
    fills = 0
    if value != 0 and key in search.proofs:
        proof = search.proof_of(key, black, white)
    if value == 1:
        win = search.winning_child(black, white, player) or 0
    elif value == 0 and node is not None:
        flip = node.rotated != search.rotated(key, black, white)
        base: int | None = node.proof
        allowed = -1
        moves = search.children_of(node, player)
        for b, cb, cw, ck in moves:  # moves proven to lose since it last counted
            if search.bounds(ck, cb, cw, 3 - player)[0] == 0:
                if ck in search.proofs:
                    lost = search.proof_of(ck, cb, cw) | b
                    allowed &= lost
                    base = None if base is None else base | lost
                else:
                    base = None
        proof, fills = (
            None if base is None else search.turn(base, flip),
            search.turn(node.fills, flip),
        )
        for b, cb, cw, ck in moves:
            cpn, cdn = search.bounds(ck, cb, cw, 3 - player)
            if cpn == 0 or not b & allowed:
                continue  # a move proven to lose, or one outside a losing move's proof
            turned = (search.turn(b, flip), search.turn(cb, flip), search.turn(cw, flip))
            children.append((*turned, min(cpn, INF), min(cdn, INF)))
    stopped = search.stopped if value == 0 else None
    if stopped == "memory":
        forget(folder, size)
    share(now=value != 0 or (deadline is not None and time.time() >= deadline))
    analysed = search.analysed - before
    return value, win, min(pn, INF), min(dn, INF), children, analysed, stopped, proof, fills


def ready(workdir: str, size: int, memory: int | None) -> int:
    """Start this worker's search and load its kernels (a task at the start of a run, so
    that a worker's first job does not wait for them); the positions it analysed so far."""
    from boardlab.hex.prover.dfpn import NO_VCS
    from boardlab.hex.prover.verdicts import warm
    from boardlab.hex.prover.workers import kept_search

    warm()
    search = kept_search(Path(workdir), size, Limit(), memory).search
    search.move_order(0, 0, 0, (NO_VCS, NO_VCS))  # the move order's kernel, loaded
    return search.analysed


def flush(workdir: str, size: int) -> int:
    """Add what this worker proved to the store now (a task at the end of a run: jobs
    add to it at most every :data:`PUBLISH_SECONDS`); the positions written."""
    from boardlab.hex.prover.workers import kept_if_any, publish

    kept = kept_if_any(Path(workdir), size)
    return 0 if kept is None else publish(kept, Path(workdir), "job")


@dataclass(eq=False, slots=True)
class _Node:
    """A position of the tree: ``player`` to move; ``move`` the bit played into it;
    ``depth`` moves below the root; ``owner`` the worker that last worked on it;
    ``work`` the positions its jobs analysed.

    ``proof`` is a proven position's proof (the cells its win rests on, as the DFPN
    keeps them), None when it is not known; a node with children keeps in ``base`` what
    its analysis and its moves proven to lose rest on (None: not known), in ``fills``
    the cells its analysis filled in, and in ``allowed`` the moves no losing move's
    proof has ruled out (the DFPN's proof-set pruning: a move outside a losing move's
    proof loses too)."""

    black: int
    white: int
    player: int
    move: int
    parent: _Node | None
    pn: int = 1
    dn: int = 1
    depth: int = 0
    children: list[_Node] | None = None
    busy: bool = False
    win: int = 0  # a proven winning move's bit
    owner: int | None = None
    work: int = 0
    proof: int | None = None
    base: int | None = None
    fills: int = 0
    allowed: int = -1
    th: tuple[int, int] = (_INF, _INF)  # thresholds given when last chosen
    active: _Node | None = None  # the child last chosen, searched while within its th

    def counted(self) -> list[_Node]:
        """The children its numbers count: the first ones in move order, as many as the
        DFPN's widening lets in (those proven to lose have left the list)."""
        from boardlab.hex.prover.dfpn import WIDENING, WIDENING_BASE

        assert self.children is not None
        return self.children[: WIDENING_BASE + int(WIDENING * len(self.children))]

    def update(self) -> None:
        """Numbers and proof from the children (a node with children)."""
        assert self.children is not None
        for c in self.children:
            if c.pn == 0:  # the move loses, and so does every move outside its proof
                if c.proof is None:
                    self.base = None
                else:
                    self.allowed &= c.proof | c.move
                    if self.base is not None:
                        self.base |= c.proof | c.move
        open_children = [c for c in self.children if c.pn != 0 and c.move & self.allowed]
        self.children = open_children
        won = next((c for c in open_children if c.dn == 0), None)
        if won is not None:
            self.pn, self.dn, self.win = 0, _INF, won.move
            self.proof = None if won.proof is None else won.proof | won.move | self.fills
        elif not open_children:
            self.pn, self.dn = _INF, 0
            self.proof = self.base
        else:
            counted = self.counted()
            self.pn = min(c.dn for c in counted)
            self.dn = min(_INF, sum(c.pn for c in counted))
        if self.pn == 0 or self.dn == 0:
            self.children = None  # its subtree is no longer needed


@dataclass(frozen=True, slots=True)
class JobSearchResult:
    """The root's value (True: the side to move wins; None: not proven in the limits),
    a winning move's cell when it wins, and what the search spent (``tree_nodes``: the
    positions added to this process's tree)."""

    wins: bool | None
    move: int | None
    analysed: int
    jobs: int
    seconds: float
    stopped: str | None
    tree_nodes: int = 0


def _select(
    root: _Node, worker: int | None = None, focused: bool = True
) -> tuple[_Node, int, int] | None:
    """The most-proving free leaf and its DFPN thresholds: from the root (no
    thresholds), at each node the child of least disproof number among those with a
    free leaf below, given the thresholds the DFPN gives it (the least disproof number of
    the other children grown by 1 + epsilon); None when no leaf is free.

    A node goes on into the child it last chose while that child's numbers stay below
    the thresholds it was given then (its DFPN frame still open); else it chooses afresh.
    A leaf is free when no job works on it; with ``worker``, only if that worker worked
    on it last or nobody did. When ``focused``, a node that looks won for its side to
    move (proof number below disproof number) offers only its best child: one winning
    move will do, so a second worker goes where every move must be refuted instead."""
    from boardlab.hex.prover.dfpn import EPSILON

    if root.pn == 0 or root.dn == 0:
        return None
    known: dict[int, bool] = {}

    def free(node: _Node) -> bool:
        if node.children is None:
            return not node.busy and (worker is None or node.owner in (None, worker))
        found = known.get(id(node))
        if found is None:
            counted = node.counted()
            if focused and node.pn < node.dn:  # looks won: its best move is worth a worker
                found = free(min(counted, key=lambda c: c.dn))
            else:
                found = any(free(c) for c in counted)
            known[id(node)] = found
        return found

    if not free(root):
        return None
    node, pn_th, dn_th = root, _INF, _INF
    while node.children is not None:
        counted = node.counted()
        active = node.active
        if (
            active is not None
            and active in counted
            and active.pn < active.th[0]
            and active.dn < active.th[1]
            and free(active)
        ):  # its DFPN frame still open: searched on with the thresholds it was given
            node = active
            pn_th, dn_th = active.th
            continue
        best = min((c for c in counted if free(c)), key=lambda c: c.dn)
        second = min((c.dn for c in counted if c is not best), default=_INF)
        pn_th, dn_th = (
            min(_INF, dn_th - node.dn + best.pn),
            min(pn_th, max(second + 1, int(second * (1 + EPSILON)))),
        )
        best.th = (pn_th, dn_th)
        if best.dn == min(c.dn for c in counted):
            node.active = best
        node = best
    return node, max(pn_th, node.pn + 1), max(dn_th, node.dn + 1)


def _mark(node: _Node | None) -> None:
    """Numbers again from ``node`` up to the root (a proven node keeps its own: a job
    below one, still running when it was proven, changes nothing)."""
    while node is not None:
        if node.children is not None:
            node.update()
        node = node.parent


def prove_by_jobs(
    size: int,
    black: int,
    white: int,
    player: int,
    budget: Budget,
    engine: Engine,
    workdir: Path | None = None,
    memory: int | None = None,
    analyses: int = JOB_ANALYSES,
    split: int = SPLIT_ANALYSES,
) -> JobSearchResult:
    """Prove the position for ``player`` to move with the workers of ``engine``.

    The store of proven positions lives in ``workdir`` (kept, so a later run starts from
    it) or, without one, in a temporary folder removed at the end. ``budget``'s time
    holds for the whole run; its node limit counts analysed positions (as the DFPN's:
    50 nodes each) over all jobs. ``analyses`` and ``split`` stand for
    :data:`JOB_ANALYSES` and :data:`SPLIT_ANALYSES`.

    :raises BoardlabError: for a missing work folder.
    """
    if workdir is not None and not workdir.is_dir():
        raise BoardlabError(f"{workdir}: no such folder")
    own = workdir is None
    folder = Path(tempfile.mkdtemp(prefix="boardlab-jobs-")) if own else workdir
    assert folder is not None
    make_folder(folder / "store")
    try:
        return _Search(size, player, budget, engine, folder, memory, analyses, split).run(
            black, white
        )
    finally:
        if own:
            shutil.rmtree(folder, ignore_errors=True)


class _Search:
    """The tree and the jobs in flight of one :func:`prove_by_jobs` run."""

    def __init__(
        self,
        size: int,
        player: int,
        budget: Budget,
        engine: Engine,
        folder: Path,
        memory: int | None,
        analyses: int,
        split: int,
    ) -> None:
        from boardlab.hex.prover.dfpn import ANALYSIS_COST

        self.size, self.player, self.budget, self.engine = size, player, budget, engine
        self.folder, self.memory, self.analyses, self.split = folder, memory, analyses, split
        remaining = budget.remaining
        self.deadline = None if remaining is None else time.time() + remaining
        nodes = budget.limit.nodes
        self.analyses_limit = None if nodes is None else max(1, nodes // ANALYSIS_COST)
        self.cost = ANALYSIS_COST
        self.running: list[tuple[Any, _Node, int]] = []  # (handle, leaf, worker)
        self.jobs = self.spent = self.tree_nodes = 0

    def exhausted(self) -> bool:
        return self.budget.exhausted(self.spent * self.cost) or (
            self.analyses_limit is not None and self.spent >= self.analyses_limit
        )

    def submit(self, worker: int, leaf: _Node, pn_th: int, dn_th: int) -> None:
        share = self.analyses if self.jobs else int(self.analyses * FIRST_JOB_SHARE)
        if self.analyses_limit is not None:
            share = min(share, self.analyses_limit - self.spent)
        share = max(MIN_JOB_ANALYSES, share)
        leaf.busy, leaf.owner = True, worker
        _mark(leaf)
        args = (
            str(self.folder),
            self.size,
            leaf.black,
            leaf.white,
            leaf.player,
            (pn_th, dn_th, leaf.depth),
            share,
            self.deadline,
            self.memory,
            None if leaf.parent is None else (leaf.parent.black, leaf.parent.white),
        )
        self.running.append((self.engine.submit(job, args, place=worker), leaf, worker))

    def splits(self, leaf: _Node) -> bool:
        """Does a leaf whose job came back open become a node? Once its jobs have
        analysed :data:`SPLIT_ANALYSES` positions; the root of a search on several
        workers after its first job, which the other workers wait for. (Splitting any
        leaf at once when no other is free for a worker made jobs of a few positions
        each, their round trips costlier than the work they shared.)"""
        return leaf.work >= self.split or (leaf is self.root and self.engine.workers > 1)

    def fill(self) -> None:
        """Jobs for each worker up to :data:`QUEUED` in flight, while free leaves remain
        (a worker's next job waits in its queue, so it never waits for this process)."""
        for _ in range(QUEUED):
            for worker in range(max(1, self.engine.workers)):
                if sum(w == worker for _, _, w in self.running) >= QUEUED:
                    continue
                chosen = (
                    _select(self.root, worker)
                    or _select(self.root)
                    or _select(self.root, focused=False)
                )
                if chosen is None:
                    return
                self.submit(worker, *chosen)

    def run(self, black: int, white: int) -> JobSearchResult:
        root = self.root = _Node(black, white, self.player, 0, None)
        stopped: str | None = None
        for worker in range(1, self.engine.workers):  # worker 0 starts on the root
            self.engine.submit(ready, (str(self.folder), self.size, self.memory), place=worker)
        while root.pn != 0 and root.dn != 0:
            if stopped is None and not self.exhausted():
                self.fill()
            if not self.running:
                stopped = stopped or "limit"
                break
            handles = [h for h, _, _ in self.running]
            handle = self.engine.wait_any(handles)
            index = next(i for i, h in enumerate(handles) if h is handle)
            _, leaf, _ = self.running.pop(index)
            value, win, pn, dn, children, count, why, proof, fills = self.engine.fetch([handle])[0]
            self.jobs += 1
            self.spent += count
            report(self.spent)
            leaf.busy = False
            leaf.work += count
            if value == 1:
                leaf.pn, leaf.dn, leaf.win, leaf.proof = 0, _INF, win, proof
            elif value == -1:
                leaf.pn, leaf.dn, leaf.proof = _INF, 0, proof
            else:
                leaf.pn, leaf.dn = pn, dn
                if (why is not None and self.exhausted()) or why == "memory":
                    stopped = why
                elif children and leaf.children is None and self.splits(leaf):
                    leaf.base, leaf.fills = proof, fills
                    leaf.children = [
                        _Node(
                            cb,
                            cw,
                            3 - leaf.player,
                            b,
                            leaf,
                            cpn,
                            cdn,
                            leaf.depth + 1,
                            owner=leaf.owner,
                        )
                        for b, cb, cw, cpn, cdn in children
                    ]
                    self.tree_nodes += len(children)
            _mark(leaf)
        self.engine.fetch([h for h, _, _ in self.running])  # settled: not needed any more
        workers = range(max(1, self.engine.workers))
        args = (str(self.folder), self.size)
        self.engine.fetch([self.engine.submit(flush, args, place=w) for w in workers])
        wins = True if root.pn == 0 else False if root.dn == 0 else None
        move = root.win.bit_length() - 1 if wins and root.win else None
        return JobSearchResult(
            wins,
            move,
            self.spent,
            self.jobs,
            self.budget.elapsed,
            None if wins is not None else stopped or "limit",
            self.tree_nodes,
        )
