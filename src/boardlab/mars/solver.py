"""Solver layer: provably optimal Mars explorer routes by flows, with a certificate.

Only cells on some pod-to-transmitter path take part. A rock is split into ``in -> out``
with one arc of capacity 1 and cost -1 (a rock pays once) and one of capacity N and cost
0; every cell links to its east and south neighbours (capacity N, cost 0). N units flow
from the pod to the transmitter; the minimum cost is minus the most rocks N monotone
paths can cover. OR-tools does the flows: first two max flows find the fewest vehicles
that collect every collectible rock (a chain cover; if N suffice that is optimal), else
``SimpleMinCostFlow`` with N units decides. networkx's network simplex is the peer in
``benchmarks/bench_mars_flow.py`` and a test backend.

The min-cost certificate is the flow's dual: shortest distances ``d`` in the residual
graph give every residual arc a non-negative reduced cost (checked), so no cheaper flow
exists, and they give the bound ``N * levels + free rocks`` equal to the flow's rocks. In
combinatorial form (Greene-Kleitman) the rocks split into groups no vehicle can visit two
of: one group per potential level crossed at a rock, and singletons; the sum of
``min(|group|, N)`` equals the optimum.

>>> from boardlab.mars.formats import parse_map
>>> s = solve(parse_map("2\\n3\\n3\\n0 2 2\\n2 1 0\\n2 0 0\\n"))
>>> s.max_rocks, s.best, s.certificate.bound if s.certificate else None
(4, 6, 4)
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from boardlab.core.errors import BoardlabError
from boardlab.mars.rules import best_score, route_cells, useful_cells
from boardlab.mars.values import EAST, ROCK, SOUTH, MarsMap, Step

__all__ = [
    "Certificate",
    "Network",
    "Route",
    "Solution",
    "build_network",
    "flow_networkx",
    "flow_ortools",
    "min_cover",
    "solve",
]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, slots=True)
class Network:
    """The flow network of a map, as arc arrays (the same for every backend).

    Node ``y * P + x`` is 0-based cell (x, y) (for a rock, its ``in`` side) and node
    ``P * Q + k`` the ``out`` side of the k-th useful rock. Arcs come in blocks of
    ``counts``: rock arcs (capacity 1, cost -1), rock bypasses (capacity N, cost 0), then
    east and south moves (capacity N, cost 0); ``cells`` gives each arc's tail cell id.
    Only cells on some pod-to-transmitter path take part.
    """

    width: int
    height: int
    vehicles: int
    source: int
    sink: int
    tails: IntArray
    heads: IntArray
    capacities: IntArray
    costs: IntArray
    counts: tuple[int, int, int, int]
    cells: IntArray

    @property
    def nodes(self) -> int:
        """Number of node ids (cells plus one ``out`` node per useful rock)."""
        return self.width * self.height + self.counts[0]

    @property
    def arcs(self) -> int:
        """Number of arcs."""
        return int(self.tails.shape[0])


@dataclass(frozen=True, slots=True)
class Route:
    """One distinct route: its step digits (0 south, 1 east) and the vehicles that take it."""

    directions: str
    first_vehicle: int
    vehicles: int
    new_rocks: int

    def cells(self) -> list[tuple[int, int]]:
        """The cells (x, y) the route visits, pod and transmitter included."""
        return route_cells(self.directions)


@dataclass(frozen=True, slots=True)
class Certificate:
    """Proof of optimality: residual potentials and the bound they give.

    ``levels`` is the potential difference between pod and transmitter (what one more
    vehicle could still add), ``free_rocks`` the collected rocks not on a level boundary;
    ``bound = vehicles * levels + free_rocks``. ``groups`` partition the collectible rocks
    into sets of which no vehicle can visit two; ``sum(min(len(g), vehicles))`` is the same
    bound. ``reduced_costs_ok`` says every residual arc was checked non-negative.
    """

    levels: int
    free_rocks: int
    bound: int
    groups: tuple[tuple[tuple[int, int], ...], ...]
    group_bound: int
    reduced_costs_ok: bool
    unreachable_rocks: int
    method: str


@dataclass(frozen=True, slots=True)
class Solution:
    """An optimal plan: the routes, the optimum, the best score and the evidence.

    The evidence: ``seconds``; ``nodes`` and ``arcs``, the size of the flow network
    solved (0 when the transmitter cannot be reached: no network); ``proven`` and
    ``bound``, the certificate's.
    """

    mars: MarsMap
    reachable: bool
    max_rocks: int
    routes: tuple[Route, ...]
    certificate: Certificate | None
    seconds: float
    arcs: int = 0
    nodes: int = 0
    backend: str = "auto"
    method: str = "min-cost flow"
    cover: int | None = None
    stats: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> int:
        """The statement's best possible points for this map."""
        return best_score(self.mars.vehicles, self.max_rocks, self.reachable)

    @property
    def proven(self) -> bool:
        """True when the plan is proven optimal: the certificate's bound equals its rocks."""
        if not self.reachable:
            return True
        cert = self.certificate
        return cert is not None and cert.reduced_costs_ok and cert.bound == self.max_rocks

    @property
    def bound(self) -> int | None:
        """The proven ceiling on rocks delivered (None without a certificate)."""
        if not self.reachable:
            return 0
        return None if self.certificate is None else self.certificate.bound

    def steps(self) -> list[Step]:
        """The move list: every vehicle's whole route in turn (vehicle 1 first)."""
        steps: list[Step] = []
        for route in self.routes:
            digits = [EAST if d == "1" else SOUTH for d in route.directions]
            for vehicle in range(route.first_vehicle, route.first_vehicle + route.vehicles):
                steps.extend(Step(vehicle, d) for d in digits)
        return steps

    def as_dict(self) -> dict[str, Any]:
        """The plan and its evidence as plain JSON-ready values (``--json`` and the web API).

        The evidence has the names every game uses: ``proven``, ``bound``, ``nodes``,
        ``seconds``.
        """
        mars = self.mars
        cert = self.certificate
        return {
            "width": mars.width,
            "height": mars.height,
            "vehicles": mars.vehicles,
            "rocks": mars.rocks,
            "reachable": self.reachable,
            "max_rocks": self.max_rocks,
            "best": self.best,
            "method": self.method if self.reachable else None,
            "proven": self.proven,
            "bound": self.bound,
            "nodes": self.nodes,
            "arcs": self.arcs,
            "certificate": None
            if cert is None
            else {
                "method": cert.method,
                "levels": cert.levels,
                "free_rocks": cert.free_rocks,
                "bound": cert.bound,
                "group_bound": cert.group_bound,
                "groups": [[list(c) for c in g] for g in cert.groups],
                "reduced_costs_ok": cert.reduced_costs_ok,
                "unreachable_rocks": cert.unreachable_rocks,
            },
            "routes": [
                {
                    "directions": r.directions,
                    "first_vehicle": r.first_vehicle,
                    "vehicles": r.vehicles,
                    "new_rocks": r.new_rocks,
                }
                for r in self.routes
            ],
            "seconds": round(self.seconds, 6),
        }

    def moves_text(self) -> str:
        """The contest output: one ``VEHICLE DIRECTION`` line per step
        (:func:`boardlab.mars.formats.format_routes`)."""
        from boardlab.mars.formats import format_routes

        return format_routes((r.first_vehicle, r.vehicles, r.directions) for r in self.routes)


