"""Check: does boardlab's Hex GTP engine keep the same board as MoHex 2.0 under the same
commands?

Random command sequences (``play`` of either colour on random cells, the swap after the
first stone with ``param_game allow_swap 1``, ``undo``) go to boardlab's GTP engine
(:class:`boardlab.hex.gtp.HexGtp`, in this process, no searching) and to MoHex over GTP.
After each command the two must agree on whether it was accepted, and after each
accepted one their ``showboard`` pictures must hold the same stones (both read here
from the text they print). Any difference is printed with the commands that led to it;
exit status 1 then. Three refusals of boardlab's are by design and counted apart (the
sequence stops there): ``undo`` with nothing to undo (MoHex answers ``=``; GTP says
fail), a swap after a *white* first stone (MoHex takes any first stone), and a move after
the game is won. So is one acceptance: a ``play`` of a stone already on its cell in that
colour, which boardlab accepts as changing nothing (HexGui sends a setup node's stones
again when it rewinds onto the node) and MoHex refuses; neither board changes, so the
sequence goes on. MoHex is built outside the repository: ``--mohex PATH`` or ``$MOHEX``.

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/check_hex_gtp_sync.py --sequences 200
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import tempfile
from collections.abc import Sequence

from boardlab.core.errors import ProtocolError
from boardlab.hex.gtp import HexGtp, parse_vertex
from boardlab.peers.gtp_process import GtpProcess
from boardlab.peers.mohex import MOHEX_ABSENT, mohex_binary

#: boardlab's refusals that differ from MoHex by design (see the module docstring).
KNOWN = ("cannot undo: no move played", "answer to black's first stone", "the game is over")
_MOHEX_ROW = re.compile(r"^\s*(\d+)\\(.*)\\\d+\s*$")
_OURS_ROW = re.compile(r"^\s*(\d+)\s+([.XOxo ]+)$")


def stones(text: str, row: re.Pattern[str], black: str, white: str) -> dict[str, str]:
    """``{vertex: 'B'|'W'}`` from a showboard picture: the rows ``row`` matches (row
    number, then the cells), ``black`` and ``white`` the stones' symbols (any case)."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        match = row.match(line)
        if match:
            for col, symbol in enumerate(match.group(2).split()):
                if symbol.upper() in (black, white):
                    colour = "B" if symbol.upper() == black else "W"
                    found[f"{chr(ord('a') + col)}{match.group(1)}"] = colour
    return found


def resent(ours: HexGtp, line: str) -> bool:
    """Is ``line`` a ``play`` of a stone already on its cell in that colour?"""
    words = line.split()
    if len(words) != 3 or words[0] != "play" or words[2] in ("swap-pieces", "swap"):
        return False
    colour = 1 if words[1].lower().startswith("b") else 2
    return ours.position.board[parse_vertex(words[2], ours.position.size)] == colour


def mohex_stones(text: str) -> dict[str, str]:
    """The stones of MoHex's showboard (``B``, ``W``)."""
    return stones(text, _MOHEX_ROW, "B", "W")


def our_stones(text: str) -> dict[str, str]:
    """The stones of boardlab's showboard (``X`` black, ``O`` white)."""
    return stones(text, _OURS_ROW, "X", "O")


def commands(size: int, rng: random.Random, length: int) -> list[str]:
    """A random command sequence for one board."""
    lines = [f"boardsize {size}", f"param_game allow_swap {rng.choice((0, 1))}"]
    for number in range(length):
        roll = rng.random()
        if number == 1 and roll < 0.5:
            lines.append("play w swap-pieces")
        elif roll < 0.15:
            lines.append("undo")
        else:
            colour = rng.choice("bw") if roll < 0.3 else "bw"[number % 2]
            vertex = f"{chr(ord('a') + rng.randrange(size))}{rng.randrange(size) + 1}"
            lines.append(f"play {colour} {vertex}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mohex", help="MoHex binary ($MOHEX)")
    parser.add_argument("--sequences", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    binary = mohex_binary(args.mohex or os.environ.get("MOHEX"))
    if binary is None:
        print(MOHEX_ABSENT, file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    folder = tempfile.mkdtemp(prefix="boardlab-sync-")
    mohex = GtpProcess([binary], timeout=30.0, cwd=folder)
    differences = 0
    known = 0
    checked = 0
    try:
        for _ in range(args.sequences):
            size = rng.choice((3, 4, 5, 7))
            ours = HexGtp(size=size)
            sent: list[str] = []
            for line in commands(size, rng, rng.randrange(2, 12)):
                sent.append(line)
                again = resent(ours, line)
                reply, _ = ours.handle_line(line)
                ok_ours = reply.startswith("=")
                try:
                    mohex.command(line)
                    ok_mohex = True
                except ProtocolError:
                    ok_mohex = False
                if ok_mohex and not ok_ours and any(reason in reply for reason in KNOWN):
                    known += 1
                    break
                if ok_ours and not ok_mohex and again:
                    known += 1
                    continue
                if ok_ours != ok_mohex:
                    differences += 1
                    print(f"accepted by {'boardlab' if ok_ours else 'MoHex'} only: {sent}")
                    break
                if not ok_ours:
                    continue
                checked += 1
                theirs = mohex_stones(mohex.command("showboard"))
                mine = our_stones(ours.handle_line("showboard")[0])
                if theirs != mine:
                    differences += 1
                    print(f"boards differ after {sent}: boardlab {mine}, MoHex {theirs}")
                    break
    finally:
        mohex.close()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{args.sequences} sequences, {checked} boards compared, {differences} differences "
        f"({known} differences by design)"
    )
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
