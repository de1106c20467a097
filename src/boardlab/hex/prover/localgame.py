"""Prover layer: a captured region's local game played out (numba).

:func:`keeps` answers :func:`boardlab.hex.prover.regions.captured`'s question for one
local game (its nodes as bit masks: the region's cells first, then the groups inside it):
with the opponent to move in the region, can the player, answering inside it or passing,
always end with the region as good as filled? The rules are those of
:mod:`boardlab.hex.prover.regions`; ``regions._plays_out`` is the plain-Python twin the
tests compare it with.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import types
from numba.typed import Dict

from boardlab.core.jit import jit

__all__ = ["OVER_BUDGET", "keeps"]

I64 = npt.NDArray[np.int64]

#: :func:`keeps`'s answer when the local game took more positions than its budget.
OVER_BUDGET = -1


@jit
def _touched(touch: I64, group: int) -> int:
    """Everything the nodes of ``group`` touch."""
    found = 0
    while group:
        low = group & -group
        found |= touch[_index(low)]
        group ^= low
    return found


@jit
def _index(bit: int) -> int:
    """The position of a one-bit mask."""
    i = 0
    while bit > 1:
        bit >>= 1
        i += 1
    return i


@jit
def _next_group(links: I64, members: int) -> int:
    """The group (as a node mask) of the lowest node of ``members`` within ``members``."""
    group = members & -members
    grown = group
    while True:
        reach = group
        rest = grown
        while rest:
            low = rest & -rest
            reach |= links[_index(low)]
            rest ^= low
        reach &= members
        if reach == group:
            return group
        grown = reach & ~group
        group = reach


@jit
def _joins_all(links: I64, touch: I64, needed: int, members: int) -> bool:
    """Does one group of ``members`` touch every thing of ``needed``?"""
    if needed == 0:
        return True
    while members:
        group = _next_group(links, members)
        if _touched(touch, group) == needed:
            return True
        members &= ~group
    return False


@jit
def _joins_two(links: I64, touch: I64, members: int) -> bool:
    """Does one group of ``members`` touch two different things?"""
    while members:
        group = _next_group(links, members)
        touched = _touched(touch, group)
        if touched & (touched - 1):
            return True
        members &= ~group
    return False


#: :func:`_enter`'s answer for a position that must be played on.
_OPEN = 2


@jit
def _enter(
    mine: int,
    theirs: int,
    links: I64,
    own_touch: I64,
    rival_touch: I64,
    needed: int,
    own_inside: int,
    rival_inside: int,
    full: int,
    max_states: int,
    known: Dict,
) -> int:
    """A position's answer when it is known or settled at once (1: the player keeps the
    region, 0: not), :data:`OVER_BUDGET` when the budget is spent, else :data:`_OPEN`."""
    key = mine | theirs << 32
    if key in known:
        return int(known[key])
    free = full & ~mine & ~theirs
    if _joins_two(links, rival_touch, theirs | rival_inside) or not _joins_all(
        links, own_touch, needed, mine | free | own_inside
    ):
        return 0
    if _joins_all(links, own_touch, needed, mine | own_inside) and not _joins_two(
        links, rival_touch, theirs | free | rival_inside
    ):
        return 1
    if len(known) >= max_states:
        return OVER_BUDGET
    return _OPEN


@jit
def _next_free(order: I64, free: int, at: int) -> int:
    """The first position of ``order`` from ``at`` on whose cell is in ``free`` (or
    ``len(order)``)."""
    while at < len(order) and not free >> order[at] & 1:
        at += 1
    return at


@jit
def keeps(
    links: I64,
    own_touch: I64,
    rival_touch: I64,
    needed: int,
    own_inside: int,
    rival_inside: int,
    cells: int,
    order: I64,
    max_states: int,
) -> int:
    """Does the player keep the region (1), not (0), or did the local game take more than
    ``max_states`` positions (:data:`OVER_BUDGET`)? ``links`` are the nodes next to each
    node, ``own_touch`` and ``rival_touch`` the things around the region each node
    touches (``needed``: every one of the player's), ``own_inside`` and ``rival_inside``
    the nodes of each side's inside groups, ``cells`` how many nodes are region cells,
    ``order`` the region cells in the order they are tried.

    Depth first with a stack: at each position (the opponent to move) every opponent
    move in turn, each answered by the free cells next to it, then the others, then a
    pass, until one answer keeps the region; the answers are remembered."""
    known = Dict.empty(key_type=types.int64, value_type=types.int64)
    full = (1 << cells) - 1
    answer = _enter(
        0, 0, links, own_touch, rival_touch, needed, own_inside, rival_inside, full,
        max_states, known,
    )  # fmt: skip
    if answer != _OPEN:
        return answer
    depth = cells + 2
    st_mine = np.zeros(depth, np.int64)
    st_theirs = np.zeros(depth, np.int64)
    st_move = np.zeros(depth, np.int64)  # position in order of the opponent's move
    st_stage = np.zeros(depth, np.int64)  # 0 near replies, 1 far ones, 2 the pass, 3 done
    st_reply = np.zeros(depth, np.int64)  # position in order of the next reply tried
    top = 0
    st_move[0] = _next_free(order, full, 0)
    value = _OPEN  # the answer of the child last tried (_OPEN: none yet)
    while top >= 0:
        mine, theirs = st_mine[top], st_theirs[top]
        free = full & ~mine & ~theirs
        if value == 1:  # the opponent's move is answered: the next one
            st_move[top] = _next_free(order, free, st_move[top] + 1)
            st_stage[top] = 0
            st_reply[top] = 0
            if st_move[top] >= len(order):
                known[mine | theirs << 32] = 1
                top -= 1
                continue
        value = _OPEN
        i = order[st_move[top]]
        rest = free & ~(1 << i)
        child = -1
        while st_stage[top] < 2 and child < 0:  # noqa: PLR2004
            near = st_stage[top] == 0
            at = st_reply[top]
            while at < len(order):
                j = order[at]
                at += 1
                if rest >> j & 1 and (links[i] >> j & 1 == 1) == near:
                    child = j
                    break
            st_reply[top] = at
            if child < 0:
                st_stage[top] += 1
                st_reply[top] = 0
        if child < 0 and st_stage[top] == 2:  # noqa: PLR2004
            st_stage[top] = 3
            child = cells  # the pass
        if child < 0:  # every answer lost: so does this position
            known[mine | theirs << 32] = 0
            value = 0
            top -= 1
            continue
        next_mine = mine | (1 << child if child < cells else 0)
        next_theirs = theirs | 1 << i
        got = _enter(
            next_mine, next_theirs, links, own_touch, rival_touch, needed, own_inside,
            rival_inside, full, max_states, known,
        )  # fmt: skip
        if got == OVER_BUDGET:
            return OVER_BUDGET
        if got != _OPEN:
            value = got
            continue
        top += 1
        st_mine[top] = next_mine
        st_theirs[top] = next_theirs
        st_move[top] = _next_free(order, full & ~next_mine & ~next_theirs, 0)
        st_stage[top] = 0
        st_reply[top] = 0
    return value
