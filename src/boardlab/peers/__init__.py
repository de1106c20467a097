"""Interface layer: programs boardlab talks to over pipes (GTP engines, IOI programs, the
Ioiwari channel). Like ``cli`` and ``web`` it sits above the games; a game's rules never
import it.
"""
