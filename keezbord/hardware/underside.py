"""The board seen from below: what goes where on the underside, for wiring it.

Mirrored left to right (the board turned over about its vertical axis), so it lies on the
underside as printed: each hole with its name, its 74HC165 chip and input and its LED
index (from default_wiring), a place for every chip near its eight holes, and the chain's
route from the controller's end to the terminator plug. Text stays readable: only the
coordinates are mirrored.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from keezbord.hardware.geometry import Geometry
from keezbord.hardware.plane import Point
from keezbord.hardware.wiring import Wiring, chip_pin, pin_letter

CHIP_W, CHIP_H = 20.0, 8.0  # a DIP-16 on a scrap of perfboard, mm
CHAIN_COLOUR = "#1565c0"
CHIP_COLOUR = "#6a1b9a"


def mirror(g: Geometry, p: Point) -> Point:
    """A point of the top view as seen from below (x mirrored about the board's middle)."""
    return (g.width - p[0], p[1])


def _clear(g: Geometry, c: Point, placed: list[Point]) -> bool:
    """A chip's rectangle at ``c`` keeps off every hole and every chip placed before."""
    r = g.hole_diameter / 2 + 1.0
    for h in g.holes:
        dx = max(abs(h.x - c[0]) - CHIP_W / 2, 0.0)
        dy = max(abs(h.y - c[1]) - CHIP_H / 2, 0.0)
        if math.hypot(dx, dy) < r:
            return False
    return all(abs(p[0] - c[0]) > CHIP_W + 1 or abs(p[1] - c[1]) > CHIP_H + 1 for p in placed)


def chip_places(g: Geometry, w: Wiring) -> list[Point]:
    """Where each chip sits (top view, mm): near the middle of its holes, on wood."""
    places: list[Point] = []
    for chip in range(w.chips):
        holes = [w.hole_at_switch(b) for b in range(chip * 8, chip * 8 + 8)]
        pts = [g.position(h) for h in holes if h is not None]
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        best = (cx, cy)
        for step in range(0, 40):
            ring = [(0.0, 0.0)] if step == 0 else [
                (step * 2.0 * math.cos(a * math.pi / 8), step * 2.0 * math.sin(a * math.pi / 8))
                for a in range(16)
            ]  # fmt: skip
            found = [(cx + dx, cy + dy) for dx, dy in ring if _clear(g, (cx + dx, cy + dy), places)]
            if found:
                best = found[0]
                break
        places.append(best)
    return places


def underside_svg(g: Geometry, w: Wiring, puzzle: bool) -> str:
    """The underside in board coordinates (mm), mirrored; the template places it."""
    out = [
        f'<path d="{_path([mirror(g, p) for p in g.outline])} Z" fill="#fff" stroke="#000" '
        'stroke-width="0.6"/>'
    ]
    if puzzle:
        for cut in g.cuts:
            out.append(
                f'<path d="{_path([mirror(g, p) for p in cut])}" fill="none" stroke="#c00000" '
                'stroke-width="0.5" stroke-dasharray="4 2"/>'
            )
    route = [mirror(g, g.position(h)) for h in w.switch_order if h is not None]
    out.append(
        f'<path class="chain" d="{_path(route)}" fill="none" stroke="{CHAIN_COLOUR}" '
        'stroke-width="0.5" stroke-opacity="0.7"/>'
    )
    x0, y0 = route[0]
    x1, y1 = route[-1]
    out.append(
        f'<text x="{x0:.2f}" y="{y0 - 9:.2f}" font-size="3" fill="{CHAIN_COLOUR}" '
        'text-anchor="middle">IN: from the controller</text>'
        f'<text x="{x1:.2f}" y="{y1 + 12:.2f}" font-size="3" fill="{CHAIN_COLOUR}" '
        'text-anchor="middle">OUT: terminator plug</text>'
    )
    r = g.hole_diameter / 2
    for bit, hole in enumerate(w.switch_order):
        if hole is None:
            continue
        x, y = mirror(g, g.position(hole))
        chip, _ = chip_pin(bit)
        led = w.led_index(hole)
        out.append(
            f'<g class="hole" data-hole="{escape(hole)}" data-chip="{chip}" '
            f'data-input="{pin_letter(bit)}" data-led="{led}">'
            f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="none" stroke="#000" '
            'stroke-width="0.35"/>'
            f'<text x="{x:.2f}" y="{y - 1.6:.2f}" font-size="2.6" text-anchor="middle">'
            f"{escape(hole)}</text>"
            f'<text x="{x:.2f}" y="{y + 1.4:.2f}" font-size="2.4" text-anchor="middle" '
            f'fill="{CHIP_COLOUR}">U{chip}.{pin_letter(bit)}</text>'
            f'<text x="{x:.2f}" y="{y + 4.2:.2f}" font-size="2.4" text-anchor="middle" '
            f'fill="#e65100">L{led}</text></g>'
        )
    for chip, top in enumerate(chip_places(g, w)):
        x, y = mirror(g, top)
        out.append(
            f'<g class="chip" data-chip="{chip}"><rect x="{x - CHIP_W / 2:.2f}" '
            f'y="{y - CHIP_H / 2:.2f}" width="{CHIP_W}" height="{CHIP_H}" fill="#f3e5f5" '
            f'stroke="{CHIP_COLOUR}" stroke-width="0.4"/>'
            f'<text x="{x:.2f}" y="{y + 1.2:.2f}" font-size="3" text-anchor="middle" '
            f'fill="{CHIP_COLOUR}">U{chip} 74HC165</text></g>'
        )
    return "\n".join(out)


def underside_lines(g: Geometry) -> list[str]:
    """The header's lines for the underside."""
    return [
        f"keezbord underside: {g.topology.seats} seats, {len(g.holes)} holes, SEEN FROM BELOW "
        "(mirrored: lay it face up on the board turned over)",
        "Each hole: its name, U<chip>.<input> (74HC165 input letter) and L<LED index>; "
        "purple boxes: the chips' places; blue: the chain's route, IN to OUT.",
    ]


def _path(points: list[Point]) -> str:
    return "M " + " L ".join(f"{x:.2f} {y:.2f}" for x, y in points)
