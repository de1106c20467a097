"""Makes the Hex network's training games: SGF games boiled down to one line a game.

Reads SGF games (those kept under ``benchmarks/results/``: MoHex 2.0's benchmark games
against boardlab, and the MoHex-against-MoHex games of ``scripts/hex_mohex_games.py``)
and writes one line per game that has moves of the named player (by default MoHex's,
under any of its names ``mohex``, ``mohex-N``, ``mohex-selfplay``, at ``--min-playouts``
or more a move):

    NAME SIZE WINNER TARGETS MOVE MOVE ...

``NAME`` is the SGF's folder and file name joined by ``/`` (it decides which games are
held out, as ``scripts/hex_patterns.py`` decides), ``WINNER`` is ``B``, ``W`` or ``-``,
``TARGETS`` the colours whose moves the network learns (``B``, ``W`` or ``BW``), and the
moves are cells as the SGF names them (HexGui's names; a swap is ``swap``). Games a
referee voided and games that do not parse are left out (counted on stderr).

    .venv/bin/python scripts/hex_net_data.py benchmarks/results/hex-mohex \\
        benchmarks/results/hex-mohex-selfplay --out scripts/data/hex_net_games.txt
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from hex_patterns import games as sgf_files

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "scripts" / "data" / "hex_net_games.txt"


def strong_enough(name: str, player: str, min_playouts: int) -> bool:
    """Whether a player named ``name`` is ``player`` at ``min_playouts`` playouts a move
    or more (a name ``player-N`` plays N playouts a move; any other suffix is a time)."""
    if name != player and not name.startswith(player + "-"):
        return False
    suffix = name[len(player) + 1 :]
    return not suffix.isdigit() or int(suffix) >= min_playouts


def game_line(path: Path, player: str, min_playouts: int = 0) -> str | None:
    """The one-line form of the game in ``path``, or None when it has no moves of
    ``player``'s (at ``min_playouts`` a move or more), was voided or does not parse."""
    from boardlab.core.errors import BoardlabError
    from boardlab.hex.formats import parse_sgf

    text = path.read_text()
    targets = "".join(
        sorted(
            {
                colour
                for colour, name in re.findall(r"P([BW])\[([^\]]*)\]", text)
                if strong_enough(name, player, min_playouts)
            }
        )
    )
    result = re.search(r"RE\[([BW])\+", text)
    if not targets or "RE[Void]" in text:
        return None
    try:
        position = parse_sgf(text, str(path))
    except (BoardlabError, ValueError):
        return None
    moves = re.findall(r";[BW]\[([^\]]*)\]", text)
    played = position.indices
    if len(played) != len([m for m in moves if m != "resign"]):
        return None
    cells = ["swap" if m.startswith("swap") else m for m in moves if m != "resign"]
    name = f"{path.parent.name}/{path.stem}"
    winner = result.group(1) if result else "-"
    return " ".join([name, str(position.size), winner, targets, *cells])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sources", nargs="+", help="SGF files or folders of them")
    parser.add_argument("--player", default="mohex", help="whose moves count (default mohex)")
    parser.add_argument(
        "--min-playouts",
        type=int,
        default=1000,
        help="leave out the player's moves when it played fewer playouts a move (default 1000)",
    )
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    files = sgf_files(args.sources)
    lines = []
    left_out = 0
    for path in files:
        line = game_line(path, args.player, args.min_playouts)
        if line is None:
            left_out += 1
        else:
            lines.append(line)
    if not lines:
        print("hex_net_data: no games with moves of that player", file=sys.stderr)
        return 2
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".part")
    partial.write_text("\n".join(lines) + "\n")
    partial.replace(args.out)
    moves = sum(len(line.split()) - 4 for line in lines)
    print(f"{len(lines)} games ({moves} moves) written to {args.out}; {left_out} left out")
    return 0


if __name__ == "__main__":
    sys.exit(main())
