"""The table of analysed positions the workers of one folder share.

The compiled row reads and writes agree with their plain-Python reference; a row
written in one frame reads back in the other turned half a circle; a row whose check
fails (written by two workers at once) or that holds another position reads as a miss;
a bad file is one clear error. A DFPN that finds the positions in a table another search
filled proves the same winners as a plain one with far fewer analyses, and the
published 6x6 table holds for searches that share one.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from boardlab.core.errors import BoardlabError
from boardlab.core.limits import Limit
from boardlab.hex.board import reverse_bits
from boardlab.hex.prover.dfpn import Dfpn
from boardlab.hex.prover.openings import opening_cells, published_winners
from boardlab.hex.prover.shared import ROW_WORDS, SharedAnalyses, rows_for, table_path
from boardlab.hex.prover.shared_rows import read_row, write_row


def table(tmp_path: Path, size: int = 6, rows: int = 1024) -> SharedAnalyses:
    return SharedAnalyses(table_path(tmp_path, size), size, rows)


def test_a_row_reads_back_in_both_frames(tmp_path: Path) -> None:
    shared = table(tmp_path)
    turn = reverse_bits(36)
    key = (0b1001, 0b100000, 2)
    analysis = (0, 0b111 << 10, 0b1001, 0b100000 | 1 << 20, 1 << 5, (11, 10, 12))
    shared.put(key, False, analysis)
    assert shared.get(key, False) == analysis
    verdict, moves, black, white, proof, order = analysis
    last = 35  # a cell's half turn on 6x6
    turned = (verdict, turn(moves), turn(black), turn(white), turn(proof), (24, 25, 23))
    assert turned[-1] == tuple(last - cell for cell in order)
    assert shared.get(key, True) == turned
    other = table(tmp_path)  # a second process maps the same file
    assert other.get(key, False) == analysis
    shared.put(key, True, turned)  # written from the other frame: the same row
    assert other.get(key, False) == analysis


def test_won_and_lost_rows_keep_their_verdict(tmp_path: Path) -> None:
    shared = table(tmp_path)
    shared.put((1, 2, 1), False, (1, 1 << 7, 1, 2, 1 << 7 | 1 << 8, ()))
    shared.put((4, 8, 2), False, (-1, 0, 4, 8, 1 << 9, ()))
    assert shared.get((1, 2, 1), False) == (1, 1 << 7, 1, 2, 1 << 7 | 1 << 8, ())
    assert shared.get((4, 8, 2), False) == (-1, 0, 4, 8, 1 << 9, ())


def test_a_torn_row_or_another_position_reads_as_a_miss(tmp_path: Path) -> None:
    shared = table(tmp_path)
    key = (3, 12, 1)
    shared.put(key, False, (0, 0xF0, 3, 12, 0, (4, 5, 6, 7)))
    assert shared.get((3, 12, 2), False) is None  # the other side to move
    row = shared.array[shared._row(key)]
    row[4] ^= 1 << 30  # one word of another write
    assert shared.get(key, False) is None
    assert shared.hits == 0 and shared.misses == 2


def test_a_bad_table_file_is_one_clear_error(tmp_path: Path) -> None:
    path = table_path(tmp_path, 6)
    path.write_bytes(b"\0" * (ROW_WORDS * 8 * 3))
    with pytest.raises(BoardlabError, match="not an analyses table"):
        SharedAnalyses(path, 6)
    with pytest.raises(ValueError):
        SharedAnalyses(tmp_path / "x.bin", 9)


def test_the_table_fits_the_memory_budget() -> None:
    assert rows_for(None) == 1 << 19
    assert rows_for(2 << 30) == 1 << 19
    assert rows_for(64 << 20) * ROW_WORDS * 8 <= 8 << 20
    assert rows_for(1) == 1024


def test_a_search_reads_what_another_analysed(tmp_path: Path) -> None:
    first = Dfpn(6, Limit().start())
    first.shared = table(tmp_path, rows=1 << 16)
    cell = 1 << 14  # an opening of 6x6, white to move
    wins = first.prove(cell, 0, 2)
    assert first.shared_hits == 0 and first.analysed > 50
    second = Dfpn(6, Limit().start())
    second.shared = table(tmp_path, rows=1 << 16)
    assert second.prove(cell, 0, 2) == wins == Dfpn(6, Limit().start()).prove(cell, 0, 2)
    assert second.shared_hits > 0
    assert second.analysed < first.analysed // 4


def test_searches_sharing_a_table_agree_with_the_published_6x6_table(tmp_path: Path) -> None:
    published, _ = published_winners(6)
    for cell in opening_cells(6):
        search = Dfpn(6, Limit().start())
        search.shared = table(tmp_path, rows=1 << 12)  # small: rows replaced often
        white_wins = search.prove(1 << cell, 0, 2)
        assert (2 if white_wins else 1) == published[cell], cell


def test_the_row_kernels_agree_with_the_plain_python_reference(tmp_path: Path) -> None:
    shared = table(tmp_path, rows=64)  # small: keys share rows
    rng = random.Random(5)
    for i in range(300):
        key = (rng.getrandbits(64), rng.getrandbits(64), rng.choice((1, 2)))
        words = [key[0], key[1], key[2] | rng.getrandbits(12) << 2]
        words += [rng.getrandbits(64) for _ in range(ROW_WORDS - 4)]
        if i % 2:
            shared.put_reference(key, words)
        else:
            write_row(shared.plain, np.array(words, np.uint64))
        assert shared.get_reference(key) == words
        shared._key[:] = key
        assert read_row(shared.plain, shared._key, shared._out)
        assert shared._out.tolist() == words
        other = (key[0], key[1] ^ 1, key[2])
        shared._key[:] = other
        assert not read_row(shared.plain, shared._key, shared._out)
        assert shared.get_reference(other) is None
        shared.array[shared._row(key)][7] ^= 1  # torn: both see a miss
        shared._key[:] = key
        assert not read_row(shared.plain, shared._key, shared._out)
        assert shared.get_reference(key) is None
