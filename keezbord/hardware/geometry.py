"""Where every hole of a board goes: parametric geometry for 2 to 8 seats.

Coordinates are millimetres as seen from above, ``x`` to the right and ``y`` downwards (SVG
convention), with (0, 0) at the top-left corner of the board outline's bounding box. Seat 0
sits at the bottom; seats follow clockwise, so seat ``p``'s axis points from the centre at
``p * 360 / seats`` degrees clockwise from straight down.

The layout, in units of the pitch (centre-to-centre distance of neighbouring holes):

- Every seat owns an *arm*: a strip two pitches wide standing on one edge of a central
  regular polygon (a rectangle for 2 seats). The track runs up one side of the arm, across
  its tip and down the other side, then along the polygon edge to the next arm. Seat ``p``'s
  start hole ``T(p*L)`` is the middle of its tip; the home lane ``H<p>.1..4`` goes from there
  straight inwards (``.1`` next to the start); the nest ``N<p>.1..4`` is a 2x2 block just
  outside the tip.
- An arm of height 0 is just a point on the polygon edge: that is the classic polygon board
  (3 and 5 to 8 seats at the default segment). Four seats get the classic square cross:
  arms as tall as the segment allows on a central square of one arm width.
- Track holes sit at equal steps along the track path, and for every segment of 10 or more
  exactly one pitch apart with a hole on every corner. A segment too short to fit the home
  lanes inside the ring (7 to 9 holes, on few seats) stretches the track step a little
  (``track_spacing``) rather than crowd the holes: no two holes are ever closer than the pitch.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import pairwise
from typing import Any

from keezbord.engine.topology import (
    DEFAULT_SEGMENT,
    PAWNS_PER_SEAT,
    SEAT_COLOURS,
    HoleKind,
    Topology,
)

Point = tuple[float, float]

DEFAULT_PITCH_MM = 25.0
DEFAULT_HOLE_DIAMETER_MM = 14.0
# Wood left between two neighbouring holes, and between a hole and the board edge or a
# puzzle cut, below which birch plywood tends to split when drilled.
MIN_WEB_MM = 3.0
MARGIN_PITCHES = 1.0  # board edge beyond the outermost hole centres
NEST_OFFSETS = ((1.5, 0.5), (1.5, -0.5), (2.5, 0.5), (2.5, -0.5))  # (out, lateral), pitches
NEST_DEPTH = 2.5
_EPS = 1e-6


class GeometryError(ValueError):
    """A pitch, hole diameter or board size that cannot be built."""


@dataclass(frozen=True, slots=True)
class HolePlace:
    """One hole of the board and where to drill it."""

    name: str
    kind: HoleKind
    seat: int | None  # None for track holes that are nobody's start
    index: int  # track index, or the nest/home slot 1..4
    x: float
    y: float


@dataclass(frozen=True)
class Geometry:
    """A board's holes, outline and optional puzzle cuts, in millimetres."""

    topology: Topology
    pitch: float
    hole_diameter: float
    shape: str  # "cross", "polygon", "rectangle" or "star" (polygon with arms)
    track_spacing: float  # mm between consecutive track holes along the path
    holes: tuple[HolePlace, ...]
    outline: tuple[Point, ...]  # closed polygon, clockwise as seen from above
    centre: Point
    width: float
    height: float
    # One cut per pair of neighbouring seats: cuts[p] separates seat p and seat p+1, as a
    # polyline from the centre to the outline. Piece p lies between cuts[p-1] and cuts[p].
    cuts: tuple[tuple[Point, ...], ...]
    cut_clearance: float  # mm from any hole centre to the nearest cut
    cut_after: int  # cuts[p] crosses the track between T(p*L + cut_after) and the next hole
    _by_name: dict[str, HolePlace] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        self._by_name.update({h.name: h for h in self.holes})

    @property
    def seats(self) -> int:
        return self.topology.seats

    def hole(self, name: str) -> HolePlace:
        try:
            return self._by_name[name]
        except KeyError:
            raise GeometryError(f"no hole {name!r} on this board") from None

    def position(self, name: str) -> Point:
        h = self.hole(name)
        return (h.x, h.y)

    def seat_angle(self, seat: int) -> float:
        """Direction of the seat's arm from the centre, radians clockwise from straight down."""
        return 2 * math.pi * seat / self.seats

    def piece_of(self, name: str) -> int:
        """The puzzle piece (numbered by seat) that a hole lies in: a seat's nest and home,
        and the track from just past the previous cut up to its own cut."""
        h = self.hole(name)
        if h.kind != "T":
            assert h.seat is not None
            return h.seat
        seg = self.topology.segment
        return ((h.index - self.cut_after - 1) // seg + 1) % self.seats

    def piece_outline(self, seat: int) -> tuple[Point, ...]:
        """The closed outline of one puzzle piece: in along the cut before it, round the
        board edge clockwise, and back out along its own cut."""
        before, after = self.cuts[seat - 1], self.cuts[seat]
        i = _edge_index(self.outline, before[-1])
        k = _edge_index(self.outline, after[-1])
        n = len(self.outline)
        rim: list[Point] = []
        while i != k:
            i = (i + 1) % n
            rim.append(self.outline[i])
        return tuple(_dedupe([*before, *rim, *reversed(after)])[:-1])

    def outline_area(self) -> float:
        """Area inside the outline, mm²."""
        return abs(_shoelace(self.outline)) / 2

    def outline_path(self) -> str:
        """The outline as an SVG path ``d`` attribute."""
        pts = " L ".join(f"{x:.2f} {y:.2f}" for x, y in self.outline)
        return f"M {pts} Z"

    def to_json(self) -> dict[str, Any]:
        """A JSON-able description: everything a drawing of the board needs."""
        return {
            "seats": self.seats,
            "segment": self.topology.segment,
            "shape": self.shape,
            "units": "mm",
            "pitch": self.pitch,
            "hole_diameter": self.hole_diameter,
            "track_spacing": round(self.track_spacing, 3),
            "width": round(self.width, 2),
            "height": round(self.height, 2),
            "centre": [round(self.centre[0], 2), round(self.centre[1], 2)],
            "seat_colours": [
                {
                    "seat": p,
                    "en": c.en,
                    "nl": c.nl,
                    "hex": c.hex,
                    "symbol": c.symbol,
                    "angle_deg": round(math.degrees(self.seat_angle(p)), 3),
                    "start": f"T{self.topology.start(p)}",
                }
                for p, c in enumerate(SEAT_COLOURS[: self.seats])
            ],
            "holes": [
                {
                    "name": h.name,
                    "kind": h.kind,
                    "seat": h.seat,
                    "index": h.index,
                    "x": round(h.x, 2),
                    "y": round(h.y, 2),
                    "diameter": self.hole_diameter,
                }
                for h in self.holes
            ],
            "outline": [[round(x, 2), round(y, 2)] for x, y in self.outline],
            "outline_path": self.outline_path(),
            "cuts": [[[round(x, 2), round(y, 2)] for x, y in c] for c in self.cuts],
        }


def board_geometry(
    seats: int,
    segment: int = DEFAULT_SEGMENT,
    pitch: float = DEFAULT_PITCH_MM,
    hole_diameter: float = DEFAULT_HOLE_DIAMETER_MM,
) -> Geometry:
    """The geometry of a board of ``seats`` seats and ``segment`` track holes a seat."""
    return geometry_for(Topology(seats, segment), pitch, hole_diameter)


def geometry_for(
    topology: Topology,
    pitch: float = DEFAULT_PITCH_MM,
    hole_diameter: float = DEFAULT_HOLE_DIAMETER_MM,
) -> Geometry:
    pitch, hole_diameter = float(pitch), float(hole_diameter)
    if not math.isfinite(pitch) or pitch <= 0:
        raise GeometryError(f"pitch must be a positive number of mm, not {pitch:g}")
    if not math.isfinite(hole_diameter) or hole_diameter <= 0:
        raise GeometryError(f"hole diameter must be a positive number of mm, not {hole_diameter:g}")
    if hole_diameter > pitch - MIN_WEB_MM:
        raise GeometryError(
            f"hole diameter {hole_diameter:g} mm leaves less than {MIN_WEB_MM:g} mm of wood "
            f"between holes at pitch {pitch:g} mm (at most {pitch - MIN_WEB_MM:g} mm)"
        )
    return _build(topology.seats, topology.segment, pitch, hole_diameter)


@lru_cache(maxsize=64)
def _build(seats: int, segment: int, pitch: float, hole_diameter: float) -> Geometry:
    topo = Topology(seats, segment)
    layout = _find_layout(seats, segment)
    outline_u = _offset(_outline_corners(layout), MARGIN_PITCHES)
    cuts_u, clearance_u, cut_after = _cuts(layout, outline_u, segment)
    xs = [x for x, _ in outline_u]
    ys = [y for _, y in outline_u]
    ox, oy = min(xs), min(ys)

    def mm(p: Point) -> Point:
        return ((p[0] - ox) * pitch, (p[1] - oy) * pitch)

    holes = []
    for hole in topo.holes:
        x, y = mm(layout.points[hole.name])
        seat = hole.seat if hole.kind != "T" else topo.owner_of_start(hole.index)
        holes.append(HolePlace(hole.name, hole.kind, seat, hole.index, x, y))
    return Geometry(
        topology=topo,
        pitch=pitch,
        hole_diameter=hole_diameter,
        shape=layout.shape,
        track_spacing=layout.spacing * pitch,
        holes=tuple(holes),
        outline=tuple(mm(p) for p in outline_u),
        centre=mm((0.0, 0.0)),
        width=(max(xs) - ox) * pitch,
        height=(max(ys) - oy) * pitch,
        cuts=tuple(tuple(mm(p) for p in c) for c in cuts_u),
        cut_clearance=clearance_u * pitch,
        cut_after=cut_after,
    )


# --- layout in pitch units, centre at the origin -------------------------------------------


def _rot(v: Point, theta: float) -> Point:
    """Rotate clockwise as seen on screen (y downwards)."""
    c, s = math.cos(theta), math.sin(theta)
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def _add(*terms: tuple[float, Point]) -> Point:
    return (sum(k * v[0] for k, v in terms), sum(k * v[1] for k, v in terms))


def _dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


@dataclass(frozen=True)
class _Shape:
    """Parameters of one candidate layout (pitch units)."""

    name: str
    seats: int
    h: float  # arm height above the polygon edge
    e: float  # polygon edge length
    r: float  # polygon apothem (centre to edge)
    delta: float  # arm centre offset along the edge

    def axes(self, p: int) -> tuple[Point, Point]:
        u = _rot((0.0, 1.0), 2 * math.pi * p / self.seats)
        return u, _rot(u, math.pi / 2)  # outward, and the tip's direction of travel

    def at(self, p: int, axial: float, lateral: float) -> Point:
        u, v = self.axes(p)
        return _add((axial, u), (lateral, v))

    def seat_path(self, p: int) -> list[Point]:
        """Track corners from seat p's start hole up to (not including) seat p+1's."""
        q = (p + 1) % self.seats
        r, h, d, half = self.r, self.h, self.delta, self.e / 2
        pts = [
            self.at(p, r + h, d),
            self.at(p, r + h, d + 1),
            self.at(p, r, d + 1),
            self.at(p, r, half),
            self.at(q, r, -half),
            self.at(q, r, d - 1),
            self.at(q, r + h, d - 1),
        ]
        return _dedupe(pts)

    def seat_outline(self, p: int) -> list[Point]:
        r, h, d, half = self.r, self.h, self.delta, self.e / 2
        q = (p + 1) % self.seats
        top = r + h + NEST_DEPTH
        return [
            self.at(p, r, d - 1),
            self.at(p, top, d - 1),
            self.at(p, top, d + 1),
            self.at(p, r, d + 1),
            self.at(p, r, half),
            self.at(q, r, -half),
        ]


@dataclass(frozen=True)
class _Layout:
    shape: str
    spec: _Shape
    spacing: float
    points: dict[str, Point]


def _dedupe(pts: Sequence[Point]) -> list[Point]:
    out: list[Point] = []
    for pt in pts:
        if not out or _dist(out[-1], pt) > _EPS:
            out.append(pt)
    return out


def _walk(path: Sequence[Point], step: float, count: int) -> Iterator[Point]:
    """``count`` points at arc lengths 0, step, 2*step... along an open polyline."""
    seg = 0
    start_len = 0.0
    for i in range(count):
        t = i * step
        while seg < len(path) - 2 and start_len + _dist(path[seg], path[seg + 1]) <= t + _EPS:
            start_len += _dist(path[seg], path[seg + 1])
            seg += 1
        a, b = path[seg], path[seg + 1]
        length = _dist(a, b)
        f = (t - start_len) / length if length else 0.0
        yield (a[0] + f * (b[0] - a[0]), a[1] + f * (b[1] - a[1]))


def _path_length(path: Sequence[Point]) -> float:
    return sum(_dist(a, b) for a, b in pairwise(path))


def _candidates(seats: int, lp: int) -> Iterator[_Shape]:
    """Candidate shapes whose per-seat track path is ``lp`` pitches long, best first."""
    if seats == 2:
        # A rectangle with arms on its top and bottom edges: lp = 2h + e + 2r.
        for h in range(lp // 2):
            for two_r in sorted(range(2, lp - 2 * h - 1), key=lambda t: (abs(t - 10), t)):
                e = lp - 2 * h - two_r
                if e >= 2:
                    yield _Shape("rectangle", 2, h, e, two_r / 2, 0.0 if e % 2 == 0 else 0.5)
        return
    tan = math.tan(math.pi / seats)
    if seats == 4:
        e = 2 if lp % 2 == 0 else 3
        yield _Shape("cross", 4, (lp - e) / 2, e, e / (2 * tan), (e % 2) / 2)
    for h in range((lp - 2) // 2 + 1):
        e = lp - 2 * h
        yield _Shape("polygon" if h == 0 else "star", seats, h, e, e / (2 * tan), (e % 2) / 2)


def _place(spec: _Shape, lp: int, segment: int) -> _Layout:
    seats = spec.seats
    spacing = lp / segment
    points: dict[str, Point] = {}
    for p in range(seats):
        path = spec.seat_path(p)
        path.append(spec.at((p + 1) % seats, spec.r + spec.h, spec.delta))
        assert abs(_path_length(path) - lp) < 1e-6, (spec, _path_length(path), lp)
        for i, pt in enumerate(_walk(path, spacing, segment)):
            points[f"T{p * segment + i}"] = pt
        tip = spec.r + spec.h
        for k in range(1, PAWNS_PER_SEAT + 1):
            points[f"H{p}.{k}"] = spec.at(p, tip - k, spec.delta)
            out, lat = NEST_OFFSETS[k - 1]
            points[f"N{p}.{k}"] = spec.at(p, tip + out, spec.delta + lat)
    return _Layout(spec.name, spec, spacing, points)


def _min_distance(points: Sequence[Point]) -> float:
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
                            best = min(best, _dist(a, b))
    return best


@lru_cache(maxsize=64)
def _find_layout(seats: int, segment: int) -> _Layout:
    for lp in range(segment, 4 * segment + 20):
        for spec in _candidates(seats, lp):
            layout = _place(spec, lp, segment)
            if _min_distance(list(layout.points.values())) >= 1 - _EPS:
                return layout
    raise GeometryError(f"no layout for {seats} seats of {segment} holes")  # pragma: no cover


# --- outline and puzzle cuts ----------------------------------------------------------------


def _outline_corners(layout: _Layout) -> list[Point]:
    pts: list[Point] = []
    for p in range(layout.spec.seats):
        pts.extend(layout.spec.seat_outline(p))
    pts = _dedupe(pts)
    if _dist(pts[0], pts[-1]) < _EPS:
        pts.pop()
    # Drop collinear corners: the offset below needs real turns.
    out: list[Point] = []
    n = len(pts)
    for i, pt in enumerate(pts):
        a, b = pts[i - 1], pts[(i + 1) % n]
        cross = (pt[0] - a[0]) * (b[1] - pt[1]) - (pt[1] - a[1]) * (b[0] - pt[0])
        if abs(cross) > _EPS:
            out.append(pt)
    return out


def _shoelace(pts: Sequence[Point]) -> float:
    n = len(pts)
    return sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))


def _offset(pts: Sequence[Point], m: float) -> list[Point]:
    """Grow a clockwise polygon by ``m``: mitred corners, bevelled where sharp."""
    n = len(pts)
    out: list[Point] = []
    for i in range(n):
        a, pt, b = pts[i - 1], pts[i], pts[(i + 1) % n]
        n1 = _normal(a, pt)
        n2 = _normal(pt, b)
        dot = n1[0] * n2[0] + n1[1] * n2[1]
        miter = 2 / (1 + dot) if dot > -1 + _EPS else math.inf
        cross = (pt[0] - a[0]) * (b[1] - pt[1]) - (pt[1] - a[1]) * (b[0] - pt[0])
        if cross > 0 and dot < -0.2:  # a sharp outer corner: bevel it, tangent to the
            # circle of radius m round the corner, so the edge keeps m from the corner hole
            t = m * math.tan(math.acos(max(-1.0, min(1.0, dot))) / 4)
            d1, d2 = (-n1[1], n1[0]), (-n2[1], n2[0])  # edge directions
            out.append(_add((1, pt), (m, n1), (t, d1)))
            out.append(_add((1, pt), (m, n2), (-t, d2)))
        else:
            out.append(_add((1, pt), (m * miter / 2, (n1[0] + n2[0], n1[1] + n2[1]))))
    return out


def _normal(a: Point, b: Point) -> Point:
    """Outward unit normal of edge a->b of a clockwise (y downwards) polygon."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    return (dy / length, -dx / length)


def _angle_of(v: Point) -> float:
    """Angle of a direction, radians clockwise from straight down, in [0, 2pi)."""
    return math.atan2(-v[0], v[1]) % (2 * math.pi)


def _edge_index(outline: Sequence[Point], pt: Point) -> int:
    """Index i of the outline edge (i, i+1) that ``pt`` lies on."""
    n = len(outline)
    return min(range(n), key=lambda i: _seg_distance(pt, outline[i], outline[(i + 1) % n]))


def _nearest_on_outline(pt: Point, outline: Sequence[Point]) -> Point:
    best: tuple[float, Point] | None = None
    n = len(outline)
    for i in range(n):
        a, b = outline[i], outline[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        f = ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / (dx * dx + dy * dy)
        f = min(1.0, max(0.0, f))
        q = (a[0] + f * dx, a[1] + f * dy)
        if best is None or _dist(pt, q) < best[0]:
            best = (_dist(pt, q), q)
    assert best is not None
    return best[1]


def _seg_distance(pt: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / (dx * dx + dy * dy)
    f = min(1.0, max(0.0, f))
    return math.hypot(pt[0] - a[0] - f * dx, pt[1] - a[1] - f * dy)


def _polyline_clearance(pts: Sequence[Point], line: Sequence[Point]) -> float:
    return min(_seg_distance(pt, a, b) for pt in pts for a, b in pairwise(line))


def _cuts(
    layout: _Layout, outline: Sequence[Point], segment: int
) -> tuple[list[list[Point]], float, int]:
    """Cuts between neighbouring seats: from the centre to a point a little short of the
    track, then square across the track midway between two track holes and out to the edge.
    The pair of holes is the one that keeps the cut farthest from every hole; the same cut,
    rotated, separates every pair of seats. Returns the cuts, their clearance, and j such
    that the first cut passes between T(j) and T(j+1)."""
    seats = layout.spec.seats
    pts = list(layout.points.values())
    bisector = math.pi / seats
    best: tuple[float, list[Point], float, int] | None = None
    for j in range(1, segment):
        a, b = layout.points[f"T{j}"], layout.points[f"T{(j + 1) % (seats * segment)}"]
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        n = _normal(a, b)
        end = _nearest_on_outline(mid, outline)
        if _dist(mid, end) > 2.0 or (end[0] - mid[0]) * n[0] + (end[1] - mid[1]) * n[1] <= 0:
            continue  # the edge is not just outside this stretch of track
        off = abs(((_angle_of(mid) - bisector + math.pi) % (2 * math.pi)) - math.pi)
        for depth in (0.5, 1.0, 1.5, 2.0, 3.0):
            inner = (mid[0] - depth * n[0], mid[1] - depth * n[1])
            if math.hypot(*inner) >= math.hypot(*mid):
                continue
            line = _dedupe([(0.0, 0.0), inner, mid, end])
            clearance = _polyline_clearance(pts, line)
            score = clearance - 1e-3 * (off + depth)
            if best is None or score > best[0]:
                best = (score, line, clearance, j)
    assert best is not None
    _, line, clearance, j = best
    cuts = [[_rot(pt, 2 * math.pi * p / seats) for pt in line] for p in range(seats)]
    return cuts, clearance, j
