"""Interface layer: how one game plugs its verbs into the ``boardlab`` command line.

Each ``boardlab.cli.<game>`` module defines ``GAME``: a :class:`Game` whose verbs
build their own argparse parser and run. A game may also have a *default* verb, the
contest mode run when no verb is named (``boardlab hiq < input``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Game", "Verb"]

Configure = Callable[[argparse.ArgumentParser], None]
Run = Callable[[argparse.Namespace], int]


@dataclass(frozen=True, slots=True)
class Verb:
    """One ``boardlab <game> <verb>``: its help line, its arguments and what it runs."""

    name: str
    help: str
    configure: Configure
    run: Run
    description: str = ""


@dataclass(frozen=True, slots=True)
class Game:
    """A game's verbs; ``default`` runs when the first argument is not a verb name.

    ``demo`` gives the lines of ``boardlab demo``; ``warm_up`` loads (compiles, on a
    fresh install) the kernels the demo uses, before its clock and its solvers' time
    limits start.
    """

    name: str
    help: str
    verbs: tuple[Verb, ...]
    default: Verb | None = None
    demo: Callable[[], list[str]] | None = None
    warm_up: Callable[[], object] | None = None

    def verb(self, name: str) -> Verb | None:
        """The verb called ``name``, if any."""
        for verb in self.verbs:
            if verb.name == name:
                return verb
        return None
