"""Cluster layer: the sharded tasks of a solver on a Ray cluster (the optional ``cluster`` extra).

:class:`RayEngine` is an :class:`boardlab.core.tasks.Engine`: every task of
the pass becomes a Ray task (one CPU each), its results stay in Ray's object store and
go to the next tasks by reference, so the driver never holds a level; what the caller
shares (:meth:`RayEngine.share`: tables many tasks take) is put in the store once. ``workers``
starts a local cluster of that many worker CPUs; ``address`` joins a running cluster
(``ray start --head`` on one machine, ``ray start --address`` on the others). Ray is
imported only here, only when a cluster is asked for: the default in-process pass
never imports it.

Each worker runs one task at a time with one numba thread (``NUMBA_NUM_THREADS=1``):
the parallelism is the cluster's, not the kernels'.

With ``local_files`` every machine keeps the files of its own parts of the work on its
own disk: the machines (Ray's nodes, in the order of their addresses) are dealt the
parts in turn, part ``p`` to node ``p mod nodes``, and every task of a part runs on its
node (Ray's node affinity, not a preference), so a task reads the files that the
part's earlier tasks wrote there. What moves between machines goes through Ray's
object store (which spills to each node's own disk past its memory).

With ``pinned`` every task given a ``place`` runs in one process of that place's own
(a Ray actor, one CPU, started at the place's first task), so what a task leaves in
its process (a prover's search, :mod:`boardlab.hex.prover.workers`) serves the place's
next task, as :class:`boardlab.cluster.process_engine.ProcessEngine` does with
``pinned``. Each place holds one CPU of the cluster while the engine lives: tasks
without a place need CPUs beyond the places'.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from boardlab.core.errors import BoardlabError

__all__ = ["RayEngine", "ray_available"]

#: Environment of every worker: one numba thread a task, nothing printed by Ray.
_WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "RAY_DEDUP_LOGS": "0"}


def ray_available() -> bool:
    """Whether Ray can be imported (the ``cluster`` extra is installed)."""
    import importlib.util

    return importlib.util.find_spec("ray") is not None


class RayEngine:
    """Tasks on Ray: a local cluster of ``workers`` CPUs, or the cluster at ``address``.

    :raises BoardlabError: when Ray is not installed, ``workers`` is not positive, or
        the cluster at ``address`` cannot be joined (messages name no option: the
        interface layer says which of its options asked for the cluster).
    """

    def __init__(
        self,
        workers: int | None = None,
        address: str | None = None,
        local_files: bool = False,
        pinned: bool = False,
    ) -> None:
        if not ray_available():
            raise BoardlabError("a Ray cluster needs Ray: pip install 'boardlab[cluster]'")
        if workers is not None and workers < 1:
            raise BoardlabError(f"a Ray cluster needs at least 1 worker, got {workers}")
        if address is not None:
            _check_reachable(address)
        import ray

        options: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": "ERROR",
            "configure_logging": True,
            "runtime_env": {"env_vars": dict(_WORKER_ENV)},
        }
        self._started_here = not ray.is_initialized()
        if self._started_here:
            try:
                if address is not None:
                    with _quiet_stderr():  # Ray's C++ client logs each failed try to connect
                        ray.init(address=address, **options)
                else:
                    ray.init(num_cpus=workers or os.cpu_count() or 1, **options)
            except Exception as exc:  # Ray raises several kinds (ConnectionError, ...)
                where = f"at {address}" if address is not None else "on this machine"
                text = str(exc).strip()
                first = text.splitlines()[0] if text else type(exc).__name__
                raise BoardlabError(f"cannot reach the Ray cluster {where}: {first}") from None
        cpus = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.workers = workers if workers is not None and address is None else cpus
        self._ray = ray
        self._remotes: dict[tuple[Callable[..., Any], int], Any] = {}
        self._shared: dict[int, Any] = {}
        self.local_files = local_files
        self.pinned = pinned
        self._places: dict[int, Any] = {}  # pinned: the actor of each place
        #: The nodes parts are dealt to (ids, in the order of their addresses).
        self.nodes: list[str] = []
        if local_files:
            alive = sorted(
                (n["NodeManagerAddress"], n["NodeID"])
                for n in ray.nodes()  # type: ignore[no-untyped-call]
                if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0
            )
            self.nodes = [node for _, node in alive]

    def submit(
        self,
        fn: Callable[..., Any],
        args: Sequence[Any],
        returns: int = 1,
        place: int | None = None,
    ) -> Any:
        """Start ``fn(*args)`` as a Ray task; its result (``returns`` references when more
        than one). With ``local_files`` a task given ``place`` runs on that part's node;
        with ``pinned``, in that place's own process."""
        if self.pinned and place is not None:
            return self._place(place).run.options(num_returns=returns).remote(fn, args)
        key = (fn, returns)
        remote = self._remotes.get(key)
        if remote is None:
            remote = self._ray.remote(num_returns=returns, num_cpus=1, max_retries=2)(fn)
            self._remotes[key] = remote
        if self.local_files and place is not None and self.nodes:
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            node = self.nodes[place % len(self.nodes)]
            strategy = NodeAffinitySchedulingStrategy(node_id=node, soft=False)
            name = f"{getattr(fn, '__name__', 'task')}:part-{place}"  # in Ray's task list
            return remote.options(scheduling_strategy=strategy, name=name).remote(*args)
        return remote.remote(*args)

    def _place(self, place: int) -> Any:
        """The actor of ``place`` (started at its first task; on that part's node with
        ``local_files``)."""
        actor = self._places.get(place)
        if actor is None:
            options: dict[str, Any] = {"num_cpus": 1}
            if self.local_files and self.nodes:
                from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

                node = self.nodes[place % len(self.nodes)]
                options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(
                    node_id=node, soft=False
                )
            actor = self._ray.remote(_Place).options(**options).remote()
            self._places[place] = actor
        return actor

    def share(self, value: Any) -> Any:
        """A reference to ``value`` in the object store, put there once for this object
        (tasks given the reference receive the value)."""
        ref = self._shared.get(id(value))
        if ref is None:
            ref = (value, self._ray.put(value))  # the value is held: its id stays its own
            self._shared[id(value)] = ref
        return ref[1]

    def fetch(self, handles: list[Any]) -> list[Any]:
        """The values behind ``handles`` (waits for their tasks); a handle that is no
        reference (a shard's file found by a resumed run) is its own value."""
        refs = [h for h in handles if isinstance(h, self._ray.ObjectRef)]
        values = iter(self._ray.get(refs) if refs else [])
        return [next(values) if isinstance(h, self._ray.ObjectRef) else h for h in handles]

    def wait_any(self, handles: list[Any]) -> Any:
        """One of the handles whose task has finished (a handle that is no reference is
        finished already), waiting for one to finish."""
        refs = [h for h in handles if isinstance(h, self._ray.ObjectRef)]
        if len(refs) < len(handles):
            return next(h for h in handles if not isinstance(h, self._ray.ObjectRef))
        done, _ = self._ray.wait(refs, num_returns=1)
        return done[0]

    def close(self) -> None:
        """Leave the cluster (a local one is shut down)."""
        self._shared.clear()
        for actor in self._places.values():
            self._ray.kill(actor)
        self._places.clear()
        if self._started_here and self._ray.is_initialized():
            self._ray.shutdown()


class _Place:
    """The process of one place of a pinned engine (a Ray actor): runs its tasks in turn."""

    def run(self, fn: Callable[..., Any], args: Sequence[Any]) -> Any:
        return fn(*args)


#: Seconds to wait for the head node's port before giving up on an address.
_CONNECT_SECONDS = 3.0


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send what is written to the process's stderr (file descriptor 2, C++ logs too)
    nowhere while the block runs."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "wb") as sink:
            os.dup2(sink.fileno(), 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def _check_reachable(address: str) -> None:
    """Fail fast on an address nobody answers at (Ray itself retries for minutes).

    ``auto`` (the cluster this machine belongs to) is left to Ray.
    """
    import socket

    if address == "auto":
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise BoardlabError(f"Ray address {address!r}: expected HOST:PORT (or ray://HOST:PORT)")
    try:
        with socket.create_connection((host, int(port)), timeout=_CONNECT_SECONDS):
            pass
    except OSError as exc:
        raise BoardlabError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc}"
        ) from None
