"""Peg solitaire: boards, rules, Hi-Q (seed 000), PEGGED (seed 001) and the solver (seed 003)."""
