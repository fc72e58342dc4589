"""The routing grid of a piece's PCB: the design rules the router keeps, the pads as
shapes, and which grid nodes each net may use (pcb_route.py routes on it).

A grid node is open to a net only if every other net's copper (pads, tracks, vias) and
the board's edge keep `BLOCK_MM` from it: the design clearance plus the widest half-track
plus half a grid step, so the whole track between two open nodes keeps the clearance.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from keezbord.hardware.pcb_design import GRID, Design, pad_world
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

            def near(q: Point, a: Point = a, b: Point = b) -> bool:
                return seg_distance(q, a, b) < reach

            self.mark_near(
                (0, 1),
                BLOCKED,
                min(a[0], b[0]) - reach,
                max(a[0], b[0]) + reach,
                min(a[1], b[1]) - reach,
                max(a[1], b[1]) + reach,
                near,
            )

    def mark_near(
        self,
        layers: Iterable[int],
        net: int,
        x0: float,
        x1: float,
        y0: float,
        y1: float,
        hit: Callable[[Point], bool],
    ) -> None:
        """Give the nodes of ``layers`` in the box where ``hit`` holds to ``net`` (or block
        them where another net has them already)."""
        i0, i1 = max(0, int(x0 / GRID)), min(self.nx - 1, int(x1 / GRID) + 1)
        j0, j1 = max(0, int(y0 / GRID)), min(self.ny - 1, int(y1 / GRID) + 1)
        for j in range(j0, j1 + 1):
            for i in range(i0, i1 + 1):
                if hit((i * GRID, j * GRID)):
                    n = j * self.nx + i
                    for layer in layers:
                        cur = self.owner[layer][n]
                        if cur == FREE:
                            self.owner[layer][n] = net
                        elif cur != net:
                            self.owner[layer][n] = BLOCKED

    def mark_pad(self, s: PadShape, net: int) -> None:
        r = BLOCK_MM + max(s.half)
        self.mark_near(
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
        self.mark_near(
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
        self.mark_near(
            (0, 1),
            net,
            at[0] - r,
            at[0] + r,
            at[1] - r,
            at[1] + r,
            lambda q: math.dist(q, at) < r,
        )
