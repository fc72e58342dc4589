"""Plane geometry for the board's layout (geometry.py), in pitch units: points as
``(x, y)`` with y downwards (SVG), rotation clockwise as seen on screen, polylines and
clockwise polygons.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import pairwise

Point = tuple[float, float]
EPS = 1e-6


def rot(v: Point, theta: float) -> Point:
    """Rotate clockwise as seen on screen (y downwards)."""
    c, s = math.cos(theta), math.sin(theta)
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def add(*terms: tuple[float, Point]) -> Point:
    return (sum(k * v[0] for k, v in terms), sum(k * v[1] for k, v in terms))


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


def dedupe(pts: Sequence[Point]) -> list[Point]:
    out: list[Point] = []
    for pt in pts:
        if not out or dist(out[-1], pt) > EPS:
            out.append(pt)
    return out


def walk(path: Sequence[Point], step: float, count: int) -> Iterator[Point]:
    """``count`` points at arc lengths 0, step, 2*step... along an open polyline."""
    seg = 0
    start_len = 0.0
    for i in range(count):
        t = i * step
        while seg < len(path) - 2 and start_len + dist(path[seg], path[seg + 1]) <= t + EPS:
            start_len += dist(path[seg], path[seg + 1])
            seg += 1
        a, b = path[seg], path[seg + 1]
        length = dist(a, b)
        f = (t - start_len) / length if length else 0.0
        yield (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))


def path_length(path: Sequence[Point]) -> float:
    return sum(dist(a, b) for a, b in pairwise(path))


def min_distance(points: Sequence[Point]) -> float:
    """Smallest distance between two of the points (grid buckets: boards have ~200 holes)."""
    cells: dict[tuple[int, int], list[Point]] = {}
    for pt in points:
        cells.setdefault((math.floor(pt[0]), math.floor(pt[1])), []).append(pt)
    best = math.inf
    for (cx, cy), members in cells.items():
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                other = cells.get((cx + dx, cy + dy))
                if not other:
                    continue
                for a in members:
                    for b in other:
                        if a is not b:
                            best = min(best, dist(a, b))
    return best


def shoelace(pts: Sequence[Point]) -> float:
    n = len(pts)
    return sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))


def offset(pts: Sequence[Point], m: float) -> list[Point]:
    """Grow a clockwise polygon by ``m``: mitred corners, bevelled where sharp."""
    n = len(pts)
    out: list[Point] = []
    for i in range(n):
        a, pt, b = pts[i - 1], pts[i], pts[(i + 1) % n]
        n1 = normal(a, pt)
        n2 = normal(pt, b)
        dot = n1[0] * n2[0] + n1[1] * n2[1]
        miter = 2 / (1 + dot) if dot > -1 + EPS else math.inf
        cross = (pt[0] - a[0]) * (b[1] - pt[1]) - (pt[1] - a[1]) * (b[0] - pt[0])
        if cross > 0 and dot < -0.2:  # a sharp outer corner: bevel it, tangent to the
            # circle of radius m round the corner, so the edge keeps m from the corner hole
            t = m * math.tan(math.acos(max(-1.0, min(1.0, dot))) / 4)
            d1, d2 = (-n1[1], n1[0]), (-n2[1], n2[0])  # edge directions
            out.append(add((1, pt), (m, n1), (t, d1)))
            out.append(add((1, pt), (m, n2), (-t, d2)))
        else:
            out.append(add((1, pt), (m * miter / 2, (n1[0] + n2[0], n1[1] + n2[1]))))
    return out


def normal(a: Point, b: Point) -> Point:
    """Outward unit normal of edge a->b of a clockwise (y downwards) polygon."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dy / length, -dx / length)


def angle_of(v: Point) -> float:
    """Angle of a direction, radians clockwise from straight down, in [0, 2pi)."""
    return math.atan2(-v[0], v[1]) % (2 * math.pi)


def edge_index(outline: Sequence[Point], pt: Point) -> int:
    """Index i of the outline edge (i, i+1) that ``pt`` lies on."""
    n = len(outline)
    return min(range(n), key=lambda i: seg_distance(pt, outline[i], outline[(i + 1) % n]))


def nearest_on_outline(pt: Point, outline: Sequence[Point]) -> Point:
    best: tuple[float, Point] | None = None
    n = len(outline)
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        f = ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / (dx * dx + dy * dy)
        f = min(1.0, max(0.0, f))
        q = (a[0] + f * dx, a[1] + f * dy)
        if best is None or dist(pt, q) < best[0]:
            best = (dist(pt, q), q)
    assert best is not None
    return best[1]


def seg_distance(pt: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / (dx * dx + dy * dy)
    f = min(1.0, max(0.0, f))
    return math.hypot(pt[0] - a[0] - f * dx, pt[1] - a[1] - f * dy)


def polyline_clearance(pts: Sequence[Point], line: Sequence[Point]) -> float:
    return min(seg_distance(pt, a, b) for pt in pts for a, b in pairwise(line))
