"""Routing a piece's PCB by construction: a two-layer grid router (A* on a 0.635 mm grid),
net by net, every connection grown from the pads already joined.

Clearance holds by construction: a grid node is open to a net only if every other net's
copper (pads, tracks, vias) and the board's edge keep `BLOCK_MM` from it, which is the
design clearance plus the widest half-track plus half a grid step (so the whole track
between two open nodes keeps the clearance). KiCad's DRC checks the result.
"""

from __future__ import annotations

import heapq
import math
from itertools import pairwise

from keezbord.hardware.pcb_design import GRID, Comp, Design, pad_world
from keezbord.hardware.pcb_grid import (
    BLOCKED,
    CLEARANCE,
    EDGE_CLEARANCE,
    FREE,
    LAYERS,
    SIGNAL_WIDTH,
    VIA,
    WIDTH,
    Grid,
    PadShape,
    Routed,
    RouteError,
    _pad_distance,
    pad_shapes,
    width_of,
)
from keezbord.hardware.plane import Point

__all__ = ["CLEARANCE", "EDGE_CLEARANCE", "SIGNAL_WIDTH", "VIA", "RouteError", "Routed", "route"]

VIA_COST = 8
TURN_COST = 2
WRONG_WAY = 3  # F.Cu runs along x, B.Cu along y

State = tuple[int, int]  # (layer, node)


