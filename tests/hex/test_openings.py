"""Every opening proven into a work folder, its proofs replayed by the checker.

The checker (:mod:`boardlab.hex.proofcheck`) imports no prover code; here it accepts the
stored proofs of 3x3 and 4x4 openings (and two of 5x5), and refuses a proof whose
winner's move was replaced by a losing one or whose loser's reply was dropped. The runs
give the same winners on one worker and on two, resume from a folder, and compare with
the published winners.
"""

from __future__ import annotations

import copy
import gzip
import json
import os
import random
import signal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from tests.hex.cli_run import run_hex

from boardlab.cluster.process_engine import ProcessEngine
from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import neighbours, rotated, vertex, vertex_index
from boardlab.hex.proofcheck import (
    BRUTE_EMPTY,
    check_proof,
    check_proof_file,
    edges_joined,
    read_proof,
)
from boardlab.hex.prover import openings
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.openings import opening_cells, published_winners, run_openings
from boardlab.hex.prover.prooftree import PLAY_OUT
from boardlab.hex.prover.solver import solve
from boardlab.hex.rules import Position


def test_the_leaf_sizes_agree() -> None:
    assert PLAY_OUT == BRUTE_EMPTY


def test_the_writer_writes_the_format_the_checker_reads() -> None:
    from boardlab.hex import proofcheck
    from boardlab.hex.prover import prooftree

    assert (prooftree.FORMAT, prooftree.VERSION) == (proofcheck.FORMAT, proofcheck.VERSION)


# -- a plain minimax, the tests' own (3x3 openings, small positions) --------------------


def joined(n: int, stones: int, player: int) -> bool:
    """Flood fill over a set of cells from one of ``player``'s edges to the other."""
    first = [r * n for r in range(n)] if player == 1 else list(range(n))
    last = {r * n + n - 1 for r in range(n)} if player == 1 else {(n - 1) * n + c for c in range(n)}
    todo = [c for c in first if stones >> c & 1]
    seen = set(todo)
    while todo:
        cell = todo.pop()
        if cell in last:
            return True
        for other in neighbours(n)[cell]:
            if stones >> other & 1 and other not in seen:
                seen.add(other)
                todo.append(other)
    return False


@cache
def mover_wins(n: int, black: int, white: int, player: int) -> bool:
    if joined(n, black, 1) or joined(n, white, 2):
        return joined(n, black if player == 1 else white, player)
    for cell in range(n * n):
        if not (black | white) >> cell & 1:
            b, w = (black | 1 << cell, white) if player == 1 else (black, white | 1 << cell)
            if not mover_wins(n, b, w, 3 - player):
                return True
    return False


def test_the_checkers_flood_fill_against_a_plain_one() -> None:
    rng = random.Random(3)
    for n in range(1, 9):
        for _ in range(300):
            stones = rng.getrandbits(n * n) | rng.getrandbits(n * n) & rng.getrandbits(n * n)
            for player in (1, 2):
                assert edges_joined(n, stones, player) == joined(n, stones, player)


def test_3x3_openings_against_minimax(tmp_path: Path) -> None:
    run = run_openings(3, tmp_path, proofs=True)
    assert run.complete and len(run.results) == 9
    for result in run.results:
        white_wins = mover_wins(3, 1 << result.opening, 0, 2)
        assert result.winner == (2 if white_wins else 1), vertex(result.opening, 3)
        if result.reply is not None:
            assert not mover_wins(3, 1 << result.opening, 1 << result.reply, 1)
        assert result.proof is not None
        assert check_proof_file(tmp_path / result.proof).ok
    assert {r.searched for r in run.results} == set(opening_cells(3))
    assert sum(r.searched != r.opening for r in run.results) == 4  # the turned twins


# -- the checker on the stored 4x4 proofs, and on tampered ones ---------------------------


@pytest.fixture(scope="module")
def four(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, openings.OpeningsRun]:
    folder = tmp_path_factory.mktemp("openings4")
    return folder, run_openings(4, folder, proofs=True)


def test_4x4_proofs_are_accepted(four: tuple[Path, openings.OpeningsRun]) -> None:
    folder, run = four
    assert run.complete
    for result in run.results:
        assert result.proof is not None
        answer = check_proof_file(folder / result.proof)
        assert answer.ok, (vertex(result.opening, 4), answer.line())
        assert answer.nodes == result.proof_nodes or result.searched != result.opening
    # the solver's classification of the empty board agrees with the openings' winners
    whole = solve(Position(4), Limit(time=60))
    black_wins = {cell.index(4) for cell in whole.winning_moves}
    assert {r.opening for r in run.results if r.winner == 1} == black_wins


