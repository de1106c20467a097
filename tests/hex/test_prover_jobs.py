"""One position proven by several workers at once (job-level proof-number search).

The workers' search gives the winners of the one-process DFPN and of the published
tables, in this process and on two worker processes, with jobs so small that the tree
of jobs grows several levels; every winning move it names is proven again by a fresh
DFPN. A run stopped by its limit keeps what it proved in the work folder, and a run on
the same folder finishes with less work. The tree's choice of leaves sends two workers
to two different leaves, and keeps to a chosen move while the DFPN would; with one worker
the search analyses what the one-process DFPN analyses, in the same order. Engines say
which task finished first.
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from tests.hex.cli_run import run_hex

from boardlab.cluster.process_engine import ProcessEngine
from boardlab.core.limits import Limit
from boardlab.core.progress import progress_scope
from boardlab.core.tasks import LocalEngine
from boardlab.hex.board import vertex_index
from boardlab.hex.prover import jobs
from boardlab.hex.prover.dfpn import EPSILON, Dfpn
from boardlab.hex.prover.jobs import prove_by_jobs
from boardlab.hex.prover.openings import opening_cells, published_winners
from boardlab.hex.prover.store import load_proofs, save_proofs
from boardlab.hex.prover.wide import fresh_search


def proven_again(size: int, black: int, white: int, player: int, move: int) -> bool:
    """Does ``player``'s ``move`` win, by a fresh one-process DFPN?"""
    b = 1 << move
    cb, cw = (black | b, white) if player == 1 else (black, white | b)
    return not fresh_search(size, Limit().start(), None).prove(cb, cw, 3 - player)


def test_6x6_openings_in_this_process_against_the_published_table() -> None:
    published, _ = published_winners(6)
    engine = LocalEngine()
    for cell in opening_cells(6):
        found = prove_by_jobs(6, 1 << cell, 0, 2, Limit().start(), engine, analyses=10)
        assert found.wins is not None and found.stopped is None
        assert (2 if found.wins else 1) == published[cell], cell
        if found.wins:
            assert found.move is not None and proven_again(6, 1 << cell, 0, 2, found.move)


def test_two_workers_agree_with_the_dfpn() -> None:
    """7x7 openings with jobs of 40 analysed positions: many jobs, several levels (b2
    and g1 take some 600 jobs each; a4, 2,300 jobs and 45,000 positions, is left out: it
    took two thirds of the test's time)."""
    published, _ = published_winners(7)
    engine = ProcessEngine(2)
    try:
        for name in ("a1", "b2", "d4", "g1"):
            cell = vertex_index(name, 7)
            heard: list[int] = []
            with progress_scope(heard.append):  # the workers' total, after each job
                found = prove_by_jobs(7, 1 << cell, 0, 2, Limit().start(), engine, analyses=40)
            assert heard == sorted(heard) and len(heard) == found.jobs
            assert heard[-1] == found.analysed
            assert found.wins is not None and (2 if found.wins else 1) == published[cell], name
            plain = Dfpn(7, Limit().start()).prove(1 << cell, 0, 2)
            assert found.wins == plain
            if found.wins:
                assert found.move is not None and proven_again(7, 1 << cell, 0, 2, found.move)
            assert found.jobs > 1 or found.analysed <= 40
    finally:
        engine.close()


def test_two_workers_past_8x8() -> None:
    """A 9x9 position (30 seeded random stones, 1,697 positions for one process) proven
    by two workers in jobs of 40 analysed positions, on the two-word DFPN: the winner of
    the one-process search, the winning move proven again."""
    rng = random.Random(4)
    cells = list(range(81))
    rng.shuffle(cells)
    black = sum(1 << c for c in cells[:30:2])
    white = sum(1 << c for c in cells[1:30:2])
    plain = fresh_search(9, Limit().start(), None).prove(black, white, 1)
    engine = ProcessEngine(2)
    try:
        found = prove_by_jobs(9, black, white, 1, Limit().start(), engine, analyses=40)
    finally:
        engine.close()
    assert found.wins == plain and found.stopped is None
    assert found.jobs > 1
    if found.wins:
        assert found.move is not None and proven_again(9, black, white, 1, found.move)


