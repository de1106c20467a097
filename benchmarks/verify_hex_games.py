"""Re-verify every kept Hex game: its recorded result against the board and a proof.

Each SGF under the given folders (default ``benchmarks/results/hex-mohex``) is replayed
by the referee's rules. Its true result is then:

- a connection, when the last move joined a player's edges;
- a resignation, when the file says a player answered ``resign`` (the side to move at
  the end resigned: the other side must be the recorded winner);
- otherwise a proof: MoHex's ``dfpn-solve-state`` on the final position, the side to
  move being the one that failed, confirmed by boardlab's own solver where that
  finishes in ``--check`` seconds; void when neither can tell.

Every file whose recorded winner or decision differs is listed. Files written before the
referee was fixed do not say how they were decided: their "resigned" and "failed" games
are decided by proof here. ``--fix`` rewrites such files with the true result (RE and
the comment, :func:`boardlab.hex.formats.format_game_sgf`) and each folder's
``summary.json`` from its games. MoHex is built outside the repository (see
``bench_hex_mohex.py``); pass ``--mohex PATH`` or set ``$MOHEX``. Run from the
repository root:

    MOHEX=/path/to/mohex .venv/bin/python benchmarks/verify_hex_games.py
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bench_hex_mohex import Tally
from boardlab.core.errors import BoardlabError
from boardlab.hex.formats import RecordedGame, format_game_sgf, parse_game_sgf
from boardlab.hex.judge import Decision, GameRecord, Prover, color_name, position_after
from boardlab.hex.match import SolverProver
from boardlab.hex.rules import BLACK, WHITE
from boardlab.peers.mohex import (
    MOHEX_ABSENT,
    CheckedProver,
    MohexProver,
    mohex_binary,
)

#: A kept game's file name: the setting's label, the opening's number, boardlab's colour.
GAME_NAME = re.compile(r"^(?P<label>.+)-(?P<number>\d+)(-(?P<colour>[bw]))?\.sgf$")


@dataclass(frozen=True)
class Truth:
    """What a game's moves and a proof say: the winner (None: void) and how."""

    winner: int | None
    decided_by: Decision
    story: str


def story_of(game: RecordedGame) -> str:
    """The file's own account of how the game ended (its comment less the first line)."""
    lines = game.comment.splitlines()
    if lines and lines[0].startswith("decided by:"):
        lines = lines[1:]
    return " ".join(lines).strip()


def truth_of(game: RecordedGame, prover: Prover) -> Truth:
    """The true result of ``game`` (see the module docstring).

    :raises BoardlabError: when its moves are not a legal game.
    """
    position = position_after(game.size, game.moves)
    if position.winner is not None:
        return Truth(position.winner, "connection", f"{color_name(position.winner)} connected")
    story = story_of(game)
    loser = position.to_move
    if game.decided_by == "resignation":
        return Truth(3 - loser, "resignation", story)
    verdict = prover(game.size, game.moves)
    what = story.split(";")[0] if game.decided_by else f"recorded as {story!r}"
    if verdict is None:
        return Truth(None, "void", f"{what}; void (no proof of the position)")
    winner = color_name(verdict.winner)
    return Truth(verdict.winner, "proof", f"{what}; {winner} wins, proven by {verdict.by}")


@dataclass(frozen=True)
class Mismatch:
    """Why a file disagrees with the truth, in words; ``winner`` when the recorded
    winner itself is wrong (not only how the game was decided)."""

    words: str
    winner: bool = False