def walk(proof: dict[str, Any]) -> list[tuple[int, int, int, int]]:
    """Every node of a proof with its position, as the checker reaches it (no checks):
    ``(index, black, white, to_move)``, the loser's fill applied."""
    n, winner = proof["size"], proof["winner"]
    full = (1 << (n * n)) - 1
    root = proof["root"]
    out, seen = [], set()
    stack = [(0, root["black"], root["white"], root["to_move"])]
    while stack:
        index, black, white, to_move = stack.pop()
        if index in seen:
            continue
        seen.add(index)
        kept, moves = proof["nodes"][index][:2]
        if moves:
            fill = full & ~(black | white) & ~kept
            black, white = (black | fill, white) if winner == 2 else (black, white | fill)
        out.append((index, black, white, to_move))
        for cell, child in moves:
            b, w = (black | 1 << cell, white) if to_move == 1 else (black, white | 1 << cell)
            stack.append((child, b, w, 3 - to_move))
    return out


def test_a_losing_winners_move_is_refused(four: tuple[Path, openings.OpeningsRun]) -> None:
    folder, run = four
    tampered = 0
    for result in run.results:
        if result.searched != result.opening or result.winner != 2:
            continue
        proof = read_proof(folder / str(result.proof))
        # the root: white to move; replace the winning reply by one of white's losing moves
        position = Position(4)
        position.play_index(result.opening)
        losing = solve(position, Limit(time=60)).losing_moves
        bad = copy.deepcopy(proof)
        bad["nodes"][0][0] = (1 << 16) - 1 - (1 << result.opening)  # every empty cell kept
        bad["nodes"][0][1][0][0] = losing[0].index(4)
        answer = check_proof(bad)
        assert not answer.ok, vertex(result.opening, 4)
        tampered += 1
    assert tampered >= 4


def test_a_dropped_losers_reply_is_refused(four: tuple[Path, openings.OpeningsRun]) -> None:
    folder, run = four
    for result in run.results:
        if result.searched != result.opening:
            continue
        proof = read_proof(folder / str(result.proof))
        for index, _, _, to_move in walk(proof):
            moves = proof["nodes"][index][1]
            if to_move != proof["winner"] and len(moves) > 1:
                bad = copy.deepcopy(proof)
                dropped = bad["nodes"][index][1].pop()
                answer = check_proof(bad)
                assert not answer.ok
                assert "have no answer" in answer.reason
                assert vertex(dropped[0], 4) in answer.reason
                break


def test_a_leaf_the_winner_loses_is_refused(four: tuple[Path, openings.OpeningsRun]) -> None:
    """A node cut short into a leaf: the checker plays it out or finds no chain."""
    folder, run = four
    result = next(r for r in run.results if r.winner == 1 and r.searched == r.opening)
    proof = read_proof(folder / str(result.proof))
    bad = copy.deepcopy(proof)
    bad["nodes"][0] = [0, [], []]  # white to move, every empty cell given to white
    assert not check_proof(bad).ok


def test_5x5_proofs_are_accepted(tmp_path: Path) -> None:
    """The corner opening of 5x5 (its tree is the smallest: about 1,500 nodes)."""
    for part in ("openings", "store", "proofs"):
        (tmp_path / part).mkdir()
    for name in ("a1",):
        cell = vertex_index(name, 5)
        done = openings.prove_opening(str(tmp_path), 5, cell, None, None, None, True)
        assert done["proven"] and done["winner"] == 2
        answer = check_proof_file(tmp_path / str(done["proof"]))
        assert answer.ok, answer.line()
        assert answer.root_move == done["reply"]
        assert answer.leaves["connection"] >= 1  # white's reply leaves a full connection
        # proven with black's b1 given, the proof is of the opening itself
        assert done["given"] == ["b1"]
        assert read_proof(tmp_path / str(done["proof"]))["root"]["black"] == 1 << cell


def test_the_handicap_is_an_acute_corners_next_cell_along_blacks_edge() -> None:
    for n in (3, 6, 8, 9):
        last = "abcdefghi"[n - 1]
        given = {
            name: openings.handicap(n, vertex_index(name, n))
            for name in ("a1", "b1", f"a{n}", f"{last}1", f"{last}{n}")
        }
        assert given["a1"] == 1 << vertex_index("b1", n)
        assert given[f"{last}{n}"] == 1 << vertex_index("abcdefghi"[n - 2] + str(n), n)
        assert given["b1"] == given[f"a{n}"] == given[f"{last}1"] == 0  # obtuse corners too
        a1 = vertex_index("a1", n)
        twin = openings.OpeningResult(n, a1, a1, 2, None, 0.0, 0, given=given["a1"]).turned()
        assert twin.given == given[f"{last}{n}"]  # the turn takes the given cell along