def test_a_stopped_run_keeps_its_proofs_in_the_folder(tmp_path: Path) -> None:
    cell = vertex_index("c2", 7)  # black wins after c2: every white reply refuted
    engine = LocalEngine()
    fresh = prove_by_jobs(7, 1 << cell, 0, 2, Limit().start(), engine, analyses=30)
    assert fresh.wins is False
    limit = Limit(nodes=fresh.analysed // 2 * 50)
    stopped = prove_by_jobs(7, 1 << cell, 0, 2, limit.start(), engine, tmp_path, analyses=30)
    assert stopped.wins is None and stopped.stopped == "limit"
    assert list((tmp_path / "store").glob("*.npz"))
    resumed = prove_by_jobs(7, 1 << cell, 0, 2, Limit().start(), engine, tmp_path, analyses=30)
    assert resumed.wins is False
    assert resumed.analysed < fresh.analysed


def test_a_time_limit_stops_the_search() -> None:
    engine = ProcessEngine(2)
    try:
        started = time.monotonic()
        found = prove_by_jobs(
            8, 1 << vertex_index("d1", 8), 0, 2, Limit(time=1.0).start(), engine, analyses=50
        )
    finally:
        engine.close()
    assert found.wins is None and found.stopped == "limit"
    assert time.monotonic() - started < 30


def tree(numbers: list[tuple[int, int]]) -> jobs._Node:
    """A root (black to move) whose children (white to move) have these numbers."""
    root = jobs._Node(0, 0, 1, 0, None)
    root.children = [
        jobs._Node(0, 0, 2, 1 << k, root, pn, dn, 1) for k, (pn, dn) in enumerate(numbers)
    ]
    root.update()
    return root


def take(root: jobs._Node, worker: int | None = None, focused: bool = True) -> jobs._Node:
    chosen = jobs._select(root, worker, focused)
    assert chosen is not None
    leaf, pn_th, dn_th = chosen
    assert pn_th > leaf.pn and dn_th > leaf.dn
    leaf.busy, leaf.owner = True, worker
    jobs._mark(leaf)
    return leaf


def test_workers_split_the_moves_that_must_all_be_refuted() -> None:
    """The root's numbers count its first two moves of three (the DFPN's widening: 1 +
    0.4 k), and it looks lost (its proof number 5 is not below its disproof number 1 +
    2): both moves must be refuted, so two workers take them, the least disproof number
    first, with the DFPN's thresholds; the third waits until they are proven to lose."""
    root = tree([(1, 6), (2, 5), (1, 7)])
    assert (root.pn, root.dn) == (5, 3)
    chosen = jobs._select(root)
    assert chosen is not None and chosen[0] is root.children[1]
    # its disproof threshold: the next least disproof number, grown by epsilon
    assert chosen[2] == max(6 + 1, int(6 * 1.125))
    assert [take(root) for _ in range(2)] == [root.children[1], root.children[0]]
    assert jobs._select(root) is None
    for lost in root.children[:2]:  # both moves lose: the third comes into the count
        lost.busy = False
        lost.pn, lost.dn = 0, jobs._INF
        jobs._mark(lost)
    third = take(root)
    assert root.children == [third] and third.move == 1 << 2


def test_a_chosen_move_is_chosen_again_while_below_its_thresholds() -> None:
    """The 1 + epsilon trick across jobs: the first move (disproof number 30, the next
    one's 40) is given a disproof threshold of 40 grown by epsilon, 42; back at 41 it
    is chosen again with the same thresholds, though the second move's 40 is now less
    (a DFPN's frame goes on until its numbers reach its thresholds); at 42 the root
    chooses afresh."""
    root = tree([(1, 30), (2, 40), (1, 99)])
    chosen = jobs._select(root)
    assert chosen is not None and chosen[0] is root.children[0]
    first, pn_th, dn_th = chosen
    assert dn_th == max(41, int(40 * (1 + EPSILON)))
    first.dn = dn_th - 1
    jobs._mark(first)
    assert jobs._select(root) == (first, pn_th, dn_th)
    first.dn = dn_th
    jobs._mark(first)
    again = jobs._select(root)
    assert again is not None and again[0] is root.children[1]
    assert again[2] == max(dn_th + 1, int(dn_th * (1 + EPSILON)))


def test_one_worker_analyses_what_the_dfpn_analyses(monkeypatch: pytest.MonkeyPatch) -> None:
    """With one worker the job search is the one-process DFPN cut into steps: on three
    6x6 openings, with jobs of 40 analysed positions and leaves split at 20 (trees of
    dozens of nodes), it analyses the same positions in the same order, each from the
    same parent's connections (a job cut by its limit counts the analysis it was about
    to start, which the next one starts again)."""
    seen: list[tuple[tuple[int, int, int], bool]] = []
    analyse = Dfpn.analyse

    def recorded(search: Dfpn, black: int, white: int, player: int, seed: Any = None) -> Any:
        seen.append((search.key(black, white, player), seed is not None))
        return analyse(search, black, white, player, seed)

    monkeypatch.setattr(Dfpn, "analyse", recorded)
    for cell in (3, 4, 5):
        seen.clear()
        wins = Dfpn(6, Limit().start()).prove(1 << cell, 0, 2)
        alone = list(seen)
        seen.clear()
        found = prove_by_jobs(
            6, 1 << cell, 0, 2, Limit().start(), LocalEngine(), analyses=40, split=20
        )
        assert found.wins == wins and found.tree_nodes > 20
        cut = [x for i, x in enumerate(seen) if i == 0 or seen[i - 1] != x]
        assert cut == alone, cell


def test_a_node_that_looks_won_offers_only_its_best_move() -> None:
    root = tree([(9, 1), (9, 3), (9, 4)])  # proof number 1, disproof number 27: looks won
    assert take(root) is root.children[0]
    assert jobs._select(root) is None  # a second move is no use while the first may win
    assert take(root, focused=False) is root.children[1]


def test_a_worker_keeps_to_its_own_leaves() -> None:
    root = tree([(1, 6), (2, 5), (1, 7)])
    first = take(root, 0)
    first.busy = False
    assert take(root, 1) is not first  # worker 1 leaves worker 0's leaf alone
    assert take(root, 0) is first


def test_a_proven_child_settles_the_root() -> None:
    root = tree([(1, 5), (3, 2), (2, 4)])
    leaf = take(root)
    leaf.busy = False
    leaf.pn, leaf.dn = jobs._INF, 0  # the move wins for the root's side to move
    jobs._mark(leaf)
    assert root.pn == 0 and root.win == leaf.move and root.children is None
    lost = tree([(1, 5), (3, 2)])
    for child in list(lost.children or []):
        child.pn, child.dn = 0, jobs._INF  # every move loses
        jobs._mark(child)
    assert lost.dn == 0


def test_a_losing_move_rules_out_the_moves_outside_its_proof() -> None:
    """The DFPN's proof-set pruning in the tree: a move proven to lose with proof 0b1000
    (the cell of move 3) leaves only moves inside that proof, or itself, open; the
    node's proof, once every move is ruled out, is what its analysis and the losing
    moves rest on."""
    root = tree([(1, 5), (3, 2), (2, 4), (2, 2)])
    root.base, root.fills = 1 << 10, 0
    lost = root.children[0] if root.children else None
    assert lost is not None
    lost.pn, lost.dn, lost.proof = 0, jobs._INF, 1 << 3
    jobs._mark(lost)
    assert root.children is not None and [c.move for c in root.children] == [1 << 3]
    last = root.children[0]
    last.pn, last.dn, last.proof = 0, jobs._INF, 1 << 12
    jobs._mark(last)
    assert root.dn == 0 and root.proof == (1 << 10) | (1 << 3) | 1 | (1 << 12) | (1 << 3)


def test_a_losing_move_without_a_proof_rules_out_nothing() -> None:
    root = tree([(1, 5), (3, 2), (2, 4)])
    root.base = 0
    first = root.children[0] if root.children else None
    assert first is not None
    first.pn, first.dn = 0, jobs._INF  # proven, but its proof is not known
    jobs._mark(first)
    assert root.children is not None and len(root.children) == 2
    assert root.base is None  # so the node's own proof will not be known either
    for child in list(root.children):
        child.pn, child.dn, child.proof = 0, jobs._INF, 0
        jobs._mark(child)
    assert root.dn == 0 and root.proof is None


def test_a_won_node_proof_is_its_winning_move_and_that_move_s_proof() -> None:
    root = tree([(1, 5), (3, 2)])
    root.fills = 1 << 20
    winning = root.children[1] if root.children else None
    assert winning is not None
    winning.pn, winning.dn, winning.proof = jobs._INF, 0, 1 << 7
    jobs._mark(winning)
    assert root.pn == 0 and root.proof == (1 << 7) | (1 << 1) | (1 << 20)


def test_a_sibling_s_proof_settles_a_position_analysed_before() -> None:
    """Another worker's proof of one reply covers a second reply outside it: the
    second reply's position, already analysed here (so the search itself would not
    look it up again), is settled by the stored proof."""
    size = 6
    black = 1 << vertex_index("c3", size)  # white to move; black wins every reply
    first = Dfpn(size, Limit().start())
    second = Dfpn(size, Limit().start())
    order = first.classification_order(black, 0, 2)
    other = 0
    for reply in order:  # a reply whose refutation leaves out one its analysis leaves open
        assert first.prove(black, 1 << reply, 1)  # black to move wins: the reply loses
        proof = first.proof_of(first.key(black, 1 << reply, 1), black, 1 << reply)
        for cell in (c for c in order if c != reply and not proof >> c & 1):
            if second.expand(second.key(black, 1 << cell, 1), black, 1 << cell, 1).verdict == 0:
                other = 1 << cell
                break
        if other:
            break
    assert other, "the test wants an open reply outside another one's proof"
    assert not second.settled_by_store(black, other, 1)
    stored = tmp_store(first)
    load_proofs(second, stored)
    assert second.settled_by_store(black, other, 1)
    assert second.winner_of(second.key(black, other, 1)) == 1


def tmp_store(search: Dfpn) -> Path:
    import tempfile

    path = Path(tempfile.mkdtemp()) / "proofs.npz"
    assert save_proofs(search, path, set()) > 0
    return path


def test_engines_say_which_task_finished() -> None:
    local = LocalEngine()
    handles = [local.submit(pow, (2, 3)), local.submit(pow, (2, 4))]
    assert local.wait_any(handles) is handles[0]
    engine = ProcessEngine(2)
    try:
        slow = engine.submit(time.sleep, (3,))
        quick = engine.submit(pow, (2, 5))
        assert engine.wait_any([slow, quick]) is quick
        assert engine.fetch([quick]) == [32]
    finally:
        engine.close()


def test_cli_first_with_workers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;FF[4]GM[11]SZ[6];B[a1])")  # white wins
    folder = tmp_path / "work"
    folder.mkdir()
    code, out, _ = run_hex(
        ["solve", str(sgf), "--first", "--jobs", "2", "--workdir", str(folder)], capsys
    )
    assert code == 0 and "winner: white (player 2)" in out
    code, alone, _ = run_hex(["solve", str(sgf), "--first"], capsys)
    assert code == 0 and "winner: white (player 2)" in alone
    assert list((folder / "store").glob("*.npz"))
    nine = tmp_path / "nine.sgf"  # past 8x8 too: black's chain e1-e4, d6-d9 wins
    nine.write_text("(;FF[4]GM[11]SZ[9]AB[e1][e2][e3][e4][d6][d7][d8][d9]AW[a1][b2][h8][i9]PL[W])")
    folder = tmp_path / "work9"
    folder.mkdir()
    code, out, err = run_hex(
        ["solve", str(nine), "--first", "--jobs", "2", "--workdir", str(folder)], capsys
    )
    assert code == 0 and "winner: black (player 1)" in out, err
    assert list((folder / "store").glob("*.npz"))


