"""Interface layer: a GTP engine run as a subprocess, every reply read with a deadline.

A hung engine never hangs its caller: each reply has a deadline, a reply over
:data:`MAX_REPLY` bytes is refused, and the process is killed when it does not quit.
An engine that exits is reported one way, whichever pipe showed it first (``engine
'x' crashed (exit status 1) on 'genmove b'``); one alive but silent past the deadline
``did not answer ... in time``.

It is a :class:`boardlab.hex.judge.Player` for the Hex referee (moves as GTP vertices).
Before its first ``genmove`` of a game it is told its time a move the standard ways,
each only when the engine lists the command in ``list_commands``: ``time_settings 0
T S`` (no main time, ``T`` whole seconds for every ``S`` moves, the fraction ``T / S``
nearest the time a move: 0.25 s is ``time_settings 0 1 4``) and MoHex's ``param_mohex
max_time T`` (the exact seconds). An engine that refuses them
plays on with its own settings.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import subprocess
import time
from fractions import Fraction

from boardlab.core.errors import ProtocolError
from boardlab.hex.rules import BLACK

__all__ = ["MAX_REPLY", "MAX_STONES", "TIME_COMMANDS", "GtpProcess", "time_commands"]

#: The longest reply accepted from an engine (bytes).
MAX_REPLY = 1 << 20
#: How long an engine whose pipe closed is given to exit, so its exit is what is reported.
_EXIT_WAIT = 1.0
#: The commands that tell an engine its time a move, by the command name it must list.
TIME_COMMANDS = ("time_settings", "param_mohex")
#: The most byo-yomi stones ``time_settings`` is given to tell a time that is not whole seconds.
MAX_STONES = 1000


def time_commands(seconds: float, known: frozenset[str] | set[str]) -> list[str]:
    """The lines that give an engine knowing the commands ``known`` ``seconds`` a move.

    GTP's times are whole seconds, so a time that is not is told as byo-yomi ``T``
    seconds for ``S`` stones, ``T / S`` the nearest fraction to ``seconds`` with ``S`` at
    most :data:`MAX_STONES` (an engine then has ``T / S`` seconds a move on average).

    >>> time_commands(0.5, {"time_settings", "param_mohex", "genmove"})
    ['time_settings 0 1 2', 'param_mohex max_time 0.5']
    >>> time_commands(0.02, {"time_settings"}), time_commands(3, {"time_settings"})
    (['time_settings 0 1 50'], ['time_settings 0 3 1'])
    >>> time_commands(2, {"genmove"})
    []
    """
    lines = []
    if "time_settings" in known:
        share = Fraction(seconds).limit_denominator(MAX_STONES)
        if share <= 0:  # shorter than a second for MAX_STONES moves
            share = Fraction(1, MAX_STONES)
        lines.append(f"time_settings 0 {share.numerator} {share.denominator}")
    if "param_mohex" in known:
        lines.append(f"param_mohex max_time {seconds:g}")
    return lines


class GtpProcess:
    """A GTP engine run as a subprocess (in folder ``cwd`` when given), every reply read
    with a deadline; ``tell_time=False`` leaves its time to the caller's own settings
    (MoHex's benchmarks set ``param_mohex`` themselves).

    :raises ProtocolError: when the program cannot be started.
    """

    def __init__(
        self,
        command: str | list[str],
        timeout: float = 10.0,
        grace: float = 2.0,
        cwd: str | None = None,
        tell_time: bool = True,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ProtocolError("empty engine command")
        self.name = os.path.basename(argv[0])
        self.timeout = timeout
        self.grace = grace
        self.tell_time_first = tell_time
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=cwd,
            )
        except OSError as exc:
            raise ProtocolError(f"cannot start engine {argv[0]!r}: {exc.strerror or exc}") from None
        self._buffer = b""
        #: The commands the engine lists (``list_commands``), asked once.
        self._known: frozenset[str] | None = None
        #: The seconds a move the engine was told in this game (None: not yet).
        self._told: float | None = None
        #: The time commands the engine accepted when last told (for reports).
        self.time_accepted: list[str] = []
        self._selector = selectors.DefaultSelector()
        assert self.process.stdout is not None
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        try:
            self.name = self.command("name", timeout) or self.name
        except ProtocolError:
            self.close()
            raise

    def command(self, line: str, timeout: float | None = None) -> str:
        """Send ``line`` and return the reply text.

        :raises ProtocolError: on a ``?`` reply, a timeout, a crash or a malformed reply.
        """
        accepted, reply = self._exchange(line, timeout)
        if not accepted:
            raise ProtocolError(f"engine {self.name!r} refused {line!r}: {reply}")
        return reply

    def _exchange(self, line: str, timeout: float | None = None) -> tuple[bool, str]:
        """Send ``line``; whether the engine accepted it (``=``) and the reply text.

        :raises ProtocolError: on a timeout, a crash or a malformed reply.
        """
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode())
            stdin.flush()
        except OSError:
            raise self._gone(line, "closed its input") from None
        deadline = time.perf_counter() + (self.timeout if timeout is None else timeout)
        while b"\n\n" not in self._buffer.replace(b"\r", b""):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                if self.process.poll() is not None:
                    raise self._gone(line, "")
                raise ProtocolError(f"engine {self.name!r} did not answer {line!r} in time")
            if not self._selector.select(remaining):
                continue
            assert self.process.stdout is not None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise self._gone(line, "closed its output")
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                raise ProtocolError(f"engine {self.name!r} sent a reply over {MAX_REPLY} bytes")
        text = self._buffer.replace(b"\r", b"").decode("utf-8", "replace")
        reply, _, rest = text.partition("\n\n")
        self._buffer = rest.encode()
        reply = reply.strip()
        if reply.startswith("?"):
            return False, reply[1:].strip()
        if not reply.startswith("="):
            raise ProtocolError(f"engine {self.name!r} sent a malformed reply {reply[:60]!r}")
        return True, reply[1:].strip()  # no ids are sent, so none come back

    def _gone(self, line: str, pipe: str) -> ProtocolError:
        """The error of an engine that stopped answering ``line`` through a closed pipe
        (``pipe`` says which) or past its deadline: one wording once it has exited."""
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=_EXIT_WAIT)
        code = self.process.returncode
        if code is None:
            return ProtocolError(f"engine {self.name!r} {pipe} on {line!r} (crashed?)")
        status = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        return ProtocolError(f"engine {self.name!r} crashed ({status}) on {line!r}")

    def known_commands(self) -> frozenset[str]:
        """The commands the engine lists in ``list_commands`` (none if it refuses it).

        :raises ProtocolError: on a timeout, a crash or a malformed reply.
        """
        if self._known is None:
            accepted, reply = self._exchange("list_commands")
            self._known = frozenset(reply.split()) if accepted else frozenset()
        return self._known

    def tell_time(self, seconds: float) -> list[str]:
        """Tell the engine it has ``seconds`` a move (:func:`time_commands`); the lines it
        accepted. A refusal is no fault: the engine keeps its own settings.

        :raises ProtocolError: on a timeout, a crash or a malformed reply.
        """
        self.time_accepted = [
            line
            for line in time_commands(seconds, self.known_commands())
            if self._exchange(line)[0]
        ]
        self._told = seconds
        return self.time_accepted

    def new_game(self, size: int) -> None:
        self.command(f"boardsize {size}")
        self.command("clear_board")
        self._told = None

    def play(self, color: int, vertex: str) -> None:
        self.command(f"play {'b' if color == BLACK else 'w'} {vertex}")

    def genmove(self, color: int, seconds: float) -> str:
        if self.tell_time_first and self._told != seconds:
            self.tell_time(seconds)
        return self.command(f"genmove {'b' if color == BLACK else 'w'}", seconds + self.grace)

    def close(self) -> None:
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(b"quit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=1.0)
            except (OSError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):  # a dead engine's pipe cannot be flushed
                    stream.close()