def test_a_handicap_black_wins_with_leaves_the_opening_searched_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # black's corner stone and the centre too: black wins that, which says nothing of
    # the opening; the opening is then searched as it is
    centre = vertex_index("b2", 3)
    monkeypatch.setattr(openings, "handicap", lambda size, cell: 1 << centre if cell == 0 else 0)
    run = run_openings(3, tmp_path, proofs=True)
    corner = next(r for r in run.results if r.opening == 0)
    assert corner.winner == (2 if mover_wins(3, 1, 0, 2) else 1)
    assert corner.given == 0
    assert corner.proof is not None and check_proof_file(tmp_path / corner.proof).ok
    assert read_proof(tmp_path / corner.proof)["root"]["black"] == 1


def test_connection_leaves_shrink_a_proof_the_checker_accepts_both_ways() -> None:
    """The 5x5 opening c3 (a black win) with and without certified connections: both
    graphs replay, and the certified one is far smaller."""
    from boardlab.hex.prover.prooftree import build_proof
    from boardlab.hex.prover.wide import fresh_search

    cell = vertex_index("c3", 5)
    sizes = {}
    for connections in (False, True):
        search = fresh_search(5, Limit(time=120).start(), None)
        assert not search.prove(1 << cell, 0, 2)  # white to move loses
        proof = build_proof(search, 1 << cell, 0, 2, 1, connections=connections)
        answer = check_proof(proof)
        assert answer.ok, answer.line()
        assert (answer.leaves["connection"] > 0) == connections
        sizes[connections] = answer.nodes
    assert sizes[True] * 3 < sizes[False]


# -- workers, resuming, the published table --------------------------------------------


