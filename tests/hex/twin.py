"""Test oracle: plain-Python twins of the Hex kernels (same RNG stream, no numba)."""

from __future__ import annotations

from boardlab.hex.rules import bridge_table, neighbours

MASK = 0xFFFFFFFFFFFFFFFF


class XorShift:
    """The kernel's xorshift64* generator in Python integers."""

    def __init__(self, state: int) -> None:
        self.state = state

    def below(self, bound: int) -> int:
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & MASK
        x ^= x >> 27
        self.state = x
        return (((x * 2685821657736338717) & MASK) >> 33) % bound


def winner_full(board: list[int], size: int) -> int:
    """Winner of a full board by a set-based flood fill from player 1's left edge."""
    reached = {r * size for r in range(size) if board[r * size] == 1}
    todo = list(reached)
    while todo:
        cell = todo.pop()
        for other in neighbours(size)[cell]:
            if board[other] == 1 and other not in reached:
                reached.add(other)
                todo.append(other)
    return 1 if any(cell % size == size - 1 for cell in reached) else 2


def bridge_reply(board: list[int], me: int, last: int, size: int) -> int:
    if last < 0:
        return -1
    for a, b, y in bridge_table(size)[last]:
        if board[y] != 0 or board[a] != me:
            continue
        if b >= 0 and board[b] == me:
            return y
        if (b == -1 and me == 1) or (b == -2 and me == 2):
            return y
    return -1


def playout(board: list[int], size: int, to_move: int, last: int, rng: XorShift) -> int:
    """Fill ``board`` exactly as the kernel does and return the winner."""
    empties = [i for i, v in enumerate(board) if v == 0]
    player = to_move
    while empties:
        cell = bridge_reply(board, player, last, size)
        if cell < 0:
            cell = empties[rng.below(len(empties))]
        k = empties.index(cell)
        empties[k] = empties[-1]
        empties.pop()
        board[cell] = player
        last = cell
        player = 3 - player
    return winner_full(board, size)


def is_dead(board: list[int], size: int, cell: int) -> bool:
    """Four consecutive same-coloured neighbours, written out independently."""
    r, c = divmod(cell, size)
    ring = []
    for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < size and 0 <= cc < size:
            ring.append(board[rr * size + cc])
        elif not 0 <= rr < size and not 0 <= cc < size:
            ring.append(-1)
        else:
            ring.append(2 if not 0 <= rr < size else 1)
    doubled = ring + ring
    return any(doubled[s] > 0 and doubled[s : s + 4] == [doubled[s]] * 4 for s in range(6))