def test_cli_bad_workdir(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sgf = tmp_path / "p.sgf"
    sgf.write_text("(;FF[4]GM[11]SZ[6];B[a1])")
    code, out, err = run_hex(
        ["solve", str(sgf), "--first", "--workdir", str(tmp_path / "no")], capsys
    )
    assert code == 2 and out == "" and "no such folder" in err and err.count("\n") == 1
    code, out, err = run_hex(["solve", str(sgf), "--workdir", str(tmp_path)], capsys)
    assert code == 2 and out == "" and "--first" in err and err.count("\n") == 1
    wide = tmp_path / "w.sgf"
    wide.write_text("(;FF[4]GM[11]SZ[9];B[e5])")
    code, out, err = run_hex(["solve", str(wide), "--jobs", "2", "--time", "1"], capsys)
    assert code == 2 and out == "" and "--first" in err and err.count("\n") == 1


@pytest.mark.xdist_group("ray")
def test_the_workers_of_a_ray_cluster(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A local two-CPU Ray cluster proves 6x6 openings as the DFPN does, its workers
    sharing the store in the work folder."""
    pytest.importorskip("ray", reason="the cluster extra (pip install 'boardlab[cluster]')")
    published, _ = published_winners(6)
    for name in ("a1", "c3"):
        sgf = tmp_path / f"{name}.sgf"
        sgf.write_text(f"(;FF[4]GM[11]SZ[6];B[{name}])")
        folder = tmp_path / name
        folder.mkdir()
        args = ["solve", str(sgf), "--first", "--workers", "2", "--workdir", str(folder)]
        code, out, _ = run_hex([*args, "--json"], capsys)
        assert code == 0
        assert json.loads(out)["winner"] == published[vertex_index(name, 6)]
        assert list((folder / "store").glob("*.npz"))


def test_a_worker_merges_its_small_store_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every MERGE_FILES files a worker adds become one; another worker reading the store
    before and after finds every proven position once, a file merged away between its
    listing and its reading left out without an error."""
    from boardlab.hex.prover import workers

    monkeypatch.setattr(workers, "MERGE_FILES", 3)
    (tmp_path / "store").mkdir()
    writer = workers.KeptSearch(Dfpn(6, Limit().start()), set(), set())
    reader = workers.KeptSearch(Dfpn(6, Limit().start()), set(), set())
    for name in ("a1", "c3", "b5"):
        writer.search.prove(1 << vertex_index(name, 6), 0, 2)
        assert workers.publish(writer, tmp_path, "t") > 0
        if name == "a1":
            assert workers.read_store(reader, tmp_path) == 1
    files = sorted(p.name for p in (tmp_path / "store").iterdir())
    assert len(files) == 1 and files[0].endswith("-merged.npz")
    assert workers.read_store(reader, tmp_path) == 1
    assert reader.known == set(writer.search.proofs)
    from boardlab.hex.prover import store

    loader = store.load_proofs

    def merged_away(search: Dfpn, path: Path) -> set[tuple[int, int, int]]:
        path.unlink()  # its writer merged it after the reader listed it
        return loader(search, path)

    late = workers.KeptSearch(Dfpn(6, Limit().start()), {files[0]}, set())
    (tmp_path / "store" / "t-0-gone.npz").write_bytes(b"")
    monkeypatch.setattr(store, "load_proofs", merged_away)
    assert workers.read_store(late, tmp_path) == 0
    assert "t-0-gone.npz" not in late.files
