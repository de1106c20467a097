"""Benchmark: blocks eaten by boardlab against the IOI 1997 official approach (baseline).

The baseline is boardlab's own reading of the official solution, written here from its
one-line description ("eat along rows, drop 4 layers at a time, try the three
orientations"): for each choice of the vertical axis, the iShongololo snakes along
every third row of a working layer (rows joined at their ends), drops four layers
straight down at the end of the layer and snakes back; at each block of that fixed
path it greedily eats every block that is legal now and touches no later block of the
path. The best of the three orientations counts. Both answers are replayed by the judge.

Usage: ``python benchmarks/bench_shongololo_eaten.py [--time S] [--big-time S] [SIZE ...]``
(sizes like ``32x32x32``).
"""

from __future__ import annotations

import argparse
import time

from boardlab.core.limits import Limit
from boardlab.shongololo.blocks import Action, Box
from boardlab.shongololo.judge import judge_actions
from boardlab.shongololo.rules import Shongololo, upper_bound
from boardlab.shongololo.solver import Solver

SIZES = [
    "32x32x32",
    "20x20x20",
    "16x16x16",
    "10x10x10",
    "8x8x8",
    "6x6x6",
    "5x5x5",
    "3x3x3",
    "2x4x5",
    "1x32x32",
    "2x32x32",
    "3x32x32",
    "2x10x10",
    "32x32x4",
    "7x19x29",
]


def _baseline_path(sides: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """The planned path in (row axis, across, vertical) coordinates, 0-based."""
    n0, n1, n2 = sides
    rows = list(range(0, n1, 3))
    path: list[tuple[int, int, int]] = []
    forward = True
    order = rows
    for c in range(0, n2, 4):
        if c:
            a, b, _ = path[-1]
            path.extend((a, b, c - 4 + k) for k in (1, 2, 3, 4))
            order = order[::-1]
            path.pop()  # the landing block is the first block of the next layer
        for i, b in enumerate(order):
            xs = list(range(n0)) if forward else list(range(n0 - 1, -1, -1))
            if i:
                end = path[-1][0]
                step = 1 if b > order[i - 1] else -1
                path.extend((end, order[i - 1] + step * k, c) for k in (1, 2))
            path.extend((x, b, c) for x in xs)
            forward = not forward
    # keep the first occurrence of each block (the drop lands on the next row's start)
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for cell in path:
        if cell not in seen:
            seen.add(cell)
            unique.append(cell)
    return unique


def baseline(box: Box) -> tuple[Action, ...]:
    """The best of the three orientations of the baseline, as a legal run."""
    best: tuple[Action, ...] = ()
    for vertical in range(3):
        across = [axis for axis in range(3) if axis != vertical]
        axes = (across[0], across[1], vertical)
        sides = tuple(box.sides[a] for a in axes)
        planned = []
        for cell in _baseline_path(sides):  # type: ignore[arg-type]
            coords = [0, 0, 0]
            for k in range(3):
                coords[axes[k]] = cell[k]
            planned.append(
                box.index(box.block(0))
                + coords[0]
                + box.length * (coords[1] + box.width * coords[2])
            )
        run = _greedy_run(box, planned)
        if sum(a.kind == "E" for a in run) > sum(a.kind == "E" for a in best):
            best = run
    return best


def _greedy_run(box: Box, planned: list[int]) -> tuple[Action, ...]:
    state = Shongololo(box)
    state.play(Action("E", box.block(0)))
    state.play(Action("M", box.block(0)))
    later = {cell: i for i, cell in enumerate(planned)}
    for i, cell in enumerate(planned):
        here = box.block(cell)
        if i and state.position != here:
            break
        nxt = planned[i + 1] if i + 1 < len(planned) else None
        for other in box.neighbours(here):
            index = box.index(other)
            if index in later:  # a block of the path is eaten only as the next step
                continue
            touches_path = any(later.get(box.index(o), -1) > i for o in box.neighbours(other))
            action = Action("E", other)
            if not touches_path and state.is_legal(action):
                state.push(action)
        if nxt is None:
            break
        step = Action("E", box.block(nxt))
        if not state.is_legal(step):
            break
        state.push(step)
        state.push(Action("M", box.block(nxt)))
    return state.history


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", default=SIZES)
    parser.add_argument("--time", type=float, default=5.0, help="boardlab seconds per size")
    parser.add_argument(
        "--big-time", type=float, default=30.0, help="boardlab seconds for 32x32x32"
    )
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    header = (
        f"{'size':>9} {'N':>6} {'bound':>6} {'eaten':>6} {'/N':>6} {'/bound':>7} "
        f"{'baseline':>8} {'/base':>6} {'proven':>6} {'time s':>7} {'base s':>7}"
    )
    print(header)
    print("-" * len(header))
    for text in args.sizes:
        box = Box.parse(text)
        seconds = args.big_time if box.volume == 32**3 else args.time
        started = time.perf_counter()
        solution = Solver(Limit(time=seconds), args.seed).solve(box)
        ours_time = time.perf_counter() - started
        started = time.perf_counter()
        base_run = baseline(box)
        base_time = time.perf_counter() - started
        ours = judge_actions(box, solution.actions)
        base = judge_actions(box, base_run)
        assert ours.valid and base.valid, (ours.summary(), base.summary())
        bound = upper_bound(box)
        print(
            f"{text:>9} {box.volume:>6} {bound:>6} {ours.eaten:>6} "
            f"{ours.eaten / box.volume:>6.3f} {ours.eaten / bound:>7.3f} {base.eaten:>8} "
            f"{ours.eaten / base.eaten:>6.2f} {'yes' if solution.proven else 'no':>6} "
            f"{ours_time:>7.2f} {base_time:>7.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
