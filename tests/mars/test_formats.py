"""Tests of the map and move-list formats: the sample, round trips, every bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardlab.core.errors import ParseError
from boardlab.mars.formats import (
    SAMPLE_MAP,
    SAMPLE_MOVES,
    format_map,
    format_moves,
    parse_map,
    parse_moves,
)
from boardlab.mars.values import MarsMap, Step

from .conftest import DATA, map_strategy


def test_sample_is_the_statement_grid() -> None:
    mars = parse_map(SAMPLE_MAP)
    assert (mars.vehicles, mars.width, mars.height, mars.rocks) == (2, 10, 8, 4)
    assert mars.at(6, 3) == 2 and mars.at(5, 4) == 2 and mars.at(5, 5) == 2
    assert mars.at(3, 7) == 2 and mars.at(1, 4) == 1 and mars.at(10, 4) == 1
    assert (DATA / "sample.in").read_text() == SAMPLE_MAP
    assert (DATA / "sample.out").read_text() == SAMPLE_MOVES


def test_sample_output_has_sixteen_steps_per_vehicle() -> None:
    steps = parse_moves(SAMPLE_MOVES)
    assert len(steps) == 32
    for vehicle in (1, 2):
        mine = [s.direction for s in steps if s.vehicle == vehicle]
        assert (mine.count(1), mine.count(0)) == (9, 7)
    assert format_moves(steps) == SAMPLE_MOVES


@given(map_strategy())
def test_map_round_trip(mars: MarsMap) -> None:
    assert parse_map(format_map(mars)) == mars
    assert eval(repr(mars)) == mars


@given(st.integers(1, 999), st.integers(0, 1))
def test_step_round_trip(vehicle: int, direction: int) -> None:
    step = Step(vehicle, direction)
    assert Step.parse(str(step)) == step
    assert parse_moves(format_moves([step, step])) == [step, step]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0\n1\n1\n0\n", "f:1:1: number of vehicles must be 1 to 999, got 0"),
        ("1000\n1\n1\n0\n", "f:1:1: number of vehicles must be 1 to 999, got 1000"),
        ("1\n129\n1\n", "f:2:1: P (columns) must be 1 to 128, got 129"),
        ("1\n2\n129\n", "f:3:1: Q (rows) must be 1 to 128, got 129"),
        ("1\n2\n0\n", "f:3:1: Q (rows) must be 1 to 128, got 0"),
        ("x\n", "f:1:1: number of vehicles must be an integer, got 'x'"),
        (
            "1\n2\n2\n0 0\n0 3\n",
            "f:5:3: cell (2, 2) must be 0 (clear), 1 (rough) or 2 (rock), got '3'",
        ),
        (
            "1\n2\n2\n0 0\n0 -1\n",
            "f:5:3: cell (2, 2) must be 0 (clear), 1 (rough) or 2 (rock), got '-1'",
        ),
        ("1\n2\n2\n0 0 0\n0 0\n", "f:4:5: row 1 has 3 cells, expected P = 2"),
        ("1\n3\n2\n0 0 0\n0 0\n", "f:5:3: row 2 has 2 cells, expected P = 3"),
        ("1\n2\n2\n0 0\n", "f:4:4: missing rows: the map has 1 of Q = 2 rows"),
        ("1\n2\n1\n0 0\n0 0\n", "f:5:1: extra row: the map has Q = 1 rows"),
        ("1\n2\n2\n1 0\n0 0\n", "f:4:1: the pod at (1, 1) is on rough terrain"),
        ("1\n2\n2\n0 0\n0 1\n", "f:5:3: the transmitter at (2, 2) is on rough terrain"),
        ("", "f:1:1: missing number of vehicles: the input ends here"),
    ],
)
def test_bad_maps_name_line_and_column(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_map(text, "f")
    assert str(caught.value) == message


def test_largest_map_parses() -> None:
    text = "999\n128\n128\n" + ("0 " * 127 + "2\n") * 128
    mars = parse_map(text)
    assert (mars.width, mars.height, mars.rocks) == (128, 128, 128)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 1\n1\n", "m:2:1: expected 'VEHICLE DIRECTION', got '1'"),
        ("1 2\n", "m:1:3: direction must be 0 (south) or 1 (east), got '2'"),
        ("a 1\n", "m:1:1: vehicle number must be a positive integer, got 'a'"),
        ("0 1\n", "m:1:1: vehicle number must be a positive integer, got '0'"),
        ("  1 1 1\n", "m:1:3: expected 'VEHICLE DIRECTION', got '1 1 1'"),
    ],
)
def test_bad_move_lines(text: str, message: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse_moves(text, "m")
    assert str(caught.value) == message


def test_routes_and_steps_write_the_same_text_and_read_back() -> None:
    from boardlab.mars.formats import format_moves, format_routes, parse_moves, step_lines
    from boardlab.mars.values import Step

    routes = [(1, 2, "0110"), (3, 1, ""), (4, 1, "1")]
    steps = [
        Step(v, int(d)) for first, n, dirs in routes for v in range(first, first + n) for d in dirs
    ]
    text = format_routes(routes)
    assert text == format_moves(steps)
    assert parse_moves(text) == steps
    assert [(v, d) for _, v, d in step_lines(text)] == [(s.vehicle, s.direction) for s in steps]
