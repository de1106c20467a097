"""Peg solitaire: boards, rules, Hi-Q (Mid-Atlantic 1996), PEGGED (POTM 1997) and the solver."""
