"""Captured pairs at any distance (hex.prover.farpairs): the dead test against every
completion of the board, the fill against minimax, the compiled kernel against its twin,
and the pair across a dead end that the ring patterns miss."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tests.hex.benchmark_script import load
from tests.hex.test_solver_dfpn import connected, mover_wins

from boardlab.hex import connections as vc
from boardlab.hex.board import vertex_index
from boardlab.hex.cellsets import as_int, as_words
from boardlab.hex.formats import parse_sgf
from boardlab.hex.prover.farpairs import fill_far_pairs, is_dead
from boardlab.hex.rules import BLACK, WHITE

#: MoHex's regression puzzle 11x11-henderson-86 (HexGui's names, black joins top and
#: bottom), white's winning move d4 played: black to move.
HENDERSON_86 = (
    "(;FF[4]GM[11]SZ[11];AB[i2][h3][f4][h4][i4][f5][h5][a6][d6][f6][g6][b7][d7][f7][j7]"
    "[c8][g8][i8][c9][e9][b10]AW[h2][f3][g3][i3][g4][e5][g5][i5][e6][c7][e7][g7][h7]"
    "[b8][b9][d9][f9][g9][d10][e10][d4]PL[B])"
)


def random_board(rng: random.Random) -> tuple[int, int, int]:
    """``(size, black, white)``: 3x3 to 5x5 with 3 to 11 empty cells (either side may have
    more stones: the rule does not care whose turn it is)."""
    size = rng.choice([3, 4, 4, 5])
    cells = list(range(size * size))
    rng.shuffle(cells)
    taken = max(1, rng.randint(size * size - 11, size * size - 3))
    black = sum(1 << c for c in cells[:taken:2])
    white = sum(1 << c for c in cells[1:taken:2])
    return (size, black, white) if rng.random() < 0.5 else (size, white, black)


def truly_dead(size: int, black: int, white: int, cell: int) -> bool:
    """The colour of ``cell`` never changes who is joined, over every filling of the
    other empty cells (black's win decides: Hex has no draws)."""
    empty = [c for c in range(size * size) if not (black | white) >> c & 1 and c != cell]
    for bits in range(1 << len(empty)):
        filled = black | sum(1 << c for i, c in enumerate(empty) if bits >> i & 1)
        if connected(size, filled | 1 << cell, BLACK) != connected(size, filled, BLACK):
            return False
    return True


@pytest.mark.parametrize("width", [1, 2])
def test_a_cell_called_dead_is_dead_in_every_completion(width: int) -> None:
    rng = random.Random(10 + width)
    claims = 0
    for _ in range(150):
        size, black, white = random_board(rng)
        k = vc.knowledge(size, width)
        b, w = as_words(black, width), as_words(white, width)
        for cell in range(size * size):
            if (black | white) >> cell & 1:
                continue
            dead = is_dead(k.nbr, k.lines, b, w, cell)
            assert dead == is_dead.py_func(k.nbr, k.lines, b, w, cell)
            if dead:
                claims += 1
                assert truly_dead(size, black, white, cell), (size, black, white, cell)
    assert claims > 100  # the test is asked often enough to mean something


@pytest.mark.parametrize("width", [1, 2])
def test_filling_captured_pairs_keeps_the_value(width: int) -> None:
    rng = random.Random(20 + width)
    filled = 0
    for _ in range(150):
        size, black, white = random_board(rng)
        k = vc.knowledge(size, width)
        args = (size, k.nbr, k.lines, as_words(black, width), as_words(white, width))
        fb, fw = (as_int(x) for x in fill_far_pairs(*args))
        assert (fb, fw) == tuple(as_int(x) for x in fill_far_pairs.py_func(*args))
        assert fb & black == black and fw & white == white and not fb & fw
        if (fb, fw) == (black, white):
            continue
        filled += 1
        for mover in (BLACK, WHITE):
            given = mover_wins(size, black, white, mover)
            assert mover_wins(size, fb, fw, mover) == given, (size, black, white, mover)
    assert filled > 50


def test_the_pair_across_a_dead_end_that_the_ring_patterns_miss() -> None:
    """f8 and h8 each join white's groups f9-g9 and g7-h7; black's g8 between them has
    no other empty neighbour. A white stone on either leaves the other dead, so white
    captures the pair (filled, the 11x11 puzzle takes 679 analysed positions instead of
    31 435). The ring-pattern fill does not see it: the two cells do not touch."""
    p = parse_sgf(HENDERSON_86)
    n = p.size
    black = sum(1 << i for i, v in enumerate(p.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(p.board) if v == WHITE)
    k = vc.knowledge(n, 2)
    pair = {vertex_index(name, n) for name in ("f8", "h8")}
    _, ring_w = (
        as_int(x)
        for x in vc.fill_captured(n, k.ring, k.table, as_words(black, 2), as_words(white, 2))
    )
    assert not any(ring_w >> c & 1 for c in pair)
    _, fw = (
        as_int(x) for x in fill_far_pairs(n, k.nbr, k.lines, as_words(black, 2), as_words(white, 2))
    )
    assert all(fw >> c & 1 for c in pair)


def test_the_prefilled_helper_reads_fills_and_refuses_bad_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    helper = load("hex_prefilled")
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;FF[4]GM[11]SZ[4];AB[a1][b2]AW[c1]PL[W])")
    assert helper.stones_with(4, 0, 0, "b1 fw a2 fb") == (1 << 1, 1 << 4)
    assert helper.main(["--sgf", str(sgf), "--to-move", "white", "--fill", "b1 fx"]) == 2
    assert "fx" in capsys.readouterr().err
    assert (
        helper.main(["--sgf", str(sgf), "--to-move", "white", "--fill", "b1 fw", "--time", "5"])
        == 0
    )
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("as given: white") and lines[1].startswith("b1 fw: white")


#: MoHex's regression puzzle 11x11-henderson-71, black's winning move e8 played: white to
#: move.
HENDERSON_71 = (
    "(;FF[4]GM[11]SZ[11];AB[a2][k2][b3][d3][e3][e4][f4][g4][h4][i4][i5][f6][g6][i6][i7]"
    "[j7][h8][g9][i9][e8]AW[e1][k1][f2][f3][g3][h3][i3][d4][f5][g5][h5][h6][h7][d8][i8]"
    "[j8][h9][f10][g10]PL[W])"
)


def test_the_corner_whose_pairs_need_dead_ends_and_one_edge() -> None:
    """Black's corner c2 c3 d1 d2 after e8: white on c3 leaves white's c2 a dead end (its
    other empty neighbour c1 is black's pocket) and black's b3 and d3 groups both on the
    top edge; the pairs (c3, d2) and (c2, d1) are captured only with those two readings
    of the dead test (with the corner filled the prover needs about 1,100 positions
    after e8 instead of 8,800)."""
    p = parse_sgf(HENDERSON_71)
    n = p.size
    black = sum(1 << i for i, v in enumerate(p.board) if v == BLACK)
    white = sum(1 << i for i, v in enumerate(p.board) if v == WHITE)
    k = vc.knowledge(n, 2)
    rb, rw = (
        as_words(as_int(x), 2)
        for x in vc.fill_captured(n, k.ring, k.table, as_words(black, 2), as_words(white, 2))
    )
    fb = as_int(fill_far_pairs(n, k.nbr, k.lines, rb, rw)[0])
    corner = {vertex_index(name, n) for name in ("c2", "c3", "d1", "d2")}
    assert all(fb >> c & 1 for c in corner)
