"""The DFPN past 64 cells (``hex/prover/wide.py``) on two-word cell sets: its
proofs hold against plain minimax, its verdicts are the 64-cell search's on small boards,
the must-play question names only proven winning moves, and 9x9 to 11x11 are solved."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from tests.hex.test_solver_dfpn import KF, KS, WORK, bits, mover_wins

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.core.memory import resident_memory
from boardlab.hex import connections as vc
from boardlab.hex.cellsets import as_int, as_words
from boardlab.hex.prover import dfpn, verdicts
from boardlab.hex.prover.dfpn import Dfpn, OutOfBudgetError
from boardlab.hex.prover.inferior import dead_regions
from boardlab.hex.prover.solver import solve
from boardlab.hex.prover.wide import WideDfpn, board_array
from boardlab.hex.rules import BLACK, WHITE, Cell, Position, random_open_position

# these modules share the cached minimax oracle: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("minimax")


def with_proof(p: Position, regions: bool) -> tuple[int, int, int]:
    """``(verdict, moves, proof)`` on two-word sets, cell sets as Python ints: the
    prover's verdict with its dead regions and inferior cells (``regions``), else the
    shared verdict the engine asks (captured pairs and dead cells of the ring table)."""
    kb = vc.knowledge(p.size)
    black, white = (as_words(int(x), 2) for x in bits(p))
    none = np.empty((0, 4), np.uint64)
    if regions:
        verdict, _, moves, _, _, proof, _, _ = verdicts.analyse(
            p.size, kb.nbr, kb.lines, kb.ring, kb.table, black, white, p.to_move,
            KF, KS, WORK, none, True, none, kb.templates, True, True, True, True,
        )  # fmt: skip
        return int(verdict), as_int(moves), as_int(proof)
    fb, fw = vc.fill_captured(p.size, kb.ring, kb.table, black, white)
    dead = vc.dead_cells(p.size, kb.ring, kb.table, fb, fw)
    given = tuple(b | w for b, w in zip(black, white, strict=True))
    verdict, _, moves, proof, _, _ = vc.verdict(
        p.size, kb.nbr, kb.lines, kb.templates, fb, fw, given, dead, p.to_move,
        KF, KS, WORK, True, none, none, False, True,
    )  # fmt: skip
    return int(verdict), as_int(moves), as_int(proof)


def played(black: int, white: int, mover: int, cell: int) -> tuple[int, int]:
    """The stones after ``mover`` plays ``cell``."""
    return (black | 1 << cell, white) if mover == BLACK else (black, white | 1 << cell)


@pytest.mark.parametrize("regions", [False, True])
@pytest.mark.parametrize(("size", "count"), [(3, 60), (4, 120)])
def test_proofs_hold_against_minimax(size: int, count: int, regions: bool) -> None:
    """Give the loser every empty cell outside a WIN's or a LOSS's proof: the winner still
    wins; outside an OPEN proof every move left out of the must-play set still loses.
    With the prover's dead regions and inferior cells (``regions``) a move left out
    loses or is no better than a kept one: a kept move wins when the position does."""
    rng = random.Random(30 + size)
    checked = 0
    for _ in range(count):
        p = random_open_position(size, rng.randint(2, size * size // 2 + 1), rng)
        black, white = (int(x) for x in bits(p))
        mover = p.to_move
        empty = ((1 << size * size) - 1) & ~(black | white)
        verdict, moves, proof = with_proof(p, regions)
        assert proof & ~empty == 0, repr(p)
        rest = empty & ~proof
        if verdict == vc.OPEN and regions:
            kept = [i for i in range(size * size) if moves >> i & 1]
            won = any(
                not mover_wins(size, *played(black, white, mover, i), 3 - mover) for i in kept
            )
            assert won == mover_wins(size, black, white, mover), repr(p)
            checked += 1
            continue
        if verdict == vc.OPEN:
            # the mover is the loser of every move left out: give it the rest, each
            # left-out move still loses
            for cell in range(size * size):
                if empty >> cell & 1 and not moves >> cell & 1:
                    b, w = (black | rest, white) if mover == BLACK else (black, white | rest)
                    b, w = (b | 1 << cell, w) if mover == BLACK else (b, w | 1 << cell)
                    assert mover_wins(size, b, w, 3 - mover), repr(p)
                    checked += 1
            continue
        winner = mover if verdict == vc.WIN else 3 - mover
        b, w = (black, white | rest) if winner == BLACK else (black | rest, white)
        assert mover_wins(size, b, w, mover) == (winner == mover), repr(p)
        checked += 1
    assert checked > count // 2


@pytest.mark.parametrize(("size", "count"), [(3, 30), (4, 40), (5, 12)])
def test_wide_search_agrees_with_the_64_cell_search(size: int, count: int) -> None:
    rng = random.Random(300 + size)
    for _ in range(count):
        p = random_open_position(size, rng.randint(0, size * size // 2), rng)
        black, white = (int(x) for x in bits(p))
        narrow = Dfpn(size, Limit(nodes=10**9).start()).prove(black, white, p.to_move)
        wide = WideDfpn(size, Limit(nodes=10**9).start()).prove(black, white, p.to_move)
        assert wide == narrow, repr(p)
        if size <= 4:
            assert wide == mover_wins(size, black, white, p.to_move), repr(p)


def test_board_array_reads_both_words() -> None:
    board = board_array(11, 1 << 120 | 1 << 3, 1 << 64)
    assert board[120] == BLACK and board[3] == BLACK and board[64] == WHITE
    assert int(np.count_nonzero(board)) == 3


def test_the_must_play_question_names_only_winning_moves() -> None:
    """The winning moves among the must-play set are winning moves of the full
    classification, and the pruned and classified moves are every legal move."""
    rng = random.Random(7)
    seen_pruned = 0
    for _ in range(6):
        p = random_open_position(5, rng.randint(2, 8), rng)
        full = solve(p, Limit(nodes=10**9))
        asked = solve(p, Limit(nodes=10**9), mustplay=True)
        assert asked.winner == full.winner and asked.complete
        assert set(asked.winning_moves) <= set(full.winning_moves)
        assert bool(asked.winning_moves) == bool(full.winning_moves)
        moves = {*asked.winning_moves, *asked.losing_moves, *asked.pruned_moves}
        assert moves == {p.cell(i) for i in p.legal_indices()}
        seen_pruned += len(asked.pruned_moves)
    assert seen_pruned > 0


@pytest.mark.parametrize("size", [9, 11])
def test_large_boards_are_solved_by_dfpn(size: int) -> None:
    """Black (joining the columns) holds a whole row but one cell, white a row short of
    one edge: black to move wins, proven in a few analyses, and the move it names keeps
    the win."""
    gap = size // 2
    black = [Cell(1, c) for c in range(size) if c != gap]
    white = [Cell(size - 2, c) for c in range(size - 1)]
    p = Position.from_stones(size, black, white, BLACK)
    result = solve(p, Limit(nodes=50 * 200), all_moves=False)
    assert result.winner == BLACK and result.winning_moves
    assert 0 < result.nodes <= 10_000
    check = p.copy()
    check.play(result.winning_moves[0])
    assert solve(check, Limit(nodes=50 * 200), all_moves=False).winner == BLACK


def test_boards_past_11x11_keep_alpha_beta_and_refuse_the_must_play_question() -> None:
    p = Position.from_stones(12, [Cell(0, 0)], [Cell(5, 5)], BLACK)
    with pytest.raises(BoardlabError, match="11x11"):
        solve(p, Limit(nodes=100), mustplay=True)


def _winner_of_filled(size: int, black: int) -> int:
    """The winner of a filled board whose black stones are ``black``."""
    from tests.hex.test_solver_dfpn import connected

    return BLACK if connected(size, black, BLACK) else WHITE


@pytest.mark.parametrize(("size", "count"), [(3, 80), (4, 80)])
def test_dead_regions_are_dead_in_every_completion(size: int, count: int) -> None:
    """A cell :func:`dead_regions` names never changes the winner of any filling of
    the board (brute force over every filling of the other empty cells)."""
    rng = random.Random(77 + size)
    kb = vc.knowledge(size)
    named = 0
    for _ in range(count):
        p = random_open_position(size, rng.randint(size, size * size - 4), rng)
        black, white = (int(x) for x in bits(p))
        edges = tuple(as_words(as_int(kb.lines[k]), 2) for k in range(4))
        found = dead_regions(size, kb.ring, kb.table, edges, as_words(black, 2), as_words(white, 2))
        dead = as_int(found)
        empty = [i for i in range(size * size) if not (black | white) >> i & 1]
        for cell in (i for i in empty if dead >> i & 1):
            named += 1
            others = [i for i in empty if i != cell]
            for fill in range(1 << len(others)):
                b = black | sum(1 << i for k, i in enumerate(others) if fill >> k & 1)
                assert _winner_of_filled(size, b) == _winner_of_filled(size, b | 1 << cell), (
                    repr(p),
                    cell,
                )
    assert named > count // 4


def test_a_search_over_its_memory_budget_stops_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One byte of memory: the search stops at its first memory check with what it
    proved and names the memory as what stopped it; a finished one names nothing.

    The process's size is read as it is plus a kilobyte more at each reading: late in a
    test run the search may reuse memory earlier tests freed, and then the process does
    not grow at all in the 256 analyses before the first check (a clean clone's run
    once finished the search unstopped that way)."""
    grown = itertools.count(0, 1024)
    monkeypatch.setattr(dfpn, "resident_memory", lambda: resident_memory() + next(grown))
    stopped = solve(Position(7), Limit(nodes=10**9), all_moves=False, memory=1)
    assert stopped.stopped == "memory" and not stopped.complete
    assert stopped.as_dict()["stopped"] == "memory"
    finished = solve(Position(3), Limit(nodes=10**9), all_moves=False)
    assert finished.stopped is None and finished.winner == BLACK
    wide = WideDfpn(9, Limit(nodes=10**9).start(), memory=1)
    with pytest.raises(OutOfBudgetError):
        wide.prove(0, 0, BLACK)
    assert wide.stopped == "memory"
