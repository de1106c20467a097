"""Cluster layer: engines that run a solver's sharded tasks on many processes or machines.

A game's solver describes its work as tasks and runs them through any object with the
engine interface (``submit``, ``fetch``, ``share``, ``close``, ``workers``:
:class:`boardlab.core.tasks.Engine`; the in-process one is
:class:`boardlab.core.tasks.LocalEngine`). This package holds the engines that leave
the process: :mod:`boardlab.cluster.ray_engine`
(Ray, the optional ``cluster`` extra) and :mod:`boardlab.cluster.process_engine` (worker
processes of this machine, for ``hex solve --jobs``). Only the interface layer builds
one; no game imports this package, so Ray is never imported without a cluster. The
engines know nothing of any game (what to share, the caller says) nor of the command
line (their errors name no option; the CLI adds its own words).
"""
