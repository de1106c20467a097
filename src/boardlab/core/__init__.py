"""Core layer: what every game shares (errors, grids, text input, search limits, GTP)."""
