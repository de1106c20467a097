"""Cluster layer: engines that run a solver's sharded tasks on many processes or machines.

A game's solver describes its work as tasks and runs them through any object with the
engine interface (``submit``, ``fetch``, ``close``, ``workers``; the peg solitaire pass
defines it in :mod:`boardlab.pegs._solver_shards` with its in-process engine). This
package holds the engines that leave the process: :mod:`boardlab.cluster.ray_engine`
(Ray, the optional ``cluster`` extra) and :mod:`boardlab.cluster.process_engine` (worker
processes of this machine, for ``hex solve --jobs``). Only the interface layer builds
one; no game imports this package, so Ray is never imported without a cluster.
"""
