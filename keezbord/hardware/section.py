"""`keezbord board section`: the cross-section under a hole, drawn from the stack-up.

An SVG whose viewBox is in millimetres (the drawing's x along the track, y down from the
board's top surface), shown at `SCALE`:1 (`width`/`height` in mm). Every shape comes from
the `StackUp` that `stackup.margins` computes with, so the drawing and the calculation
cannot disagree.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from keezbord.hardware.stackup import Margins, StackUp

SCALE = 4
LEFT, RIGHT = -20.0, 32.0  # mm along the track: the hole and the next one
TOP = -9.0  # room for the pawn above the board
BOTTOM_PAD = 20.0  # below the carrier: labels and the margins
LEAD_BEND = 3.0  # the reed makers' minimum from the glass to a bend (handling notes)


def _rect(x: float, y: float, w: float, h: float, fill: str, label: str) -> str:
    return (
        f'<rect x="{x:.2f}" y="{y:.2f}" width="{w:.2f}" height="{h:.2f}" fill="{fill}" '
        f'stroke="#222" stroke-width="0.1"><title>{escape(label)}</title></rect>'
    )


def _text(x: float, y: float, text: str, size: float = 1.3, anchor: str = "start") -> str:
    return (
        f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" font-family="sans-serif" '
        f'text-anchor="{anchor}">{escape(text)}</text>'
    )


def section_svg(s: StackUp, m: Margins) -> str:
    """The cross-section along the track through one hole (and its reed) as SVG text."""
    r = s.hole_diameter / 2
    left, right = LEFT, max(RIGHT, s.pitch + r + 2)
    bottom = s.carrier_depth + s.carrier + BOTTOM_PAD
    width, height = right - left, bottom - TOP
    reed = s.reed
    g0 = s.contact_offset - reed.glass_length / 2
    g1 = s.contact_offset + reed.glass_length / 2
    axis = s.reed_axis_depth
    mag = s.magnet
    mag_top = s.magnet_centre_depth - mag.height / 2
    pawn_w = s.hole_diameter - 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * SCALE:.1f}mm" '
        f'height="{height * SCALE:.1f}mm" viewBox="{left:.2f} {TOP:.2f} {width:.2f} {height:.2f}">',
        f"<title>keezbord stack-up: cross-section along the track, {SCALE}:1, mm</title>",
        _rect(left, TOP, width, height, "#fff", "background").replace(
            'stroke="#222"', 'stroke="none"'
        ),
        # top plate, cut by this hole and the next one along the track
        *(
            _rect(
                x0,
                0,
                x1 - x0,
                s.top_plate,
                "#e8c98f",
                f"top plate {s.top_plate:g} mm birch plywood",
            )
            for x0, x1 in ((left, -r), (r, s.pitch - r), (s.pitch + r, right))
            if x1 > x0
        ),
        _text(s.pitch, TOP + 1.5, f"next hole, {s.pitch:g} mm", 1.1, "middle"),
        _rect(
            left, s.top_plate, width, s.diffuser, "#f4f4f4", f"diffuser {s.diffuser:g} mm opal PMMA"
        ),
        # the pawn standing on the diffuser, its magnet in its base
        _rect(-pawn_w / 2, TOP + 2, pawn_w, s.top_plate - TOP - 2, "#c7d7f0", "pawn"),
        _rect(
            -mag.diameter / 2,
            mag_top,
            mag.diameter,
            mag.height,
            "#8a8a8a",
            f"magnet {mag.diameter:g} x {mag.height:g} mm {mag.grade}",
        ),
        # the reed: glass, contact region, leads bent down to the carrier
        _rect(
            g0,
            axis - reed.glass_diameter / 2,
            reed.glass_length,
            reed.glass_diameter,
            "#dff3ff",
            f"reed {reed.part}",
        ),
        f'<line x1="{s.contact_offset:.2f}" y1="{axis - 1.6:.2f}" x2="{s.contact_offset:.2f}" '
        f'y2="{axis + 1.6:.2f}" stroke="#c00000" stroke-width="0.15"/>',
    ]
    carrier_top = s.carrier_depth
    for end, out in ((g0, -1.0), (g1, 1.0)):
        bend = end + out * LEAD_BEND
        parts.append(
            f'<polyline points="{end:.2f},{axis:.2f} {bend:.2f},{axis:.2f} '
            f'{bend:.2f},{carrier_top + s.carrier:.2f}" fill="none" stroke="#555" '
            'stroke-width="0.25"/>'
        )
    parts += [
        _rect(
            -2.5,
            s.led_top_depth,
            5.0,
            s.led_height,
            "#ffffff",
            "WS2812B 5050 LED module, facing up",
        ),
        _rect(-1.5, s.led_top_depth, 3.0, 0.4, "#ffd54a", "LED lens"),
        _rect(
            left, carrier_top, width, s.carrier, "#7fb77e", f"carrier {s.carrier:g} mm perfboard"
        ),
    ]
    # labels
    y = carrier_top + s.carrier + 3
    labels = [
        f"top plate {s.top_plate:g} mm birch plywood, \u00d8{s.hole_diameter:g} mm through holes",
        f"diffuser {s.diffuser:g} mm opal PMMA under the top plate: the pawn stands on it",
        f"magnet \u00d8{mag.diameter:g} x {mag.height:g} mm {mag.grade}, axial, "
        f"{s.magnet_cover:g} mm above the pawn's base",
        f"reed {reed.part}: glass {reed.glass_length:g} x {reed.glass_diameter:g} mm "
        "along the track,",
        f"  its contacts (red) {s.contact_offset:g} mm from the hole's axis, {axis:.1f} mm deep",
        f"LED under the reed, {s.led_gap:g} mm below the glass; leads bent {LEAD_BEND:g} mm out",
        f"own hole: >= {m.own_mt:.1f} mT along the reed (needs {m.own_needed_mt:.2f}), "
        f"margin {m.own_margin:.1f}",
        f"neighbour: <= {m.neighbour_mt:.2f} mT (allowed {m.neighbour_allowed_mt:.2f}), "
        f"margin {m.neighbour_margin:.1f}",
    ]
    for i, line in enumerate(labels):
        parts.append(_text(left + 0.5, y + i * 2.2, line, 1.1))
    parts.append(_text(0, TOP + 1.5, "hole axis", 1.1, "middle"))
    parts.append(
        f'<line x1="0" y1="{TOP + 2:.2f}" x2="0" y2="{carrier_top:.2f}" stroke="#888" '
        'stroke-width="0.08" stroke-dasharray="0.6 0.4"/>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