def build_network(mars: MarsMap, useful: list[list[bool]] | None = None) -> Network:
    """The flow network of ``mars`` restricted to useful cells (rocks split in two)."""
    width, height, n = mars.width, mars.height, mars.vehicles
    if useful is None:
        useful = useful_cells(mars)
    mask = np.array(useful, dtype=bool).reshape(height, width)
    rock = np.array(mars.rows, dtype=np.int8).reshape(height, width) == ROCK
    ids = np.arange(width * height, dtype=np.int64).reshape(height, width)
    rocks = ids[mask & rock]
    count = int(rocks.shape[0])
    out = ids.ravel().copy()
    out[rocks] = width * height + np.arange(count, dtype=np.int64)
    east = ids[:, :-1][mask[:, :-1] & mask[:, 1:]]
    south = ids[:-1, :][mask[:-1, :] & mask[1:, :]]
    tails = np.concatenate([rocks, rocks, out[east], out[south]])
    heads = np.concatenate([out[rocks], out[rocks], east + 1, south + width])
    caps = np.full(tails.shape[0], n, dtype=np.int64)
    caps[:count] = 1
    costs = np.zeros(tails.shape[0], dtype=np.int64)
    costs[:count] = -1
    counts = (count, count, int(east.shape[0]), int(south.shape[0]))
    cells = np.concatenate([rocks, rocks, east, south])
    sink = int(out[width * height - 1])
    return Network(width, height, n, 0, sink, tails, heads, caps, costs, counts, cells)


