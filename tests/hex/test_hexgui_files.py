"""HexGui's files as HexGui reads them: the corpus written by HexGui's own SGF writer
(``tests/hex/data/hexgui``, made by ``scripts/hexgui/MakeHexGuiFiles.java``) and the
files boardlab writes, each read by boardlab and by a reader here that follows HexGui's
rules (see ``scripts/hexgui/README.md``)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from boardlab.hex.formats import format_sgf, parse_sgf
from boardlab.hex.rules import BLACK, SWAP, WHITE, Cell, Position

CORPUS = Path(__file__).parent / "data" / "hexgui"
_NODE = re.compile(r";((?:\s*[A-Z]+(?:\s*\[[^\]]*\])+)*)")
_PROP = re.compile(r"([A-Z]+)((?:\s*\[[^\]]*\])+)")


def hexgui_reading(text: str, last: bool = False) -> tuple[dict[str, int], int]:
    """``({point: colour}, side to move)`` as HexGui shows the end of the main line (or,
    with ``last``, of the last variations): HexGui's rules, written here apart from
    boardlab's reader (no variation nests deeper than one level in the corpus)."""
    if last:  # keep the last variation of each branch
        text = re.sub(r"(\([^()]*\))+(?=\))", lambda m: re.findall(r"\([^()]*\)", m[0])[-1], text)
    else:
        text = re.sub(r"(\([^()]*\))+(?=\))", lambda m: re.findall(r"\([^()]*\)", m[0])[0], text)
    stones: dict[str, int] = {}
    to_move = BLACK
    for node in _NODE.findall(text.replace("(", " ").replace(")", " ")):
        for name, values in _PROP.findall(node):
            points = re.findall(r"\[([^\]]*)\]", values)
            if name in ("AB", "AW"):
                for point in points:
                    stones[point] = BLACK if name == "AB" else WHITE
            elif name == "AE":
                for point in points:
                    stones.pop(point, None)
            elif name == "PL":
                to_move = BLACK if points[0] == "B" else WHITE
            elif name in ("B", "W"):
                colour = BLACK if name == "B" else WHITE
                if points[0] == "resign":
                    continue
                if points[0] != "swap-pieces":
                    stones[points[0]] = colour
                    to_move = 3 - colour
                else:
                    to_move = colour
    return stones, to_move


def boardlab_reading(position: Position) -> dict[str, int]:
    """boardlab's stones named as HexGui names them (the transpose)."""
    size = position.size
    return {str(Cell.of_index(i, size).transposed()): v for i, v in enumerate(position.board) if v}


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.sgf")), ids=lambda p: p.name)
def test_hexgui_written_files_read_as_hexgui_shows_them(path: Path) -> None:
    text = path.read_text()
    assert text.startswith("(;AP[HexGui:")
    for line in ("main", "last"):
        position = parse_sgf(text, str(path), line=line)
        stones, to_move = hexgui_reading(text, last=line == "last")
        assert boardlab_reading(position) == stones, line
        assert position.to_move == to_move, line


def test_the_corpus_covers_what_the_issue_names() -> None:
    swap = parse_sgf((CORPUS / "swap.sgf").read_text())
    assert boardlab_reading(swap) == {"d4": BLACK, "c5": WHITE, "e4": BLACK}
    assert swap.to_move == WHITE
    puzzle = parse_sgf((CORPUS / "setup-puzzle.sgf").read_text())
    assert len(puzzle.stones(BLACK)) == 5 and puzzle.to_move == WHITE
    variations = (CORPUS / "variations.sgf").read_text()
    assert boardlab_reading(parse_sgf(variations, line="last"))["b4"] == BLACK


def random_game(rng: random.Random) -> tuple[Position, list[int]]:
    """A random start (empty, with the swap, or set up) and random moves after it."""
    size = rng.randint(2, 8)
    if rng.random() < 0.5:
        start = Position(size, swap=True)
        game = start.copy()
        game.push_index(rng.randrange(size * size))
        if rng.random() < 0.5:
            game.push_index(SWAP)
    else:
        cells = rng.sample(range(size * size), rng.randint(0, size * size // 2))
        black = [Cell.of_index(i, size) for i in cells[::2]]
        white = [Cell.of_index(i, size) for i in cells[1::2]]
        start = Position.from_stones(size, black, white, rng.choice((BLACK, WHITE)))
        game = start.copy()
    for _ in range(rng.randint(0, 6)):
        if game.winner is not None or not game.legal_indices():
            break
        game.push_index(rng.choice(game.legal_indices()))
    return start, game.indices[len(start.indices) :]


def test_boardlab_files_read_in_hexgui_as_boardlab_shows_them() -> None:
    """boardlab's SGF (setup in a second node with PL, its own swap written in HexGui's
    frame) shows in HexGui the position boardlab holds: the same stones for a game
    without a swap, the same game across the long diagonal (colours exchanged, no
    transpose) after boardlab's swap."""
    rng = random.Random(28)
    swaps = 0
    for _ in range(300):
        start, moves = random_game(rng)
        game = start.copy()
        for move in moves:
            game.push_index(move)
        text = format_sgf(start, moves)
        stones, to_move = hexgui_reading(text)
        swapped = SWAP in game.indices
        size = game.size
        if swapped:
            swaps += 1
            expected = {str(game.cell(i)): 3 - v for i, v in enumerate(game.board) if v}
            assert (stones, to_move) == (expected, 3 - game.to_move), text
        else:
            assert (stones, to_move) == (boardlab_reading(game), game.to_move), text
        back = parse_sgf(text, as_played=True)
        assert back.board == game.board and back.to_move == game.to_move, text
        assert size == back.size
    assert swaps > 20
