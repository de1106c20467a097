"""Interface layer: the Hex engine's kernels loaded while the server starts, not inside a
player's first request.

On a fresh install numba compiles the engine's and the prover's kernels the first time
they run: minutes for the 11x11 and 13x13 widths on a small machine, which a player's
first engine move on such a board waited for (the search's own limit starts after
them). :func:`start_warm_up` compiles them in a child process at low priority, so the
server's own threads never wait on that work (compiling is Python code under the
interpreter's lock), then loads them from numba's disk cache into the server (about a
second a width). A request that comes sooner only finds some of the work done; nothing
waits for the warm-up, and a server that stops takes its child with it.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence

__all__ = ["WARM_COMMAND", "WarmUp", "load_in_process", "start_warm_up"]

#: The board sizes whose kernels are loaded: every cell-set width the web engine uses
#: (two words up to 11x11, three for 12x12 and 13x13).
WARM_SIZES = (11, 13)
#: The child's niceness: below every search the server runs.
WARM_NICENESS = 10
#: The child process that compiles the kernels into numba's disk cache (at low priority;
#: stopped with the server, or left to finish its bounded work if the server is killed).
WARM_COMMAND = (
    sys.executable,
    "-c",
    "import os\n"
    f"if hasattr(os, 'nice'):\n    os.nice({WARM_NICENESS})\n"
    "from boardlab.hex.player import warm_up\n"
    + "".join(f"warm_up({size})\n" for size in WARM_SIZES),
)


def load_in_process() -> None:
    """Load the compiled kernels of every width of :data:`WARM_SIZES` into this process
    (:func:`boardlab.hex.player.warm_up`)."""
    from boardlab.hex.player import warm_up

    for size in WARM_SIZES:
        warm_up(size)


class WarmUp:
    """The warm-up under way: its thread, and the child process while it runs."""

    def __init__(self, command: Sequence[str], load: Callable[[], None]) -> None:
        self._command = list(command)
        self._load = load
        self._lock = threading.Lock()
        self._child: subprocess.Popen[bytes] | None = None
        self._stopped = False
        #: The child's exit status once it ended (None before, or when it never ran).
        self.returncode: int | None = None
        self.thread = threading.Thread(target=self._run, name="boardlab-warm-up", daemon=True)

    def _run(self) -> None:
        with self._lock:
            if self._stopped:
                return
            try:
                self._child = subprocess.Popen(
                    self._command,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            except OSError:
                return  # no child: the first request compiles what it needs, as before
        self.returncode = self._child.wait()
        with self._lock:
            if self._stopped or self.returncode != 0:
                return
        with contextlib.suppress(Exception):  # a failed load only costs the first request
            self._load()

    def stop(self) -> None:
        """End the child process if it is still compiling (the server is stopping)."""
        with self._lock:
            self._stopped = True
            child = self._child
        if child is not None and child.poll() is None:
            child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(timeout=5)
            if child.poll() is None:
                child.kill()


def start_warm_up(
    command: Sequence[str] = WARM_COMMAND, load: Callable[[], None] = load_in_process
) -> WarmUp:
    """Start compiling the kernels in the background (see the module's text): ``command``
    runs as a child process at low priority, then ``load`` in this process once it
    succeeded. :meth:`WarmUp.stop` ends the child."""
    warm = WarmUp(command, load)
    warm.thread.start()
    return warm
