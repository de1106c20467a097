"""The engines of ``core.tasks`` and ``cluster``: one interface, no game and no command
line in them (the CLI words their errors)."""

from __future__ import annotations

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.tasks import Engine, LocalEngine


def _weigh(table: np.ndarray, scale: int) -> int:
    return int(table.sum()) * scale


def _split(value: int) -> tuple[int, int]:
    return value // 2, value - value // 2


def _run_on(engine: Engine) -> list[object]:
    table = np.arange(6, dtype=np.int64).reshape(2, 3)
    shared = engine.share(table)
    assert engine.share(table) is shared  # one copy, however often it is shared
    first = engine.submit(_weigh, (shared, 2))
    halves = engine.submit(_split, (first,), returns=2)
    return [*engine.fetch([first]), *engine.fetch(list(halves))]


def test_the_local_engine_runs_tasks_at_once_on_the_values() -> None:
    engine = LocalEngine()
    table = np.zeros(3)
    assert engine.share(table) is table and engine.workers == 1
    assert _run_on(engine) == [30, 15, 15]
    engine.close()


def test_the_process_engine_runs_the_same_tasks() -> None:
    from boardlab.cluster.process_engine import ProcessEngine

    engine = ProcessEngine(2)
    try:
        first = engine.submit(_weigh, (engine.share(np.ones((2, 2), dtype=np.int64)), 3))
        assert engine.fetch([first]) == [12]
    finally:
        engine.close()


@pytest.mark.parametrize(
    ("build", "words"),
    [
        ("process", "at least 1 worker, got 0"),
        ("ray-workers", "at least 1 worker, got 0"),
        ("ray-address", "expected HOST:PORT"),
    ],
)
def test_engine_errors_name_no_command_line_option(build: str, words: str) -> None:
    from boardlab.cluster.process_engine import ProcessEngine
    from boardlab.cluster.ray_engine import RayEngine, ray_available

    if build.startswith("ray") and not ray_available():
        words = "needs Ray"
    with pytest.raises(BoardlabError, match=words) as caught:
        if build == "process":
            ProcessEngine(0)
        elif build == "ray-workers":
            RayEngine(workers=0)
        else:
            RayEngine(address="nowhere")
    assert "--" not in str(caught.value)


def test_a_pinned_ray_engine_runs_a_place_s_tasks_in_one_process() -> None:
    """As the pinned process engine: a place's tasks share one process (whose search
    the next task finds), two places two processes."""
    import os

    pytest.importorskip("ray", reason="the cluster extra (pip install 'boardlab[cluster]')")
    from boardlab.cluster.ray_engine import RayEngine

    engine = RayEngine(workers=2, pinned=True)
    try:
        handles = [engine.submit(os.getpid, (), place=p) for p in (0, 1, 0, 1, 0)]
        assert engine.wait_any(handles) in handles
        first, second, *rest = engine.fetch(handles)
        assert first != second and rest == [first, second, first]
    finally:
        engine.close()
