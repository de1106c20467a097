"""Cluster layer: engines that run a solver's sharded tasks on many processes or machines.

A game's solver describes its work as tasks and runs them through any object with the
engine interface (``submit``, ``fetch``, ``close``, ``workers``:
:class:`boardlab.core.tasks.Engine`; the peg solitaire pass has an in-process one). This
package holds the engines that leave the process: :mod:`boardlab.cluster.ray_engine`
(Ray, the optional ``cluster`` extra) and :mod:`boardlab.cluster.process_engine` (worker
processes of this machine, for ``hex solve --jobs``). Only the interface layer builds
one; no game imports this package, so Ray is never imported without a cluster.
"""
