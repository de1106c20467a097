"""benchmarks/verify_hex_games.py finds kept games whose recorded result is not the truth.

The prover is a stand-in (no MoHex in CI): the checks are on the verifier's reasoning,
the file handling and the rewritten summary.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from tests.hex.benchmark_script import load

from boardlab.hex.formats import parse_game_sgf
from boardlab.hex.judge import Verdict


def verifier() -> ModuleType:
    return load("verify_hex_games")


class Fixed:
    """A prover that says ``winner`` wins every position."""

    def __init__(self, winner: int | None) -> None:
        self.winner = winner
        self.asked = 0

    def __call__(self, size: int, moves: Sequence[str]) -> Verdict | None:
        self.asked += 1
        return None if self.winner is None else Verdict(self.winner, "a stand-in prover")


# A legacy record (before the referee was fixed): "mohex resigned", scored for boardlab.
LEGACY = "(;FF[4]GM[11]SZ[3]PB[boardlab]PW[mohex]RE[B+]C[mohex resigned];B[a1];W[b2])\n"
CONNECTED = (
    "(;FF[4]GM[11]SZ[3]PB[mohex]PW[boardlab]RE[B+]C[decided by: connection\nblack connected]"
    ";B[b1];W[a1];B[b2];W[a2];B[b3])\n"
)


def test_a_resignation_that_was_a_proven_win_is_found_and_fixed(tmp_path: Path) -> None:
    module = verifier()
    run = tmp_path / "run"
    run.mkdir()
    legacy = run / "mohex-100-playouts-00-b.sgf"
    legacy.write_text(LEGACY)
    (run / "mohex-100-playouts-00-w.sgf").write_text(CONNECTED)
    prover = Fixed(2)  # white (MoHex) has the proven win
    problem = module.verify(legacy, prover, fix=False)
    assert problem is not None and "records black (B+), truly white" in problem.words
    assert problem.winner
    assert legacy.read_text() == LEGACY  # not fixed without --fix
    assert module.verify(run / "mohex-100-playouts-00-w.sgf", prover, fix=False) is None
    assert prover.asked == 1  # a connection needs no proof
    assert module.verify(legacy, prover, fix=True) is not None
    game = parse_game_sgf(legacy.read_text())
    assert (game.winner, game.decided_by, game.moves) == (2, "proof", ("a1", "b2"))
    assert module.verify(legacy, prover, fix=False) is None  # now it agrees
    module.rewrite_summary(run)
    summary = json.loads((run / "summary.json").read_text())
    (setting,) = summary["settings"]
    assert setting["label"] == "mohex 100 playouts"
    assert (setting["wins"], setting["games"], setting["proofs"]) == (0, 2, 1)
    assert setting["connections"] == 1 and summary["verified"] is True


def test_no_proof_makes_a_failed_game_void_and_bad_files_are_named(tmp_path: Path) -> None:
    module = verifier()
    legacy = tmp_path / "x-00-b.sgf"
    legacy.write_text(LEGACY)
    assert "truly void" in module.verify(legacy, Fixed(None), fix=True).words
    assert parse_game_sgf(legacy.read_text()).result == "Void"
    broken = tmp_path / "broken.sgf"
    broken.write_text("(;FF[4]GM[11]SZ[3];B[a1];W[a1])")
    problem = module.verify(broken, Fixed(1), fix=False)
    assert "cannot replay" in problem.words and not problem.winner
