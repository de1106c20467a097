"""Solver layer: the PEGGED optimiser (POTM 1997): one peg left with the fewest moves.

Every answer has ``pegs - 1`` jumps, so the solver minimises walks, then the last
peg's distance to the centre (the first tiebreak). :class:`PeggedSolver` runs:

1. the proven lower bound of :mod:`boardlab.pegs.pegged.bounds`;
2. on small boards, the exact A* of :mod:`boardlab.pegs.pegged.exact` (a proof of
   optimality, or of unsolvability);
3. anytime beam searches (numba kernel :mod:`boardlab.pegs.pegged._kernel`) of growing
   width, restarted with seeded noise, until the budget ends or the answer meets the
   bound with the last peg on the centre;
4. the greedy baseline :mod:`boardlab.pegs.pegged.greedy` as a last resort.

Every answer is checked by the judge before it is returned. The limit's ``nodes``
count the positions the exact search pops and the states the beams expand (at least
a beam's width for each run), so a node limit gives the same answer on any machine;
its ``time`` is kept within one beam run, and a kernel still compiling when the time
runs out is not waited for.

>>> from boardlab.core.limits import Limit
>>> start = load_board("__OO_\\n__OO_\\nOOXOO\\nOOOOX\\n____X\\n", "example.txt")
>>> result = PeggedSolver(Limit(nodes=10_000), seed=1).solve(start)
>>> result.moves_count, result.walks, result.tiebreak, result.proven
(3, 1, 0, True)
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar

from boardlab.core.errors import BoardlabError, LimitExceededError, NoSolutionError, ParseError
from boardlab.core.limits import Budget, Limit
from boardlab.core.words import counted
from boardlab.pegs.cells import Cell, Move
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.judge import judge_moves
from boardlab.pegs.pegged.bounds import walk_bound_and_reason
from boardlab.pegs.pegged.exact import exact_search
from boardlab.pegs.pegged.greedy import greedy_moves
from boardlab.pegs.rules import Position

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from boardlab.pegs.pegged.search import Tables

__all__ = [
    "EXACT_HOLES",
    "BeamWeights",
    "PeggedNoAnswer",
    "PeggedResult",
    "PeggedSolver",
    "UnreducibleBoardError",
    "check_board",
    "load_board",
    "solve",
]

#: Polishing stops after this many rounds without a better answer.
_STALE_ROUNDS = 4
#: The beam is never narrowed below this width.
_NARROWEST_BEAM = 8
#: A beam run is started only when it is expected to fit this many times over.
_BEAM_MARGIN = 1.25
#: The positions the exact search may pop when the limit sets no node count.
_EXACT_NODES = 200_000
#: The kernel keeps ``4 * holes + 8`` candidate steps per beam state; this caps them.
_BEAM_STEPS = 4_000_000
#: Without a time or node limit, each gathering hole gets this many beam runs.
_RUNS_PER_HOLE = 4
#: Run ``k`` of a search with seed ``s`` seeds its noise with ``s * _SEED_STRIDE + k``.
_SEED_STRIDE = 1_000_003

EXACT_HOLES = 30
MIN_SIDE, MAX_ROWS, MAX_COLS = 3, 25, 49


@dataclass(frozen=True, slots=True)
class PeggedResult:
    """A solution and its evidence; ``reason`` says in words what it scores and how it
    is proven, ``method`` names the solver and ``goal`` the PEGGED goal."""

    #: The solver, the goal and the answer (always a solution), named in ``as_dict``.
    method: ClassVar[str] = "PEGGED optimiser (boardlab.pegs.pegged)"
    goal: ClassVar[str] = "one peg anywhere (PEGGED rules)"
    solved: ClassVar[bool] = True

    moves: tuple[Move, ...]
    walks: int
    jumps: int
    last_peg: Cell
    tiebreak: int
    #: the proven lower bound on the number of moves
    bound: int
    #: True when the moves meet the bound (the answer is optimal)
    proven: bool
    proof: str
    runs: int
    seconds: float
    seed: int
    #: positions the exact search popped plus states the beams expanded (each beam run
    #: counts at least its width)
    nodes: int = 0

    @property
    def moves_count(self) -> int:
        """The PEGGED score: walks plus jumps."""
        return len(self.moves)

    @property
    def gap(self) -> int:
        """Moves above the proven lower bound."""
        return self.moves_count - self.bound

    @property
    def reason(self) -> str:
        """The answer in words: its moves and walks, and whether it is optimal (by which
        proof) or how far the proven lower bound is."""
        if not self.moves:
            return "one peg left"
        text = f"{counted(self.moves_count, 'move')} ({counted(self.walks, 'walk')})"
        if self.proven:
            return f"{text}, optimal ({self.proof})"
        return f"{text}, proven lower bound {self.bound}"

    def as_dict(self) -> dict[str, object]:
        """The score and its evidence as JSON-ready values, and the moves as PEGGED
        ``FROM TO`` lines (``solution``); ``solved`` (always true), ``goal``, ``reason``
        and ``method`` as :class:`PeggedNoAnswer` gives them."""
        return {
            "solved": self.solved,
            "goal": self.goal,
            "moves": self.moves_count,
            "jumps": self.jumps,
            "walks": self.walks,
            "last_peg": str(self.last_peg),
            "tiebreak": self.tiebreak,
            "bound": self.bound,
            "gap": self.gap,
            "proven": self.proven,
            "proof": self.proof or None,
            "runs": self.runs,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "seed": self.seed,
            "solution": [f"{move.src} {move.dst}" for move in self.moves],
            "reason": self.reason,
            "method": self.method,
        }


@dataclass(frozen=True, slots=True)
class PeggedNoAnswer:
    """No solution from the PEGGED optimiser, and why: ``proven`` when the board cannot be
    reduced to one peg (the ``reason`` is the proof), else the limit ran out first.
    :meth:`PeggedSolver.solve` raises its :meth:`error`; :meth:`PeggedSolver.answer`
    returns it.

    The evidence: ``nodes`` as :class:`PeggedResult` counts them, ``seconds``, ``bound``
    None (no score)."""

    method: ClassVar[str] = PeggedResult.method
    goal: ClassVar[str] = PeggedResult.goal
    solved: ClassVar[bool] = False

    proven: bool
    reason: str
    nodes: int
    seconds: float

    @property
    def bound(self) -> None:
        """None: no answer, no score to bound."""
        return None

    def error(self) -> BoardlabError:
        """The error :meth:`PeggedSolver.solve` raises: a :class:`NoSolutionError` with the
        proof, or a :class:`LimitExceededError`."""
        if self.proven:
            return NoSolutionError(self.reason)
        return LimitExceededError(self.reason)

    def as_dict(self) -> dict[str, object]:
        """The fields of :meth:`PeggedResult.as_dict` that an answer without moves has."""
        return {
            "solved": self.solved,
            "goal": self.goal,
            "moves": 0,
            "bound": self.bound,
            "proven": self.proven,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "solution": [],
            "reason": self.reason,
            "method": self.method,
        }


def load_board(text: str, source: str = "<board>") -> Position:
    """A PEGGED board file, parsed and checked (walks allowed in the position).

    :raises ParseError: for a malformed file or a board PEGGED does not allow, with
        its file, line and column.
    """
    position = parse_board_file(text, source=source)
    check_board(position, source)
    return Position(position.board, position.bits, walks=True)


class UnreducibleBoardError(ParseError, NoSolutionError):
    """A board file that provably cannot be reduced to one peg: a fault of the input
    (with its line and column) and a proof that there is no solution."""


def check_board(position: Position, source: str = "<board>") -> None:
    """Check the PEGGED rules of a board beyond its file format.

    Rows odd in 3..25 and columns odd in 3..49; at least one peg; the centre is a
    hole; every peg in one connected region of holes; with two pegs or more, an
    empty hole and three holes in a line in that region.

    :raises ParseError: naming the file, line and column of the fault.
    """
    board = position.board
    rows, cols = board.rows, board.cols
    if rows % 2 == 0 or not MIN_SIDE <= rows <= MAX_ROWS:
        raise ParseError(
            f"{rows} rows: PEGGED boards have an odd number of rows, {MIN_SIDE} to {MAX_ROWS}",
            source=source,
            line=rows,
            column=1,
        )
    if cols % 2 == 0 or not MIN_SIDE <= cols <= MAX_COLS:
        raise ParseError(
            f"{cols} columns: PEGGED boards have an odd number of columns, "
            f"{MIN_SIDE} to {MAX_COLS}",
            source=source,
            line=1,
            column=cols,
        )
    if position.peg_count == 0:
        raise ParseError("the board has no pegs (X)", source=source, line=1, column=1)
    centre = Cell(rows // 2, cols // 2)
    if not board.has_hole(centre):
        raise ParseError(
            f"the centre {centre} is not a hole (PEGGED boards have a hole in the centre)",
            source=source,
            line=centre.row + 1,
            column=centre.col + 1,
        )
    if position.peg_count == 1:
        return
    pegs = position.pegs
    region = _region(position, board.index(pegs[0]))
    for peg in pegs[1:]:
        if board.index(peg) not in region:
            raise UnreducibleBoardError(
                f"cannot be reduced to one peg: the peg at {peg} can never meet the peg at "
                f"{pegs[0]} (no path of holes joins them)",
                source=source,
                line=peg.row + 1,
                column=peg.col + 1,
            )
    first = pegs[0]
    if all(position.bits >> i & 1 for i in region):
        raise UnreducibleBoardError(
            "cannot be reduced to one peg: no empty hole to move into",
            source=source,
            line=first.row + 1,
            column=first.col + 1,
        )
    if not any(a in region for a, _, _ in board.grid.jumps):
        raise UnreducibleBoardError(
            "cannot be reduced to one peg: no three holes in a line to jump along",
            source=source,
            line=first.row + 1,
            column=first.col + 1,
        )


def _region(position: Position, start: int) -> set[int]:
    neighbours = position.board.grid.neighbours
    seen = {start}
    queue = deque([start])
    while queue:
        x = queue.popleft()
        for y in neighbours[x]:
            if y >= 0 and y not in seen:
                seen.add(y)
                queue.append(y)
    return seen


Progress = Callable[[int, int, float], None]


@dataclass(frozen=True, slots=True)
class BeamWeights:
    """How the PEGGED beam ranks its states (``_pegged_kernel.beam`` documents each term).

    A child's rank is ``walk * walks + heuristic + noise``; the heuristic charges ``far``
    for a peg with no peg within distance two, ``lonely`` for a peg with no orthogonal
    neighbour, ``trap`` for a peg on a hole no jump uses, ``centre`` per step of each
    peg's walk to the gathering hole, ``component`` and ``tree`` for scattered groups
    (the latter once at most ``tree_pegs`` remain) and the pegs' spread once at most
    ``spread_pegs`` remain. ``noise`` (uniform in ``0..noise``) diversifies restarts.
    """

    slack: int = 0
    eager: int = 0
    noise: int = 0
    walk: int = 1000
    far: int = 600
    lonely: int = 150
    trap: int = 1500
    centre: int = 100
    component: int = 1000
    tree: int = 1000
    tree_pegs: int = 16
    spread_pegs: int = 100


#: Noise of the restarts after every gathering hole has had its first run.
RESTART_NOISE = 100
#: The pull to the centre while polishing an answer that meets the walk bound.
POLISH_CENTRE = 300


class PeggedSolver:
    """The anytime PEGGED optimiser, handed its limit and seed (DESIGN: injected search).

    ``progress(moves, lower_bound, elapsed)`` is called on every improvement; ``weights``
    rank the beam's states.
    """

    def __init__(
        self,
        limit: Limit | None = None,
        seed: int = 0,
        *,
        exact_holes: int = EXACT_HOLES,
        max_width: int = 4096,
        progress: Progress | None = None,
        weights: BeamWeights | None = None,
    ) -> None:
        self.limit = limit if limit is not None else Limit(time=60.0)
        self.seed = seed
        self.exact_holes = exact_holes
        self.max_width = max_width
        self.progress = progress
        self.weights = weights if weights is not None else BeamWeights()

    def solve(self, position: Position) -> PeggedResult:
        """The best answer found within the limit, judge-checked.

        :raises NoSolutionError: when the board provably cannot be reduced to one peg.
        :raises LimitExceededError: when no answer was found within the limit.
        """
        found = self._search(position)
        if isinstance(found, PeggedNoAnswer):
            raise found.error()
        return found

    def answer(self, position: Position) -> PeggedResult | PeggedNoAnswer:
        """As :meth:`solve`, with no answer a result too: the proof that there is none
        (also a board :func:`check_board` finds unreducible; a board that is no contest
        board is still searched) or the limit that ran out."""
        began = time.perf_counter()
        try:
            check_board(Position(position.board, position.bits))
        except UnreducibleBoardError as exc:
            return PeggedNoAnswer(True, exc.message, 0, time.perf_counter() - began)
        except ParseError:
            pass  # not a contest board (e.g. no hole in the centre): the search still runs
        return self._search(position)

    def _search(self, position: Position) -> PeggedResult | PeggedNoAnswer:
        budget = self.limit.start()
        start = Position(position.board, position.bits, walks=True)
        pegs = start.peg_count
        if pegs == 0:
            return PeggedNoAnswer(True, "the board has no pegs", 0, budget.elapsed)
        bound_walks, proof = walk_bound_and_reason(start)
        best: tuple[int, int, tuple[Move, ...]] | None = None
        runs = nodes = 0
        exact = False

        def consider(moves: list[Move] | tuple[Move, ...]) -> bool:
            nonlocal best
            verdict = judge_moves(start, moves)
            if not verdict.solved or verdict.tiebreak is None:
                return False
            key = (verdict.walks, verdict.tiebreak, tuple(moves))
            if best is None or key[:2] < best[:2]:
                best = key
                if self.progress is not None:
                    self.progress(len(moves), pegs - 1 + bound_walks, budget.elapsed)
            return True

        if pegs == 1:
            consider(())
        elif start.board.size <= self.exact_holes:
            remaining = budget.remaining
            deadline = None if remaining is None else time.perf_counter() + remaining / 3
            cap = min(_EXACT_NODES, self.limit.nodes or _EXACT_NODES)
            answer = exact_search(start, cap, deadline=deadline)
            nodes = cap if answer is None else answer.nodes
            if answer is not None:
                if answer.moves is None:
                    reason = (
                        f"the board cannot be reduced to one peg "
                        f"(exhaustive search of {answer.nodes} positions)"
                    )
                    return PeggedNoAnswer(True, reason, answer.nodes, budget.elapsed)
                consider(answer.moves)
                assert answer.walks is not None
                bound_walks = max(bound_walks, answer.walks)
                proof = "exhaustive search"
                exact = True
        if not exact and (best is None or best[0] > bound_walks or best[1] > 0):
            runs, nodes = self._beam_runs(start, budget, nodes, bound_walks, consider, lambda: best)
        if best is None:
            greedy = greedy_moves(start)
            if greedy is not None:
                consider(greedy)
        if best is None:
            reason = "no way to one peg was found within the limit"
            return PeggedNoAnswer(False, reason, nodes, budget.elapsed)
        walks, tiebreak, moves = best
        return PeggedResult(
            moves=moves,
            walks=walks,
            jumps=pegs - 1,
            last_peg=_last_peg(start, moves),
            tiebreak=tiebreak,
            bound=pegs - 1 + bound_walks,
            proven=walks == bound_walks,
            proof=proof if walks == bound_walks else "",
            runs=runs,
            seconds=budget.elapsed,
            seed=self.seed,
            nodes=nodes,
        )

    def _beam_runs(
        self,
        start: Position,
        budget: Budget,
        nodes: int,
        bound_walks: int,
        consider: Callable[[list[Move]], bool],
        current: Callable[[], tuple[int, int, tuple[Move, ...]] | None],
    ) -> tuple[int, int]:
        """Beam runs until the budget ends or the answer cannot improve: ``(runs, nodes)``
        (``nodes`` counts on from the given number)."""
        import numpy as np

        from boardlab.pegs.pegged.search import replay, tables_for

        board = start.board
        tables = tables_for(board)
        cells = np.array([start.bits >> i & 1 for i in range(board.size)], dtype=np.uint8)
        if not _KERNEL.ready(cells, tables, budget.remaining):
            return 0, nodes
        targets = _gathering_holes(start, tables.trapped.tolist(), self.seed)
        pulls = [tables.pull if t < 0 else tables.pull_to(t) for t in targets]
        widest = max(_NARROWEST_BEAM, min(self.max_width, _BEAM_STEPS // (4 * board.size + 8)))
        width = _NARROWEST_BEAM
        runs = 0
        seconds_per_width = 0.0
        stale = 0
        unbounded = budget.limit.time is None and budget.limit.nodes is None
        while not budget.exhausted(nodes):
            best = current()
            polishing = best is not None and best[0] <= bound_walks
            if polishing and best is not None and (best[1] == 0 or stale >= _STALE_ROUNDS):
                break
            remaining = budget.remaining
            if runs > 0 and remaining is not None:
                while (
                    width > _NARROWEST_BEAM and _BEAM_MARGIN * seconds_per_width * width > remaining
                ):
                    width //= 2
                if _BEAM_MARGIN * seconds_per_width * width > remaining:
                    break
            if unbounded and runs >= _RUNS_PER_HOLE * len(targets):
                break
            pull = tables.pull if polishing else pulls[runs % len(targets)]
            w = replace(
                self.weights,
                noise=self.weights.noise if runs < len(targets) else RESTART_NOISE,
                centre=POLISH_CENTRE if polishing else self.weights.centre,
            )
            began = time.perf_counter()
            steps, walks, expanded = _run_beam(
                cells, tables, pull, width, self.seed * _SEED_STRIDE + runs, w
            )
            took = time.perf_counter() - began
            seconds_per_width = max(seconds_per_width * 0.5, took / width)
            runs += 1
            nodes += max(expanded, width)  # a run sets up ``width`` states however short
            if walks >= 0:
                try:
                    moves = replay(board, start.bits, steps, tables.nbr)
                except BoardlabError:
                    moves = []
                before = current()
                consider(moves)
                after = current()
                improved = after is not None and (before is None or after[:2] < before[:2])
                stale = 0 if improved else stale + 1
            if polishing or runs % len(targets) == 0:
                width = min(widest, width * 2)
        return runs, nodes


class _KernelLoader:
    """Loads the beam kernel on a daemon thread, compiling it when numba's cache is
    cold (seconds), so that a solver whose time runs out first need not wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def ready(self, cells: npt.NDArray[np.uint8], tables: Tables, seconds: float | None) -> bool:
        """True once the kernel is loaded, waiting at most ``seconds`` (None: no bound)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._load, args=(cells, tables), name="pegged-kernel", daemon=True
                )
                self._thread.start()
        return self._done.wait(seconds)

    def _load(self, cells: npt.NDArray[np.uint8], tables: Tables) -> None:
        try:
            _run_beam(cells, tables, tables.pull, 1, 0, BeamWeights())
        finally:
            self._done.set()


_KERNEL = _KernelLoader()


def warm_up(position: Position) -> float:
    """Load the beam kernel, compiling it when numba's cache is cold, and wait for it:
    the seconds that took. A caller with a clock of its own (``boardlab demo``) calls it
    first, so that the solver's time goes to the search; any board of the contest's
    form serves (the kernel is the same for every board)."""
    import numpy as np

    from boardlab.pegs.pegged.search import tables_for

    began = time.perf_counter()
    tables = tables_for(position.board)
    cells = np.array([position.bits >> i & 1 for i in range(position.board.size)], dtype=np.uint8)
    _KERNEL.ready(cells, tables, None)
    return time.perf_counter() - began


def _run_beam(
    cells: npt.NDArray[np.uint8],
    tables: Tables,
    pull: npt.NDArray[np.int32],
    width: int,
    seed: int,
    w: BeamWeights,
) -> tuple[npt.NDArray[np.int32], int, int]:
    """One run of the beam kernel: ``(steps, walks, expanded)``."""
    from boardlab.pegs.pegged._kernel import beam

    return beam(
        cells, tables.nbr, tables.near, tables.trapped, tables.centre_distance, pull,
        tables.keys, width, seed, w.slack, w.eager, w.noise, w.walk, w.far, w.lonely,
        w.trap, w.centre, tables.rows, tables.cols, w.component, w.tree, w.tree_pegs,
        w.spread_pegs,
    )  # fmt: skip


def _gathering_holes(start: Position, trapped: list[int], seed: int) -> list[int]:
    """Holes the pegs are drawn to, one per restart: -1 (the centre) first, then the
    trapped pegs' holes, the hole nearest the pegs' centre of mass, random pegs."""
    import random

    board = start.board
    pegs = [board.index(cell) for cell in start.pegs]
    chosen: list[int] = [-1]
    chosen.extend(i for i in pegs if trapped[i])
    cells = board.grid.cells
    mean_row = sum(cells[i][0] for i in pegs) / len(pegs)
    mean_col = sum(cells[i][1] for i in pegs) / len(pegs)
    chosen.append(
        min(
            range(board.size),
            key=lambda i: abs(cells[i][0] - mean_row) + abs(cells[i][1] - mean_col),
        )
    )
    rng = random.Random(seed)
    chosen.extend(rng.sample(pegs, min(4, len(pegs))))
    unique: list[int] = []
    for hole in chosen:
        if hole not in unique:
            unique.append(hole)
    return unique[:10]


def _last_peg(start: Position, moves: tuple[Move, ...]) -> Cell:
    position = start.copy()
    for move in moves:
        position.push(move)
    return position.pegs[0]


def solve(position: Position, limit: Limit | None = None, seed: int = 0) -> PeggedResult:
    """Shorthand for ``PeggedSolver(limit, seed).solve(position)``.

    :raises NoSolutionError: when no answer exists (with the proof).
    :raises LimitExceededError: when none was found within the limit.
    """
    return PeggedSolver(limit, seed).solve(position)
