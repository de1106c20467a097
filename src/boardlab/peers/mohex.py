"""Interface layer: MoHex 2.0 (Benzene) over GTP, as a referee's player and as a prover.

MoHex is not a Python package: it is built outside the repository from its public
source and its binary's path handed in. Two facts about it shape this module:

- ``genmove`` in a position MoHex has already *won* (its root proven a win) is refused
  with ``? ... invalid``; and MoHex sometimes dies in positions its fill-in shows
  *lost*. Neither is a resignation: :class:`MohexPlayer` passes the failure on to the
  referee, which asks a prover (:mod:`boardlab.hex.judge`).
- ``dfpn-solve-state COLOUR`` answers the winner of the position with COLOUR to move
  (``black``, ``white``, or ``empty`` when it could not tell): :class:`MohexProver`
  asks it in a fresh process (the one that played may have died), and
  :class:`CheckedProver` has a second prover (boardlab's own solver) confirm it.

:func:`ask_on_position` is the one way to put such a question to a fresh MoHex on the
position of a list of moves (the prover's, and the benchmarks' fill-in and timing
questions).
"""

from __future__ import annotations

import itertools
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from boardlab.core.errors import ProtocolError
from boardlab.hex.gtp import parse_vertex
from boardlab.hex.judge import Prover, Verdict
from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.gtp_process import GtpProcess

__all__ = [
    "MOHEX_ABSENT",
    "CheckedProver",
    "MohexPlayer",
    "MohexProver",
    "ask_on_position",
    "fill_in_cells",
    "mohex_binary",
    "mohex_settings",
    "running_mohex",
    "solved_winner",
    "start_mohex",
]

#: What a script says when it needs MoHex and has none.
MOHEX_ABSENT = (
    "MoHex 2.0 is absent: build it from cgao3/benzene-vanilla-cmake outside the "
    "repository and pass --mohex PATH or set $MOHEX"
)

#: MoHex's time when only its playout budget should bind (seconds).
UNBOUNDED_TIME = 600.0
#: Seconds a MoHex reply may take beyond the time it was given (start-up, fill-in).
MOHEX_GRACE = 15.0


def mohex_binary(path: str | None) -> str | None:
    """The MoHex binary's absolute path, or None when ``path`` names no file."""
    if not path or not Path(path).is_file():
        return None
    return str(Path(path).resolve())


def fill_in_cells(answer: str, size: int) -> dict[int, int]:
    """The cells a MoHex answer marks as filled in (``compute-fillin``, ``vc-build``,
    ``compute-inferior``: pairs ``cell kind``, ``fb`` and ``fw`` the fills), each with
    the colour it is filled with; the other kinds (inferior cells and such) left out."""
    colours = {"fb": BLACK, "fw": WHITE}
    return {
        parse_vertex(cell, size): colours[kind]
        for cell, kind in itertools.pairwise(answer.split())
        if kind in colours
    }


def mohex_settings(seconds: float, playouts: int | None, threads: int = 1) -> list[str]:
    """The GTP lines that set MoHex to ``seconds`` a move or ``playouts`` a move (then
    its time is unbounded), ``threads`` threads and no search on the opponent's time."""
    settings = [
        "param_mohex perform_pre_search 0",
        f"param_mohex num_threads {threads}",
        f"param_mohex max_time {UNBOUNDED_TIME if playouts else seconds}",
    ]
    if playouts is not None:
        settings.append(f"param_mohex max_games {playouts}")
    return settings


def start_mohex(binary: str, folder: str, settings: Sequence[str] = ()) -> GtpProcess:
    """MoHex over GTP in ``folder`` (it writes its log there), told nothing of time by
    the process (the caller's ``settings``, GTP lines, say what it may use).

    :raises ProtocolError: when MoHex cannot be started or refuses a setting.
    """
    process = GtpProcess([binary], timeout=60.0, grace=MOHEX_GRACE, cwd=folder, tell_time=False)
    try:
        for line in settings:
            process.command(line)
    except ProtocolError:
        process.close()  # a refused setting leaves no MoHex running
        raise
    return process


@contextmanager
def running_mohex(binary: str, settings: Sequence[str] = ()) -> Iterator[GtpProcess]:
    """A fresh MoHex (:func:`start_mohex` with ``settings``) in a temporary folder of its
    own, closed and its folder removed when the block ends.

    :raises ProtocolError: when MoHex cannot be started or refuses a setting.
    """
    with tempfile.TemporaryDirectory(prefix="boardlab-mohex-") as folder:
        process = start_mohex(binary, folder, settings)
        try:
            yield process
        finally:
            process.close()