def verify(path: Path, prover: Prover, fix: bool) -> Mismatch | None:
    """Check one file; the mismatch (None when it agrees). With ``fix`` a file that
    disagrees or does not say how it was decided is rewritten with its truth."""
    try:
        game = parse_game_sgf(path.read_text(encoding="utf-8"), str(path))
        truth = truth_of(game, prover)
    except (BoardlabError, OSError, UnicodeDecodeError) as exc:
        return Mismatch(f"cannot replay: {exc}")
    recorded = "void" if game.winner is None else color_name(game.winner)
    true = "void" if truth.winner is None else color_name(truth.winner)
    problem = None
    if game.winner != truth.winner:
        words = f"records {recorded} ({game.result}), truly {true}: {truth.story}"
        problem = Mismatch(words, winner=True)
    elif game.decided_by != truth.decided_by:
        said = game.decided_by or "an unsaid way"
        problem = Mismatch(f"records {recorded} by {said}, truly by {truth.decided_by}")
    if fix and problem is not None:
        record = GameRecord(
            game.size,
            game.black,
            game.white,
            truth.winner,
            truth.decided_by,
            truth.story,
            game.moves,
            (0.0, 0.0),
        )
        path.write_text(format_game_sgf(record, "boardlab-bench (verified)"), encoding="utf-8")
    return problem


def summarise(folder: Path) -> list[dict[str, object]]:
    """The settings of one run folder counted from its SGF files (boardlab's colour from
    ``PB``/``PW``)."""
    settings: dict[str, Tally] = {}
    for path in sorted(folder.glob("*.sgf")):
        match = GAME_NAME.match(path.name)
        game = parse_game_sgf(path.read_text(encoding="utf-8"), str(path))
        label = match["label"].replace("-", " ") if match else path.stem
        ours = BLACK if game.black == "boardlab" else WHITE
        settings.setdefault(label, Tally(label)).add(game.winner, game.decided_by, ours, path.name)
    return [tally.as_dict() for tally in settings.values()]


def rewrite_summary(folder: Path) -> None:
    """Rewrite ``folder/summary.json``'s settings from its verified games."""
    path = folder / "summary.json"
    summary = json.loads(path.read_text()) if path.exists() else {}
    summary["settings"] = summarise(folder)
    summary.pop("ladder_point", None)  # read from the old counts: see --combine
    summary["verified"] = True
    path.write_text(json.dumps(summary, indent=1) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folders", nargs="*", type=Path, default=[Path("benchmarks/results/hex-mohex")]
    )
    parser.add_argument("--mohex", default=os.environ.get("MOHEX"), help="MoHex binary ($MOHEX)")
    parser.add_argument("--seconds", type=float, default=120.0, help="MoHex's DFPN a position")
    parser.add_argument("--check", type=float, default=5.0, help="boardlab's solver a position")
    parser.add_argument("--fix", action="store_true", help="rewrite wrong files and summaries")
    args = parser.parse_args(argv)
    args.mohex = mohex_binary(args.mohex)
    prover: Prover
    if args.mohex is None:  # games ended by a connection need no prover at all
        print(
            f"verify_hex_games: {MOHEX_ABSENT}; a game that needs a proof is decided by "
            "boardlab's solver alone",
            file=sys.stderr,
        )
        prover = SolverProver(args.check)
    else:
        prover = CheckedProver(MohexProver(args.mohex, args.seconds), SolverProver(args.check))
    files = sorted(path for folder in args.folders for path in folder.rglob("*.sgf"))
    if not files:
        print(
            f"verify_hex_games: no SGF under {', '.join(map(str, args.folders))}", file=sys.stderr
        )
        return 2
    wrong = winners = 0
    for number, path in enumerate(files, 1):
        problem = verify(path, prover, args.fix)
        if problem is not None:
            wrong += 1
            winners += problem.winner
            print(f"MISMATCH {path}: {problem.words}", flush=True)
        if number % 25 == 0:
            print(
                f"  {number}/{len(files)} checked, {wrong} mismatches", file=sys.stderr, flush=True
            )
    fixed = " (fixed)" if args.fix else ""
    print(f"{len(files)} games checked, {wrong} mismatches{fixed}, {winners} of them in the winner")
    if args.fix:
        for folder in sorted({path.parent for path in files}):
            rewrite_summary(folder)
            print(f"{folder}/summary.json rewritten")
    return 1 if wrong and not args.fix else 0


if __name__ == "__main__":
    sys.exit(main())