def test_one_and_two_workers_agree(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    alone = run_openings(5, one)
    engine = ProcessEngine(2)
    try:
        pair = run_openings(5, two, engine)
    finally:
        engine.close()
    assert alone.complete and pair.complete
    assert [r.winner for r in alone.results] == [r.winner for r in pair.results]
    # every white reply of both runs wins (the tests' own solve of the position after it)
    for result in (*alone.results, *pair.results):
        if result.reply is not None and result.searched == result.opening:
            position = Position(5)
            position.play_index(result.opening)
            position.play_index(result.reply)
            assert solve(position, Limit(time=60), all_moves=False).winner == 2
    # both workers added to the one store
    assert len(list((two / "store").glob("*.npz"))) >= 2


def test_a_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    first = run_openings(4, tmp_path, seconds=1e-9)  # every opening stopped by the limit
    assert not first.complete and all(r.stopped == "limit" for r in first.results)
    again: list[str] = []
    done = run_openings(4, tmp_path, done=lambda r, k, m: again.append(vertex(r.opening, 4)))
    assert done.complete and len(again) == 8
    for path in list((tmp_path / "openings").glob("*.json"))[:3]:
        path.unlink()  # a run stopped before these three finished
    more: list[str] = []
    resumed = run_openings(4, tmp_path, done=lambda r, k, m: more.append(vertex(r.opening, 4)))
    assert len(more) == 3
    assert [r.winner for r in resumed.results] == [r.winner for r in done.results]
    assert not list(tmp_path.rglob("*.partial*"))


def test_a_folder_of_another_size_is_refused(tmp_path: Path) -> None:
    run_openings(3, tmp_path)
    with pytest.raises(BoardlabError, match="3x3, not 4x4"):
        run_openings(4, tmp_path)
    (tmp_path / "openings" / "a1.json").write_text("{}")
    with pytest.raises(BoardlabError, match="not an opening's result"):
        run_openings(3, tmp_path)


def test_the_published_tables() -> None:
    for size, black in ((6, 24), (7, 27), (8, 32)):
        winners, source = published_winners(size)
        assert len(winners) == size * size and source
        assert sum(w == 1 for w in winners.values()) == black, size
        assert all(winners[c] == winners[rotated(c, size)] for c in winners)
    assert published_winners(5) == ({}, "")
    seven, _ = published_winners(7)
    assert seven[vertex_index("d4", 7)] == 1 and seven[vertex_index("a1", 7)] == 2


# -- the command line ---------------------------------------------------------------------


def test_cli_openings_and_checkproof(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_hex(["openings", "3", "--workdir", str(tmp_path), "--proofs"], capsys)
    assert code == 0, err
    assert "proofs replayed by the checker: 9 OK, 0 refused" in out
    assert "(black's b1 given)" in next(line for line in out.splitlines() if "a1  white" in line)
    table = json.loads((tmp_path / "table.json").read_text())
    assert table["complete"] and table["black_wins"] == 5
    code, out, _ = run_hex(["checkproof", str(tmp_path / "proofs" / "a1.json.gz")], capsys)
    assert code == 0 and ": OK:" in out
    proof = read_proof(tmp_path / "proofs" / "a1.json.gz")
    proof["nodes"][0][1][0][0] = vertex_index("a3", 3)  # white's reply a3 loses
    bad = tmp_path / "bad.json.gz"
    with gzip.open(bad, "wt") as stream:
        json.dump(proof, stream)
    code, out, _ = run_hex(["checkproof", str(bad)], capsys)
    assert code == 1 and ": BAD at " in out


def test_cli_openings_stopped_by_a_signal_keep_their_proofs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM (or Ctrl-C) ends a run as its time limit would: the opening under way
    stops, what was proven goes to the store, the last line says how to resume (exit 2),
    the signal handlers are put back, and a second run on the folder finishes."""
    counted = [0]
    plain = Dfpn.count_analysis

    def count_then_stop(search: Dfpn) -> None:
        counted[0] += 1
        if counted[0] == 150:
            os.kill(os.getpid(), signal.SIGTERM)
        plain(search)

    monkeypatch.setattr(Dfpn, "count_analysis", count_then_stop)
    before = signal.getsignal(signal.SIGTERM)  # another test's library may have set one
    code, _, err = run_hex(["openings", "6", "--workdir", str(tmp_path)], capsys)
    assert code == 2, err
    assert "SIGTERM: stopping the 6x6 openings" in err
    assert "run again with --workdir" in err
    assert signal.getsignal(signal.SIGTERM) is before
    table = json.loads((tmp_path / "table.json").read_text())
    assert not table["complete"]
    assert list((tmp_path / "store").glob("*.npz"))
    monkeypatch.undo()
    code, _, err = run_hex(["openings", "6", "--workdir", str(tmp_path)], capsys)
    assert code == 0, err
    assert json.loads((tmp_path / "table.json").read_text())["complete"]


def test_cli_mismatch_is_loud(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def wrong(size: int) -> tuple[dict[int, int], str]:
        return {cell: 1 for cell in range(size * size)}, "a wrong table"

    monkeypatch.setattr(openings, "published_winners", wrong)
    code, out, err = run_hex(["openings", "3", "--workdir", str(tmp_path)], capsys)
    assert code == 1
    assert "MISMATCH: opening a1 proven white, published black" in err
    assert "published black: MISMATCH" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["openings", "12", "--workdir", "."], "boards 1 to 11"),
        (["openings", "5", "--workdir", ".", "--cells", "a1,f1"], "--cells: "),
        (["openings", "5", "--workdir", ".", "--cells", ","], "--cells: no cell given"),
        (["openings", "x", "--workdir", "."], "not a board size"),
        (["openings", "3", "--workdir", "no/such/folder"], "no such folder"),
        (["openings", "3", "--workdir", ".", "--time", "0"], "must be positive"),
        (["openings", "3", "--workdir", ".", "--memory", "lots"], "memory"),
        (["openings", "3", "--workdir", ".", "--jobs", "0"], "jobs must be at least 1"),
        (["checkproof", "no-such.json.gz"], "no such proof file"),
    ],
)
def test_cli_bad_input(
    args: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_hex(args, capsys)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1, err


def test_cli_exhausted_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_hex(
        ["openings", "4", "--workdir", str(tmp_path), "--time-each", "1e-9"], capsys
    )
    assert code == 2
    assert err.count("\n") == 1 and "16 of 16 openings unproven" in err and "resume" in err
    assert (tmp_path / "table.json").exists()
    code, _, err = run_hex(["checkproof", str(tmp_path / "table.json")], capsys)
    assert code == 2 and "not a gzip-compressed JSON proof" in err


def test_cli_chosen_cells_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--cells`` proves those openings and their twins, nothing else; asked again it
    finds them done; past 8x8 an opening the limit stops is left to resume."""
    code, out, err = run_hex(
        ["openings", "5", "--workdir", str(tmp_path), "--cells", "a1,b1", "--json"], capsys
    )
    assert code == 0, err
    table = json.loads(out)
    assert sorted(row["opening"] for row in table["table"]) == ["a1", "b1", "d5", "e5"]
    assert table["proven"] == 4 and not table["complete"]
    for row in table["table"]:
        position = Position(5)
        position.play_index(vertex_index(row["opening"], 5))
        assert row["winner"] == solve(position, Limit(time=60), all_moves=False).winner
    code, _, _ = run_hex(["openings", "5", "--workdir", str(tmp_path), "--cells", "e5"], capsys)
    assert code == 0
    nine = tmp_path / "nine"
    nine.mkdir()
    code, _, err = run_hex(
        ["openings", "9", "--workdir", str(nine), "--cells", "a1", "--time-each", "1e-9"], capsys
    )
    assert code == 2 and err.count("\n") == 1 and "1 of 1 openings unproven" in err
