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


def must_play(
    board: list[int], size: int, mover: int, links: list[list[tuple[int, int, int]]]
) -> set[int] | None:
    """The must-play region of ``mover`` (None when none applies), with sets and dicts.

    ``links[c]``: the kernel's link table of cell ``c`` as ``(partner, x, y)`` triples
    (partner ``size * size + e`` for edge ``e``)."""
    cells = size * size

    def groups(who: int) -> dict[int, int]:
        label: dict[int, int] = {}
        nodes = [i for i in range(cells) if board[i] == who]
        low, high = cells + (0 if who == 1 else 2), cells + (1 if who == 1 else 3)
        adjacent: dict[int, set[int]] = {i: set() for i in [*nodes, low, high]}
        for i in nodes:
            r, c = divmod(i, size)
            for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < size and 0 <= cc < size and board[rr * size + cc] == who:
                    adjacent[i].add(rr * size + cc)
            line = c if who == 1 else r
            for edge, at in ((low, 0), (high, size - 1)):
                if line == at:
                    adjacent[i].add(edge)
                    adjacent[edge].add(i)
        for start in adjacent:
            if start in label:
                continue
            todo = [start]
            label[start] = start
            while todo:
                for j in adjacent[todo.pop()]:
                    if j not in label:
                        label[j] = start
                        todo.append(j)
        return label

    def touching(label: dict[int, int], who: int, x: int) -> set[int]:
        r, c = divmod(x, size)
        found = set()
        line = c if who == 1 else r
        low = cells + (0 if who == 1 else 2)
        if line == 0:
            found.add(label[low])
        if line == size - 1:
            found.add(label[low + 1])
        for dr, dc in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < size and 0 <= cc < size and board[rr * size + cc] == who:
                found.add(label[rr * size + cc])
        return found

    mine = groups(mover)
    mlow, mhigh = cells + (0 if mover == 1 else 2), cells + (1 if mover == 1 else 3)
    for x in range(cells):
        if board[x] == 0 and {mine[mlow], mine[mhigh]} <= touching(mine, mover, x):
            return None
    opp = 3 - mover
    label = groups(opp)
    # merge groups along links with fresh, disjoint carriers (stones in cell order)
    elow = cells + (0 if opp == 1 else 2)
    owner: dict[int, int] = {}  # carrier cell -> stone whose link took it
    for i in range(cells):
        if board[i] != opp:
            continue
        for p, x, y in links[i]:
            if p < cells and (p < i or board[p] != opp):
                continue
            if p >= cells and p not in (elow, elow + 1):
                continue
            if board[x] or board[y] or x in owner or y in owner or label[i] == label[p]:
                continue
            old, new = label[p], label[i]
            for key, value in label.items():
                if value == old:
                    label[key] = new
            owner[x] = owner[y] = i
    low, high = label[elow], label[elow + 1]
    if low == high:
        return None
    region = set(range(cells))
    threats = 0
    for x in range(cells):
        if board[x]:
            continue
        hits = touching(label, opp, x) & {low, high}
        taken: list[int] = []
        for p, a, b in links[x]:
            if hits == {low, high}:
                break
            if (p < cells and board[p] != opp) or (p >= cells and p not in (elow, elow + 1)):
                continue
            if board[a] or board[b] or a in owner or b in owner or a in taken or b in taken:
                continue
            if label[p] in (low, high) and label[p] not in hits:
                hits.add(label[p])
                taken += [a, b]
        if hits != {low, high}:
            continue
        threats += 1
        carrier = {x, *taken} | {c for c, s in owner.items() if label[s] in (low, high)}
        region &= carrier
    if not threats or not any(board[c] == 0 for c in region):
        return None
    return region
