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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

from keezbord.hardware.pcb_design import GRID, Comp, Design, pad_world
from keezbord.hardware.plane import Point, seg_distance

CLEARANCE = 0.2  # mm, copper to copper (the design rule)
EDGE_CLEARANCE = 0.5  # mm, copper to the board's edge
WIDTH = {"+5V": 0.6, "GND": 0.6, "+3V3": 0.3}
SIGNAL_WIDTH = 0.25
VIA = (0.6, 0.3)  # diameter, drill
BLOCK_MM = CLEARANCE + max(WIDTH.values()) / 2 + GRID / 2
VIA_COST = 8
TURN_COST = 2
WRONG_WAY = 3  # F.Cu runs along x, B.Cu along y
FREE, BLOCKED = -1, -2
LAYERS = ("F.Cu", "B.Cu")


class RouteError(RuntimeError):
    """A connection the router could not make."""


@dataclass
class Routed:
    """Per net: track segments (layer, start, end, width) and vias (position)."""

    tracks: list[tuple[str, Point, Point, float, str]] = field(default_factory=list)
    vias: list[tuple[Point, str]] = field(default_factory=list)


def width_of(net: str) -> float:
    return WIDTH.get(net, SIGNAL_WIDTH)


@dataclass(frozen=True)
class PadShape:
    net: str
    layers: tuple[int, ...]
    centre: Point
    half: tuple[float, float]  # half sizes along the board's x and y (pads turn by 90s)
    round: bool
    drill: float


def pad_shapes(d: Design) -> list[PadShape]:
    out = []
    for c in d.comps:
        for p in c.kind.pads:
            at = pad_world(c, p.x, p.y)
            w, h = (p.h, p.w) if c.rot % 180 == 90 else (p.w, p.h)
            layers = (0,) if p.kind == "smd" else (0, 1)
            net = c.nets.get(p.number, "") if p.number else ""
            out.append(PadShape(net, layers, at, (w / 2, h / 2), p.shape == "circle", p.drill))
    return out


def _pad_distance(s: PadShape, q: Point) -> float:
    dx, dy = abs(q[0] - s.centre[0]), abs(q[1] - s.centre[1])
    if s.round:
        return max(0.0, math.hypot(dx, dy) - s.half[0])
    ox, oy = max(0.0, dx - s.half[0]), max(0.0, dy - s.half[1])
    return math.hypot(ox, oy)


