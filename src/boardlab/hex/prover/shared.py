"""Prover layer: a table of analysed positions that the workers of one folder share.

Workers that prove one position together (:mod:`boardlab.hex.prover.jobs`) each keep
their own DFPN table, so a position two of them reach (a leaf handed from one worker to
the other, or the same position reached by moves in another order) was analysed by
both: on 8x8 openings about a third of each worker's analyses were positions the other
had analysed too. This table is a file in the work folder that every worker maps into
memory: after analysing a position a worker writes what the analysis found (the verdict,
the moves left to try in the order they are tried, the stones after the fill-in, the
proof), and before analysing one it looks the position up, so an analysis made by one
worker serves them all at the cost of reading a row.

The table is direct-mapped: a position's row is given by a hash of its key, and a new
entry replaces whatever the row held. A row is written word by word, its last word a
check over the others, so a row two workers write at once, or one read while it is
written, fails the check and reads as a miss; what a row holds is a fact about its
position (the analysis is sound whichever worker ran it), so any row that passes the
check may be used. Rows are kept in the key's frame (a position and its half turn share
a key) and turned on the way in and out. Only boards of at most 64 cells (one word a
cell set) have a table, one a machine (:func:`table_path`); it stays in the folder, so a
run resumed there starts with the analyses of the last.
"""

from __future__ import annotations

import os
import platform
from pathlib import Path

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.core.hashing import splitmix64
from boardlab.hex.board import reverse_bits

__all__ = ["MAX_CELLS", "ROW_WORDS", "Analysis", "SharedAnalyses", "rows_for", "table_path"]

#: Words a row: black, white, player and counts, moves, the two filled boards, the
#: proof, the move order (64 cells, a byte each, in 8 words) and the check.
ROW_WORDS = 16
_ORDER = 7  # first word of the move order
_CHECK = ROW_WORDS - 1
#: Rows of a table at most (128 bytes each: 64 MB), fewer under a small memory budget,
#: never fewer than MIN_ROWS.
MAX_ROWS = 1 << 19
MIN_ROWS = 1 << 10
#: The largest board (in cells) with a table: a cell set is one word of a row.
MAX_CELLS = 64

#: ``(verdict, moves, black, white, proof, order)`` of an analysis, in a frame of the
#: position: ``order`` the cells of ``moves`` in the order they are tried (empty unless
#: the position is open).
Analysis = tuple[int, int, int, int, int, tuple[int, ...]]


def table_path(workdir: Path, size: int) -> Path:
    """The table's file for ``size`` in a work folder, one a machine: the workers of one
    machine map it into their memory; those of other machines that see the folder (a
    Ray cluster's) keep their own, since a file mapped on two machines is not one memory."""
    host = platform.node() or "host"
    return workdir / f"analyses-{size}x{size}-{host}.bin"


def rows_for(memory: int | None) -> int:
    """Rows of a table under a memory budget in bytes (an eighth of it at most)."""
    if memory is None:
        return MAX_ROWS
    rows = MAX_ROWS
    while rows > MIN_ROWS and rows * ROW_WORDS * 8 > memory // 8:
        rows //= 2
    return rows


def _digest(words: list[int]) -> int:
    """A check over a row's words (never 0, so an empty row never passes)."""
    h = 0
    for word in words:
        h = splitmix64(h ^ word)
    return h


class SharedAnalyses:
    """The analyses table of one work folder and board size, mapped into this process.

    ``rows`` is fixed when the file is made; a process that finds the file already made
    uses it as it is."""

    def __init__(self, path: Path, size: int, rows: int = MAX_ROWS) -> None:
        if size * size > MAX_CELLS:
            raise ValueError(f"no shared analyses table for a {size}x{size} board")
        if rows & (rows - 1):
            raise ValueError(f"rows must be a power of two, not {rows}")
        want = rows * ROW_WORDS * 8
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            have = os.fstat(fd).st_size
            if have == 0:
                os.ftruncate(fd, want)  # sparse: pages are made as rows are written
                have = want
        finally:
            os.close(fd)
        rows_found = have // (ROW_WORDS * 8)
        if have % (ROW_WORDS * 8) or rows_found & (rows_found - 1):
            raise BoardlabError(f"{path}: not an analyses table ({have} bytes)")
        self.rows = rows_found
        self.path = path
        self.array: npt.NDArray[np.uint64] = np.memmap(
            path, dtype=np.uint64, mode="r+", shape=(self.rows, ROW_WORDS)
        )
        from boardlab.hex.prover.shared_rows import read_row, write_row  # numba, once

        self.plain: npt.NDArray[np.uint64] = self.array.view(np.ndarray)  # no memmap overhead
        self._read_row, self._write_row = read_row, write_row
        self.reverse = reverse_bits(size * size)
        self.last = size * size - 1
        self.hits = self.misses = 0
        self._key = np.zeros(3, np.uint64)
        self._out = np.zeros(ROW_WORDS - 1, np.uint64)

    def _row(self, key: tuple[int, int, int]) -> int:
        black, white, player = key
        return splitmix64(splitmix64(black ^ splitmix64(white)) ^ player) & (self.rows - 1)

    def get(self, key: tuple[int, int, int], rotated: bool) -> Analysis | None:
        """The analysis of the position with ``key`` (None if the table has none), in
        the position's frame: the key's frame, or its half turn when ``rotated``."""
        self._key[:] = key
        if not self._read_row(self.plain, self._key, self._out):
            self.misses += 1
            return None
        words = self._out.tolist()
        self.hits += 1
        verdict = (words[2] >> 2 & 3) - 1
        count = words[2] >> 8 & 127
        packed = b"".join(w.to_bytes(8, "little") for w in words[_ORDER:_CHECK])
        order = tuple(packed[:count])
        moves, black, white, proof = words[3], words[4], words[5], words[6]
        if rotated:
            turn = self.reverse
            moves, black, white, proof = turn(moves), turn(black), turn(white), turn(proof)
            order = tuple(self.last - cell for cell in order)
        return verdict, moves, black, white, proof, order

    def put(self, key: tuple[int, int, int], rotated: bool, analysis: Analysis) -> None:
        """Write a position's analysis (in the frame ``rotated`` says, as :meth:`get`)."""
        verdict, moves, black, white, proof, order = analysis
        if rotated:
            turn = self.reverse
            moves, black, white, proof = turn(moves), turn(black), turn(white), turn(proof)
            order = tuple(self.last - cell for cell in order)
        packed = bytes(order).ljust(64, b"\0")
        words = [key[0], key[1], key[2] | (verdict + 1) << 2 | len(order) << 8]
        words += [moves, black, white, proof]
        words += [int.from_bytes(packed[i : i + 8], "little") for i in range(0, 64, 8)]
        self._write_row(self.plain, np.array(words, np.uint64))  # the check last, as _digest

    def put_reference(self, key: tuple[int, int, int], words: list[int]) -> None:
        """:meth:`put`'s row write in plain Python (``words``: the row before its check),
        the reference the kernel is tested against."""
        row = self.array[self._row(key)]
        row[_CHECK] = 0  # a reader between here and the last write sees a miss
        row[:_CHECK] = words
        row[_CHECK] = _digest(words)

    def get_reference(self, key: tuple[int, int, int]) -> list[int] | None:
        """The row of ``key`` before its check word when it holds that position and its
        check holds, in plain Python (the reference of :meth:`get`'s kernel)."""
        words = self.array[self._row(key)].tolist()
        if words[0] != key[0] or words[1] != key[1] or words[2] & 3 != key[2]:
            return None
        return None if words[_CHECK] != _digest(words[:_CHECK]) else words[:_CHECK]
