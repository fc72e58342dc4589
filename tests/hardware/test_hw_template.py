"""The drilling template: millimetre units, true size, tiles, and pixels where holes are."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from keezbord.engine.topology import SEAT_COLOURS
from keezbord.hardware.geometry import board_geometry
from keezbord.hardware.template import (
    SHEETS,
    TemplateError,
    board_offset,
    svg_to_png,
    template_svg,
    template_tiles,
    write_template,
)

cairosvg = pytest.importorskip("cairosvg")


def _png_pixels(png: bytes) -> tuple[int, int, Callable[[int, int], tuple[int, int, int]]]:
    """Decode a PNG through cairo itself (no imaging library needed): size and a lookup."""
    import cairocffi  # type: ignore[import-untyped]

    surf = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    w, h, stride = surf.get_width(), surf.get_height(), surf.get_stride()
    data = bytes(surf.get_data())

    def pixel(x: int, y: int) -> tuple[int, int, int]:
        i = y * stride + 4 * x
        return (data[i + 2], data[i + 1], data[i])  # BGRA in memory

    return w, h, pixel


def test_svg_is_in_millimetres_at_true_size() -> None:
    g = board_geometry(4)
    root = ET.fromstring(template_svg(g))
    w, h = root.get("width"), root.get("height")
    assert w and h and w.endswith("mm") and h.endswith("mm")
    vb = [float(v) for v in (root.get("viewBox") or "").split()]
    assert vb == pytest.approx([0, 0, float(w[:-2]), float(h[:-2])])
    assert float(w[:-2]) >= g.width and float(h[:-2]) >= g.height
    ns = "{http://www.w3.org/2000/svg}"
    circles = [c for c in root.iter(f"{ns}circle") if c.get("r") == f"{g.hole_diameter / 2:.2f}"]
    assert len(circles) == len(g.holes)
    text = ET.tostring(root, encoding="unicode")
    assert "100 mm" in text and "\u00d814 mm" in text
    assert all(h.name in text for h in g.holes)


def test_puzzle_cuts_only_when_asked() -> None:
    g = board_geometry(5)
    assert template_svg(g).count("#c00000") == 0
    assert template_svg(g, puzzle=True).count("#c00000") == 5


def test_rendered_template_shows_holes_where_the_geometry_puts_them(tmp_path: Path) -> None:
    g = board_geometry(4)
    scale = 5  # pixels a millimetre
    png = svg_to_png(template_svg(g), dpi=25.4 * scale)
    (tmp_path / "template.png").write_bytes(png)
    w, h, pixel = _png_pixels(png)
    assert (w, h) == (round((g.width + 20) * scale), round((g.height + 44) * scale))
    ox, oy = board_offset(g)

    def at(x_mm: float, y_mm: float) -> tuple[int, int, int]:
        return pixel(round((ox + x_mm) * scale), round((oy + y_mm) * scale))

    # Crosshair at a track hole's centre: dark.
    x, y = g.position("T5")
    assert max(at(x, y)) < 100
    # Inside a home hole, off the crosshair: the seat colour, tinted (red channel dominant).
    x, y = g.position("H0.2")
    r, gg, b = at(x + 3, y + 3)
    assert r > gg + 40 and r > b + 40
    # Between two track holes, and outside the board's outline: white paper.
    x1, y1 = g.position("T5")
    x2, y2 = g.position("T6")
    assert min(at((x1 + x2) / 2 + 4, (y1 + y2) / 2 + 4)) > 240
    assert min(at(-ox + 2, g.height / 2)) > 240
    # The board's edge runs one pitch outside the arm's track holes: a dark line there.
    x, y = g.position("T0")  # the middle of seat 0's arm tip; the arm is 2 pitches wide
    assert max(at(x - 2 * g.pitch, y - 5 * g.pitch)) < 100
    assert min(at(x - 2 * g.pitch - 2, y - 5 * g.pitch)) > 240


def test_tiles_cover_the_drawing_on_paper_sized_pages() -> None:
    g = board_geometry(6)
    tiles = template_tiles(g, "a4", puzzle=True)
    assert len(tiles.pages) == tiles.rows * tiles.cols > 1
    for page in tiles.pages:
        root = ET.fromstring(page)
        assert (root.get("width"), root.get("height")) == ("210.00mm", "297.00mm")
        assert "50 mm" in page  # a scale bar on every sheet
        assert "#0050c0" in page  # registration marks
    labels = [re.search(r"row (\d+) of \d+, column (\d+) of", p).groups() for p in tiles.pages]  # type: ignore[union-attr]
    assert len(set(labels)) == len(labels)
    with pytest.raises(TemplateError, match="unknown sheet"):
        template_tiles(g, "b5")
    assert set(SHEETS) >= {"a4", "a3", "letter"}


def test_write_svg_tiles_and_multipage_pdf(tmp_path: Path) -> None:
    g = board_geometry(3)
    files = write_template(g, tmp_path / "t.svg", sheet="a4")
    tiles = template_tiles(g, "a4")
    assert len(files) == len(tiles.pages) and files[0].name == "t-r1c1.svg"
    ET.parse(files[-1])
    pdf = write_template(g, tmp_path / "t.pdf", sheet="a4")[0].read_bytes()
    assert pdf.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == len(tiles.pages)
    assert b"595.27" in pdf and b"841.88" in pdf  # A4 in points
    single = write_template(g, tmp_path / "one.pdf")[0].read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b", single)) == 1
    with pytest.raises(TemplateError, match=r"\.svg or \.pdf"):
        write_template(g, tmp_path / "t.png")


def test_seat_symbols_are_drawn_as_shapes() -> None:
    svg = template_svg(board_geometry(8))
    for c in SEAT_COLOURS:
        assert c.hex in svg
        assert c.symbol not in svg  # shapes, not glyphs a font may lack


def test_the_card_readers_pocket_is_drawn_clear_of_the_holes_and_the_centre() -> None:
    # Away from the wiring (between the holes) and the lever connectors (the centre).
    from keezbord.hardware.reader_place import CENTRE_CLEARANCE_MM, READER_MM, reader_pocket

    for seats in (2, 3, 6):
        g = board_geometry(seats)
        p = reader_pocket(g)
        assert p is not None and (p.width, p.height) == READER_MM
        assert g.piece_of(min(g.holes, key=lambda h: (h.x - p.x) ** 2 + (h.y - p.y) ** 2).name) == 0
        for h in g.holes:
            dx = max(abs(h.x - p.x) - p.width / 2, 0.0)
            dy = max(abs(h.y - p.y) - p.height / 2, 0.0)
            assert (dx * dx + dy * dy) ** 0.5 > g.hole_diameter / 2
        cx, cy = g.centre
        dx, dy = max(abs(cx - p.x) - p.width / 2, 0.0), max(abs(cy - p.y) - p.height / 2, 0.0)
        assert (dx * dx + dy * dy) ** 0.5 >= CENTRE_CLEARANCE_MM
        svg = template_svg(g)
        assert "card reader" in svg and "pocket from below, 3-5 mm" in svg
    # The 4-seat cross has no 44 mm of wood clear of the holes: nothing is drawn there
    # (docs/hardware.md: a card tray beside seat 0).
    assert reader_pocket(board_geometry(4)) is None
    assert "card reader" not in template_svg(board_geometry(4))
