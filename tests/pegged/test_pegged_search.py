"""Tests of the PEGGED search: kernel against its twin, exact search against brute force."""

from __future__ import annotations

import random
from collections import deque

import numpy as np
import pytest

from boardlab.core.errors import LimitExceededError, NoSolutionError
from boardlab.core.limits import Limit
from boardlab.pegs.boards import board_from_rows
from boardlab.pegs.formats import parse_board_file
from boardlab.pegs.judge import judge_moves
from boardlab.pegs.pegged import PeggedNoAnswer, PeggedResult, PeggedSolver
from boardlab.pegs.pegged._kernel import children
from boardlab.pegs.pegged.bounds import class_walk_bound, walk_lower_bound
from boardlab.pegs.pegged.exact import exact_search
from boardlab.pegs.pegged.greedy import greedy_moves
from boardlab.pegs.pegged.search import children_reference, tables_for
from boardlab.pegs.rules import Position


def random_position(rng: random.Random, rows: int, cols: int, pegs: int) -> Position:
    holes = [(r, c) for r in range(rows) for c in range(cols) if rng.random() < 0.8]
    holes.append((rows // 2, cols // 2))
    board = board_from_rows("random", sorted(set(holes)), rows, cols)
    chosen = rng.sample(range(board.size), min(pegs, board.size - 1))
    bits = sum(1 << i for i in chosen)
    return Position(board, bits, walks=True)


def brute_force(position: Position) -> tuple[int, int] | None:
    """Fewest walks, then the least centre distance: 0-1 BFS over every position."""
    board = position.board
    grid = board.grid
    best = {position.bits: 0}
    queue = deque([position.bits])
    while queue:
        bits = queue.popleft()
        cost = best[bits]
        moves = [
            (bits ^ (1 << a | 1 << b | 1 << c), 0)
            for a, b, c in grid.jumps
            if bits >> a & 1 and bits >> b & 1 and not bits >> c & 1
        ]
        moves += [
            (bits ^ (1 << u | 1 << v), 1)
            for u, v in grid.steps
            if bits >> u & 1 and not bits >> v & 1
        ]
        for nxt, extra in moves:
            if nxt not in best or best[nxt] > cost + extra:
                best[nxt] = cost + extra
                if extra:
                    queue.append(nxt)
                else:
                    queue.appendleft(nxt)
    finals = [
        (walks, board.distance_to_centre(board.cells[bits.bit_length() - 1]) or 0)
        for bits, walks in best.items()
        if bits and bits & (bits - 1) == 0
    ]
    return min(finals) if finals else None


@pytest.mark.parametrize("seed", range(12))
def test_kernel_children_match_the_twin(seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(rng, 5, 7, rng.randint(2, 9))
    tables = tables_for(position.board)
    n = position.board.size
    cur = np.array([position.bits >> i & 1 for i in range(n)], dtype=np.uint8)
    out = np.zeros((64 * n, 6), dtype=np.int32)
    dist = np.full(n, -1, dtype=np.int32)
    queue = np.zeros(n, dtype=np.int32)
    for eager, slack in ((0, 0), (0, 1), (1, 1), (1, 2)):
        count = children(
            cur, tables.nbr, tables.trapped, np.int64(eager), np.int64(slack), out, dist, queue
        )
        got = {tuple(row) for row in out[:count].tolist()}
        want = children_reference(
            cur.tolist(), tables.nbr.tolist(), tables.trapped.tolist(), bool(eager), slack
        )
        assert got == want
        assert len(got) == count
        assert (dist == -1).all()


@pytest.mark.parametrize("seed", range(10))
def test_exact_search_matches_brute_force(seed: int) -> None:
    rng = random.Random(100 + seed)
    position = random_position(rng, 3, 5, rng.randint(2, 5))
    answer = exact_search(position)
    assert answer is not None
    expected = brute_force(position)
    if expected is None:
        assert answer.moves is None
        return
    assert answer.moves is not None
    verdict = judge_moves(position, answer.moves)
    assert verdict.solved
    assert (verdict.walks, verdict.tiebreak) == expected
    assert walk_lower_bound(position) <= expected[0]
    assert class_walk_bound(position) <= expected[0]


@pytest.mark.parametrize("seed", range(8))
def test_solver_answers_are_always_judge_valid(seed: int) -> None:
    rng = random.Random(200 + seed)
    position = random_position(rng, 7, 9, rng.randint(2, 14))
    solver = PeggedSolver(Limit(nodes=2000), seed=seed, exact_holes=0)
    try:
        result = solver.solve(position)
    except ValueError:
        assert greedy_moves(position) is None
        return
    verdict = judge_moves(position, result.moves)
    assert verdict.solved
    assert verdict.walks == result.walks
    assert verdict.tiebreak == result.tiebreak
    assert result.bound <= result.moves_count


@pytest.mark.parametrize("seed", range(6))
def test_exact_solver_is_optimal_on_tiny_boards(seed: int) -> None:
    rng = random.Random(300 + seed)
    position = random_position(rng, 3, 5, rng.randint(2, 5))
    expected = brute_force(position)
    if expected is None:
        with pytest.raises(ValueError):
            PeggedSolver(Limit(nodes=200_000)).solve(position)
        return
    result = PeggedSolver(Limit(nodes=200_000)).solve(position)
    assert result.proven
    assert (result.walks, result.tiebreak) == expected
    assert result.bound == position.peg_count - 1 + expected[0]


@pytest.mark.parametrize("seed", range(6))
def test_greedy_baseline_is_valid(seed: int) -> None:
    rng = random.Random(400 + seed)
    position = random_position(rng, 7, 9, rng.randint(2, 12))
    moves = greedy_moves(position)
    if moves is not None:
        assert judge_moves(position, moves).solved


def text_of(rng: random.Random, rows: int, cols: int) -> str:
    cells = "".join(rng.choice("__OOXX") for _ in range(rows * cols))
    return "".join(cells[r * cols : (r + 1) * cols] + "\n" for r in range(rows))


def test_the_checks_characterise_solvable_boards() -> None:
    """A board passes load_board exactly when brute force reduces it to one peg."""
    from boardlab.core.errors import BoardlabError
    from boardlab.pegs.formats import parse_board_file
    from boardlab.pegs.pegged import load_board

    rng = random.Random(7)
    accepted = rejected = 0
    for _ in range(400):
        rows, cols = rng.choice([(3, 3), (3, 5), (5, 3)])
        text = text_of(rng, rows, cols)
        parsed = parse_board_file(text)
        centre_ok = parsed.board.has_hole(parsed.board.cells[0].__class__(rows // 2, cols // 2))
        if parsed.peg_count == 0 or not centre_ok:
            continue
        start = Position(parsed.board, parsed.bits, walks=True)
        solvable = brute_force(start) is not None
        try:
            load_board(text)
        except BoardlabError as error:
            assert "cannot be reduced" in str(error)
            assert not solvable
            rejected += 1
        else:
            assert solvable
            accepted += 1
    assert accepted > 50 and rejected > 5


@pytest.mark.parametrize("seed", range(30))
def test_greedy_always_finishes_on_accepted_boards(seed: int) -> None:
    """The rearrangement fallback makes the baseline complete, even on crowded boards."""
    from boardlab.core.errors import BoardlabError
    from boardlab.pegs.pegged import load_board

    rng = random.Random(500 + seed)
    rows, cols = rng.choice([(3, 5), (5, 5), (5, 7), (3, 9)])
    cells = "".join(rng.choice("_OXXXX") for _ in range(rows * cols))
    text = "".join(cells[r * cols : (r + 1) * cols] + "\n" for r in range(rows))
    try:
        start = load_board(text)
    except BoardlabError:
        return
    moves = greedy_moves(start)
    assert moves is not None
    assert judge_moves(start, moves).solved


@pytest.mark.parametrize("text", ["XXX__\n__X__\n__XOO\n", "XXXXX\n__X_X\nOOXXX\n"])
def test_rearrangement_puts_pegs_in_a_jumping_line(text: str) -> None:
    from boardlab.pegs.cells import Walk
    from boardlab.pegs.pegged import load_board
    from boardlab.pegs.pegged.greedy import _rearrange_for_a_jump

    start = load_board(text)
    board = start.board
    cur = [start.bits >> i & 1 for i in range(board.size)]
    walks = _rearrange_for_a_jump(cur, board.grid.neighbours, board.grid.jumps)
    assert walks is not None
    moves = [Walk(board.cells[u], board.cells[v]) for u, v in walks]
    position = start.copy()
    for move in moves:
        position.play(move)
    assert position.legal_jumps()
    assert position.bits == sum(1 << i for i, has in enumerate(cur) if has)


def test_contact_bound_examples() -> None:
    from boardlab.pegs.pegged import load_board
    from boardlab.pegs.pegged.bounds import contact_walk_bound

    assert contact_walk_bound(load_board("XOXOO\nOOOOO\nOOOOO\n")) == 1
    assert contact_walk_bound(load_board("XXOXO\nOOOOO\nOOOOO\n")) == 0  # s^2 + s^3 = s
    assert contact_walk_bound(load_board("OOOOOOO\nXOOOOOX\nOOOOOOO\n")) == 2


@pytest.mark.parametrize("seed", range(40))
def test_every_bound_is_below_the_brute_force_optimum(seed: int) -> None:
    from boardlab.pegs.pegged.bounds import contact_walk_bound, trapped_walk_bound

    rng = random.Random(600 + seed)
    position = random_position(rng, 3, rng.choice([3, 5]), rng.randint(2, 4))
    expected = brute_force(position)
    if expected is None:
        return
    assert contact_walk_bound(position) <= expected[0]
    assert trapped_walk_bound(position) <= expected[0]
    assert class_walk_bound(position) <= expected[0]


def test_the_time_limit_is_kept_on_a_64_hole_board() -> None:
    """The beam starts a run only when it is expected to fit the time left (it once
    answered after 7.5 s with 3 s given); the margin here is for a loaded machine."""
    import time

    from boardlab.pegs.pegged import load_board
    from boardlab.pegs.pegged.generate import random_board_text

    start = load_board(random_board_text(11, 7, 30, seed=0, density=0.85))
    assert start.board.size == 64
    began = time.perf_counter()
    result = PeggedSolver(Limit(time=1.0)).solve(start)
    assert time.perf_counter() - began < 2.0
    assert judge_moves(start, result.moves).solved


def test_no_answer_is_a_result_and_solve_raises_it() -> None:
    """``answer`` gives the proof or the limit as a PeggedNoAnswer with its evidence;
    ``solve`` raises it (NoSolutionError, LimitExceededError) with the same words."""
    apart = parse_board_file("_____\n_____\nXOO_X\n_____\n_____\n")  # a contest board
    found = PeggedSolver(Limit(nodes=100)).answer(apart)
    assert isinstance(found, PeggedNoAnswer) and found.proven and found.bound is None
    assert "can never meet" in found.reason and not found.as_dict()["solved"]
    # no hole in the centre: no contest board, so the exhaustive search gives the proof
    off = parse_board_file("_____\n_____\nXO_OX\n_____\n_____\n")
    found = PeggedSolver(Limit(nodes=100)).answer(off)
    assert isinstance(found, PeggedNoAnswer) and found.proven and found.nodes == 4
    assert found.reason.endswith("one peg (exhaustive search of 4 positions)")
    with pytest.raises(NoSolutionError, match="exhaustive search of 4 positions"):
        PeggedSolver(Limit(nodes=100)).solve(off)
    beams = PeggedSolver(Limit(nodes=100), exact_holes=0)
    found = beams.answer(off)
    assert isinstance(found, PeggedNoAnswer) and not found.proven and found.nodes > 0
    with pytest.raises(LimitExceededError, match=found.reason):
        beams.solve(off)
    record = found.as_dict()
    assert record["solution"] == [] and record["method"] == PeggedResult.method


def test_a_result_says_why_in_words() -> None:
    one = parse_board_file("___\n_X_\n___\n")
    found = PeggedSolver(Limit(nodes=100)).answer(one)
    assert isinstance(found, PeggedResult) and found.solved and found.reason == "one peg left"
    example = parse_board_file("__OO_\n__OO_\nOOXOO\nOOOOX\n____X\n")
    record = PeggedSolver(Limit(nodes=10_000), seed=1).answer(example).as_dict()
    assert record["reason"] == "3 moves (1 walk), optimal (exhaustive search)"
    assert record["goal"] == "one peg anywhere (PEGGED rules)" and record["solved"] is True
