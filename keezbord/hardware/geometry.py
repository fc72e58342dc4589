"""Where every hole of a board goes: parametric geometry for 2 to 8 seats.

Over 400 lines: one layout, searched (the candidate shapes), placed and measured (outline,
puzzle cuts); its parts share the private layout types. Plain plane geometry is in
plane.py.

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
from typing import Any

from keezbord.engine.topology import (
    DEFAULT_SEGMENT,
    PAWNS_PER_SEAT,
    SEAT_COLOURS,
    HoleKind,
    Topology,
)
from keezbord.hardware.plane import (
    EPS,
    Point,
    add,
    angle_of,
    dedupe,
    dist,
    edge_index,
    min_distance,
    nearest_on_outline,
    normal,
    offset,
    path_length,
    polyline_clearance,
    rot,
    shoelace,
    walk,
)

DEFAULT_PITCH_MM = 25.0
DEFAULT_HOLE_DIAMETER_MM = 14.0
# Wood left between two neighbouring holes, and between a hole and the board edge or a
# puzzle cut, below which birch plywood tends to split when drilled.
MIN_WEB_MM = 3.0
MARGIN_PITCHES = 1.0  # board edge beyond the outermost hole centres
NEST_OFFSETS = ((1.5, 0.5), (1.5, -0.5), (2.5, 0.5), (2.5, -0.5))  # (out, lateral), pitches
NEST_DEPTH = 2.5
_EPS = EPS


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
        i = edge_index(self.outline, before[-1])
        k = edge_index(self.outline, after[-1])
        n = len(self.outline)
        rim: list[Point] = []
        while i != k:
            i = (i + 1) % n
            rim.append(self.outline[i])
        return tuple(dedupe([*before, *rim, *reversed(after)])[:-1])

    def outline_area(self) -> float:
        """Area inside the outline, mm²."""
        return abs(shoelace(self.outline)) / 2

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
    outline_u = offset(_outline_corners(layout), MARGIN_PITCHES)
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
        u = rot((0.0, 1.0), 2 * math.pi * p / self.seats)
        return u, rot(u, math.pi / 2)  # outward, and the tip's direction of travel

    def at(self, p: int, axial: float, lateral: float) -> Point:
        u, v = self.axes(p)
        return add((axial, u), (lateral, v))

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
        return dedupe(pts)

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
        assert abs(path_length(path) - lp) < 1e-6, (spec, path_length(path), lp)
        for i, pt in enumerate(walk(path, spacing, segment)):
            points[f"T{p * segment + i}"] = pt
        tip = spec.r + spec.h
        for k in range(1, PAWNS_PER_SEAT + 1):
            points[f"H{p}.{k}"] = spec.at(p, tip - k, spec.delta)
            out, lat = NEST_OFFSETS[k - 1]
            points[f"N{p}.{k}"] = spec.at(p, tip + out, spec.delta + lat)
    return _Layout(spec.name, spec, spacing, points)


@lru_cache(maxsize=64)
def _find_layout(seats: int, segment: int) -> _Layout:
    for lp in range(segment, 4 * segment + 20):
        for spec in _candidates(seats, lp):
            layout = _place(spec, lp, segment)
            if min_distance(list(layout.points.values())) >= 1 - _EPS:
                return layout
    raise GeometryError(f"no layout for {seats} seats of {segment} holes")  # pragma: no cover


# --- outline and puzzle cuts ----------------------------------------------------------------


def _outline_corners(layout: _Layout) -> list[Point]:
    pts: list[Point] = []
    for p in range(layout.spec.seats):
        pts.extend(layout.spec.seat_outline(p))
    pts = dedupe(pts)
    if dist(pts[0], pts[-1]) < _EPS:
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
        n = normal(a, b)
        end = nearest_on_outline(mid, outline)
        if dist(mid, end) > 2.0 or (end[0] - mid[0]) * n[0] + (end[1] - mid[1]) * n[1] <= 0:
            continue  # the edge is not just outside this stretch of track
        off = abs(((angle_of(mid) - bisector + math.pi) % (2 * math.pi)) - math.pi)
        for depth in (0.5, 1.0, 1.5, 2.0, 3.0):
            inner = (mid[0] - depth * n[0], mid[1] - depth * n[1])
            if math.hypot(*inner) >= math.hypot(*mid):
                continue
            line = dedupe([(0.0, 0.0), inner, mid, end])
            clearance = polyline_clearance(pts, line)
            score = clearance - 1e-3 * (off + depth)
            if best is None or score > best[0]:
                best = (score, line, clearance, j)
    assert best is not None
    _, line, clearance, j = best
    cuts = [[rot(pt, 2 * math.pi * p / seats) for pt in line] for p in range(seats)]
    return cuts, clearance, j