class Grid:
    def __init__(self, outline: Sequence[Point]) -> None:
        xs = [p[0] for p in outline]
        ys = [p[1] for p in outline]
        self.nx = int(max(xs) / GRID) + 2
        self.ny = int(max(ys) / GRID) + 2
        self.owner = [[FREE] * (self.nx * self.ny) for _ in LAYERS]
        self._outline(outline)

    def xy(self, n: int) -> Point:
        return (round((n % self.nx) * GRID, 4), round((n // self.nx) * GRID, 4))

    def node(self, i: int, j: int) -> int:
        return j * self.nx + i

    def _outline(self, outline: Sequence[Point]) -> None:
        m = len(outline)
        reach = EDGE_CLEARANCE + max(WIDTH.values()) / 2 + GRID / 2
        for j in range(self.ny):
            y = j * GRID
            xs = []
            for k in range(m):
                (ax, ay), (bx, by) = outline[k], outline[(k + 1) % m]
                if (ay > y) != (by > y):
                    xs.append(ax + (y - ay) * (bx - ax) / (by - ay))
            xs.sort()
            spans = list(zip(xs[0::2], xs[1::2], strict=False))
            for i in range(self.nx):
                x = i * GRID
                if not any(a < x < b for a, b in spans):
                    n = self.node(i, j)
                    self.owner[0][n] = self.owner[1][n] = BLOCKED
        for k in range(m):
            a, b = outline[k], outline[(k + 1) % m]
            self._mark_near(
                (0, 1),
                BLOCKED,
                min(a[0], b[0]) - reach,
                max(a[0], b[0]) + reach,
                min(a[1], b[1]) - reach,
                max(a[1], b[1]) + reach,
                lambda q, a=a, b=b: seg_distance(q, a, b) < reach,
            )

    def _mark_near(
        self,
        layers: Iterable[int],
        net: int,
        x0: float,
        x1: float,
        y0: float,
        y1: float,
        hit: object,
    ) -> None:
        test = hit  # a callable: point -> bool
        i0, i1 = max(0, int(x0 / GRID)), min(self.nx - 1, int(x1 / GRID) + 1)
        j0, j1 = max(0, int(y0 / GRID)), min(self.ny - 1, int(y1 / GRID) + 1)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                if test((i * GRID, j * GRID)):  # type: ignore[operator]
                    n = j * self.nx + i
                    for layer in layers:
                        cur = self.owner[layer][n]
                        if cur == FREE:
                            self.owner[layer][n] = net
                        elif cur != net:
                            self.owner[layer][n] = BLOCKED

    def mark_pad(self, s: PadShape, net: int) -> None:
        r = BLOCK_MM + max(s.half)
        self._mark_near(
            s.layers,
            net,
            s.centre[0] - r,
            s.centre[0] + r,
            s.centre[1] - r,
            s.centre[1] + r,
            lambda q: _pad_distance(s, q) < BLOCK_MM,
        )

    def mark_track(self, layer: int, a: Point, b: Point, w: float, net: int) -> None:
        r = BLOCK_MM + w / 2
        self._mark_near(
            (layer,),
            net,
            min(a[0], b[0]) - r,
            max(a[0], b[0]) + r,
            min(a[1], b[1]) - r,
            max(a[1], b[1]) + r,
            lambda q: seg_distance(q, a, b) < r,
        )

    def mark_via(self, at: Point, net: int) -> None:
        r = BLOCK_MM + VIA[0] / 2
        self._mark_near(
            (0, 1),
            net,
            at[0] - r,
            at[0] + r,
            at[1] - r,
            at[1] + r,
            lambda q: math.dist(q, at) < r,
        )


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


def route(d: Design) -> dict[str, Routed]:
    """Route every net of the design: signals first, then 3V3, then 5V and GND."""
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
    out: dict[str, Routed] = {}
    for net in order:
        pads = [s for s in shapes if s.net == net]
        out[net] = _route_net(g, net, ids[net], pads)
    return out


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
        b = (a[0] + side * (p.w / 2 + FANOUT_MM[k % 2]), a[1])
        g.mark_track(0, a, b, SIGNAL_WIDTH, ids[net])
    xs = [p.x for p in c.kind.pads]
    ys = [p.y for p in c.kind.pads]
    inner = min(abs(x) for x in xs) - c.kind.pads[0].w / 2 - CLEARANCE
    x0, y0 = c.at
    g._mark_near(
        (0,),
        BLOCKED,
        x0 - inner,
        x0 + inner,
        y0 + min(ys) - 1,
        y0 + max(ys) + 1,
        lambda q: abs(q[0] - x0) < inner and abs(q[1] - y0) < max(ys) + 1,
    )


def _route_net(g: Grid, name: str, net: int, pads: list[PadShape]) -> Routed:
    terms = [_terminals(g, s, net) for s in pads]
    for s, t in zip(pads, terms, strict=True):
        if not t:
            raise RouteError(f"net {name}: no grid node inside the pad at {s.centre}")
    joined = [0]
    tree: set[State] = set(terms[0])
    edges: set[tuple[int, int, int]] = set()  # (layer, a, b) with a < b
    vias: set[int] = set()
    pad_nodes: set[int] = {n for t in terms for _, n in t}
    left = list(range(1, len(pads)))
    while left:
        k = min(
            left, key=lambda i: (min(math.dist(pads[i].centre, pads[j].centre) for j in joined), i)
        )
        aim = min((pads[j].centre for j in joined), key=lambda c: math.dist(c, pads[k].centre))
        try:
            path = _search(g, net, terms[k], tree | terms[k] if False else tree, aim)
        except RouteError:
            raise RouteError(f"net {name}: no path to the pad at {pads[k].centre}") from None
        w = width_of(name)
        for (la, a), (lb, b) in pairwise(path):
            if la != lb:
                vias.add(a)
                g.mark_via(g.xy(a), net)
            else:
                edges.add((la, min(a, b), max(a, b)))
                g.mark_track(la, g.xy(a), g.xy(b), w, net)
        tree |= set(path) | terms[k]
        joined.append(k)
        left.remove(k)
    return _segments(g, name, edges, vias, pad_nodes)


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