def min_cover(net: Network) -> tuple[int, IntArray]:
    """The fewest vehicles that collect every useful rock, with their arc flows.

    A minimum flow with a lower bound of 1 on every rock arc (Dilworth's chain cover),
    found by two OR-tools max flows: a feasible flow through a super source and sink,
    then the largest flow that can be pushed back from transmitter to pod.

    :raises BoardlabError: when OR-tools fails (an internal error).
    """
    if net.source == net.sink:  # a 1 x 1 clear map: nothing to move, nothing to collect
        return 0, np.zeros(net.arcs, dtype=np.int64)
    from ortools.graph.python import max_flow

    rocks, _, east, south = net.counts
    main = rocks + east + south
    big = rocks + 1
    tails = np.concatenate([net.tails[rocks:], net.tails[:rocks]])
    heads = np.concatenate([net.heads[rocks:], net.heads[:rocks]])
    # block order here: bypass (uncapacitated, lower bound 1 on the rock), east, south
    extra_source, extra_sink = net.nodes, net.nodes + 1
    all_tails = np.concatenate(
        [tails[:main], [net.sink], np.full(rocks, extra_source), tails[:rocks]]
    )
    all_heads = np.concatenate(
        [heads[:main], [net.source], heads[:rocks], np.full(rocks, extra_sink)]
    )
    caps = np.concatenate([np.full(main + 1, big), np.ones(2 * rocks, dtype=np.int64)])
    feasible = max_flow.SimpleMaxFlow()
    arcs = feasible.add_arcs_with_capacity(all_tails, all_heads, caps)
    if feasible.solve(extra_source, extra_sink) != feasible.OPTIMAL or (
        feasible.optimal_flow() != rocks
    ):
        raise BoardlabError("internal error: no feasible cover of the rocks")
    flows = np.asarray(feasible.flows(arcs), dtype=np.int64)
    value = int(flows[main])
    above_lower = flows[:main]
    back = max_flow.SimpleMaxFlow()
    arcs2 = back.add_arcs_with_capacity(
        np.concatenate([tails[:main], heads[:main]]),
        np.concatenate([heads[:main], tails[:main]]),
        np.concatenate([big - above_lower, above_lower]),
    )
    if back.solve(net.sink, net.source) != back.OPTIMAL:
        raise BoardlabError("internal error: the cover could not be reduced")
    pushed = np.asarray(back.flows(arcs2), dtype=np.int64)
    final = above_lower + pushed[:main] - pushed[main:]
    # back to the network's arc order: rock arcs carry the lower bound, bypasses the rest
    result = np.concatenate([np.ones(rocks, dtype=np.int64), final])
    return value - int(back.optimal_flow()), result


def flow_ortools(net: Network) -> tuple[int, IntArray]:
    """Solve ``net`` with OR-tools: ``(minimum cost, flow on each arc)``.

    :raises BoardlabError: when OR-tools does not report an optimal flow.
    """
    if net.source == net.sink:
        return 0, np.zeros(net.arcs, dtype=np.int64)
    from ortools.graph.python import min_cost_flow

    solver = min_cost_flow.SimpleMinCostFlow()
    arcs = solver.add_arcs_with_capacity_and_unit_cost(
        net.tails, net.heads, net.capacities, net.costs
    )
    solver.set_node_supply(net.source, net.vehicles)
    solver.set_node_supply(net.sink, -net.vehicles)
    status = solver.solve()
    if status != solver.OPTIMAL:
        raise BoardlabError(f"min-cost flow failed with status {status}")
    flows = np.asarray(solver.flows(arcs), dtype=np.int64)
    return int(solver.optimal_cost()), flows


def flow_networkx(net: Network) -> tuple[int, IntArray]:
    """Solve ``net`` with networkx's network simplex (the peer): ``(cost, arc flows)``."""
    if net.source == net.sink:
        return 0, np.zeros(net.arcs, dtype=np.int64)
    import networkx as nx

    graph: Any = nx.MultiDiGraph()
    graph.add_node(int(net.source), demand=-net.vehicles)
    graph.add_node(int(net.sink), demand=net.vehicles)
    keys = []
    for tail, head, cap, cost in zip(
        net.tails.tolist(),
        net.heads.tolist(),
        net.capacities.tolist(),
        net.costs.tolist(),
        strict=True,
    ):
        keys.append((tail, head, graph.add_edge(tail, head, capacity=cap, weight=cost)))
    cost, flow_dict = nx.network_simplex(graph)
    flows = np.array([flow_dict[t][h][k] for t, h, k in keys], dtype=np.int64)
    return int(cost), flows


