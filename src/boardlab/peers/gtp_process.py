"""Interface layer: a GTP engine run as a subprocess, every reply read with a deadline.

A hung engine never hangs its caller: each reply has a deadline, a reply over
:data:`MAX_REPLY` bytes is refused, and the process is killed when it does not quit.
It is a :class:`boardlab.hex.judge.Player` for the Hex referee (moves as GTP vertices).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shlex
import subprocess
import time

from boardlab.core.errors import ProtocolError
from boardlab.hex.rules import BLACK

__all__ = ["MAX_REPLY", "GtpProcess"]

#: The longest reply accepted from an engine (bytes).
MAX_REPLY = 1 << 20


class GtpProcess:
    """A GTP engine run as a subprocess (in folder ``cwd`` when given), every reply read
    with a deadline.

    :raises ProtocolError: when the program cannot be started.
    """

    def __init__(
        self,
        command: str | list[str],
        timeout: float = 10.0,
        grace: float = 2.0,
        cwd: str | None = None,
    ) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise ProtocolError("empty engine command")
        self.name = os.path.basename(argv[0])
        self.timeout = timeout
        self.grace = grace
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

        :raises ProtocolError: on a ``?`` reply, a timeout, a closed pipe or a malformed reply.
        """
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write((line + "\n").encode())
            stdin.flush()
        except OSError:
            raise ProtocolError(f"engine {self.name!r} closed its input (crashed?)") from None
        deadline = time.perf_counter() + (self.timeout if timeout is None else timeout)
        while b"\n\n" not in self._buffer.replace(b"\r", b""):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise ProtocolError(f"engine {self.name!r} did not answer {line!r} in time")
            if not self._selector.select(remaining):
                continue
            assert self.process.stdout is not None
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                raise ProtocolError(f"engine {self.name!r} closed its output (crashed?)")
            self._buffer += chunk
            if len(self._buffer) > MAX_REPLY:
                raise ProtocolError(f"engine {self.name!r} sent a reply over {MAX_REPLY} bytes")
        text = self._buffer.replace(b"\r", b"").decode("utf-8", "replace")
        reply, _, rest = text.partition("\n\n")
        self._buffer = rest.encode()
        reply = reply.strip()
        if reply.startswith("?"):
            raise ProtocolError(f"engine {self.name!r} refused {line!r}: {reply[1:].strip()}")
        if not reply.startswith("="):
            raise ProtocolError(f"engine {self.name!r} sent a malformed reply {reply[:60]!r}")
        return reply[1:].strip()  # no ids are sent, so none come back

    def new_game(self, size: int) -> None:
        self.command(f"boardsize {size}")
        self.command("clear_board")

    def play(self, color: int, vertex: str) -> None:
        self.command(f"play {'b' if color == BLACK else 'w'} {vertex}")

    def genmove(self, color: int, seconds: float) -> str:
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