def _search(g: Grid, net: int, starts: set[State], goal: set[State], aim: Point) -> list[State]:
    """The cheapest path from any start to any goal state on nodes open to ``net``."""
    nx = g.nx
    ai, aj = aim[0] / GRID, aim[1] / GRID
    owner = g.owner
    best: dict[tuple[int, int, int], int] = {}
    came: dict[tuple[int, int, int], tuple[int, int, int] | None] = {}
    heap: list[tuple[float, int, int, int, int, int]] = []
    count = 0

    def h(n: int) -> float:
        return 1.2 * (abs(n % nx - ai) + abs(n // nx - aj))

    for layer, n in sorted(starts):
        key = (layer, n, 0)
        best[key] = 0
        came[key] = None
        heapq.heappush(heap, (h(n), count, 0, layer, n, 0))
        count += 1
    while heap:
        _, _, cost, layer, n, d = heapq.heappop(heap)
        key = (layer, n, d)
        if best.get(key, 1 << 30) < cost:
            continue
        if (layer, n) in goal and (layer, n) not in starts:
            path = [(layer, n)]
            k: tuple[int, int, int] | None = came[key]
            while k is not None:
                if (k[0], k[1]) != path[-1]:
                    path.append((k[0], k[1]))
                k = came[k]
            return path[::-1]
        i = n % nx
        moves = []
        if i + 1 < nx:
            moves.append((layer, n + 1, 1))
        if i > 0:
            moves.append((layer, n - 1, 1))
        if n + nx < len(owner[0]):
            moves.append((layer, n + nx, 2))
        if n >= nx:
            moves.append((layer, n - nx, 2))
        other = 1 - layer
        if owner[other][n] in (FREE, net) and owner[layer][n] in (FREE, net):
            moves.append((other, n, 0))
        for nl, nn, nd in moves:
            o = owner[nl][nn]
            if o != FREE and o != net:
                continue
            if nd == 0:
                step = VIA_COST
                nd = d
            else:
                step = 1 if (nd == 1) == (nl == 0) else WRONG_WAY
                if d and nd != d:
                    step += TURN_COST
            nc = cost + step
            nkey = (nl, nn, nd)
            if nc < best.get(nkey, 1 << 30):
                best[nkey] = nc
                came[nkey] = key
                heapq.heappush(heap, (nc + h(nn), count, nc, nl, nn, nd))
                count += 1
    raise RouteError("no path")


def _terminals(g: Grid, s: PadShape, net: int) -> set[State]:
    out: set[State] = set()
    r = max(s.half)
    i0, i1 = int((s.centre[0] - r) / GRID), int((s.centre[0] + r) / GRID) + 1
    j0, j1 = int((s.centre[1] - r) / GRID), int((s.centre[1] + r) / GRID) + 1
    for j in range(j0, j1 + 1):
        for i in range(i0, i1 + 1):
            q = (i * GRID, j * GRID)
            # inside the pad with a track's half width to spare
            if _pad_distance(s, q) == 0 and _inset(s, q) >= SIGNAL_WIDTH / 2:
                n = g.node(i, j)
                for layer in s.layers:
                    if g.owner[layer][n] in (FREE, net):
                        out.add((layer, n))
    return out


def _inset(s: PadShape, q: Point) -> float:
    dx, dy = abs(q[0] - s.centre[0]), abs(q[1] - s.centre[1])
    if s.round:
        return s.half[0] - math.hypot(dx, dy)
    return min(s.half[0] - dx, s.half[1] - dy)


LOCAL_MM = 20.0  # first pass: only the connections shorter than this, for every net


def route(d: Design) -> dict[str, Routed]:
    """Route every net of the design: first every net's short connections (a pull-up to
    its chip pin, a capacitor to its LED) so the long runs cannot seal them off, then the
    rest; signals first, then 3V3, then 5V and GND."""
    g = Grid(d.outline)
    shapes = pad_shapes(d)
    nets = d.nets()
    ids = {n: k for k, n in enumerate(nets)}
    for s in shapes:
        g.mark_pad(s, ids[s.net] if s.net else BLOCKED)
    for c in d.comps:
        if c.kind.prefix == "U":
            _fanout(g, c, ids)
    order = sorted(nets, key=lambda n: (n in WIDTH, n == "GND", n))
    work = {net: _Net(g, net, ids[net], [s for s in shapes if s.net == net]) for net in order}
    for limit in (LOCAL_MM, math.inf):
        for net in order:
            work[net].grow(limit)
    return {net: work[net].routed() for net in order}


FANOUT_MM = (3.0, 5.54)  # a chip pin's own lane beyond its pad, alternating rows


def _fanout(g: Grid, c: Comp, ids: dict[str, int]) -> None:
    """Keep each chip pin's lane outwards free for its own net (so no other net seals it
    in), alternately short and long so their ends can take vias; nothing under the chip."""
    for k, p in enumerate(sorted(c.kind.pads, key=lambda p: (p.x, p.y))):
        net = c.nets.get(p.number)
        if net is None:
            continue
        side = 1 if p.x > 0 else -1
        a = pad_world(c, p.x, p.y)
        b = pad_world(c, p.x + side * (p.w / 2 + FANOUT_MM[k % 2]), p.y)
        g.mark_track(0, a, b, SIGNAL_WIDTH, ids[net])
    inner = min(abs(p.x) for p in c.kind.pads) - c.kind.pads[0].w / 2 - CLEARANCE
    half = max(abs(p.y) for p in c.kind.pads) + 1
    x0, y0 = c.at
    turn = math.radians(c.rot)
    cos, sin = math.cos(turn), math.sin(turn)
    reach = max(inner, half)

    def under(q: Point) -> bool:
        dx, dy = q[0] - x0, q[1] - y0
        lx, ly = dx * cos - dy * sin, dx * sin + dy * cos
        return abs(lx) < inner and abs(ly) < half

    g.mark_near((0,), BLOCKED, x0 - reach, x0 + reach, y0 - reach, y0 + reach, under)


class _Net:
    """One net's routing: its pads joined pairwise, closest first (Kruskal), each join a
    path from one group's copper to the other's."""

    def __init__(self, g: Grid, name: str, net: int, pads: list[PadShape]) -> None:
        self.g, self.name, self.net, self.pads = g, name, net, pads
        self.terms = [_terminals(g, s, net) for s in pads]
        for s, t in zip(pads, self.terms, strict=True):
            if not t:
                raise RouteError(f"net {name}: no grid node inside the pad at {s.centre}")
        self.group = list(range(len(pads)))
        self.nodes: dict[int, set[State]] = {k: set(t) for k, t in enumerate(self.terms)}
        self.edges: set[tuple[int, int, int]] = set()  # (layer, a, b) with a < b
        self.vias: set[int] = set()

    def grow(self, limit: float) -> None:
        pairs = sorted(
            (math.dist(a.centre, b.centre), i, k)
            for i, a in enumerate(self.pads)
            for k, b in enumerate(self.pads)
            if i < k
        )
        for dist, i, k in pairs:
            if dist > limit:
                break
            gi, gk = self.group[i], self.group[k]
            if gi == gk:
                continue
            try:
                path = _search(
                    self.g, self.net, self.nodes[gk], self.nodes[gi], self.pads[i].centre
                )
            except RouteError:
                raise RouteError(
                    f"net {self.name}: no path to the pad at {self.pads[k].centre}"
                ) from None
            self._lay(path)
            self.nodes[gi] |= self.nodes.pop(gk) | set(path)
            self.group = [gi if x == gk else x for x in self.group]

    def _lay(self, path: list[State]) -> None:
        w = width_of(self.name)
        for (la, a), (lb, b) in pairwise(path):
            if la != lb:
                self.vias.add(a)
                self.g.mark_via(self.g.xy(a), self.net)
            else:
                self.edges.add((la, min(a, b), max(a, b)))
                self.g.mark_track(la, self.g.xy(a), self.g.xy(b), w, self.net)

    def routed(self) -> Routed:
        pad_nodes = {n for t in self.terms for _, n in t}
        return _segments(self.g, self.name, self.edges, self.vias, pad_nodes)


def _segments(
    g: Grid, name: str, edges: set[tuple[int, int, int]], vias: set[int], pads: set[int]
) -> Routed:
    """Unit grid steps merged into straight tracks, broken at every junction, turn, via
    and pad (so every track ends where KiCad sees it connected)."""
    r = Routed()
    w = width_of(name)
    for layer in (0, 1):
        adj: dict[int, list[int]] = {}
        for la, a, b in edges:
            if la == layer:
                adj.setdefault(a, []).append(b)
                adj.setdefault(b, []).append(a)

        def stop(n: int, adj: dict[int, list[int]] = adj) -> bool:
            nb = adj[n]
            return len(nb) != 2 or n in vias or n in pads or (nb[0] - n) != (n - nb[1])

        seen: set[tuple[int, int]] = set()
        for start in sorted(adj):
            if not stop(start):
                continue
            for nxt in sorted(adj[start]):
                if (start, nxt) in seen:
                    continue
                prev, cur = start, nxt
                seen.add((prev, cur))
                seen.add((cur, prev))
                while not stop(cur):
                    nb = next(x for x in adj[cur] if x != prev)
                    prev, cur = cur, nb
                    seen.add((prev, cur))
                    seen.add((cur, prev))
                r.tracks.append((LAYERS[layer], g.xy(start), g.xy(cur), w, name))
    for v in sorted(vias):
        r.vias.append((g.xy(v), name))
    return r
