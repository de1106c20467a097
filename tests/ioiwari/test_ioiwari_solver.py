"""The exact solver: the numba table against the pure-Python memoised negamax, and the facts."""

from __future__ import annotations

import random

import pytest

from boardlab.core.errors import BoardlabError
from boardlab.ioiwari.rules import IOI, Move, Position, State, Variant, sow
from boardlab.ioiwari.solver import (
    MemoSolver,
    PerfectPlayer,
    ValueTable,
    analyse,
    build_table,
    decode,
    encode,
    reference_table,
)

SMALL_VARIANTS = [
    Variant(pits=3, cap=5, total=6, low=2, high=2),
    Variant(pits=4, cap=3, total=8, low=2, high=2),
    Variant(pits=5, cap=4, total=10, low=1, high=3),
    Variant(pits=6, cap=2, total=6, low=1, high=1),
    Variant(pits=4, cap=6, total=12, low=2, high=4),
]


@pytest.mark.parametrize("variant", SMALL_VARIANTS, ids=str)
def test_kernel_equals_the_reference_on_every_code(variant: Variant) -> None:
    assert list(build_table(variant).array()) == reference_table(variant)


def test_kernel_equals_the_reference_on_everything_reachable_from_the_starts(
    table: ValueTable, memo: MemoSolver
) -> None:
    for start in IOI.starts():
        memo.value(start)
    assert len(memo.memo) > 30_000
    wrong = [pits for pits, value in memo.memo.items() if table.value(pits) != value]
    assert wrong == []


def test_kernel_equals_the_reference_on_random_positions(table: ValueTable) -> None:
    rng = random.Random(2001)
    fresh = MemoSolver(IOI)
    for _ in range(300):
        pits = tuple(rng.randint(0, 5) for _ in range(7))
        assert table.value(pits) == fresh.value(pits), pits


def test_value_of_the_statement_start(table: ValueTable, memo: MemoSolver) -> None:
    start = (4, 3, 2, 4, 2, 3, 2)
    assert table.value(start) == memo.value(start) == 2
    assert table.best_moves(start) == memo.best_moves(start) == [2, 4, 7]
    result = analyse(table, Position(start))
    assert result.value == 2 and result.best == (2, 4, 7)
    assert result.final_banks == (11, 9)
    assert {m.pit: m.value for m in result.moves} == table.move_values(start)


def test_player_one_wins_all_357_starts(table: ValueTable, memo: MemoSolver) -> None:
    values = [table.value(start) for start in IOI.starts()]
    assert len(values) == 357
    assert all(value > 0 for value in values)
    assert values == [memo.value(start) for start in IOI.starts()]


def test_final_banks_follow_from_the_value(table: ValueTable) -> None:
    # S + value is even for every code: the value splits the remaining beads exactly
    array = table.array()
    for code in range(0, IOI.size, 997):
        pits = decode(code, IOI)
        assert (sum(pits) + int(array[code])) % 2 == 0
        assert abs(int(array[code])) <= sum(pits)


def test_perfect_play_reaches_the_value(table: ValueTable) -> None:
    rng = random.Random(7)
    for start in rng.sample(IOI.starts(), 25):
        state = State(IOI, start)
        players = {1: PerfectPlayer(table, random.Random(1)), 2: PerfectPlayer(table)}
        while not state.is_over():
            state.play(players[state.to_move].choose(state))
        first, second = state.banks
        assert first - second == table.value(start)


def test_analysis_mid_game_adds_the_banks(table: ValueTable) -> None:
    position = Position((4, 0, 3, 5, 0, 3, 2), (3, 0), 2)
    result = analyse(table, position)
    # player 2 to move after the first move of the statement's game: the value counts only
    # the beads still to be banked (player 2 gets one more than player 1 from here), so the
    # game from the start stays worth 3 - 1 = +2 to player 1
    assert result.value == 1
    assert result.final_banks == (11, 9)
    assert analyse(table, Position((0,) * 7, (11, 9), 1)).final_banks == (11, 9)


def test_encode_decode_round_trip() -> None:
    for code in (0, 1, 6, 12345, IOI.size - 1):
        assert encode(decode(code, IOI), IOI.cap) == code


def test_perfect_player_refuses_a_finished_game(table: ValueTable) -> None:
    with pytest.raises(BoardlabError, match="game is over"):
        PerfectPlayer(table).choose(State(IOI, (0,) * 7))


def test_memo_solver_checks_its_input() -> None:
    with pytest.raises(BoardlabError, match="pit 1 holds 6"):
        MemoSolver().value((6, 0, 0, 0, 0, 0, 0))


def test_table_size_is_checked() -> None:
    with pytest.raises(BoardlabError, match="279936 entries"):
        ValueTable(IOI, b"\x00" * 10)


def test_move_values_match_a_one_ply_search(table: ValueTable) -> None:
    pits = (3, 0, 5, 1, 2, 0, 4)
    expected = {}
    for index, beads in enumerate(pits):
        if beads:
            child, mine, theirs = sow(pits, index, 5)
            expected[index + 1] = mine - theirs - table.value(child)
    assert table.move_values(pits) == expected
    assert max(expected.values()) == table.value(pits)
    assert Move(table.best_moves(pits)[0]) == PerfectPlayer(table).choose(State(IOI, pits))
