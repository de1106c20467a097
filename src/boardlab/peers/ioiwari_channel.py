"""Interface layer: the two-way pipe to an Ioiwari program being judged, with deadlines everywhere.

:class:`ProcessChannel` runs a command in its own process group, reads its stdout
without ever blocking past a deadline (``select`` plus non-blocking reads), and kills
the whole group at the end. It follows :class:`boardlab.ioiwari.contestant.Channel`; the
command line hands ``ProcessChannel`` to :func:`boardlab.ioiwari.judge.judge` as its
``connect``, so the game itself never starts a process.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from typing import IO

from boardlab.ioiwari.contestant import Exit, ForfeitError, TimeLimitError

__all__ = ["ProcessChannel"]

#: Longest token a program may write before it is called garbage.
MAX_TOKEN = 64
#: Bytes read from the program's stdout at a time.
READ_CHUNK = 4096
#: Bytes of the program's stderr kept for the report, and characters of its last line.
STDERR_TAIL_BYTES = 2000
STDERR_LINE_CHARS = 200
#: First and longest pause (seconds) while waiting for the program to exit.
FIRST_PAUSE = 0.0005
LONGEST_PAUSE = 0.01

_TOKEN = re.compile(rb"\s*(\S+)(\s)")


class ProcessChannel:
    """A subprocess in its own session; every read and wait is bounded by a deadline.

    :raises OSError: when the command cannot be started.
    """

    def __init__(self, command: Sequence[str]) -> None:
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed in finish()
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                start_new_session=True,
                bufsize=0,
            )
        except OSError:
            self._stderr.close()
            raise
        self._stdin: IO[bytes] = _pipe(self.process.stdin)
        self._stdout: IO[bytes] = _pipe(self.process.stdout)
        os.set_blocking(self._stdin.fileno(), False)
        os.set_blocking(self._stdout.fileno(), False)
        self._buffer = b""
        self._eof = False
        self._input_open = True
        self._peak_kb = 0
        self._status_path = f"/proc/{self.process.pid}/status"

    def send(self, line: str) -> None:
        """Write ``line`` and a newline (a full or closed pipe is ignored)."""
        if not self._input_open:
            return
        try:
            os.write(self._stdin.fileno(), (line + "\n").encode("ascii"))
        except (BrokenPipeError, BlockingIOError):
            self._close_input()

    def read_token(self, deadline: float) -> str | None:
        """The next token, or None at end of output.

        :raises ForfeitError: on silence past ``deadline`` or a token over 64 bytes.
        """
        while True:
            match = _TOKEN.match(self._buffer)
            if match:
                self._buffer = self._buffer[match.end(2) :]
                return _text(match.group(1))
            rest = self._buffer.strip()
            if len(rest) > MAX_TOKEN:
                raise ForfeitError(f"wrote a token longer than {MAX_TOKEN} bytes: {_text(rest)!r}")
            if self._eof:
                self._buffer = b""
                return _text(rest) if rest else None
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeLimitError("time limit")
            ready, _, _ = select.select([self._stdout.fileno()], [], [], remaining)
            self._sample_memory()
            if not ready:
                continue
            try:
                chunk = os.read(self._stdout.fileno(), READ_CHUNK)
            except BlockingIOError:
                continue
            if chunk:
                self._buffer += chunk
            else:
                self._eof = True

    def finish(self, deadline: float) -> Exit:
        """Close stdin, wait for the exit until ``deadline``, kill the group, reap it."""
        self._close_input()
        pid = self.process.pid
        exited = self._wait_exit(deadline)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        self.process.returncode = code
        self._stdout.close()
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - STDERR_TAIL_BYTES))
        tail = self._stderr.read().decode("utf-8", "replace")
        self._stderr.close()
        lines = [line.strip() for line in tail.splitlines() if line.strip()]
        return Exit(
            code=None if not exited else code,
            cpu=usage.ru_utime + usage.ru_stime,
            max_rss_kb=self._peak_kb or usage.ru_maxrss,
            killed=not exited,
            stderr_tail=lines[-1][:STDERR_LINE_CHARS] if lines else "",
        )

    def _wait_exit(self, deadline: float) -> bool:
        pid = self.process.pid
        pause = FIRST_PAUSE
        while True:
            info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if info is not None and info.si_pid == pid:
                return True
            self._sample_memory()
            now = time.perf_counter()
            if now >= deadline:
                return False
            time.sleep(min(pause, deadline - now))
            pause = min(pause * 2, LONGEST_PAUSE)

    def _sample_memory(self) -> None:
        """Read the program's high-water RSS (``VmHWM``) while it is alive.

        ``ru_maxrss`` of a child that was forked from the judge starts at the judge's own
        size, so it only bounds small programs from above; the kernel's ``VmHWM`` of the
        running program does not have that flaw (Linux only; skipped elsewhere).
        """
        try:
            with open(self._status_path, "rb") as status:
                for line in status:
                    if line.startswith(b"VmHWM:"):
                        self._peak_kb = max(self._peak_kb, int(line.split()[1]))
                        return
        except (OSError, ValueError, IndexError):
            return

    def _close_input(self) -> None:
        if self._input_open:
            self._input_open = False
            with contextlib.suppress(OSError):
                self._stdin.close()


def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
    assert stream is not None
    return stream


def _text(raw: bytes) -> str:
    return raw.decode("latin-1")
