"""A piece's own frame: where its 24 holes sit, the puzzle cuts around it, and the PCB
outline that stays inside every cut it must fit.

The frame's origin is the piece's start hole (T0 of seat 0), x to the right and y down, the
track along x (piece 0 of the board, seat 0 at the bottom, as `keezbord.hardware.geometry`
lays it out). Holes are named piece-locally: ``T+k``/``T-k`` the track hole k steps after or
before the start, ``H.k`` the home lane, ``N.k`` the nest; seat p's piece has the same names
turned (`board_hole`).

Two shapes: ``piece``, one design for 5 to 8 seats (the same 24 hole positions in the frame;
its outline inside the intersection of the four pieces' cuts), and ``arm``, the 4-seat
cross's arm.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from keezbord.engine.topology import DEFAULT_SEGMENT
from keezbord.hardware.geometry import Geometry, board_geometry
from keezbord.hardware.plane import Point, seg_distance

SHAPES: dict[str, tuple[int, ...]] = {"piece": (5, 6, 7, 8), "arm": (4,)}
EDGE_MARGIN_MM = 1.5  # the PCB's edge keeps this much from every cut and board edge
HOLE_REACH_MM = 12.5  # the PCB reaches at most this far beyond the outermost holes
# Along the track the piece's PCB stops this far beyond its end holes (so it stays under
# MAX_SIZE_MM); the arm keeps its full width, where its chips sit beside the holes.
SIDE_REACH_MM = {"piece": HOLE_REACH_MM, "arm": 2 * HOLE_REACH_MM}
MAX_SIZE_MM = 400.0  # JLCPCB's largest board (jlcpcb.com/capabilities): 400 x 500 mm


class FrameError(ValueError):
    """Boards whose pieces do not share one hole layout (another segment or pitch)."""


def local_name(g: Geometry, name: str) -> str:
    """Piece 0's hole ``name`` in the piece's own names."""
    if name[0] in "HN":
        return f"{name[0]}.{name.split('.')[1]}"
    total = g.topology.segment * g.seats
    k = int(name[1:])
    k = k - total if k > total // 2 else k
    return f"T{k:+d}"


def board_hole(g: Geometry, local: str, seat: int) -> str:
    """The board's hole name of a piece-local name on seat ``seat``'s piece."""
    if local[0] in "HN":
        return f"{local[0]}{seat}.{local.split('.')[1]}"
    total = g.topology.segment * g.seats
    return f"T{(int(local[1:]) + seat * g.topology.segment) % total}"


@dataclass(frozen=True)
class Frame:
    shape: str
    seats: tuple[int, ...]
    holes: dict[str, Point]  # local name -> frame position (mm)
    pieces: tuple[tuple[Point, ...], ...]  # each seat count's piece outline, in the frame


def to_frame(g: Geometry, p: Point) -> Point:
    x0, y0 = g.position("T0")
    return (p[0] - x0, p[1] - y0)


@lru_cache(maxsize=4)
def frame(shape: str) -> Frame:
    if shape not in SHAPES:
        raise FrameError(f"no PCB shape {shape!r} (piece or arm)")
    holes: dict[str, Point] | None = None
    pieces = []
    for seats in SHAPES[shape]:
        g = board_geometry(seats, DEFAULT_SEGMENT)
        here = {
            local_name(g, h.name): to_frame(g, (h.x, h.y))
            for h in g.holes
            if g.piece_of(h.name) == 0
        }
        if holes is None:
            holes = here
        elif set(here) != set(holes) or any(math.dist(here[k], holes[k]) > 1e-6 for k in holes):
            raise FrameError(f"the {seats}-seat piece's holes differ from the others'")
        pieces.append(tuple(to_frame(g, p) for p in g.piece_outline(0)))
    assert holes is not None
    return Frame(shape, SHAPES[shape], holes, tuple(pieces))


def inside(pt: Point, poly: Sequence[Point]) -> bool:
    """Point in polygon (even-odd)."""
    x, y = pt
    n = len(poly)
    hit = False
    for i in range(n):
        (ax, ay), (bx, by) = poly[i], poly[(i + 1) % n]
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            hit = not hit
    return hit


def _seg_seg(a: Point, b: Point, c: Point, d: Point) -> float:
    def cross(o: Point, p: Point, q: Point) -> float:
        return (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0])

    d1, d2, d3, d4 = cross(c, d, a), cross(c, d, b), cross(a, b, c), cross(a, b, d)
    if ((d1 > 0) != (d2 > 0)) and ((d3 > 0) != (d4 > 0)):
        return 0.0
    return min(
        seg_distance(a, c, d), seg_distance(b, c, d), seg_distance(c, a, b), seg_distance(d, a, b)
    )


def clearance(inner: Sequence[Point], outer: Sequence[Point]) -> float:
    """How far the polygon ``inner`` keeps inside ``outer`` (negative: it is not inside)."""
    if not all(inside(p, outer) for p in inner):
        return -1.0
    n, m = len(inner), len(outer)
    return min(
        _seg_seg(inner[i], inner[(i + 1) % n], outer[j], outer[(j + 1) % m])
        for i in range(n)
        for j in range(m)
    )


ROW_STEP_MM = 0.25  # the outline is traced row by row at this step


def _row_interval(y: float, piece: Sequence[Point], m: float) -> list[tuple[float, float]]:
    """The x intervals of row y inside ``piece`` and at least ``m`` from its edges."""
    n = len(piece)
    xs = []
    for i in range(n):
        (ax, ay), (bx, by) = piece[i], piece[(i + 1) % n]
        if (ay > y) != (by > y):
            xs.append(ax + (y - ay) * (bx - ax) / (by - ay))
    xs.sort()
    spans = [(xs[k], xs[k + 1]) for k in range(0, len(xs) - 1, 2)]
    for i in range(n):
        (ax, ay), (bx, by) = piece[i], piece[(i + 1) % n]
        spans = _minus(spans, _capsule_row(ax, ay, bx, by, y, m))
    return spans


def _capsule_row(
    ax: float, ay: float, bx: float, by: float, y: float, m: float
) -> tuple[float, float] | None:
    """The x interval of row y within ``m`` of segment a-b (None if the row misses it)."""
    lo, hi = math.inf, -math.inf
    for cx, cy in ((ax, ay), (bx, by)):
        if abs(y - cy) < m:
            w = math.sqrt(m * m - (y - cy) ** 2)
            lo, hi = min(lo, cx - w), max(hi, cx + w)
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    if abs(dy) > 1e-12:
        # the band of half-width m round the segment's line, cut to the segment's span
        half = m * length / abs(dy)
        t = (y - ay) / dy
        xc = ax + t * dx
        # points of the band whose projection falls on the segment
        for sx in (xc - half, xc + half):
            lo, hi = _cover(lo, hi, sx, ax, ay, dx, dy, length, y, m)
        if 0 <= t <= 1:
            lo, hi = min(lo, xc - half), max(hi, xc + half)
    elif abs(y - ay) < m:
        lo, hi = min(lo, min(ax, bx)), max(hi, max(ax, bx))
    return None if lo > hi else (lo, hi)


def _cover(
    lo: float,
    hi: float,
    sx: float,
    ax: float,
    ay: float,
    dx: float,
    dy: float,
    length: float,
    y: float,
    m: float,
) -> tuple[float, float]:
    f = ((sx - ax) * dx + (y - ay) * dy) / (length * length)
    if 0 <= f <= 1:
        return min(lo, sx), max(hi, sx)
    return lo, hi


def _minus(
    spans: list[tuple[float, float]], cut: tuple[float, float] | None
) -> list[tuple[float, float]]:
    if cut is None:
        return spans
    out = []
    for a, b in spans:
        if cut[1] <= a or cut[0] >= b:
            out.append((a, b))
            continue
        if cut[0] > a:
            out.append((a, cut[0]))
        if cut[1] < b:
            out.append((cut[1], b))
    return out


def pcb_outline(f: Frame, m: float = EDGE_MARGIN_MM) -> tuple[Point, ...]:
    """The PCB's outline in the frame: row by row, the span round the holes that every
    piece's cuts and edges leave at least ``m`` (plus a row's worth) inside them, up to
    ``HOLE_REACH_MM`` beyond the outermost holes; `clearance` checks the result."""
    ys = [p[1] for p in f.holes.values()]
    xs = [p[0] for p in f.holes.values()]
    mid = (min(xs) + max(xs)) / 2
    top, bottom = min(ys) - HOLE_REACH_MM, max(ys) + HOLE_REACH_MM
    rows = round((bottom - top) / ROW_STEP_MM)
    left: list[Point] = []
    right: list[Point] = []
    pad = m + ROW_STEP_MM
    for k in range(rows + 1):
        y = top + k * ROW_STEP_MM
        lo, hi = -math.inf, math.inf
        for piece in f.pieces:
            spans = _row_interval(y, piece, pad)
            if not spans:
                lo, hi = math.inf, -math.inf
                break
            a, b = max(
                spans, key=lambda s: (min(s[1], hi) - max(s[0], lo), -abs((s[0] + s[1]) / 2 - mid))
            )
            lo, hi = max(lo, a), min(hi, b)
        reach = SIDE_REACH_MM[f.shape]
        lo, hi = max(lo, min(xs) - reach), min(hi, max(xs) + reach)
        if hi - lo > 2 * pad:
            left.append((round(lo, 3), round(y, 3)))
            right.append((round(hi, 3), round(y, 3)))
    return _simplify([*right, *reversed(left)])


def _simplify(pts: list[Point]) -> tuple[Point, ...]:
    """Drop the points that lie on the line through their neighbours (within 1 µm)."""
    out = list(pts)
    i = 0
    while i < len(out) and len(out) > 3:
        a, b, c = out[i - 1], out[i], out[(i + 1) % len(out)]
        if math.dist(a, c) > 0 and seg_distance(b, a, c) < 1e-3:
            del out[i]
            i = max(0, i - 1)
        else:
            i += 1
    return tuple(out)
