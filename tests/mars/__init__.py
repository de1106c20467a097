"""Tests of the Mars explorer game (IOI 1997)."""
