"""Interface layer: ``python -m boardlab`` runs the command line."""

from boardlab.cli import entry_point

entry_point()
