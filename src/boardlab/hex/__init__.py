"""Hex: board, rules, engine and prover rooms, player, GTP, IOI library, matches (IOI 1997)."""
