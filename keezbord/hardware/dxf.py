"""The board as a DXF for a CNC router or a laser, written here (no library): ASCII DXF
R12 (AC1009), which every CAM program reads. One drawing unit is one millimetre; y points
up (DXF's way), so a point (x, y) of the geometry (y down) is (x, height - y) here, and
the underside mirrors x as well (as the underside drawing does).

Layers: OUTLINE (the board's edge, closed), CUTS (the puzzle cuts, with ``puzzle``),
HOLES (one CIRCLE a hole, the drill's diameter), LABELS (the hole names, for reference;
switch the layer off in the CAM program).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from pathlib import Path

from keezbord.hardware.geometry import Geometry
from keezbord.hardware.plane import Point

LAYERS = ("OUTLINE", "CUTS", "HOLES", "LABELS")


def _pairs(*codes: tuple[int, object]) -> list[str]:
    out: list[str] = []
    for code, value in codes:
        text = f"{value:.4f}" if isinstance(value, float) else str(value)
        out += [str(code), text]
    return out


def _line(layer: str, a: Point, b: Point) -> list[str]:
    return _pairs(
        (0, "LINE"), (8, layer), (10, a[0]), (20, a[1]), (30, 0.0), (11, b[0]), (21, b[1]),
        (31, 0.0),
    )  # fmt: skip


def board_dxf(g: Geometry, *, puzzle: bool = False, underside: bool = False) -> str:
    """The DXF text: outline, cuts, holes, labels."""

    def at(p: Point) -> Point:
        x, y = (g.width - p[0], p[1]) if underside else p
        return (x, g.height - y)

    def closed(points: Iterable[Point]) -> list[tuple[Point, Point]]:
        pts = [at(p) for p in points]
        return list(zip(pts, pts[1:] + pts[:1], strict=True))

    entities: list[str] = []
    for a, b in closed(g.outline):
        entities += _line("OUTLINE", a, b)
    if puzzle:
        for cut in g.cuts:
            pts = [at(p) for p in cut]
            for a, b in itertools.pairwise(pts):
                entities += _line("CUTS", a, b)
    r = g.hole_diameter / 2
    for h in g.holes:
        x, y = at((h.x, h.y))
        entities += _pairs((0, "CIRCLE"), (8, "HOLES"), (10, x), (20, y), (30, 0.0), (40, r))
        entities += _pairs(
            (0, "TEXT"), (8, "LABELS"), (10, x + r * 0.7), (20, y - r - 2.5), (30, 0.0),
            (40, 2.4), (1, h.name),
        )  # fmt: skip
    layers: list[str] = _pairs((0, "TABLE"), (2, "LAYER"), (70, len(LAYERS)))
    for i, name in enumerate(LAYERS):
        layers += _pairs((0, "LAYER"), (2, name), (70, 0), (62, i + 1), (6, "CONTINUOUS"))
    layers += _pairs((0, "ENDTAB"))
    text = [
        *_pairs((999, "keezbord board, 1 unit = 1 mm"), (0, "SECTION"), (2, "HEADER")),
        *_pairs((9, "$ACADVER"), (1, "AC1009"), (9, "$EXTMIN"), (10, 0.0), (20, 0.0)),
        *_pairs((9, "$EXTMAX"), (10, g.width), (20, g.height), (0, "ENDSEC")),
        *_pairs((0, "SECTION"), (2, "TABLES")),
        *layers,
        *_pairs((0, "ENDSEC"), (0, "SECTION"), (2, "ENTITIES")),
        *entities,
        *_pairs((0, "ENDSEC"), (0, "EOF")),
    ]
    return "\n".join(text) + "\n"


def write_dxf(g: Geometry, out: Path, *, puzzle: bool = False, underside: bool = False) -> Path:
    out.write_text(board_dxf(g, puzzle=puzzle, underside=underside), encoding="ascii")
    return out