def _decompose(net: Network, flows: IntArray, total: int) -> list[tuple[str, int]]:
    """Split ``total`` units of arc flow into distinct routes with their vehicle counts."""
    width, height = net.width, net.height
    rocks, bypass, e, _ = net.counts
    moves = rocks + bypass
    east = [0] * (width * height)
    south = [0] * (width * height)
    cells = net.cells.tolist()
    flow_list = flows.tolist()
    for index in range(moves, moves + e):
        east[cells[index]] = flow_list[index]
    for index in range(moves + e, len(cells)):
        south[cells[index]] = flow_list[index]
    goal = width * height - 1
    left = total
    routes: list[tuple[str, int]] = []
    while left > 0:
        cell, bottleneck = 0, left
        digits: list[str] = []
        taken: list[tuple[list[int], int]] = []
        while cell != goal:
            if east[cell] > 0:
                digits.append("1")
                taken.append((east, cell))
                bottleneck = min(bottleneck, east[cell])
                cell += 1
            elif south[cell] > 0:
                digits.append("0")
                taken.append((south, cell))
                bottleneck = min(bottleneck, south[cell])
                cell += width
            else:
                raise BoardlabError("internal error: the flow does not reach the transmitter")
        for table, index in taken:
            table[index] -= bottleneck
        routes.append(("".join(digits), bottleneck))
        left -= bottleneck
    return routes


def _any_route(useful: list[list[bool]]) -> str:
    """A pod-to-transmitter route through useful cells (east when it can)."""
    height, width = len(useful), len(useful[0])
    x = y = 0
    digits: list[str] = []
    while (x, y) != (width - 1, height - 1):
        if x + 1 < width and useful[y][x + 1]:
            x += 1
            digits.append("1")
        else:
            y += 1
            digits.append("0")
    return "".join(digits)


def _residual_potentials(net: Network, flows: IntArray) -> tuple[list[int], bool]:
    """Shortest distances from the pod in the residual graph, and the reduced-cost check.

    Label-correcting (FIFO Bellman-Ford); moves and bypasses count as uncapacitated, so
    only rock arcs can be saturated.

    :raises BoardlabError: when the residual graph has a negative cycle (never for an
        optimal flow: it would be an internal error).
    """
    n = net.nodes
    residual: list[tuple[int, int, int]] = []
    tails, heads, costs = net.tails.tolist(), net.heads.tolist(), net.costs.tolist()
    for tail, head, cost, f in zip(tails, heads, costs, flows.tolist(), strict=True):
        if cost == 0 or f == 0:
            residual.append((tail, head, cost))
        if f > 0:
            residual.append((head, tail, -cost))
    adjacency: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for tail, head, cost in residual:
        adjacency[tail].append((head, cost))
    inf = 1 << 60
    dist = [inf] * n
    dist[net.source] = 0
    queue = deque([net.source])
    queued = [False] * n
    queued[net.source] = True
    pops = 0
    limit = (n + 1) * (n + 1)
    while queue:
        node = queue.popleft()
        queued[node] = False
        pops += 1
        if pops > limit:
            raise BoardlabError("internal error: the residual graph has a negative cycle")
        base = dist[node]
        for head, cost in adjacency[node]:
            if base + cost < dist[head]:
                dist[head] = base + cost
                if not queued[head]:
                    queued[head] = True
                    queue.append(head)
    ok = all(dist[t] == inf or dist[t] + c >= dist[h] for t, h, c in residual)
    return dist, ok


