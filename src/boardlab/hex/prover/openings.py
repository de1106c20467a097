"""Prover layer: every first move of the empty board proven, resumably, on an engine's workers.

The opening on cell c is the position after black's (player 1's) stone on c, white to
move. A run proves one opening of each pair the 180-degree turn relates (the turn maps
the board and both players' edges to themselves, so an opening and its twin have the
same winner, and a winning reply turns with them), each as one task on an
:class:`~boardlab.core.tasks.Engine`: in this process, on local worker processes or on
a Ray cluster, whatever the caller built.

Everything lives in a work folder:

- ``openings/<cell>.json``: one opening's result (HexGui's cell name), written whole by
  the task that proved it as soon as it finishes (a temporary file renamed), so a run
  stopped at any moment loses no finished opening and a new run on the same folder
  proves only what is missing (an opening the limits stopped is tried again);
- ``store/*.npz``: the shared store of proven positions. A task first reads the files
  its worker has not read yet, then searches, then adds a file of the positions it
  proved (never rewriting another's): every worker reads and extends one store;
- ``proofs/<cell>.json.gz``: the opening's proof tree, when asked for
  (:mod:`boardlab.hex.prover.prooftree`; :mod:`boardlab.hex.proofcheck` replays it);
- ``run.json``: the board size, so a folder is never resumed for another board.

An opening in an acute corner (the corner cell with two neighbours) is first searched
with black's next cell along black's edge given to black too (:func:`handicap`): extra
stones never help their owner's opponent, so white's win there is white's win in the
opening, with the same winning reply, and the search needs about half the positions
(8x8 a1: 87,872 against 171,902). Should black win with the extra stone, the opening is
searched as it is.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from boardlab.core.errors import BoardlabError
from boardlab.core.folders import check_folder, make_folder
from boardlab.core.limits import Limit
from boardlab.core.tasks import Engine, LocalEngine
from boardlab.hex.board import (
    centre_order,
    edge_lines,
    neighbours,
    reverse_bits,
    rotated,
    vertex,
    vertex_index,
)
from boardlab.hex.rules import BLACK, WHITE

if TYPE_CHECKING:
    from boardlab.hex.prover.dfpn import Dfpn

__all__ = [
    "OpeningResult",
    "OpeningsRun",
    "handicap",
    "opening_cells",
    "prove_opening",
    "published_winners",
    "run_openings",
    "write_table",
]

#: The largest board whose openings are proven (the two-word DFPN's; past 8x8 each
#: opening is one worker's search, with the store of proofs shared).
MAX_SIZE = 11
RESULT_FORMAT = 1
#: The neighbours of an acute corner's cell (an obtuse corner's has three).
_ACUTE_CORNER = 2
#: The proof tree of one opening is given up past this many nodes.
MAX_PROOF_NODES = 2_000_000


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """One opening: black's first stone on ``opening`` (a cell index), white to move.

    ``winner`` (1 or 2; None when the limits stopped the search first), white's
    ``reply`` (a winning move when white wins, else None), ``seconds`` and ``nodes``
    (positions the search analysed, the store's positions not counted) of the task,
    ``stopped`` ("limit" or "memory" when unproven), ``proof`` (the proof file's name in
    the work folder, None if none was asked for or it could not be made) and
    ``proof_nodes``, ``proof_note`` (why there is none), ``twin`` (the rotated cell),
    ``searched`` (the cell whose search this is: the opening's own or its twin's) and
    ``given`` (the cells black was given more in the search that proved it, as bits: see
    :func:`handicap`)."""

    size: int
    opening: int
    searched: int
    winner: int | None
    reply: int | None
    seconds: float
    nodes: int
    stopped: str | None = None
    proof: str | None = None
    proof_nodes: int = 0
    proof_note: str | None = None
    given: int = 0

    @property
    def twin(self) -> int:
        """The cell the 180-degree turn takes the opening to."""
        return rotated(self.opening, self.size)

    @property
    def proven(self) -> bool:
        """True when the winner is proven."""
        return self.winner is not None

    def turned(self) -> OpeningResult:
        """The twin opening's result, read from this one by the turn."""
        reply = None if self.reply is None else rotated(self.reply, self.size)
        given = reverse_bits(self.size * self.size)(self.given)
        return replace(self, opening=self.twin, reply=reply, given=given)

    def given_cells(self) -> list[str]:
        """HexGui's names of the cells in :attr:`given`."""
        n = self.size
        return [vertex(c, n) for c in range(n * n) if self.given >> c & 1]

    def as_dict(self) -> dict[str, object]:
        """JSON-ready values, cells named as HexGui does."""
        n = self.size
        return {
            "opening": vertex(self.opening, n),
            "twin": vertex(self.twin, n),
            "searched": vertex(self.searched, n),
            "by_symmetry": self.searched != self.opening,
            "to_move": 2,
            "winner": self.winner,
            "reply": None if self.reply is None else vertex(self.reply, n),
            "proven": self.proven,
            "stopped": self.stopped,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proof": self.proof,
            "proof_nodes": self.proof_nodes,
            "proof_note": self.proof_note,
            "given": self.given_cells(),
        }

    @classmethod
    def from_dict(cls, size: int, data: dict[str, Any]) -> OpeningResult:
        """The result :meth:`as_dict` wrote.

        :raises BoardlabError: when ``data`` is not such a result.
        """
        try:
            reply = data["reply"]
            result = cls(
                size,
                vertex_index(data["opening"], size),
                vertex_index(data["searched"], size),
                data["winner"],
                None if reply is None else vertex_index(reply, size),
                float(data["seconds"]),
                int(data["nodes"]),
                data["stopped"],
                data["proof"],
                int(data["proof_nodes"]),
                data["proof_note"],
                sum(1 << vertex_index(name, size) for name in data.get("given", [])),
            )
        except (KeyError, TypeError, ValueError, BoardlabError):
            raise BoardlabError("not an opening's result") from None
        if result.winner not in (None, 1, 2):
            raise BoardlabError("not an opening's result (bad winner)")
        return result


def opening_cells(size: int, only: Iterable[int] | None = None) -> list[int]:
    """One cell of each pair the 180-degree turn relates (the lower index; the centre
    of an odd board is its own twin), nearest the centre first; with ``only``, those of
    the pairs of these cells."""
    cells = [cell for cell in centre_order(size) if cell <= rotated(cell, size)]
    if only is None:
        return cells
    asked = {min(cell, rotated(cell, size)) for cell in only}
    return [cell for cell in cells if cell in asked]


def published_winners(size: int) -> tuple[dict[int, int], str]:
    """The published winner of every opening of a ``size`` board (cell index -> 1 or
    2, twins included) and where it was published; empty when none is known here."""
    text = resources.files("boardlab.hex.data").joinpath("openings_published.json").read_text()
    table = json.loads(text).get(str(size))
    if table is None:
        return {}, ""
    winners: dict[int, int] = {}
    for name, winner in table["winners"].items():
        cell = vertex_index(name, size)
        winners[cell] = winners[rotated(cell, size)] = int(winner)
    return winners, str(table["source"])


# -- the task ----------------------------------------------------------------------------


def prove_opening(
    workdir: str,
    size: int,
    cell: int,
    seconds: float | None,
    deadline: float | None,
    memory: int | None,
    proofs: bool,
) -> dict[str, object]:
    """Prove the opening on ``cell`` (a task: a worker runs it), write its result file
    and its proof if asked, add what it proved to the store; the result's
    :meth:`~OpeningResult.as_dict`.

    ``seconds`` is the opening's own limit, ``deadline`` (a ``time.time()`` value) the
    whole run's: a task that starts past it returns unproven at once.
    """
    from boardlab.hex.prover.dfpn import OutOfBudgetError
    from boardlab.hex.prover.prooftree import ProofTooLargeError, build_proof, write_proof
    from boardlab.hex.prover.verdicts import warm
    from boardlab.hex.prover.workers import forget, kept_search, publish

    warm()
    folder = Path(workdir)
    started = time.monotonic()
    left = None if deadline is None else deadline - time.time()
    allowed = left if seconds is None else (seconds if left is None else min(seconds, left))
    if allowed is not None and allowed <= 0:
        result = OpeningResult(size, cell, cell, None, None, 0.0, 0, "limit")
        return result.as_dict()
    worker = kept_search(folder, size, Limit(time=allowed), memory)
    search = worker.search
    before = search.analysed
    black, name = 1 << cell, vertex(cell, size)
    winner: int | None = None
    reply: int | None = None
    proof_file: str | None = None
    proof_nodes = 0
    note: str | None = None
    given = handicap(size, cell)
    try:
        if given and search.prove(black | given, 0, WHITE):
            searched = black | given  # white wins even so: the opening is white's
            winner = WHITE
        else:
            given = 0
            searched = black
            winner = WHITE if search.prove(black, 0, WHITE) else BLACK
        if winner == WHITE:
            reply = _winning_reply(search, searched)
        if proofs:
            try:
                proof = build_proof(search, searched, 0, WHITE, winner, MAX_PROOF_NODES, reply)
            except ProofTooLargeError:
                note = f"the proof tree passed {MAX_PROOF_NODES} nodes"
            else:
                proof_file = f"proofs/{name}.json.gz"
                make_folder(folder / "proofs")
                write_proof(without_handicap(proof, given), folder / proof_file)
                proof_nodes = len(proof["nodes"])
    except OutOfBudgetError:
        if winner is not None:
            note = "the limits stopped the proof tree"
    stopped = search.stopped if winner is None else None
    if stopped == "memory":  # a search past its memory budget starts afresh next time
        forget(folder, size)
    publish(worker, folder, name)
    result = OpeningResult(
        size,
        cell,
        cell,
        winner,
        reply,
        time.monotonic() - started,
        search.analysed - before,
        stopped,
        proof_file,
        proof_nodes,
        note,
        given if winner is not None else 0,
    )
    _write_json(folder / "openings" / f"{name}.json", {"format": RESULT_FORMAT, **result.as_dict()})
    return result.as_dict()


def handicap(size: int, cell: int) -> int:
    """The cells black is given beside its stone on ``cell`` for the first search of the
    opening (as bits; 0 for none): when ``cell`` is an acute corner (two neighbours on
    the board), black's next cell along its own edge. MoHex fills that cell for black
    (one of its permanently inferior cells); here it is only a handicap for black, so
    nothing rests on its being inferior."""
    near = neighbours(size)[cell]
    if len(near) != _ACUTE_CORNER:
        return 0
    own = [set(line) for line in edge_lines(size)[:2] if cell in line]
    for other in near:
        if any(other in line for line in own):
            return 1 << other
    return 0


def without_handicap(proof: dict[str, Any], given: int) -> dict[str, Any]:
    """``proof`` (white wins the opening with ``given`` black stones more) as a proof of
    the opening itself: the root without those stones. No node keeps them (they are not
    empty in any of its positions), so the checker gives them to the loser, black, at
    every node (:mod:`boardlab.hex.proofcheck`), which is the position proven."""
    root = dict(proof["root"])
    root["black"] = root["black"] & ~given
    return {**proof, "root": root}


def _winning_reply(search: Dfpn, black: int) -> int:
    """White's winning move after black's stone ``black`` (proven won for white)."""
    found = search.winning_child(black, 0, 2)
    if found is not None and not found & black:
        return found.bit_length() - 1
    for cell in search.centre_order:
        if not black >> cell & 1 and not search.prove(black, 1 << cell, 1):
            return cell
    raise BoardlabError("the search finds no winning reply in an opening it proved won")


def write_table(path: Path, table: dict[str, object]) -> None:
    """Write a run's table (:meth:`OpeningsRun.as_dict`, with what the caller adds) to
    ``path`` as JSON, whole or not at all.

    :raises BoardlabError: when the file cannot be written.
    """
    _write_json(path, table)


def _write_json(path: Path, data: object) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file renamed)."""
    temporary = path.with_name(path.name + ".partial")
    try:
        temporary.write_text(json.dumps(data, indent=1) + "\n")
        os.replace(temporary, path)
    except OSError as error:
        raise BoardlabError(f"{path}: cannot write ({error.strerror})") from None


# -- the run ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningsRun:
    """Every opening of a ``size`` board, in cell order (twins read by the turn), with
    the published winners where known (``published``, cell -> winner; ``source``)."""

    size: int
    results: tuple[OpeningResult, ...]
    published: dict[int, int]
    source: str
    seconds: float

    @property
    def complete(self) -> bool:
        """Is every opening proven?"""
        return len(self.results) == self.size * self.size and all(r.proven for r in self.results)

    def mismatches(self) -> list[OpeningResult]:
        """The proven openings whose winner differs from the published one."""
        return [
            r
            for r in self.results
            if r.proven and r.opening in self.published and self.published[r.opening] != r.winner
        ]

    def as_dict(self) -> dict[str, object]:
        """The table as JSON-ready values."""
        rows = []
        for r in self.results:
            row = r.as_dict()
            known = self.published.get(r.opening)
            row["published"] = known
            row["agrees"] = None if known is None or not r.proven else known == r.winner
            rows.append(row)
        return {
            "size": self.size,
            "question": "black (player 1) has put a stone on the opening cell; white (player "
            "2) to move: who wins, and for white a winning reply",
            "symmetry": "the 180-degree turn: one opening of each pair is searched "
            "(by_symmetry marks the twins read from it, their reply turned too)",
            "complete": self.complete,
            "proven": sum(r.proven for r in self.results),
            "openings": len(self.results),
            "black_wins": sum(r.winner == BLACK for r in self.results),
            "white_wins": sum(r.winner == WHITE for r in self.results),
            "published_source": self.source or None,
            "mismatches": [vertex(r.opening, self.size) for r in self.mismatches()],
            "seconds": round(self.seconds, 3),
            "table": rows,
        }


def _prepare(workdir: Path, size: int) -> None:
    """Make the work folder's parts; refuse a folder of another board size."""
    if not workdir.is_dir():
        raise BoardlabError(f"{workdir}: no such folder")
    parts = ("openings", "store", "proofs")
    for part in parts:  # checked before anything is written
        check_folder(workdir / part)
    run_file = workdir / "run.json"
    if run_file.exists():
        try:
            recorded = json.loads(run_file.read_text())["size"]
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            raise BoardlabError(f"{run_file}: not a Hex openings run record") from None
        if recorded != size:
            raise BoardlabError(
                f"{workdir} holds the openings of {recorded}x{recorded}, not {size}x{size}"
            )
    else:
        _write_json(run_file, {"game": "hex", "run": "openings", "size": size})
    for part in parts:
        make_folder(workdir / part)


