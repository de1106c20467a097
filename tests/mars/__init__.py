"""Tests of the Mars explorer game (seed 004)."""
