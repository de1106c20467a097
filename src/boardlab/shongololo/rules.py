"""Rules layer: the iShongololo inside its fruit, with legal actions, push/pop and checks.

The rules as boardlab reads them (``seeds/NOTES.md``): the iShongololo starts outside;
the first action must be ``E 1 1 1`` and the second ``M 1 1 1``. After that it may

- eat (``E``) a block inside the fruit that is not eaten yet, shares a face with its
  current block and whose other five faces touch no eaten block;
- move (``M``) into an eaten block that shares a face with its current block and that
  it has never occupied before.

>>> from boardlab.shongololo.blocks import Action, Box
>>> state = Shongololo(Box(2, 3, 2))
>>> [str(a) for a in state.legal_moves()]
['E 1 1 1']
>>> for line in ("E 1 1 1", "M 1 1 1", "E 2 1 1", "E 1 2 1", "M 1 2 1"):
...     state.play(Action.parse(line))
>>> state.eaten_count, state.why_illegal(Action.parse("E 2 2 1"))
(3, 'block 2 2 1 also touches the eaten block 2 1 1')
>>> state.path, eval(repr(state)) == state
([Block(1, 1, 1), Block(1, 2, 1)], True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

from boardlab.core.errors import BoardlabError
from boardlab.core.state import GameState
from boardlab.shongololo.blocks import Action, Block, Box

__all__ = ["START", "Shongololo", "upper_bound"]

#: The block the iShongololo must eat first and then move into.
START = Block(1, 1, 1)


class Shongololo(GameState[Action, None, int]):
    """The fruit with its eaten blocks and the iShongololo's path (a mutable state).

    ``eaten`` and ``path`` (the blocks occupied so far, in order) rebuild a state in the
    middle of a run; by default nothing is eaten and the iShongololo is outside. The
    outcome, once it stops, is the number of blocks eaten.

    :raises BoardlabError: when a block of ``eaten`` or ``path`` lies outside the box.
    """

    __slots__ = ("_eaten", "_neighbours", "_occupied", "box", "path")

    def __init__(self, box: Box, eaten: Iterable[Block] = (), path: Sequence[Block] = ()) -> None:
        super().__init__()
        self.box = box
        size = box.volume
        self._eaten = bytearray(size)
        self._occupied = bytearray(size)
        self._neighbours = _neighbour_lists(box)
        #: the blocks occupied so far, in order (the spine of the eaten tree)
        self.path: list[Block] = list(path)
        for block in (*eaten, *path):
            if not box.contains(block):
                raise BoardlabError(f"block {block} is outside the {box} fruit")
        for block in eaten:
            self._eaten[box.index(block)] = 1
        for block in path:
            self._occupied[box.index(block)] = 1

    # -- inspection ------------------------------------------------------------------------
    @property
    def position(self) -> Block | None:
        """The block the iShongololo occupies, or None while it is still outside."""
        return self.path[-1] if self.path else None

    @property
    def eaten_count(self) -> int:
        """How many blocks have been eaten."""
        return sum(self._eaten)

    def eaten_blocks(self) -> list[Block]:
        """Every eaten block, in index order."""
        return [self.box.block(i) for i, flag in enumerate(self._eaten) if flag]

    # -- the protocol's hooks -----------------------------------------------------------------
    def why_illegal(self, move: Action) -> str | None:
        """None when ``move`` is legal now, else the rule it breaks (one line)."""
        box, block = self.box, move.block
        if not box.contains(block):
            return f"block {block} is outside the {box.length}x{box.width}x{box.height} fruit"
        here = self.position
        index = box.index(block)
        if here is None:
            if not self._eaten[box.index(START)]:
                return None if move == Action("E", START) else "the first action must be E 1 1 1"
            return None if move == Action("M", START) else "the second action must be M 1 1 1"
        if not here.touches(block):
            return f"block {block} does not share a face with the current block {here}"
        if move.kind == "M":
            if not self._eaten[index]:
                return f"cannot move into the solid block {block}"
            if self._occupied[index]:
                return f"block {block} was occupied before"
            return None
        if self._eaten[index]:
            return f"block {block} is already eaten"
        here_index = box.index(here)
        for other in self._neighbours[index]:
            if other != here_index and self._eaten[other]:
                return f"block {block} also touches the eaten block {box.block(other)}"
        return None

    def legal_moves(self) -> list[Action]:
        """Every legal action now: eats first, then moves, each in block order."""
        here = self.position
        if here is None:
            eaten = self._eaten[self.box.index(START)]
            return [Action("M", START)] if eaten else [Action("E", START)]
        around = self.box.neighbours(here)
        options = [Action("E", b) for b in around] + [Action("M", b) for b in around]
        return [action for action in options if self.is_legal(action)]

    def is_over(self) -> bool:
        """True when no block can be eaten and no move is left (the iShongololo stops)."""
        return not self.legal_moves()

    def outcome(self) -> int | None:
        """The number of blocks eaten once the iShongololo stops, else None."""
        return self.eaten_count if self.is_over() else None

    def _apply(self, move: Action) -> None:
        index = self.box.index(move.block)
        if move.kind == "E":
            self._eaten[index] = 1
        else:
            self._occupied[index] = 1
            self.path.append(move.block)

    def _undo(self, move: Action, token: None) -> None:
        index = self.box.index(move.block)
        if move.kind == "E":
            self._eaten[index] = 0
        else:
            self._occupied[index] = 0
            self.path.pop()

    def _clone(self) -> Shongololo:
        twin = Shongololo.__new__(Shongololo)
        twin.box = self.box
        twin._eaten = bytearray(self._eaten)
        twin._occupied = bytearray(self._occupied)
        twin._neighbours = self._neighbours
        twin.path = list(self.path)
        return twin

    def _key(self) -> Hashable:
        return (self.box, bytes(self._eaten), tuple(self.path))

    def __repr__(self) -> str:
        return f"Shongololo({self.box!r}, eaten={self.eaten_blocks()!r}, path={self.path!r})"


def _neighbour_lists(box: Box) -> list[tuple[int, ...]]:
    length, width, height = box.sides
    layer = length * width
    table: list[tuple[int, ...]] = []
    for index in range(box.volume):
        x, y, z = index % length, (index // length) % width, index // layer
        found = []
        if x > 0:
            found.append(index - 1)
        if x + 1 < length:
            found.append(index + 1)
        if y > 0:
            found.append(index - length)
        if y + 1 < width:
            found.append(index + length)
        if z > 0:
            found.append(index - layer)
        if z + 1 < height:
            found.append(index + layer)
        table.append(tuple(found))
    return table


def upper_bound(box: Box) -> int:
    """A proven ceiling on the blocks any legal run can eat: ``floor((6N - 2 + F) / 10)``.

    The eaten blocks form a tree (each block is eaten touching exactly one eaten block),
    so n eaten blocks share ``n - 1`` faces, which is ``2(n - 1)`` of their ``6n`` faces.
    Every other face of an eaten block lies on the outside (at most F of them) or
    against an uneaten block, and an uneaten block has at most six faces:
    ``6n <= 2(n - 1) + 6(N - n) + F``.

    >>> upper_bound(Box(2, 3, 2)), upper_bound(Box(32, 32, 32))
    (10, 20275)
    """
    return (6 * box.volume - 2 + box.surface) // 10
