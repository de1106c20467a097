"""Interface layer: the declared answers of the peg solitaire, Hi-Q, Ioiwari, Mars and Toxic
iShongololo endpoints (``/api/openapi.json``; the Hex ones are in
:mod:`boardlab.web.answers`).

Each struct is the JSON an endpoint answers, field for field: the server checks a
handler's answer against its struct before it sends it (:func:`boardlab.web._http.endpoint`),
so an answer and its declaration cannot drift apart (a field too many or missing is the
server's error, never an answer the document does not describe). The solvers' and
judges' answers are their results' ``as_dict()``, the command line's ``--json``, plus
what the page draws (the SVG pictures, the replayed moves).
"""

from __future__ import annotations

import msgspec
from msgspec import UNSET, UnsetType

from boardlab.pegs.pegged.solver import PeggedResult
from boardlab.pegs.solver.search import Solution
from boardlab.web.answers import Answer

__all__ = [
    "Health",
    "HiqOutput",
    "HiqSample",
    "IoiwariAnalysis",
    "IoiwariEngineMove",
    "IoiwariReviewed",
    "IoiwariState",
    "MarsJudged",
    "MarsSample",
    "MarsSolved",
    "PegsBoards",
    "PegsClasses",
    "PegsJudged",
    "PegsMoved",
    "PegsSearched",
    "PegsState",
    "ShongololoJudged",
    "ShongololoSolved",
]


class Health(Answer, kw_only=True):
    """The server is up: its version, its games, and its searches running and waiting
    for a slot."""

    ok: bool
    version: str
    games: list[str]
    running: int
    queued: int


# -- peg solitaire -----------------------------------------------------------------------------


class PegsBoard(Answer, kw_only=True):
    """A named board: its hole count and its home hole."""

    name: str
    holes: int
    home: str


class PegsBoards(Answer, kw_only=True):
    """The boards the page offers (any ``triangle-N`` in the range ``triangles`` says too)."""

    boards: list[PegsBoard]
    triangles: str


class PegsStep(Answer, kw_only=True):
    """A move: the hole it leaves, the hole it reaches, a jump or a walk."""

    src: str = msgspec.field(name="from")
    dst: str = msgspec.field(name="to")
    kind: str


class PegsLegal(PegsStep, kw_only=True):
    """A legal move and its text as the board writes it (``D2-D4``)."""

    text: str


class PegsState(Answer, kw_only=True):
    """A position: the board's holes (and their labels), the pegs, the legal moves,
    whether it is over, its board file (None for a triangle) and the SVG."""

    board: str
    triangular: bool
    holes: list[str]
    labels: list[str]
    home: str | None
    pegs: list[str]
    peg_count: int
    walks: bool
    legal: list[PegsLegal]
    over: bool
    board_file: str | None
    svg: str


class PegsMoved(PegsState, kw_only=True):
    """The position after ``played``."""

    played: PegsLegal


class PegsJumpSolution(Answer, kw_only=True, tag_field="method", tag=Solution.method):
    """The jump solver's result (``pegs solve --json``): the moves to the goal, or the
    proof that there are none (``proven`` without ``solved``), or neither when the time
    ran out; ``bound`` is always None (a yes or no)."""

    board: str
    goal: str
    solved: bool
    moves: list[str]
    reason: str
    nodes: int
    seconds: float
    proven: bool
    bound: None


class PegsPeggedSolution(Answer, kw_only=True, tag_field="method", tag=PeggedResult.method):
    """The PEGGED optimiser's result with walks (``pegged solve --json``): ``moves`` is
    the score (walks and jumps), ``solution`` the moves as ``FROM TO``; without an
    answer (``solved`` false) the counts of a solution are left out and ``bound`` is
    None."""

    solved: bool
    goal: str
    moves: int
    jumps: int | UnsetType = UNSET
    walks: int | UnsetType = UNSET
    last_peg: str | UnsetType = UNSET
    tiebreak: int | UnsetType = UNSET
    bound: int | None
    gap: int | UnsetType = UNSET
    proven: bool
    proof: str | UnsetType | None = UNSET
    runs: int | UnsetType = UNSET
    nodes: int
    seconds: float
    seed: int | UnsetType = UNSET
    solution: list[str]
    reason: str


#: ``hint`` and ``solve``: the jump solver's result, or the PEGGED optimiser's with walks
#: (told apart by ``method``).
PegsSearched = PegsJumpSolution | PegsPeggedSolution


class PegsJudged(Answer, kw_only=True):
    """The judge's verdict on a move list (``pegs judge --json``) and the moves up to the
    first bad line (``replay``)."""

    valid: bool
    solved: bool
    reason: str | None
    line: int | None
    moves: int
    jumps: int
    walks: int
    pegs_left: int
    last_peg: str | None
    score: int | None
    tiebreak: int | None
    turns: int
    summary: str
    replay: list[PegsStep]


class PegsClasses(Answer, kw_only=True):
    """The position's class (``class``), the single pegs it may end in, the starts that
    may end in one peg, and why in words."""

    position_class: str = msgspec.field(name="class")
    applies: bool
    ends: list[str]
    starts: list[str]
    possible: bool
    explanation: str


