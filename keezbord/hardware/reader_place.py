"""Where the card reader goes: a pocket routed from below in seat 0's piece (the Pico's),
leaving 3 to 5 mm of wood over the reader's antenna, as far from every hole (and so from
the switch and LED wiring between them) as the piece allows, and away from the board's
centre, where the power distribution block and its lever connectors sit. A reader's range
with a sticker tag is small, and metal and current-carrying wires near its antenna
shorten it: docs/hardware.md, "The card reader's place".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from keezbord.hardware.geometry import Geometry
from keezbord.hardware.plane import Point

# An Elechouse-style PN532 module is about 42 mm square (revk.uk, "Not an Elechouse PN532
# board"); the pocket leaves a little play. Measure the module you have.
READER_MM = (44.0, 44.0)
WOOD_ON_TOP_MM = (3.0, 5.0)  # over the antenna: thin enough for a sticker to be read
CENTRE_CLEARANCE_MM = 70.0  # from the board's centre: the distribution block's room
EDGE_MARGIN_MM = 6.0  # from the piece's outline and its cuts
STEP_MM = 5.0  # the search grid


@dataclass(frozen=True, slots=True)
class Pocket:
    x: float  # centre, board millimetres (as the holes)
    y: float
    width: float
    height: float
    clearance: float  # mm from the pocket to the nearest hole's edge

    def to_json(self) -> dict[str, float]:
        return {
            "x": round(self.x, 2),
            "y": round(self.y, 2),
            "width": self.width,
            "height": self.height,
            "clearance": round(self.clearance, 2),
        }


def _inside(p: Point, poly: tuple[Point, ...]) -> bool:
    x, y = p
    inside = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _rect_dist(cx: float, cy: float, w: float, h: float, p: Point) -> float:
    return math.hypot(max(abs(p[0] - cx) - w / 2, 0.0), max(abs(p[1] - cy) - h / 2, 0.0))


def reader_pocket(g: Geometry, size: tuple[float, float] = READER_MM) -> Pocket | None:
    """The pocket's place in piece 0, or None when no place in it keeps the margins."""
    w, h = size
    poly = g.piece_outline(0) if g.seats > 1 else g.outline
    edges = list(zip(poly, poly[1:] + poly[:1], strict=True))
    radius = g.hole_diameter / 2
    best: Pocket | None = None
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    y = min(ys) + h / 2
    while y <= max(ys) - h / 2:
        x = min(xs) + w / 2
        while x <= max(xs) - w / 2:
            corners = [(x + sx * w / 2, y + sy * h / 2) for sx in (-1, 1) for sy in (-1, 1)]
            ok = all(_inside(c, poly) for c in corners) and all(
                _seg_dist(c, a, b) >= EDGE_MARGIN_MM for c in corners for a, b in edges
            )
            if ok and _rect_dist(x, y, w, h, g.centre) >= CENTRE_CLEARANCE_MM:
                clear = min(_rect_dist(x, y, w, h, (o.x, o.y)) for o in g.holes) - radius
                if best is None or clear > best.clearance:
                    best = Pocket(x, y, w, h, clear)
            x += STEP_MM
        y += STEP_MM
    return best if best is not None and best.clearance > 0 else None


def reader_svg(g: Geometry) -> str:
    """The card reader's pocket, dashed blue, routed from below (the template draws it)."""
    p = reader_pocket(g)
    if p is None:
        return ""
    x0, y0 = p.x - p.width / 2, p.y - p.height / 2
    lo, hi = WOOD_ON_TOP_MM
    return (
        f'<rect x="{x0:.2f}" y="{y0:.2f}" width="{p.width:.2f}" height="{p.height:.2f}" '
        'fill="none" stroke="#0072b2" stroke-width="0.5" stroke-dasharray="3 1.5"/>'
        f'<text x="{x0 + 1.5:.2f}" y="{y0 + 5:.2f}" font-size="2.6" fill="#0072b2">'
        "card reader</text>"
        f'<text x="{x0 + 1.5:.2f}" y="{y0 + 8.5:.2f}" font-size="2.2" fill="#0072b2">'
        f"pocket from below, {lo:g}-{hi:g} mm</text>"
        f'<text x="{x0 + 1.5:.2f}" y="{y0 + 11.5:.2f}" font-size="2.2" fill="#0072b2">'
        "of wood left on top</text>"
    )