def finished(workdir: Path, size: int) -> dict[int, OpeningResult]:
    """The results already in the work folder, by opening cell.

    :raises BoardlabError: for a result file that is not one.
    """
    found: dict[int, OpeningResult] = {}
    for path in sorted((workdir / "openings").glob("*.json")):
        try:
            data = json.loads(path.read_text())
            result = OpeningResult.from_dict(size, data)
        except (OSError, ValueError, RecursionError, BoardlabError):
            raise BoardlabError(f"{path}: not an opening's result") from None
        found[result.opening] = result
    return found


def run_openings(
    size: int,
    workdir: Path,
    engine: Engine | None = None,
    seconds: float | None = None,
    total: float | None = None,
    memory: int | None = None,
    proofs: bool = False,
    done: Callable[[OpeningResult, int, int], None] | None = None,
    only: list[int] | None = None,
) -> OpeningsRun:
    """Prove every opening of the empty ``size`` board not proven in ``workdir`` yet
    (with ``only``, those of these cells and their twins).

    Each opening of each rotated pair is a task on ``engine`` (default: this process)
    with ``seconds`` of its own and the run's ``total`` (both None: no limit),
    ``memory`` bytes of growth per worker's search (default: most of what is free),
    its proof tree written when ``proofs``. ``done(result, finished, of)`` is told of
    each opening as its task comes back.

    :raises BoardlabError: for a board outside 1..11, a cell off the board, a missing
        folder, a folder of another board size or a damaged result file.
    """
    if not 1 <= size <= MAX_SIZE:
        raise BoardlabError(
            f"the openings are proven on boards 1x1 to {MAX_SIZE}x{MAX_SIZE}, not {size}x{size}"
        )
    _prepare(workdir, size)
    began = time.monotonic()
    engine = engine or LocalEngine()
    have = finished(workdir, size)
    if only is not None and any(not 0 <= cell < size * size for cell in only):
        raise BoardlabError(f"an opening cell off the {size}x{size} board")
    cells = opening_cells(size, only)
    pending = [cell for cell in cells if not (cell in have and have[cell].proven)]
    deadline = None if total is None else time.time() + total
    count = len(cells) - len(pending)
    window = 1 if isinstance(engine, LocalEngine) else 2 * max(1, engine.workers)
    for result in _in_windows(
        engine, pending, window, (str(workdir), size, seconds, deadline, memory, proofs)
    ):
        have[result.opening] = result
        count += 1
        if done is not None:
            done(result, count, len(cells))
    results: list[OpeningResult] = []
    for cell in range(size * size):
        own = have.get(cell)
        twin = have.get(rotated(cell, size))
        if own is not None:
            results.append(own)
        elif twin is not None:
            results.append(twin.turned())
    published, source = published_winners(size)
    return OpeningsRun(size, tuple(results), published, source, time.monotonic() - began)


def _in_windows(
    engine: Engine, cells: list[int], window: int, common: tuple[Any, ...]
) -> Iterator[OpeningResult]:
    """The tasks of ``cells`` on ``engine``, at most ``window`` submitted ahead, their
    results in order as they come back."""
    workdir, size, seconds, deadline, memory, proofs = common
    handles: list[Any] = []
    queue = list(cells)
    while queue or handles:
        while queue and len(handles) < window:
            cell = queue.pop(0)
            args = (workdir, size, cell, seconds, deadline, memory, proofs)
            handles.append(engine.submit(prove_opening, args))
        (value,) = engine.fetch([handles.pop(0)])
        yield OpeningResult.from_dict(size, value)
