"""The contest program as a state machine: our moves, the opponent's checked, the end."""

from __future__ import annotations

import pytest

from boardlab.core.errors import ParseError, ProtocolError
from boardlab.ioiwari.player import ContestPlayer
from boardlab.ioiwari.rules import IOI, Move, State
from boardlab.ioiwari.solver import PerfectPlayer, ValueTable


def _player(table: ValueTable) -> ContestPlayer:
    return ContestPlayer(PerfectPlayer(table).choose)


def test_plays_the_statement_game(table: ValueTable) -> None:
    player = _player(table)
    assert player.feed("4 3 2 4 2 3 2\n") == ["2"]
    assert player.feed("3\n") == ["5"]
    assert player.feed("4\n") == ["5"]
    assert not player.finished
    assert player.feed("7\n") == []
    assert player.finished
    assert player.state is not None and tuple(player.state.banks) == (11, 9)
    assert player.feed("anything after the end is not read\n") == []
    player.close()


def test_blank_lines_and_several_moves_on_one_line(table: ValueTable) -> None:
    player = _player(table)
    assert player.feed("\n") == []
    assert player.feed("4 3 2 4 2 3 2") == ["2"]
    assert player.feed("3 4") == ["5", "5"]


def test_our_moves_are_legal_and_optimal_against_any_opponent(table: ValueTable) -> None:
    # the opponent plays the lowest non-empty pit; player 1 must win by at least the value
    for start in IOI.starts()[::17]:
        player = _player(table)
        mirror = State(IOI, start)
        out = player.feed(" ".join(map(str, start)))
        while True:
            assert len(out) == 1
            mirror.play(Move(int(out[0])))
            if mirror.is_over():
                break
            reply = mirror.legal_moves()[0]
            mirror.play(reply)
            out = player.feed(str(reply.pit))
            if mirror.is_over():
                assert out == []
                break
        assert player.finished
        assert mirror.banks[0] - mirror.banks[1] >= table.value(start)


@pytest.mark.parametrize(
    ("lines", "error", "message"),
    [
        (
            ["4 3 2 4 2 3 2", "2"],
            ProtocolError,
            "<stdin>:2:1: the opponent's move 2 is illegal: pit 2 is empty",
        ),
        (
            ["4 3 2 4 2 3 2", "  9"],
            ProtocolError,
            "<stdin>:2:3: the opponent's move 9 is illegal: there is no pit 9",
        ),
        (["4 3 2 4 2 3 2", "three"], ParseError, "<stdin>:2:1: the opponent's move must be a pit"),
        (["4 3 2 4 2 3"], ParseError, "<stdin>:1:12: the start line has 6 numbers"),
        (["", "4 3 2 4 2 3 2 2"], ParseError, "<stdin>:2:15: unexpected '2'"),
    ],
)
def test_bad_input(
    table: ValueTable, lines: list[str], error: type[Exception], message: str
) -> None:
    player = _player(table)
    with pytest.raises(error) as caught:
        for line in lines:
            player.feed(line)
    assert str(caught.value).startswith(message)


def test_input_ending_early(table: ValueTable) -> None:
    player = _player(table)
    with pytest.raises(ProtocolError, match="ended before the start line"):
        player.close()
    player.feed("4 3 2 4 2 3 2")
    with pytest.raises(
        ProtocolError,
        match="ended before the game was over .waiting for the "
        "opponent's move 1; pits 4 0 3 5 0 3 2",
    ):
        player.close()
