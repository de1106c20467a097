"""Rules of Ioiwari: the statement's worked example, sowing, state bookkeeping, variants."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardlab.core.errors import BoardlabError, IllegalMoveError, ParseError
from boardlab.ioiwari.rules import IOI, Move, Position, State, Variant, sow, sow_trace

DATA = Path(__file__).parent / "data"


def _example_rows() -> list[tuple[str, tuple[int, ...], tuple[int, int]]]:
    rows = []
    for line in (DATA / "statement_example.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        move, *numbers = line.split()
        values = tuple(int(n) for n in numbers)
        rows.append((move, values[:7], (values[7], values[8])))
    return rows


def test_statement_worked_example_row_by_row() -> None:
    rows = _example_rows()
    assert len(rows) == 7
    _, pits, banks = rows[0]
    state = State(IOI, pits, banks)
    for move, pits, banks in rows[1:]:
        state.play(Move(int(move)))
        assert tuple(state.pits) == pits
        assert tuple(state.banks) == banks
    outcome = state.outcome()
    assert outcome is not None and outcome.banks == (11, 9) and outcome.winner == 1
    assert str(outcome) == "11 : 9, player 1 wins"


def test_transcript_renders_the_statement_table() -> None:
    from boardlab.render.ioiwari import transcript

    rows = _example_rows()
    moves = [Move(int(move)) for move, _, _ in rows[1:]]
    lines = transcript(rows[0][1], moves).splitlines()
    for line, (_, pits, banks) in zip(lines[1:], rows, strict=True):
        numbers = [int(word) for word in line.split()[-9:]]
        assert numbers == [*pits, *banks]


@pytest.mark.parametrize(
    ("pits", "index", "expected"),
    [
        # a full pit on the way gives one bead to the mover and the hand keeps its beads
        ((4, 0, 3, 5, 0, 3, 2), 2, ((4, 0, 0, 4, 1, 4, 0), 4, 0)),
        # the last bead on an empty pit goes to the opponent
        ((0, 0, 0, 0, 0, 0, 1), 6, ((0, 0, 0, 0, 0, 0, 0), 0, 1)),
        # the last bead on a full pit goes to the opponent as well
        ((5, 0, 0, 0, 0, 0, 1), 6, ((5, 0, 0, 0, 0, 0, 0), 0, 1)),
        # sowing goes round past the emptied pit (which receives a bead)
        ((0, 0, 0, 0, 0, 0, 5), 6, ((1, 1, 1, 1, 0, 0, 0), 0, 1)),
        # five beads from pit 1 past four full pits (each pays one bead and keeps the hand),
        # round through 6, 7, 1 and 2, the last bead capturing the 4 beads of pit 3
        ((5, 5, 5, 5, 5, 0, 0), 0, ((1, 5, 0, 4, 4, 1, 1), 4 + 5, 0)),
    ],
)
def test_sow_cases(
    pits: tuple[int, ...], index: int, expected: tuple[tuple[int, ...], int, int]
) -> None:
    assert sow(pits, index, 5) == expected


def test_sow_round_the_board_touches_the_emptied_pit() -> None:
    # 5 beads from pit 7 of a 3-pit board: pits 1, 2, 3(the emptied one), 1 get beads, last on 2
    assert sow((0, 0, 5), 2, 5) == ((2, 0, 1), 2, 0)
    assert [pit for pit, _ in sow_trace((0, 0, 5), 2, 5)] == [1, 2, 3, 1, 2]


def test_illegal_moves_name_the_pit() -> None:
    state = State(IOI, (4, 0, 3, 5, 0, 3, 5))
    with pytest.raises(IllegalMoveError, match="pit 2 is empty"):
        state.play(Move(2))
    with pytest.raises(IllegalMoveError, match="there is no pit 8"):
        state.play(Move(8))
    with pytest.raises(IllegalMoveError, match="no move to take back"):
        state.pop()


def test_push_pop_restores_everything() -> None:
    state = State(IOI, (4, 3, 2, 4, 2, 3, 2))
    before = state.position()
    for pit in (2, 3, 5):
        state.play(Move(pit))
    assert state.history == (Move(2), Move(3), Move(5))
    copy = state.copy()
    for _ in range(3):
        state.pop()
    assert state.position() == before
    assert copy.position() == Position((4, 0, 0, 4, 0, 0, 0), (8, 4), 2)


positions = st.lists(st.integers(0, 5), min_size=7, max_size=7).filter(any)


@settings(max_examples=300, deadline=None)
@given(positions, st.data())
def test_beads_are_conserved_and_every_move_banks_one(pits: list[int], data: st.DataObject) -> None:
    state = State(IOI, pits)
    total = sum(pits)
    while not state.is_over():
        moves = state.legal_moves()
        move = data.draw(st.sampled_from(moves))
        left = sum(state.pits)
        state.play(move)
        assert sum(state.pits) < left
        assert all(0 <= beads <= 5 for beads in state.pits)
        assert sum(state.pits) + sum(state.banks) == total
    assert state.outcome() is not None


def test_the_357_starts() -> None:
    starts = IOI.starts()
    assert len(starts) == 357 == len(set(starts))
    assert all(sum(s) == 20 and min(s) >= 2 and max(s) <= 4 for s in starts)
    brute = sum(1 for code in range(3**7) if sum(2 + (code // 3**i) % 3 for i in range(7)) == 20)
    assert brute == 357


@given(
    st.integers(2, 8),
    st.integers(2, 6),
)
def test_variant_text_round_trip(pits: int, cap: int) -> None:
    variant = Variant(pits=pits, cap=cap, total=pits, low=1, high=1)
    assert Variant.parse(str(variant)) == variant
    assert eval(repr(variant)) == variant


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pits=x", "pits must be a whole number"),
        ("colour=red", "expected pits=N"),
        ("start=4", "start must be LOW..HIGH"),
        ("pits=1", "2..12 pits"),
        ("pits=12 cap=9", "need a table of"),
        ("total=40", "cannot hold 40"),
        ("start=3..6", "0 <= low <= high <= cap"),
    ],
)
def test_bad_variants(text: str, message: str) -> None:
    with pytest.raises(BoardlabError, match=message):
        Variant.parse(text)


@given(
    st.lists(st.integers(0, 5), min_size=1, max_size=9),
    st.tuples(st.integers(0, 40), st.integers(0, 40)),
    st.sampled_from([1, 2]),
)
def test_position_text_round_trip(pits: list[int], banks: tuple[int, int], player: int) -> None:
    position = Position(tuple(pits), banks, player)
    assert Position.parse(str(position)) == position
    assert eval(repr(position)) == position


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("4 3 x", "<position>:1:5"),
        ("4 3 | 1 | 1", "<position>:1:9"),
        ("4 3 | 1 2 | 3", "<position>:1:13"),
        ("4 | 1 2", "expected 'PITS'"),
    ],
)
def test_bad_positions(text: str, where: str) -> None:
    with pytest.raises(ParseError, match=where):
        Position.parse(text)


def test_move_round_trip_and_errors() -> None:
    assert Move.parse(str(Move(7))) == Move(7)
    with pytest.raises(ParseError):
        Move.parse("0")
    with pytest.raises(ParseError):
        Move.parse("3 4")


@pytest.mark.parametrize(
    "module",
    [
        "boardlab.ioiwari.rules",
        "boardlab.ioiwari.solver",
        "boardlab.ioiwari.formats",
        "boardlab.ioiwari.player",
        "boardlab.render.ioiwari",
    ],
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
