"""Solver layer: exact values of Ioiwari positions, a value table and perfect players.

The *value* of a pit vector is the bank difference the side to move adds from now on
under perfect play by both sides (banks already filled do not change the best move).
Beads are conserved, so the final banks follow from it: of the ``S`` beads still in
the pits the mover banks ``(S + value) / 2`` and the opponent ``(S - value) / 2``.

Two evaluators give the same values:

* :class:`ValueTable`: one signed byte per base-``cap+1`` code of the pits, for every
  code at once, filled by the numba kernel (:func:`build_table`) and cached on disk by
  :mod:`boardlab.ioiwari.store`;
* :class:`MemoSolver`: memoised negamax in plain Python, solving only what it is asked
  (about 5,000 positions from one IOI start): the reference the table is checked against.

>>> solver = MemoSolver()
>>> solver.value((4, 3, 2, 4, 2, 3, 2)), solver.best_moves((4, 3, 2, 4, 2, 3, 2))
(2, [2, 4, 7])
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from boardlab.core.errors import BoardlabError
from boardlab.ioiwari.rules import IOI, Move, Position, State, Variant, sow

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Analysis",
    "MemoSolver",
    "MoveValue",
    "PerfectPlayer",
    "ValueOracle",
    "ValueTable",
    "analyse",
    "build_table",
    "decode",
    "encode",
    "move_values",
    "reference_table",
]


def encode(pits: Sequence[int], cap: int) -> int:
    """The base-``cap+1`` code of a pit vector, pit 1 the lowest digit.

    >>> encode((1, 2, 0), 5)
    13
    """
    code = 0
    for beads in reversed(pits):
        code = code * (cap + 1) + beads
    return code


def decode(code: int, variant: Variant) -> tuple[int, ...]:
    """The pit vector of a code (inverse of :func:`encode`).

    >>> decode(13, Variant(pits=3, cap=5, total=6, low=2, high=2))
    (1, 2, 0)
    """
    base = variant.cap + 1
    pits = []
    for _ in range(variant.pits):
        code, digit = divmod(code, base)
        pits.append(digit)
    return tuple(pits)


class ValueOracle(Protocol):
    """Anything that knows the exact value of a pit vector for the side to move."""

    variant: Variant

    def value(self, pits: Sequence[int]) -> int:
        """The value of ``pits`` for the side to move."""
        ...


def move_values(evaluator: ValueOracle, pits: Sequence[int]) -> dict[int, int]:
    """``{pit label: value of emptying it}`` for every legal move, from the mover's side."""
    cap = evaluator.variant.cap
    result: dict[int, int] = {}
    for index, beads in enumerate(pits):
        if beads:
            child, mine, theirs = sow(pits, index, cap)
            result[index + 1] = mine - theirs - (evaluator.value(child) if any(child) else 0)
    return result


class MemoSolver:
    """Memoised negamax in plain Python: the reference every fast path is checked against.

    :raises BoardlabError: from :meth:`value` when the pits do not fit the variant.
    """

    def __init__(self, variant: Variant = IOI) -> None:
        self.variant = variant
        self.memo: dict[tuple[int, ...], int] = {}

    def value(self, pits: Sequence[int]) -> int:
        """The value of ``pits`` for the side to move (0 when every pit is empty)."""
        key = tuple(pits)
        known = self.memo.get(key)
        if known is not None:
            return known
        self.variant.check_pits(key)
        return self._solve(key)

    def _solve(self, pits: tuple[int, ...]) -> int:
        known = self.memo.get(pits)
        if known is not None:
            return known
        cap = self.variant.cap
        best = 0 if not any(pits) else -128
        for index, beads in enumerate(pits):
            if beads:
                child, mine, theirs = sow(pits, index, cap)
                value = mine - theirs - self._solve(child)
                if value > best:
                    best = value
        self.memo[pits] = best
        return best

    def move_values(self, pits: Sequence[int]) -> dict[int, int]:
        """``{pit label: value}`` of every legal move."""
        return move_values(self, pits)

    def best_moves(self, pits: Sequence[int]) -> list[int]:
        """The labels of every optimal move, in order."""
        return _best(move_values(self, pits))


def _best(values: dict[int, int]) -> list[int]:
    if not values:
        return []
    top = max(values.values())
    return [pit for pit, value in values.items() if value == top]


class ValueTable:
    """The value of every pit vector of a variant, one signed byte per code.

    :raises BoardlabError: when ``data`` does not have one byte per code.
    """

    def __init__(self, variant: Variant, data: bytes) -> None:
        if len(data) != variant.size:
            raise BoardlabError(f"a table of {variant} has {variant.size} entries, got {len(data)}")
        self.variant = variant
        self.data = data
        self._values = memoryview(data).cast("b")
        self._base = variant.cap + 1

    def value(self, pits: Sequence[int]) -> int:
        """The value of ``pits`` for the side to move (pits must fit the variant)."""
        code = 0
        for beads in reversed(pits):
            code = code * self._base + beads
        return int(self._values[code])

    def move_values(self, pits: Sequence[int]) -> dict[int, int]:
        """``{pit label: value}`` of every legal move."""
        return move_values(self, pits)

    def best_moves(self, pits: Sequence[int]) -> list[int]:
        """The labels of every optimal move, in order."""
        return _best(move_values(self, pits))

    def array(self) -> npt.NDArray[np.int8]:
        """The table as a read-only numpy ``int8`` array indexed by code."""
        import numpy as np

        return np.frombuffer(self.data, dtype=np.int8)


