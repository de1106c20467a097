"""Prover layer: the exact Hex solver's room (DFPN, H-search, inferior cells, verdicts, alpha-beta).

It stands on :mod:`boardlab.hex.board`, :mod:`boardlab.hex.rules` and ``core`` and never
imports :mod:`boardlab.hex.engine`; :mod:`boardlab.hex.player` joins the two.
"""
