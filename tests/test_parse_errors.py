"""Every text form's parse failure is a ``ParseError``; a bad setup is a ``BoardlabError``,
never an ``IllegalMoveError`` (a move breaks the rules; a setup only fails to be one).

The value types' parsers (pegs cells and moves, Toxic boxes, blocks and actions) and the
setups of every game: stones, pegs, pits, vehicles and blocks that cannot be.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from boardlab.core.errors import BoardlabError, IllegalMoveError, ParseError


def _pegs_move(text: str) -> Callable[[], object]:
    from boardlab.pegs.cells import parse_move

    return lambda: parse_move(text)


def _texts() -> list[tuple[str, Callable[[], object]]]:
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.cells import Cell, Jump, Walk
    from boardlab.shongololo.blocks import Action, Block, Box

    english = named_board("english")
    return [
        ("pegs cell", lambda: Cell.parse("C0")),
        ("pegs move, one cell", _pegs_move("D2")),
        ("pegs move, too far", _pegs_move("A1-A5")),
        ("pegs move, no line", _pegs_move("A1 C2")),
        ("pegs jump that walks", lambda: Jump.parse("C5 C6")),
        ("pegs walk that jumps", lambda: Walk.parse("F10 F8")),
        ("pegs chain with a walk", lambda: english.parse_moves("D2-D4-D5")),
        ("pegs board move", lambda: english.parse_move("D4")),
        ("toxic box, two sides", lambda: Box.parse("2 3")),
        ("toxic box, a word", lambda: Box.parse("2 three 2")),
        ("toxic box, side 0", lambda: Box.parse("0 3 3")),
        ("toxic box, side 40", lambda: Box.parse("40x2x2")),
        ("toxic block", lambda: Block.parse("1 2 x")),
        ("toxic action", lambda: Action.parse("X 1 1 1")),
        ("toxic action, empty", lambda: Action.parse("")),
        ("toxic action, bad block", lambda: Action.parse("E 1 1")),
    ]


TEXTS = _texts()


@pytest.mark.parametrize(("what", "parse"), TEXTS, ids=[w for w, _ in TEXTS])
def test_a_parse_failure_is_a_parse_error(what: str, parse: Callable[[], object]) -> None:
    with pytest.raises(ParseError):
        parse()


def _setups() -> list[tuple[str, Callable[[], object]]]:
    from boardlab.hex.rules import Cell as HexCell
    from boardlab.hex.rules import Position as HexPosition
    from boardlab.ioiwari.rules import State
    from boardlab.mars.formats import parse_map
    from boardlab.mars.rules import Expedition
    from boardlab.pegs.boards import named_board
    from boardlab.pegs.cells import Cell as PegCell
    from boardlab.pegs.rules import Position as PegsPosition
    from boardlab.shongololo.blocks import Block, Box
    from boardlab.shongololo.rules import Shongololo

    english = named_board("english")
    mars = parse_map("2\n3\n3\n0 2 2\n2 1 0\n2 0 0\n")
    return [
        ("hex stone off the board", lambda: HexPosition.from_stones(3, [HexCell(5, 5)], [])),
        ("hex stone twice", lambda: HexPosition.from_stones(3, [HexCell(0, 0)], [HexCell(0, 0)])),
        ("hex stones unbalanced", lambda: HexPosition.from_stones(3, [], [HexCell(0, 0)])),
        ("pegs peg off the board", lambda: PegsPosition(english, 1 << 40)),
        ("pegs peg on no hole", lambda: PegsPosition.from_cells(english, [PegCell(0, 0)])),
        ("ioiwari pits", lambda: State(pits=(1, 2, 3))),
        ("ioiwari player", lambda: State(to_move=3)),
        ("mars vehicles", lambda: Expedition(mars, [(0, 0)])),
        ("toxic block outside", lambda: Shongololo(Box(2, 2, 2), [Block(3, 1, 1)])),
    ]


SETUPS = _setups()


@pytest.mark.parametrize(("what", "setup"), SETUPS, ids=[w for w, _ in SETUPS])
def test_a_bad_setup_is_no_illegal_move(what: str, setup: Callable[[], object]) -> None:
    with pytest.raises(BoardlabError) as caught:
        setup()
    assert not isinstance(caught.value, IllegalMoveError), what
