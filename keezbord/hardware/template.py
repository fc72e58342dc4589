"""The 1:1 drilling template: SVG in millimetres, tiled onto paper sheets, and PDF.

One SVG user unit is one millimetre (``width``/``height`` in mm, a matching ``viewBox``),
so the drawing prints at true size when the printer's scaling is off ("actual size").
A scale bar on every page lets the builder check that with a ruler before drilling.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

from keezbord.engine.topology import SEAT_COLOURS
from keezbord.hardware.geometry import MIN_WEB_MM, Geometry, HolePlace
from keezbord.hardware.plane import Point
from keezbord.hardware.reader_place import reader_svg
from keezbord.hardware.underside import underside_lines, underside_svg
from keezbord.hardware.wiring import Wiring

PAGE_MARGIN_MM = 10.0
HEADER_MM = 34.0
TILE_OVERLAP_MM = 15.0
FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif"

# Paper sizes, portrait, in mm.
SHEETS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "a3": (297.0, 420.0),
    "letter": (215.9, 279.4),
    "legal": (215.9, 355.6),
}

# The seat symbols of SEAT_COLOURS drawn as shapes, so no font needs the glyphs.
_SYMBOL_SHAPES = {
    "●": "circle",
    "■": "square",
    "▲": "triangle",
    "◆": "diamond",
    "★": "star",
    "✚": "plus",
    "⬟": "pentagon",
    "✖": "cross",
}


class TemplateError(ValueError):
    """A template that cannot be made as asked (unknown sheet, unknown output type)."""


def symbol_svg(symbol: str, cx: float, cy: float, size: float, fill: str) -> str:
    """One seat symbol as an SVG shape centred on (cx, cy), ``size`` mm across."""
    shape = _SYMBOL_SHAPES.get(symbol, "circle")
    r = size / 2
    style = f'fill="{fill}" stroke="#000" stroke-width="{size / 16:.3f}"'

    def poly(points: Sequence[Point]) -> str:
        pts = " ".join(f"{cx + x:.2f},{cy + y:.2f}" for x, y in points)
        return f'<polygon points="{pts}" {style}/>'

    def regular(n: int, radius: float, phase: float = 0.0) -> list[Point]:
        return [
            (
                radius * math.sin(phase + 2 * math.pi * k / n),
                -radius * math.cos(phase + 2 * math.pi * k / n),
            )
            for k in range(n)
        ]

    if shape == "circle":
        return f'<circle cx="{cx:.2f}" cy="{cy:.2f}" r="{r * 0.9:.2f}" {style}/>'
    if shape == "square":
        return poly(
            [(-r * 0.8, -r * 0.8), (r * 0.8, -r * 0.8), (r * 0.8, r * 0.8), (-r * 0.8, r * 0.8)]
        )
    if shape == "triangle":
        return poly([(x, y + r * 0.15) for x, y in regular(3, r)])
    if shape == "diamond":
        return poly(regular(4, r))
    if shape == "pentagon":
        return poly(regular(5, r))
    if shape == "star":
        outer, inner = regular(5, r), regular(5, r * 0.42, math.pi / 5)
        return poly([p for pair in zip(outer, inner, strict=True) for p in pair])
    w = r * 0.32  # plus and cross: two bars
    bars = [
        (-w, -r),
        (w, -r),
        (w, -w),
        (r, -w),
        (r, w),
        (w, w),
        (w, r),
        (-w, r),
        (-w, w),
        (-r, w),
        (-r, -w),
        (-w, -w),
    ]
    if shape == "cross":
        c = math.cos(math.pi / 4)
        bars = [((x - y) * c, (x + y) * c) for x, y in bars]
    return poly(bars)


def _hole_svg(g: Geometry, h: HolePlace) -> str:
    r = g.hole_diameter / 2
    tick = r + 3.0
    seat = h.seat
    colour = SEAT_COLOURS[seat].hex if seat is not None else None
    fill = f'fill="{colour}" fill-opacity="0.35"' if colour else 'fill="none"'
    width = 0.6 if colour else 0.35
    parts = [
        f'<circle cx="{h.x:.2f}" cy="{h.y:.2f}" r="{r:.2f}" {fill} stroke="#000" '
        f'stroke-width="{width}"/>',
        f'<path d="M {h.x - tick:.2f} {h.y:.2f} H {h.x + tick:.2f} M {h.x:.2f} {h.y - tick:.2f} '
        f'V {h.y + tick:.2f}" stroke="#000" stroke-width="0.2"/>',
        f'<text x="{h.x + r * 0.75:.2f}" y="{h.y + r + 2.6:.2f}" font-size="2.4">{h.name}</text>',
    ]
    if seat is not None and (h.kind == "N" or h.kind == "T"):
        c = SEAT_COLOURS[seat]
        parts.append(symbol_svg(c.symbol, h.x - r - 1.2, h.y - r - 1.2, 3.6, c.hex))
    return "\n".join(parts)


def _board_svg(g: Geometry, puzzle: bool) -> str:
    """The board in board coordinates (mm from the outline's top-left corner)."""
    parts = [
        f'<path d="{g.outline_path()}" fill="#fff" stroke="#000" stroke-width="0.6"/>',
        f'<circle cx="{g.centre[0]:.2f}" cy="{g.centre[1]:.2f}" r="1.5" fill="none" '
        'stroke="#000" stroke-width="0.2"/>',
    ]
    if puzzle:
        for cut in g.cuts:
            pts = " L ".join(f"{x:.2f} {y:.2f}" for x, y in cut)
            parts.append(
                f'<path d="M {pts}" fill="none" stroke="#c00000" stroke-width="0.5" '
                'stroke-dasharray="4 2"/>'
            )
    parts.extend(_hole_svg(g, h) for h in g.holes)
    parts.append(reader_svg(g))
    return "\n".join(parts)


def _scale_bar(x: float, y: float, length: float = 100.0) -> str:
    """A ruler ``length`` mm long with a tick every 10 mm."""
    parts = [
        f'<rect x="{x:.2f}" y="{y:.2f}" width="{length:.2f}" height="3" fill="none" '
        'stroke="#000" stroke-width="0.3"/>'
    ]
    for k in range(0, int(length // 10)):
        if k % 2 == 0:
            parts.append(
                f'<rect x="{x + 10 * k:.2f}" y="{y:.2f}" width="10" height="3" fill="#000"/>'
            )
    parts.append(
        f'<text x="{x:.2f}" y="{y + 7:.2f}" font-size="3">0</text>'
        f'<text x="{x + length - 12:.2f}" y="{y + 7:.2f}" font-size="3">{length:g} mm</text>'
    )
    return "\n".join(parts)


def _header(g: Geometry, width: float, puzzle: bool, underside: bool = False) -> str:
    m = PAGE_MARGIN_MM
    topo = g.topology
    lines = (
        underside_lines(g)
        if underside
        else [
            f"keezbord drilling template: {topo.seats} seats, {topo.segment} track holes a seat, "
            f"{len(g.holes)} holes, board {g.width:.0f} x {g.height:.0f} mm",
            f"Drill every crosshair \u00d8{g.hole_diameter:g} mm; pitch {g.pitch:g} mm. "
            'Print at 100% ("actual size"), then check the scale bar with a ruler.',
        ]
    )
    if puzzle:
        warn = g.cut_clearance < g.hole_diameter / 2 + MIN_WEB_MM
        lines.append(
            "Dashed red: puzzle cuts, one piece a seat"
            + (" (WARNING: a cut passes close to a hole)" if warn else "")
        )
    parts = [
        f'<text x="{m:.2f}" y="{m + 4 + 5 * i:.2f}" font-size="{4 if i == 0 else 3}">'
        f"{escape(text)}</text>"
        for i, text in enumerate(lines)
    ]
    parts.append(_scale_bar(m, m + 18))
    x = m + 110
    for p, c in enumerate(SEAT_COLOURS[: topo.seats]):
        cx = x + (p % 4) * 30
        cy = m + 18 + (p // 4) * 7
        parts.append(symbol_svg(c.symbol, cx + 2, cy + 1.5, 4, c.hex))
        parts.append(
            f'<text x="{cx + 5:.2f}" y="{cy + 2.8:.2f}" font-size="3">{p}: {c.en}/{c.nl}</text>'
        )
    return "\n".join(parts)


def _document(
    width: float, height: float, body: str, view: tuple[float, float, float, float]
) -> str:
    vx, vy, vw, vh = view
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{height:.2f}mm" '
        f'viewBox="{vx:.2f} {vy:.2f} {vw:.2f} {vh:.2f}" font-family="{FONT}">\n'
        f"{body}\n</svg>\n"
    )


@dataclass(frozen=True)
class Sheet:
    """The whole template as one drawing, in mm: board placed below a header."""

    width: float
    height: float
    body: str


def drawing(g: Geometry, *, puzzle: bool = False, underside: Wiring | None = None) -> Sheet:
    """The template; with ``underside`` (the wiring) the board seen from below instead."""
    m = PAGE_MARGIN_MM
    width = max(g.width + 2 * m, 250.0)
    height = g.height + HEADER_MM + m
    body = "\n".join(
        [
            f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#fff"/>',
            _header(g, width, puzzle, underside is not None),
            f'<g transform="translate({(width - g.width) / 2:.2f} {HEADER_MM:.2f})">',
            _board_svg(g, puzzle) if underside is None else underside_svg(g, underside, puzzle),
            "</g>",
        ]
    )
    return Sheet(width, height, body)


def board_offset(g: Geometry) -> Point:
    """Where the board's (0, 0) lands on the single-sheet template, mm."""
    width = max(g.width + 2 * PAGE_MARGIN_MM, 250.0)
    return ((width - g.width) / 2, HEADER_MM)


def template_svg(g: Geometry, *, puzzle: bool = False, underside: Wiring | None = None) -> str:
    """The whole template on one (large) sheet."""
    d = drawing(g, puzzle=puzzle, underside=underside)
    return _document(d.width, d.height, d.body, (0, 0, d.width, d.height))


@dataclass(frozen=True)
class Tiles:
    """A template split over ``rows`` x ``cols`` sheets; ``pages`` row by row."""

    rows: int
    cols: int
    pages: tuple[str, ...]


def template_tiles(
    g: Geometry, sheet: str, *, puzzle: bool = False, underside: Wiring | None = None
) -> Tiles:
    """The template split over paper sheets: each page shows a window onto the drawing,
    windows overlap by TILE_OVERLAP_MM, and registration crosses in the overlaps (with
    the page grid written on every page) let the sheets be taped together exactly."""
    try:
        page_w, page_h = SHEETS[sheet.lower()]
    except KeyError:
        raise TemplateError(f"unknown sheet {sheet!r} (one of {', '.join(SHEETS)})") from None
    d = drawing(g, puzzle=puzzle, underside=underside)
    m = PAGE_MARGIN_MM
    win_w, win_h = page_w - 2 * m, page_h - 2 * m - 8  # room below for the page's ruler
    step_x, step_y = win_w - TILE_OVERLAP_MM, win_h - TILE_OVERLAP_MM
    cols = max(1, math.ceil((d.width - TILE_OVERLAP_MM) / step_x))
    rows = max(1, math.ceil((d.height - TILE_OVERLAP_MM) / step_y))
    marks = []
    for c in range(1, cols):
        for r in range(rows + 1):
            marks.append(
                _registration(c * step_x + TILE_OVERLAP_MM / 2, r * step_y + TILE_OVERLAP_MM / 2)
            )
    for r in range(1, rows):
        for c in range(cols + 1):
            marks.append(
                _registration(c * step_x + TILE_OVERLAP_MM / 2, r * step_y + TILE_OVERLAP_MM / 2)
            )
    pages: list[str] = []
    for r in range(rows):
        for c in range(cols):
            ox, oy = c * step_x, r * step_y
            body = "\n".join(
                [
                    f'<rect x="0" y="0" width="{page_w:.2f}" height="{page_h:.2f}" fill="#fff"/>',
                    f'<clipPath id="win"><rect x="{m}" y="{m}" width="{win_w:.2f}" '
                    f'height="{win_h:.2f}"/></clipPath>',
                    '<g clip-path="url(#win)">',
                    f'<g transform="translate({m - ox:.2f} {m - oy:.2f})">',
                    d.body,
                    *marks,
                    "</g></g>",
                    f'<rect x="{m}" y="{m}" width="{win_w:.2f}" height="{win_h:.2f}" fill="none" '
                    'stroke="#888" stroke-width="0.2" stroke-dasharray="1 1"/>',
                    _scale_bar(m, page_h - m - 6, 50.0),
                    f'<text x="{m + 60:.2f}" y="{page_h - m - 3.5:.2f}" font-size="3.2">'
                    f"sheet row {r + 1} of {rows}, column {c + 1} of {cols}; overlap "
                    f"{TILE_OVERLAP_MM:g} mm: lay the crosses on each other</text>",
                ]
            )
            pages.append(_document(page_w, page_h, body, (0, 0, page_w, page_h)))
    return Tiles(rows, cols, tuple(pages))


def _registration(x: float, y: float) -> str:
    return (
        f'<circle cx="{x:.2f}" cy="{y:.2f}" r="2.5" fill="none" stroke="#0050c0" '
        'stroke-width="0.25"/>'
        f'<path d="M {x - 4:.2f} {y:.2f} H {x + 4:.2f} M {x:.2f} {y - 4:.2f} V {y + 4:.2f}" '
        'stroke="#0050c0" stroke-width="0.25"/>'
    )


def svg_to_png(svg: str, *, dpi: float = 96.0) -> bytes:
    """Rasterise one SVG page (cairosvg): used by the tests and for previews."""
    import cairosvg  # type: ignore[import-untyped]

    png: bytes = cairosvg.svg2png(bytestring=svg.encode(), dpi=dpi, background_color="white")
    return png


def svgs_to_pdf(pages: Sequence[str]) -> bytes:
    """Several SVG pages as one multi-page PDF, each page at its own size."""
    import cairocffi  # type: ignore[import-untyped]
    import cairosvg.parser  # type: ignore[import-untyped]
    import cairosvg.surface  # type: ignore[import-untyped]

    out = io.BytesIO()
    shared = cairocffi.PDFSurface(out, 1, 1)

    class _Page(cairosvg.surface.PDFSurface):  # type: ignore[misc]
        def _create_surface(self, width: float, height: float) -> tuple[object, float, float]:
            shared.set_size(width, height)
            return shared, width, height

    for svg in pages:
        tree = cairosvg.parser.Tree(bytestring=svg.encode())
        page = _Page(tree, None, 96)
        page.context.show_page()
    shared.finish()
    return out.getvalue()


def write_template(
    g: Geometry,
    out: Path,
    *,
    sheet: str | None = None,
    puzzle: bool = False,
    underside: Wiring | None = None,
) -> list[Path]:
    """Write the template as ``.svg`` (one file, or one per sheet: NAME-r1c1.svg...) or as
    ``.pdf`` (one page, or one page per sheet). Returns the files written."""
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".pdf"):
        raise TemplateError(f"output must end in .svg or .pdf, not {out.name!r}")
    if not sheet:
        pages: Sequence[str] = [template_svg(g, puzzle=puzzle, underside=underside)]
        cols = 1
    else:
        tiles = template_tiles(g, sheet, puzzle=puzzle, underside=underside)
        pages, cols = tiles.pages, tiles.cols
    if suffix == ".pdf":
        out.write_bytes(svgs_to_pdf(pages))
        return [out]
    if len(pages) == 1:
        out.write_text(pages[0], encoding="utf-8")
        return [out]
    written = []
    for i, svg in enumerate(pages):
        path = out.with_name(f"{out.stem}-r{i // cols + 1}c{i % cols + 1}{out.suffix}")
        path.write_text(svg, encoding="utf-8")
        written.append(path)
    return written