def _certify(mars: MarsMap, net: Network, flows: IntArray) -> Certificate:
    """The dual certificate of an optimal min-cost flow (see the module docstring)."""
    dist, ok = _residual_potentials(net, flows)
    width, cells_total = net.width, net.width * net.height
    levels = -dist[net.sink]
    free = 0
    by_level: dict[int, list[tuple[int, int]]] = {}
    singles: list[tuple[tuple[int, int], ...]] = []
    for k, cell in enumerate(net.cells[: net.counts[0]].tolist()):
        x, y = cell % width + 1, cell // width + 1
        d_in, d_out = dist[cell], dist[cells_total + k]
        if d_out >= d_in:
            free += 1
            singles.append(((x, y),))
        else:
            by_level.setdefault(d_in, []).append((x, y))
    groups = tuple(tuple(by_level[k]) for k in sorted(by_level, reverse=True)) + tuple(singles)
    vehicles = mars.vehicles
    return Certificate(
        levels=levels,
        free_rocks=free,
        bound=vehicles * levels + free,
        groups=groups,
        group_bound=sum(min(len(g), vehicles) for g in groups),
        reduced_costs_ok=ok,
        unreachable_rocks=mars.rocks - net.counts[0],
        method="min-cost flow",
    )


def _cover_certificate(mars: MarsMap, net: Network) -> Certificate:
    """Every collectible rock is delivered: the trivial bound (constant potentials)."""
    width = net.width
    singles = tuple(
        ((cell % width + 1, cell // width + 1),) for cell in net.cells[: net.counts[0]].tolist()
    )
    rocks = net.counts[0]
    return Certificate(
        levels=0,
        free_rocks=rocks,
        bound=rocks,
        groups=singles,
        group_bound=rocks,
        reduced_costs_ok=True,
        unreachable_rocks=mars.rocks - rocks,
        method="chain cover",
    )


def solve(mars: MarsMap, *, certify: bool = True, backend: str = "auto") -> Solution:
    """The optimal routes of ``mars``: every vehicle arrives, the most rocks are delivered.

    ``backend="auto"`` first finds the fewest vehicles that collect every collectible
    rock (two OR-tools max flows); when there are enough vehicles that is optimal, since
    no plan delivers more than every collectible rock. Otherwise, and always with
    ``"ortools"`` or ``"networkx"``, it solves the min-cost flow with N units. Vehicles
    not needed follow the first route. When the transmitter cannot be reached the plan
    is empty: every vehicle stays in the pod, which is the best possible (-N points; see
    :func:`~boardlab.mars.rules.best_score`).

    :raises BoardlabError: for an unknown ``backend`` or a failed flow (an internal error).
    """
    started = time.perf_counter()
    if backend not in ("auto", "ortools", "networkx"):
        raise BoardlabError(f"unknown flow backend {backend!r} (auto, ortools, networkx)")
    useful = useful_cells(mars)
    if not useful[-1][-1]:
        return Solution(mars, False, 0, (), None, time.perf_counter() - started, backend=backend)
    net = build_network(mars, useful)
    vehicles = mars.vehicles
    method = "min-cost flow"
    flows: IntArray | None = None
    total = vehicles
    if backend == "auto":
        cover, cover_flows = min_cover(net)
        if cover <= vehicles:
            flows, total, method = cover_flows, cover, "chain cover"
    if flows is None:
        _, flows = flow_networkx(net) if backend == "networkx" else flow_ortools(net)
    max_rocks = int(flows[: net.counts[0]].sum())
    flow_done = time.perf_counter()
    raw = _decompose(net, flows, total)
    if total < vehicles:
        if raw:
            raw[0] = (raw[0][0], raw[0][1] + vehicles - total)
        else:
            raw = [(_any_route(useful), vehicles)]
    routes: list[Route] = []
    seen: set[tuple[int, int]] = set()
    vehicle = 1
    for directions, count in raw:
        rocks_here = {c for c in route_cells(directions) if mars.at(*c) == ROCK}
        routes.append(Route(directions, vehicle, count, len(rocks_here - seen)))
        seen |= rocks_here
        vehicle += count
    if len(seen) != max_rocks:
        raise BoardlabError(
            f"internal error: routes cover {len(seen)} rocks, the flow says {max_rocks}"
        )
    certificate = None
    if certify:
        if method == "chain cover":
            certificate = _cover_certificate(mars, net)
        else:
            certificate = _certify(mars, net, flows)
    finished = time.perf_counter()
    return Solution(
        mars,
        True,
        max_rocks,
        tuple(routes),
        certificate,
        finished - started,
        arcs=net.arcs,
        nodes=net.nodes,
        backend=backend,
        method=method,
        cover=total if method == "chain cover" else None,
        stats={"flow": flow_done - started, "total": finished - started},
    )
