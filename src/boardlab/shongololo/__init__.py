"""Rules layer: the Toxic iShongololo (IOI 1997): eat the most blocks of a fruit.

Value types in :mod:`.blocks`, the rules in :mod:`.rules`, the contest formats in
:mod:`.formats`, the judge in :mod:`.judge`; the solver (:mod:`.solver`) combines the
periodic constructions (:mod:`.constructions`) with the row placements of
:mod:`.patterns`, the exact leaves of a spine (:mod:`.leaves`), the branch and bound
(:mod:`.exact`) and the spine-rerouting local search (:mod:`.reroute`).
"""

from __future__ import annotations

from boardlab.shongololo.blocks import Action, Block, Box
from boardlab.shongololo.rules import START, Shongololo, upper_bound

__all__ = ["START", "Action", "Block", "Box", "Shongololo", "upper_bound"]
