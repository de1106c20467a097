"""The IOI library API: names, return codes, turn order, and whole IOI games."""

from __future__ import annotations

import pytest

from boardlab.core.errors import BoardlabError, IllegalMoveError
from boardlab.core.limits import Limit
from boardlab.hex.formats import parse_diagram
from boardlab.hex.hexlib import Evaluator, HexLib, check_ioi_start, generate_start, play_ioi_game
from boardlab.hex.player import SolvingEngine
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Cell, Position

START = parse_diagram(
    """
    . . . .
     . X . .
      . . O .
       . . . .
    """
)


def test_look_at_board_and_get_max() -> None:
    lib = HexLib(START, Evaluator("random"))
    assert lib.GetMax() == 4
    assert lib.LookAtBoard(2, 2) == 1 and lib.LookAtBoard(3, 3) == 2
    assert lib.LookAtBoard(1, 1) == 0
    assert [lib.LookAtBoard(*rc) for rc in [(0, 1), (1, 0), (5, 1), (1, 5)]] == [-1] * 4
    assert (lib.GetRow(), lib.GetColumn()) == (-1, -1)
    assert lib.GameIsOver() == 0


def test_turns_and_errors() -> None:
    lib = HexLib(START, Evaluator("random", seed=3))
    with pytest.raises(IllegalMoveError, match="program's turn"):
        lib.MakeLibMove()
    with pytest.raises(IllegalMoveError, match="occupied"):
        lib.PutHex(2, 2)
    with pytest.raises(IllegalMoveError, match="off the 4x4 board"):
        lib.PutHex(0, 3)
    lib.PutHex(1, 1)
    with pytest.raises(IllegalMoveError, match="library's turn"):
        lib.PutHex(1, 2)
    lib.MakeLibMove()
    row, column = lib.GetRow(), lib.GetColumn()
    assert lib.LookAtBoard(row, column) == 2
    assert lib.transcript[:2] == ["HEX 4", "1 1 1"]
    assert lib.transcript[2] == f"2 {row} {column}"


def test_game_is_over_codes() -> None:
    lib = HexLib(Position(1), Evaluator("random"))
    lib.PutHex(1, 1)
    assert lib.GameIsOver() == 2
    with pytest.raises(IllegalMoveError, match="game is over"):
        lib.MakeLibMove()
    with pytest.raises(IllegalMoveError, match="game is over"):
        lib.PutHex(1, 1)


def test_library_wins_against_a_weak_program() -> None:
    """We open at a1 on 3x3 (proven lost) and then fill the first empty cell each time."""
    lib = HexLib(Position(3), Evaluator("medium", seed=0))
    lib.PutHex(1, 1)
    while lib.GameIsOver() == 0:
        lib.MakeLibMove()
        if lib.GameIsOver():
            break
        row, column = next(
            (r, c) for r in range(1, 4) for c in range(1, 4) if lib.LookAtBoard(r, c) == 0
        )
        lib.PutHex(row, column)
    assert lib.GameIsOver() == 3


def test_bad_start_positions() -> None:
    with pytest.raises(BoardlabError, match="equally many stones"):
        check_ioi_start(Position.from_stones(3, [Cell(0, 0)], []))
    won = Position.from_stones(1, [Cell(0, 0)], [], WHITE)
    with pytest.raises(BoardlabError):
        HexLib(won)
    with pytest.raises(BoardlabError, match="unknown evaluator strength"):
        Evaluator("grandmaster")


def test_generated_starts_are_certified_wins() -> None:
    for seed in range(3):
        position, certified = generate_start(4, 2, seed=seed)
        assert certified
        check_ioi_start(position)
        assert solve(position, Limit(time=10)).winner == BLACK


def test_with_no_stones_the_start_is_the_empty_board_a_first_player_win() -> None:
    """Strategy stealing: the empty board is won by player 1; the solver agrees where it
    can tell, and no candidate search runs (it took minutes, then failed, on 11x11)."""
    for size in (2, 3, 4, 11):
        position, certified = generate_start(size, 0, seed=size)
        assert certified
        assert position.board == Position(size).board
        assert position.to_move == BLACK
        check_ioi_start(position)
        if size <= 4:
            assert solve(position, Limit(time=10)).winner == BLACK


def test_a_start_drawn_again_is_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a 2x2 board one stone each has 12 placements: with every candidate judged lost
    (a solver that always answers player 2) the 200 attempts judge each one once, then
    the request fails with one line."""
    from types import SimpleNamespace

    import boardlab.hex.prover.solver as solver_module

    judged: list[tuple[int, ...]] = []

    def always_lost(position: Position, *args: object, **kwargs: object) -> SimpleNamespace:
        judged.append(tuple(position.board))
        return SimpleNamespace(winner=WHITE)

    monkeypatch.setattr(solver_module, "solve", always_lost)
    with pytest.raises(BoardlabError, match="no winning start"):
        generate_start(2, 1, seed=1)
    assert 0 < len(judged) <= 12
    assert len(judged) == len(set(judged))


def test_full_ioi_game_is_won_within_time() -> None:
    position, _ = generate_start(5, 3, seed=5)
    lib = HexLib(position, Evaluator("medium", seed=2))
    game = play_ioi_game(lib, SolvingEngine(seed=3), total_time=3.0)
    assert game.result == 2
    assert game.program_seconds <= 3.0
    assert game.transcript[0] == "HEX 5" and len(game.transcript) == len(game.moves) + 1