def ask_on_position(
    binary: str,
    size: int,
    moves: Sequence[str],
    command: str,
    seconds: float,
    settings: Sequence[str] = (),
) -> tuple[str, float] | None:
    """MoHex's answer to ``command`` followed by the colour to move (``b`` or ``w``), on
    the position of ``moves`` played in turn from the empty board (black first), and the
    seconds the answer took; asked of a fresh process given ``settings`` first, in a
    temporary folder removed after it, ``seconds`` at most. None when MoHex dies,
    refuses a setting or a move, or does not answer in time."""
    try:
        with running_mohex(binary, settings) as process:
            process.new_game(size)
            for number, move in enumerate(moves):
                process.play(BLACK if number % 2 == 0 else WHITE, move)
            colour = "b" if len(moves) % 2 == 0 else "w"
            started = time.perf_counter()
            answer = process.command(f"{command} {colour}", seconds)
            return answer, time.perf_counter() - started
    except ProtocolError:
        return None


def solved_winner(answer: str) -> int | None:
    """The winner a ``dfpn-solve-state`` answer names, or None (``empty``: not solved)."""
    return {"black": BLACK, "white": WHITE}.get(answer.strip().lower())


class MohexPlayer:
    """MoHex as a referee's player, ``threads`` threads (one by default), no pre-search;
    restarted for the next game when it died in the last one (``restarts`` counts them).

    Every failure of MoHex (a refused ``genmove``, a crash) is raised as a
    :class:`ProtocolError` for the referee to adjudicate: nothing here guesses a result.
    MoHex runs in a temporary folder of its own (it writes its log there), made when a
    process starts and removed by :meth:`close`.
    """

    def __init__(self, binary: str, seconds: float, playouts: int | None, threads: int = 1) -> None:
        self.binary = binary
        self.seconds = seconds
        self.playouts = playouts
        self.threads = threads
        self.name = "mohex" if playouts is None else f"mohex-{playouts}"
        #: MoHex's working folder (it writes default.log there) while a process runs
        self.folder: str | None = None
        self.process: GtpProcess | None = None
        self.restarts = 0

    def new_game(self, size: int) -> None:
        if self.process is not None:
            try:
                self.process.new_game(size)
                return
            except ProtocolError:  # it died in the last game: start a fresh one
                self.process.close()
                self.restarts += 1
        settings = mohex_settings(self.seconds, self.playouts, self.threads)
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="boardlab-mohex-")
        self.process = start_mohex(self.binary, self.folder, settings)
        self.process.new_game(size)

    def play(self, color: int, vertex: str) -> None:
        assert self.process is not None
        self.process.play(color, vertex)

    def genmove(self, color: int, seconds: float) -> str:
        assert self.process is not None
        budget = seconds if self.playouts is None else UNBOUNDED_TIME
        return self.process.genmove(color, budget)

    def close(self) -> None:
        """End the MoHex process, if any, and remove its folder."""
        if self.process is not None:
            self.process.close()
            self.process = None
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None


class MohexProver:
    """The winner of a position by MoHex's ``dfpn-solve-state``, in a fresh process,
    within ``seconds`` (None when MoHex cannot tell in time, dies, or refuses a move);
    each process in a temporary folder removed after it."""

    def __init__(self, binary: str, seconds: float = 120.0) -> None:
        self.binary = binary
        self.seconds = seconds

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        found = ask_on_position(self.binary, size, moves, "dfpn-solve-state", self.seconds)
        winner = None if found is None else solved_winner(found[0])
        return None if winner is None else Verdict(winner, "MoHex's dfpn-solve-state")


class CheckedProver:
    """``first``'s verdict, confirmed by ``second`` where ``second`` can tell.

    Either one alone decides when the other cannot tell; when both answer and disagree
    there is no verdict (a warning goes to stderr), so such a game is void.
    """

    def __init__(self, first: Prover, second: Prover) -> None:
        self.first = first
        self.second = second

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        one = self.first(size, moves)
        two = self.second(size, moves)
        if one is None or two is None:
            return one or two
        if one.winner != two.winner:
            print(
                f"provers disagree after {' '.join(moves)}: {one.by} says {one.winner}, "
                f"{two.by} says {two.winner}",
                file=sys.stderr,
            )
            return None
        return Verdict(one.winner, f"{one.by}, confirmed by {two.by}")
