"""The server's background warm-up (:mod:`boardlab.web._warm`): the child process runs at
low priority, the kernels are loaded into the server only after it succeeded, a failed or
missing child costs nothing, and stopping the server ends a child still at work."""

from __future__ import annotations

import sys
import time

from boardlab.web._warm import WARM_COMMAND, WARM_SIZES, start_warm_up


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def test_the_kernels_are_loaded_in_the_server_after_the_child_compiled_them() -> None:
    loaded: list[bool] = []
    warm = start_warm_up(_python("pass"), lambda: loaded.append(True))
    warm.thread.join(timeout=60)
    assert not warm.thread.is_alive()
    assert warm.returncode == 0 and loaded == [True]


def test_a_failed_child_loads_nothing_and_raises_nothing() -> None:
    loaded: list[bool] = []
    warm = start_warm_up(_python("import sys; sys.exit(3)"), lambda: loaded.append(True))
    warm.thread.join(timeout=60)
    assert warm.returncode == 3 and loaded == []
    missing = start_warm_up(["/nonexistent/boardlab-python"], lambda: loaded.append(True))
    missing.thread.join(timeout=60)
    assert missing.returncode is None and loaded == []


def test_stopping_the_server_ends_a_child_still_compiling() -> None:
    loaded: list[bool] = []
    warm = start_warm_up(_python("import time; time.sleep(60)"), lambda: loaded.append(True))
    time.sleep(0.5)
    began = time.monotonic()
    warm.stop()
    warm.thread.join(timeout=10)
    assert not warm.thread.is_alive() and time.monotonic() - began < 10
    assert warm.returncode != 0 and loaded == []


def test_the_child_runs_at_low_priority_and_loads_every_width_of_the_web_engine() -> None:
    script = WARM_COMMAND[2]
    compile(script, "<warm-up>", "exec")  # a valid program
    assert "os.nice(" in script
    assert all(f"warm_up({size})" in script for size in WARM_SIZES)
    assert {11, 13} <= set(WARM_SIZES)  # two and three words of cells: every web width