# -- Hi-Q --------------------------------------------------------------------------------------


class HiqSample(Answer, kw_only=True):
    """The statement's sample input."""

    input: str


class HiqOutput(Answer, kw_only=True):
    """The contest output, each game's sum and the trace of every jump."""

    output: str
    sums: list[int]
    trace: list[str]


# -- Ioiwari -----------------------------------------------------------------------------------


class IoiwariState(Answer, kw_only=True):
    """A game: its start, the pits sown, the pits and banks now, the side to move and its
    legal pits, the outcome (``winner`` 0 for a draw), the transcript and the SVG."""

    start: list[int]
    moves: list[int]
    pits: list[int]
    banks: list[int]
    to_move: int
    legal: list[int]
    over: bool
    winner: int | None
    result: str | None
    position: str
    transcript: str
    svg: str


class IoiwariChoice(Answer, kw_only=True):
    """The pit the perfect player sowed."""

    move: int


class IoiwariEngineMove(IoiwariState, kw_only=True):
    """The game after the perfect player's move."""

    engine: IoiwariChoice


class IoiwariMoveValue(Answer, kw_only=True):
    """A legal pit: the beads it banks and gives now and its value under perfect play."""

    pit: int
    banked: int
    given: int
    value: int


class IoiwariAnalysis(Answer, kw_only=True):
    """The position solved (``ioiwari analyze --json``): its value for the side to move,
    every move's value, the best pits and the final banks of perfect play."""

    position: str
    to_move: int
    value: int
    moves: list[IoiwariMoveValue]
    best: list[int]
    final_banks: list[int]
    proven: bool
    bound: int
    nodes: int
    seconds: float
    line: list[int] | None


class IoiwariReviewPoint(Answer, kw_only=True):
    """The game after ``ply`` moves: perfect play's final banks from there and what the
    move that led there (``pit``, by ``mover``) cost its mover."""

    ply: int
    pit: int | None
    mover: int | None
    final_banks: list[int]
    lost: int
    mistake: bool


class IoiwariReviewed(Answer, kw_only=True):
    """Every position of the game, judged."""

    points: list[IoiwariReviewPoint]


# -- Mars explorer -----------------------------------------------------------------------------


class MarsSample(Answer, kw_only=True):
    """The statement's map and its sample answer."""

    map: str
    moves: str


class MarsCertificate(Answer, kw_only=True):
    """The proof of the bound: ``bound = vehicles * levels + free_rocks``; ``groups``, the
    rocks no vehicle can visit two of (each rock a ``[row, column]``)."""

    method: str
    levels: int
    free_rocks: int
    bound: int
    group_bound: int
    groups: list[list[list[int]]]
    reduced_costs_ok: bool
    unreachable_rocks: int


class MarsRoute(Answer, kw_only=True):
    """A route (``0`` south, ``1`` east) driven by ``vehicles`` vehicles from
    ``first_vehicle`` on, and the rocks it collects first."""

    directions: str
    first_vehicle: int
    vehicles: int
    new_rocks: int


class MarsSolved(Answer, kw_only=True):
    """The optimal plan (``mars solve --json``), its proof, the answer text (None when
    too long to send) and the routes drawn."""

    width: int
    height: int
    vehicles: int
    rocks: int
    reachable: bool
    max_rocks: int
    best: int
    method: str | None
    proven: bool
    bound: int | None
    nodes: int
    arcs: int
    certificate: MarsCertificate | None
    routes: list[MarsRoute]
    steps: int
    seconds: float
    moves: str | None
    svg: str


class MarsJudged(Answer, kw_only=True):
    """The judge's verdict (``mars judge --json``), its report in lines and the routes
    of a legal answer drawn (else None)."""

    legal: bool
    reason: str | None
    line: int | None
    steps: int
    delivered: int
    arrived: int
    not_arrived: int
    score: int
    best: int | None
    percent: float | None
    report: list[str]
    svg: str | None


# -- Toxic iShongololo -------------------------------------------------------------------------


class ShongololoRun(Answer, kw_only=True):
    """A run for the 3D view: the box ``[L, W, H]``, the blocks moved through in order
    (``spine``), those eaten but never entered (``leaves``), where it stopped (``head``);
    blocks are ``[x, y, z]`` from 1."""

    box: list[int]
    spine: list[list[int]]
    leaves: list[list[int]]
    head: list[int] | None


class ShongololoSolved(Answer, kw_only=True):
    """The solver's run (``shongololo solve --json``), its answer text, the layers as
    text and as SVG, and the run."""

    box: list[int]
    blocks: int
    eaten: int
    moves: int
    bound: int
    ratio: float
    density: float
    proven: bool
    method: str
    nodes: int
    seconds: float
    seed: int
    answer: str
    layers: str
    svg: str
    run: ShongololoRun


class ShongololoJudged(Answer, kw_only=True):
    """The judge's verdict (``shongololo judge --json``; ``score`` in percent of the best
    known count, None without one) and what the answer ate up to its first broken rule."""

    box: list[int]
    valid: bool
    reason: str | None
    line: int | None
    eaten: int
    points: int
    moves: int
    finished: bool
    bound: int
    score: float | None
    summary: str
    svg: str
    run: ShongololoRun