def build_table(variant: Variant = IOI) -> ValueTable:
    """Fill the whole table with the numba kernel (imports numba)."""
    from boardlab.ioiwari._kernel import build_values

    return ValueTable(variant, build_values(variant.pits, variant.cap).tobytes())


def reference_table(variant: Variant) -> list[int]:
    """Every code's value by :class:`MemoSolver`: the pure-Python twin of the kernel."""
    solver = MemoSolver(variant)
    return [solver.value(decode(code, variant)) for code in range(variant.size)]


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move and what it is worth: banked beads now and the value under perfect play."""

    pit: int
    gain: int
    loss: int
    value: int


@dataclass(frozen=True, slots=True)
class Analysis:
    """A position solved: its value for the side to move, every move's value, the final
    banks, and when asked for, a perfect line of play to the end (``line``: the pits).

    The evidence: ``seconds``; ``nodes``, the exact values the analysis looked up in its
    evaluator (a table's entries read; for a :class:`MemoSolver`, its answers, not the
    positions it solved beneath them); ``proven``, always; ``bound``, the value itself.
    """

    position: Position
    value: int
    moves: tuple[MoveValue, ...]
    best: tuple[int, ...]
    final_banks: tuple[int, int]
    seconds: float
    line: tuple[int, ...] | None = None
    nodes: int = 0

    @property
    def proven(self) -> bool:
        """Always True: the value is exact (the evaluator solves the game to its end)."""
        return True

    @property
    def bound(self) -> int:
        """The value: exact, so it is its own bound."""
        return self.value

    def as_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready values (``analyze --json`` and the web API)."""
        return {
            "position": str(self.position),
            "to_move": self.position.to_move,
            "value": self.value,
            "moves": [
                {"pit": m.pit, "banked": m.gain, "given": m.loss, "value": m.value}
                for m in self.moves
            ],
            "best": list(self.best),
            "final_banks": list(self.final_banks),
            "proven": self.proven,
            "bound": self.bound,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "line": None if self.line is None else list(self.line),
        }


def analyse(evaluator: ValueOracle, position: Position, *, line: bool = False) -> Analysis:
    """Solve ``position`` exactly; with ``line``, also play a perfect game out from it
    (:class:`PerfectPlayer`, lowest pit on ties; None when the game is over).

    :raises BoardlabError: when the pits do not fit the evaluator's variant.
    """
    started = time.perf_counter()
    variant = evaluator.variant
    variant.check_pits(position.pits)
    counted = _Counted(evaluator)
    pits = position.pits
    moves = []
    for index, beads in enumerate(pits):
        if beads:
            child, mine, theirs = sow(pits, index, variant.cap)
            rest = counted.value(child) if any(child) else 0
            moves.append(MoveValue(index + 1, mine, theirs, mine - theirs - rest))
    value = max((m.value for m in moves), default=0)
    remaining = sum(pits)
    mover_gain, other_gain = (remaining + value) // 2, (remaining - value) // 2
    banks = list(position.banks)
    banks[position.to_move - 1] += mover_gain
    banks[2 - position.to_move] += other_gain
    played = None
    if line and moves:
        state = State.from_position(position, variant)
        player = PerfectPlayer(counted)
        while not state.is_over():
            state.play(player.choose(state))
        played = tuple(move.pit for move in state.history)
    return Analysis(
        position=position,
        value=value,
        moves=tuple(moves),
        best=tuple(m.pit for m in moves if m.value == value),
        final_banks=(banks[0], banks[1]),
        seconds=time.perf_counter() - started,
        line=played,
        nodes=counted.lookups,
    )


class _Counted:
    """An evaluator that counts the values looked up in it."""

    def __init__(self, evaluator: ValueOracle) -> None:
        self.evaluator = evaluator
        self.variant = evaluator.variant
        self.lookups = 0

    def value(self, pits: Sequence[int]) -> int:
        """The evaluator's value of ``pits``, counted."""
        self.lookups += 1
        return self.evaluator.value(pits)


class PerfectPlayer:
    """Plays an optimal move; ties are broken by ``rng`` (the lowest pit when None)."""

    def __init__(self, evaluator: ValueOracle, rng: random.Random | None = None) -> None:
        self.evaluator = evaluator
        self.rng = rng

    def choose(self, state: State) -> Move:
        """An optimal move of ``state``.

        :raises BoardlabError: when the game is over.
        """
        best = _best(move_values(self.evaluator, state.pits))
        if not best:
            raise BoardlabError("the game is over: there is no move")
        pit = best[0] if self.rng is None else self.rng.choice(best)
        return Move(pit)

    def __call__(self, state: State) -> Move:
        return self.choose(state)
