"""The underside drawing and the DXF: read back (the SVG with ElementTree, the DXF with
ezdxf, a library of its own), every hole sits where the geometry says, mirrored for the
underside, with the chip, input and LED index of default_wiring; the chips' places keep
off the holes; the chain's route follows the wiring."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from ezdxf.filemanagement import readfile

from keezbord.engine.topology import Topology
from keezbord.hardware.geometry import Geometry, geometry_for
from keezbord.hardware.underside import CHIP_H, CHIP_W
from keezbord.hardware.wiring import Wiring, chip_pin, default_wiring, pin_letter
from keezbord.host.cli import main

SVG = "{http://www.w3.org/2000/svg}"


def board(seats: int) -> tuple[Geometry, Wiring]:
    g = geometry_for(Topology(seats, 16))
    return g, default_wiring(g.topology, g)


def offset(root: ET.Element) -> tuple[float, float]:
    """The translate() that places the board under the header."""
    for g in root.iter(f"{SVG}g"):
        m = re.fullmatch(r"translate\(([-\d.]+) ([-\d.]+)\)", g.get("transform", ""))
        if m:
            return float(m[1]), float(m[2])
    raise AssertionError("no board group")


@pytest.mark.parametrize("seats", [4, 8])
def test_the_underside_names_each_holes_chip_input_and_led(tmp_path: Path, seats: int) -> None:
    g, w = board(seats)
    out = tmp_path / "under.svg"
    assert main(["board", "template", "--seats", str(seats), "--underside", "--out", str(out)]) == 0
    root = ET.parse(out).getroot()
    holes = {e.attrib["data-hole"]: e for e in root.iter(f"{SVG}g") if e.get("class") == "hole"}
    assert sorted(holes) == sorted(h.name for h in g.holes)
    for h in g.holes:
        e = holes[h.name]
        bit = w.switch_index(h.name)
        assert int(e.attrib["data-chip"]) == chip_pin(bit)[0]
        assert e.attrib["data-input"] == pin_letter(bit)
        assert int(e.attrib["data-led"]) == w.led_index(h.name)
        circle = e.find(f"{SVG}circle")
        assert circle is not None
        # mirrored: x about the board's middle, y as on the top
        assert float(circle.attrib["cx"]) == pytest.approx(g.width - h.x, abs=0.01)
        assert float(circle.attrib["cy"]) == pytest.approx(h.y, abs=0.01)
        texts = [t.text for t in e.iter(f"{SVG}text")]
        assert texts == [
            h.name,
            f"U{chip_pin(bit)[0]}.{pin_letter(bit)}",
            f"L{w.led_index(h.name)}",
        ]
    chips = [e for e in root.iter(f"{SVG}g") if e.get("class") == "chip"]
    assert sorted(int(e.attrib["data-chip"]) for e in chips) == list(range(w.chips))
    r = g.hole_diameter / 2
    for e in chips:
        rect = e.find(f"{SVG}rect")
        assert rect is not None
        cx = float(rect.attrib["x"]) + CHIP_W / 2
        cy = float(rect.attrib["y"]) + CHIP_H / 2
        for h in g.holes:  # on wood, never over a hole
            dx = max(abs((g.width - h.x) - cx) - CHIP_W / 2, 0.0)
            dy = max(abs(h.y - cy) - CHIP_H / 2, 0.0)
            assert math.hypot(dx, dy) >= r, (e.attrib["data-chip"], h.name)
    [route] = [e for e in root.iter(f"{SVG}path") if e.get("class") == "chain"]
    pts = [tuple(map(float, p.split())) for p in route.attrib["d"][2:].split(" L ")]
    want = [(g.width - g.position(n)[0], g.position(n)[1]) for n in w.switch_order if n]
    assert pts == [pytest.approx(p, abs=0.01) for p in want]
    assert offset(root)[1] > 0


@pytest.mark.parametrize(("seats", "underside"), [(4, False), (4, True), (8, True)])
def test_the_dxf_read_back_puts_every_hole_where_the_geometry_does(
    tmp_path: Path, seats: int, underside: bool
) -> None:
    g, _ = board(seats)
    out = tmp_path / "board.dxf"
    args = ["board", "template", "--seats", str(seats), "--puzzle", "--out", str(out)]
    assert main([*args, *(["--underside"] if underside else [])]) == 0
    doc = readfile(out)
    assert not doc.audit().has_errors
    msp = doc.modelspace()

    def at(x: float, y: float) -> tuple[float, float]:
        return ((g.width - x) if underside else x, g.height - y)  # DXF: y up

    circles = [(c.dxf.center.x, c.dxf.center.y, c.dxf.radius, c.dxf.layer)
               for c in msp.query("CIRCLE")]  # fmt: skip
    assert len(circles) == len(g.holes)
    assert {c[2:] for c in circles} == {(g.hole_diameter / 2, "HOLES")}
    for h in g.holes:  # each hole's centre, one circle on it
        x, y = at(h.x, h.y)
        assert sum(math.hypot(c[0] - x, c[1] - y) < 1e-3 for c in circles) == 1, h.name
    outline = [(ln.dxf.start.x, ln.dxf.start.y) for ln in msp.query('LINE[layer=="OUTLINE"]')]
    assert outline == [pytest.approx(at(*p), abs=1e-3) for p in g.outline]
    cuts = msp.query('LINE[layer=="CUTS"]')
    assert len(cuts) == sum(len(c) - 1 for c in g.cuts)
    labels = {t.dxf.text for t in msp.query("TEXT")}
    assert labels == {h.name for h in g.holes}


def test_a_dxf_is_never_tiled(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "b.dxf"
    assert main(["board", "template", "--sheet", "a4", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "leave out --sheet" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
