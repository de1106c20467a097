"""The shared virtual connections on two and three words (``hex/connections.py``, the
engine's question): sound against plain minimax on small boards, the same verdicts as
the prover's one-word kernel (or more, checked by the exact solver) and on two words as
on three, consistent on 11x11 and 13x13; the fourth-row templates decide what H-search
alone misses."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.hex.test_solver_dfpn import (
    KF,
    KS,
    NONE,
    WORK,
    bits,
    mover_wins,
    tables,
    wins_with_one_of,
)
from tests.hex.test_solver_dfpn import analyse as analyse_one_word

from boardlab.core.limits import Limit
from boardlab.hex import board
from boardlab.hex import connections as vc
from boardlab.hex.cellsets import as_int
from boardlab.hex.player import SolvingEngine
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import BLACK, WHITE, Cell, Position, random_open_position

# these modules share the cached minimax oracle: one xdist worker runs them all
pytestmark = pytest.mark.xdist_group("minimax")


def analyse(
    p: Position,
    kf: int = KF,
    ks: int = KS,
    work: int = WORK,
    width: int = 2,
    thorough: bool = True,
) -> tuple[int, int, int]:
    """``(verdict, move, moves)`` with the must-play set as one Python int, on sets of
    ``width`` words (a light analysis with ``thorough`` False)."""
    kb = vc.knowledge(p.size, width)
    board = np.array(p.board, np.int8)
    like = tuple(np.uint64(0) for _ in range(width))
    verdict, move, moves = vc.analyse(
        p.size, kb.nbr, kb.lines, kb.ring, kb.table, kb.templates, board, p.to_move, kf, ks, work,
        like, thorough,
    )  # fmt: skip
    return int(verdict), int(move), as_int(moves[0])


def after(p: Position, move: int) -> tuple[int, int]:
    black, white = (int(x) for x in bits(p))
    return (black | 1 << move, white) if p.to_move == 1 else (black, white | 1 << move)


@pytest.mark.parametrize(("size", "low", "count"), [(3, 0, 60), (4, 3, 120)])
def test_verdicts_are_sound_against_minimax(size: int, low: int, count: int) -> None:
    """A WIN's move wins, a LOSS is lost, and an OPEN position's must-play set holds a
    winning move exactly when the position is won."""
    rng = random.Random(size)
    seen = {vc.WIN: 0, vc.LOSS: 0, vc.OPEN: 0}
    pruned = 0
    for _ in range(count):
        p = random_open_position(size, rng.randint(low, size * size // 2 + 1), rng)
        black, white = (int(x) for x in bits(p))
        mover = p.to_move
        wins = mover_wins(size, black, white, mover)
        verdict, move, moves = analyse(p)
        seen[verdict] += 1
        if verdict == vc.WIN:
            assert wins and p.board[move] == 0, repr(p)
            assert not mover_wins(size, *after(p, move), 3 - mover), repr(p)
        elif verdict == vc.LOSS:
            assert not wins, repr(p)
        else:
            kept = [i for i in range(size * size) if moves >> i & 1]
            assert kept and all(p.board[i] == 0 for i in kept), repr(p)
            won = any(not mover_wins(size, *after(p, i), 3 - mover) for i in kept)
            assert won == wins, repr(p)
            pruned += sum(1 for i in p.legal_indices() if i not in kept)
    assert seen[vc.WIN] and seen[vc.LOSS] and (size < 4 or seen[vc.OPEN]), seen
    assert size < 4 or pruned, pruned


def test_a_light_analysis_is_sound_and_leaves_the_movers_wins_open() -> None:
    """The light analysis (the opponent's connections only) is sound against minimax as
    the thorough one is, decides every LOSS the thorough one decides, and leaves open
    some positions the thorough one wins by a connection of the mover's."""
    rng = random.Random(44)
    left_open = 0
    for _ in range(120):
        p = random_open_position(4, rng.randint(3, 9), rng)
        black, white = (int(x) for x in bits(p))
        mover = p.to_move
        wins = mover_wins(4, black, white, mover)
        verdict, move, moves = analyse(p, thorough=False)
        full = analyse(p)[0]
        assert (verdict == vc.LOSS) == (full == vc.LOSS), repr(p)
        if verdict == vc.WIN:
            assert not mover_wins(4, *after(p, move), 3 - mover), repr(p)
        elif verdict == vc.LOSS:
            assert not wins, repr(p)
        else:
            kept = [i for i in range(16) if moves >> i & 1]
            won = any(not mover_wins(4, *after(p, i), 3 - mover) for i in kept)
            assert won == wins, repr(p)
            left_open += full == vc.WIN
    assert left_open > 0


@pytest.mark.parametrize("size", [5, 6, 8])
def test_same_verdicts_as_the_solver_kernel(size: int) -> None:
    """With the same bounds the two-word search decides what the 64-bit one (without the
    prover's captured pairs at any distance and the regions local games settle) decides,
    the same way; it may decide more (its fourth-row edge templates, see
    ``test_edge_templates_hold_at_every_edge``); where both leave the position open the
    solver's kernel, which prunes inferior cells too, keeps a subset of its moves."""
    nbr, lines = tables(size)
    ring, table = board.ring_neighbours(size), board.dead_ring_table()
    rng = random.Random(50 + size)
    differ = 0
    for _ in range(25):
        p = random_open_position(size, rng.randint(2, size * size // 2), rng)
        black, white = bits(p)
        old = analyse_one_word(
            size, nbr, lines, ring, table, black, white, p.to_move, KF, KS, WORK, NONE, True,
            NONE, far_pairs=False, local_games=False,
        )  # fmt: skip
        verdict, _, moves = analyse(p)
        assert verdict == int(old[0]) or int(old[0]) == vc.OPEN, repr(p)
        if verdict == int(old[0]) and (verdict != vc.OPEN or int(old[1]) & ~moves == 0):
            continue
        # a template decided it or narrowed the must-play set: the exact solver agrees
        exact = solve(p, Limit(nodes=5_000_000))
        assert exact.complete, repr(p)
        if verdict == vc.OPEN:
            assert all(moves >> p.index(c) & 1 for c in exact.winning_moves), repr(p)
        else:
            assert (exact.winner == p.to_move) == (verdict == vc.WIN), repr(p)
        differ += 1
    assert size < 8 or differ, "the edge templates never made a difference on 8x8"


@pytest.mark.parametrize(("size", "width"), [(11, 2), (13, 3)])
def test_wins_are_kept_after_the_winning_move(size: int, width: int) -> None:
    """On 11x11 (cells past the first word) and 13x13 (three words): after a WIN's move
    the opponent is LOSS (a wider search than the one that found the win: a bounded
    search from nothing may miss what another found), and every must-play cell is
    empty."""
    rng = random.Random(size)
    wins = 0
    for _ in range(30):
        p = random_open_position(size, rng.randint(30, 70) * size * size // 121, rng)
        verdict, move, moves = analyse(p, 12, 16, 100_000, width)
        if verdict == vc.WIN:
            wins += 1
            assert p.board[move] == 0
            nxt = p.copy()
            nxt.push_index(move)
            if nxt.winner is None:
                assert analyse(nxt, 32, 48, 2_000_000, width)[0] == vc.LOSS, repr(p)
        elif verdict == vc.OPEN:
            assert all(p.board[i] == 0 for i in range(size * size) if moves >> i & 1)
    assert wins, "no won position met"


def test_three_words_give_the_verdicts_of_two() -> None:
    """The same 11x11 positions analysed on two-word and three-word sets: the same
    verdict, move and must-play set (the width changes the machine code, not the rules)."""
    rng = random.Random(3)
    for _ in range(12):
        p = random_open_position(11, rng.randint(20, 60), rng)
        assert analyse(p, width=2) == analyse(p, width=3), repr(p)


def test_boards_past_thirteen_and_sets_too_narrow_are_refused() -> None:
    with pytest.raises(ValueError, match="13x13"):
        vc.knowledge(14, 4)
    with pytest.raises(ValueError, match="2 words"):
        vc.knowledge(13, 2)


def tree_proves_soundly(engine: SolvingEngine, p: Position, wins: bool) -> int:
    """Search ``p`` (4x4; ``wins``: minimax says the mover wins) with the root analysis
    off, so the tree's alone is tested: a proven move wins, a proven loss is lost.
    Returns the search's proven count."""
    engine.connections = False
    result = engine.search(p, Limit(nodes=300))
    if result.verdict == 1:
        assert not mover_wins(4, *after(p, p.index(result.cell)), 3 - p.to_move), repr(p)
    elif result.verdict == -1:
        assert not wins, repr(p)
    return int(result.proven)


def test_tree_knowledge_proves_soundly_and_more() -> None:
    """With nodes analysed after two visits, the engine's proven moves win and its proven
    losses are lost (minimax on 4x4); it proves more than the tree alone at the same
    playouts."""
    from boardlab.hex.player import SolvingEngine

    rng = random.Random(4)
    proven = {True: 0, False: 0}
    for i in range(40):
        p = random_open_position(4, rng.randint(0, 6), rng)
        black, white = (int(x) for x in bits(p))
        wins = mover_wins(4, black, white, p.to_move)
        for on in (True, False):
            engine = SolvingEngine(
                seed=i,
                solver_empties=0,
                connections=on,
                knowledge_visits=2 if on else 0,
                expand_threshold=1,
            )
            proven[on] += tree_proves_soundly(engine, p, wins)
    assert proven[True] > proven[False], proven


def test_tree_knowledge_asked_before_expansion_still_analyses() -> None:
    """Knowledge asked for at fewer visits than a leaf needs to get its children (2
    against the default 4) is given once the node has them, not never."""
    from boardlab.core.limits import Limit
    from boardlab.hex.player import SolvingEngine

    rng = random.Random(4)
    proven = {True: 0, False: 0}
    for i in range(10):
        p = random_open_position(4, rng.randint(0, 6), rng)
        for on in (True, False):
            engine = SolvingEngine(
                seed=i, solver_empties=0, connections=on, knowledge_visits=2 if on else 0
            )
            assert engine.params[6] == (5.0 if on else 0.0)
            engine.connections = False  # the root analysis off: the tree's alone is tested
            proven[on] += engine.search(p, Limit(nodes=300)).proven
    assert proven[True] > proven[False], proven


def test_the_engine_reads_connections_on_13x13() -> None:
    """On 13x13 (three-word sets) the engine plays a connection its root analysis finds,
    and a search with the tree's analysis after two visits proves positions late in a
    game that the tree alone leaves open at the same playouts."""
    from boardlab.core.limits import Limit
    from boardlab.hex.player import SolvingEngine

    rng = random.Random(13)
    won = 0
    proven = {True: 0, False: 0}
    for i in range(12):
        p = random_open_position(13, rng.randint(60, 110), rng)
        verdict, move, _ = analyse(p, width=3)
        engine = SolvingEngine(seed=i, solver_empties=0)
        result = engine.search(p, Limit(nodes=200))
        if verdict == vc.WIN:
            won += 1
            assert result.verdict == 1 and p.index(result.cell) == move, repr(p)
        for on in (True, False):
            tree = SolvingEngine(
                seed=i, solver_empties=0, connections=on, knowledge_visits=2 if on else 0
            )
            tree.connections = False  # the root analysis off: the tree's alone is tested
            proven[on] += tree.search(p, Limit(nodes=300)).proven
    assert won, "no won position met"
    assert proven[True] > proven[False], proven
    # the three-word kernels were loaded before the first 13x13 search, outside its limit
    from boardlab.hex.engine import search

    assert search._vc_width(13) == 3 and 3 in search._WARM


@pytest.mark.parametrize(("size", "count"), [(4, 150), (7, 40)])
def test_inferior_pruning_keeps_a_winning_move(size: int, count: int) -> None:
    """The engine's must-play set less the mover's vulnerable and dominated cells
    (:func:`boardlab.hex.inferior.pruned_moves`) holds a winning move whenever the
    position is won (plain minimax on 4x4, the exact solver's every winning move on
    7x7, where the connections leave more positions open), and is never empty."""
    from boardlab.hex.inferior import pruned_moves

    rng = random.Random(size + 40)
    pruned = 0
    kb = vc.knowledge(size)
    like = (np.uint64(0), np.uint64(0))
    for _ in range(count):
        p = random_open_position(size, rng.randint(size * size // 4, size * size // 2), rng)
        verdict, _, moves = analyse(p)
        if verdict != vc.OPEN:
            continue
        row = np.array([vc.as_words(moves, 2)], np.uint64)
        board_ = np.array(p.board, np.int8)
        kept = as_int(pruned_moves(size, kb.ring, kb.table, board_, p.to_move, row, like))
        assert kept & ~moves == 0 and kept, repr(p)
        pruned += kept != moves
        if size <= 4:
            black, white = (int(x) for x in bits(p))
            if mover_wins(size, black, white, p.to_move):
                assert wins_with_one_of(size, black, white, p.to_move, kept), repr(p)
        else:
            exact = solve(p, Limit(nodes=5_000_000))
            assert exact.complete, repr(p)
            if exact.winner == p.to_move:
                assert any(kept >> p.index(c) & 1 for c in exact.winning_moves), repr(p)
    assert size <= 4 or pruned, "no move was ever pruned"


def test_the_engine_with_light_tree_knowledge_proves_soundly() -> None:
    """With the tree's light analysis after two visits, the engine's proven moves win and
    its proven losses are lost (minimax on 4x4), and it still proves positions."""
    from boardlab.hex.player import SolvingEngine

    rng = random.Random(4)  # the positions of the tests above: minimax cached
    proven = 0
    for i in range(40):
        p = random_open_position(4, rng.randint(0, 6), rng)
        black, white = (int(x) for x in bits(p))
        wins = mover_wins(4, black, white, p.to_move)
        engine = SolvingEngine(
            seed=i, solver_empties=0, knowledge_visits=2, expand_threshold=1, light_knowledge=True
        )
        proven += tree_proves_soundly(engine, p, wins)
    assert proven > 0


def test_the_engine_with_inferior_pruning_proves_soundly() -> None:
    """With the tree's analysis after two visits and inferior pruning on, the engine's
    proven moves win and its proven losses are lost (minimax on 4x4)."""
    from boardlab.core.limits import Limit
    from boardlab.hex.player import SolvingEngine

    rng = random.Random(4)  # the positions of the test above: minimax cached
    for i in range(40):
        p = random_open_position(4, rng.randint(0, 6), rng)
        black, white = (int(x) for x in bits(p))
        wins = mover_wins(4, black, white, p.to_move)
        engine = SolvingEngine(seed=i, solver_empties=0, knowledge_visits=2, inferior=True)
        result = engine.search(p, Limit(nodes=300))
        if result.verdict == 1:
            assert not mover_wins(4, *after(p, p.index(result.cell)), 3 - p.to_move), repr(p)
        elif result.verdict == -1:
            assert not wins, repr(p)


def test_fourth_row_templates_decide_what_h_search_alone_misses() -> None:
    """A stone on the fourth row of an empty region, hanging from the far edge: the
    connection is found at each of the four edges on 11x11 (H-search alone stops at the
    third row)."""
    n = 11
    for depth, want in ((3, vc.LOSS), (4, vc.OPEN)):
        top = n - 1 - depth
        chains = [
            ([], [Cell(r, 5) for r in range(top + 1)], BLACK),
            ([], [Cell(r, 5) for r in range(depth, n)], BLACK),
            ([Cell(5, c) for c in range(top + 1)], [], WHITE),
            ([Cell(5, c) for c in range(depth, n)], [], WHITE),
        ]
        for black, white, to_move in chains:
            p = Position.from_stones(n, black, white, to_move=to_move)
            assert analyse(p)[0] == want, (depth, repr(p))
