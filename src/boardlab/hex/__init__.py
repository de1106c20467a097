"""Hex: rules, engine, solver, formats, GTP, IOI library and matches (seed 004)."""
