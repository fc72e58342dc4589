"""Geometry invariants for every seat count: spacing, symmetry, names, track order."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from keezbord.engine.topology import SEAT_COLOURS, Topology
from keezbord.hardware.geometry import (
    MIN_WEB_MM,
    Geometry,
    GeometryError,
    board_geometry,
    geometry_for,
)

SEATS = range(2, 9)


def _shoelace(pts: list[tuple[float, float]]) -> float:
    n = len(pts)
    return sum(pts[i][0] * pts[(i + 1) % n][1] - pts[(i + 1) % n][0] * pts[i][1] for i in range(n))


def _min_pair(g: Geometry) -> float:
    pts = [(h.x, h.y) for h in g.holes]
    return min(math.dist(a, b) for i, a in enumerate(pts) for b in pts[i + 1 :])


def _inside(pt: tuple[float, float], poly: tuple[tuple[float, float], ...]) -> bool:
    x, y = pt
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("segment", [7, 9, 12, 16, 21])
def test_every_hole_once_and_never_closer_than_the_pitch(seats: int, segment: int) -> None:
    g = board_geometry(seats, segment)
    names = [h.name for h in g.holes]
    assert len(names) == len(set(names))
    assert set(names) == set(Topology(seats, segment).hole_names)
    assert _min_pair(g) >= g.pitch - 1e-6
    # A stretched track only where the segment is too short to fit the homes.
    assert g.pitch - 1e-9 <= g.track_spacing <= 1.5 * g.pitch
    if segment >= 10:
        assert g.track_spacing == pytest.approx(g.pitch)


@pytest.mark.parametrize("seats", SEATS)
@pytest.mark.parametrize("segment", [7, 16, 17])
def test_track_follows_the_engine_order_clockwise(seats: int, segment: int) -> None:
    g = board_geometry(seats, segment)
    topo = g.topology
    ring = [g.position(f"T{i}") for i in range(topo.ring)]
    for i in range(topo.ring):  # consecutive holes one step apart, and the ring closes
        step = math.dist(ring[i], ring[(i + 1) % topo.ring])
        if g.track_spacing == pytest.approx(g.pitch):
            assert step == pytest.approx(g.pitch)
        else:  # a stretched track: one arc step apart, a corner's chord a little less
            assert g.pitch - 1e-6 <= step <= g.track_spacing + 1e-6
    # Clockwise as seen from above with y downwards: a positive shoelace sum.
    assert _shoelace(ring) > 0
    # Seat p's start hole is T(p*segment), in seat order round the centre, seat 0 at the bottom.
    cx, cy = g.centre
    starts = [g.hole(f"T{topo.start(p)}") for p in range(seats)]
    assert all(s.seat == p for p, s in enumerate(starts))
    assert starts[0].y > cy and abs(starts[0].x - cx) < g.pitch
    angles = [math.atan2(-(s.x - cx), s.y - cy) % (2 * math.pi) for s in starts]
    assert angles == sorted(angles)


@pytest.mark.parametrize("seats", SEATS)
def test_home_runs_inward_from_the_start_and_nest_sits_outside(seats: int) -> None:
    g = board_geometry(seats)
    cx, cy = g.centre
    for p in range(seats):
        start = g.position(f"T{g.topology.start(p)}")
        homes = [g.position(f"H{p}.{k}") for k in range(1, 5)]
        assert math.dist(start, homes[0]) == pytest.approx(g.pitch)
        from_start = [math.dist(start, h) for h in homes]
        assert from_start == sorted(from_start)
        radius = [math.dist((cx, cy), pt) for pt in [start, *homes]]
        assert radius == sorted(radius, reverse=True)
        nests = [g.position(f"N{p}.{k}") for k in range(1, 5)]
        for n in nests:
            assert math.dist((cx, cy), n) > radius[0]
            assert math.dist(start, n) < 3 * g.pitch


@pytest.mark.parametrize("seats", SEATS)
def test_seats_are_rotations_of_each_other(seats: int) -> None:
    g = board_geometry(seats)
    seg = g.topology.segment
    cx, cy = g.centre
    for p in range(1, seats):
        a = 2 * math.pi * p / seats
        c, s = math.cos(a), math.sin(a)
        for h in g.holes:
            dx, dy = h.x - cx, h.y - cy
            x, y = cx + dx * c - dy * s, cy + dx * s + dy * c
            if h.kind == "T":
                other = f"T{(h.index + p * seg) % g.topology.ring}"
            else:
                assert h.seat is not None
                other = f"{h.kind}{(h.seat + p) % seats}.{h.index}"
            assert g.position(other) == pytest.approx((x, y), abs=1e-6)


def test_classic_shapes() -> None:
    assert board_geometry(4).shape == "cross"
    assert board_geometry(2).shape == "rectangle"
    for seats in (3, 5, 6, 7, 8):
        assert board_geometry(seats).shape == "polygon"
    cross = board_geometry(4)  # 17 pitches across the track, 2.5 more for each nest, margins
    assert cross.width == pytest.approx(cross.height)
    assert cross.width == pytest.approx((16 + 2 * 2.5 + 2) * cross.pitch)


@pytest.mark.parametrize("seats", SEATS)
def test_outline_holds_every_hole_with_a_margin(seats: int) -> None:
    g = board_geometry(seats)
    assert _shoelace(list(g.outline)) > 0
    for h in g.holes:
        assert _inside((h.x, h.y), g.outline), h.name
        for a, b in zip(g.outline, g.outline[1:] + g.outline[:1], strict=True):
            assert _seg_dist((h.x, h.y), a, b) >= g.pitch - 1e-6, h.name
    xs = [x for x, _ in g.outline]
    ys = [y for _, y in g.outline]
    assert (min(xs), min(ys)) == pytest.approx((0, 0))
    assert (max(xs), max(ys)) == pytest.approx((g.width, g.height))


def _seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (a[0] + f * dx, a[1] + f * dy))


@pytest.mark.parametrize("seats", SEATS)
def test_puzzle_pieces_hold_their_seat_and_keep_clear_of_holes(seats: int) -> None:
    g = board_geometry(seats)
    assert len(g.cuts) == seats
    # At the default size every cut passes midway between two holes.
    assert g.cut_clearance >= g.hole_diameter / 2 + MIN_WEB_MM
    for h in g.holes:
        for cut in g.cuts:
            for a, b in itertools.pairwise(cut):
                assert _seg_dist((h.x, h.y), a, b) >= g.cut_clearance - 1e-6
    pieces = [g.piece_outline(p) for p in range(seats)]
    for h in g.holes:
        inside = [p for p in range(seats) if _inside((h.x, h.y), pieces[p])]
        assert inside == [g.piece_of(h.name)], h.name
        if h.seat is not None:
            assert g.piece_of(h.name) == h.seat
    total = sum(abs(_shoelace(list(pc))) / 2 for pc in pieces)
    assert total == pytest.approx(g.outline_area(), rel=1e-6)


def test_pitch_and_diameter_scale_the_board() -> None:
    small = board_geometry(4, pitch=20, hole_diameter=10)
    big = board_geometry(4, pitch=30, hole_diameter=10)
    assert big.width / small.width == pytest.approx(1.5)
    assert big.position("H0.4")[0] / small.position("H0.4")[0] == pytest.approx(1.5)
    assert big.hole_diameter == small.hole_diameter == 10


@pytest.mark.parametrize(
    ("pitch", "diameter", "words"),
    [
        (0, 10, "pitch"),
        (-5, 10, "pitch"),
        (25, 0, "diameter"),
        (25, 23, "wood"),
        (float("nan"), 10, "pitch"),
    ],
)
def test_impossible_sizes_are_refused(pitch: float, diameter: float, words: str) -> None:
    with pytest.raises(GeometryError, match=words):
        geometry_for(Topology(4), pitch, diameter)


def test_json_form_is_complete_and_serialisable() -> None:
    g = board_geometry(5)
    d = json.loads(json.dumps(g.to_json(), ensure_ascii=False))
    assert d["seats"] == 5 and d["segment"] == 16 and d["units"] == "mm"
    assert [h["name"] for h in d["holes"]] == list(g.topology.hole_names)
    t7 = next(h for h in d["holes"] if h["name"] == "T7")
    assert (t7["x"], t7["y"]) == pytest.approx(g.position("T7"), abs=0.01)
    assert t7["kind"] == "T" and t7["seat"] is None and t7["diameter"] == g.hole_diameter
    assert next(h for h in d["holes"] if h["name"] == "T16")["seat"] == 1
    assert [c["symbol"] for c in d["seat_colours"]] == [c.symbol for c in SEAT_COLOURS[:5]]
    assert d["seat_colours"][2]["start"] == "T32"
    assert d["outline_path"].startswith("M ") and d["outline_path"].endswith(" Z")
    assert len(d["outline"]) == len(g.outline) and len(d["cuts"]) == 5
    assert (d["width"], d["height"]) == pytest.approx((g.width, g.height), abs=0.01)
