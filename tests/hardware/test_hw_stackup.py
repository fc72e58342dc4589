"""The stack-up under a hole: the magnet's closed-form field, the reed's margins at its
own hole and from the neighbour, and the cross-section drawn from the same numbers."""

from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from keezbord.hardware.magnet import MU0, cylinder_field, field_along_x
from keezbord.hardware.section import section_svg
from keezbord.hardware.stackup import REFERENCE, margins, placement_margins, pull_in_mt
from keezbord.host.cli import main

BR, A, H = 1.3, 3e-3, 2e-3  # a 6 x 2 mm magnet


def _loops_field(rho: float, z: float, rings: int = 200, steps: int = 720) -> tuple[float, float]:
    """Biot-Savart over the side's current sheet (K = Br / mu0), summed ring by ring: an
    independent check of the closed form."""
    current = BR / MU0 * H / rings
    b_x = b_z = 0.0
    for i in range(rings):
        zc = -H / 2 + (i + 0.5) * H / rings
        for k in range(steps):
            t = 2 * math.pi * (k + 0.5) / steps
            dt = 2 * math.pi / steps
            sx, sy = A * math.cos(t), A * math.sin(t)
            dlx, dly = -A * math.sin(t) * dt, A * math.cos(t) * dt
            rx, ry, rz = rho - sx, -sy, z - zc
            r3 = (rx * rx + ry * ry + rz * rz) ** 1.5
            b_x += current * MU0 / (4 * math.pi) * (dly * rz) / r3
            b_z += current * MU0 / (4 * math.pi) * (dlx * ry - dly * rx) / r3
    return b_x, b_z


def test_the_closed_form_matches_the_axis_formula_the_dipole_and_biot_savart() -> None:
    for z in (2e-3, 4e-3, 9e-3):
        on_axis = (
            BR
            / 2
            * ((z + H / 2) / math.hypot(z + H / 2, A) - (z - H / 2) / math.hypot(z - H / 2, A))
        )
        assert cylinder_field(BR, A, H, 0.0, z)[1] == pytest.approx(on_axis, rel=1e-9)
    m = BR / MU0 * math.pi * A * A * H
    x, z = 0.2, 0.1
    r = math.hypot(x, z)
    b_rho, b_z = cylinder_field(BR, A, H, x, z)
    assert b_rho == pytest.approx(MU0 * m / (4 * math.pi) * 3 * x * z / r**5, rel=1e-3)
    assert b_z == pytest.approx(MU0 * m / (4 * math.pi) * (3 * z * z - r * r) / r**5, rel=1e-3)
    for rho, z in ((3.5e-3, -4.4e-3), (1.5e-3, -4.4e-3), (20e-3, -4.4e-3)):
        closed = cylinder_field(BR, A, H, rho, z)
        summed = _loops_field(rho, z)
        assert closed[0] == pytest.approx(summed[0], rel=2e-3, abs=1e-7)
        assert closed[1] == pytest.approx(summed[1], rel=2e-3, abs=1e-7)


def test_a_reed_centred_under_the_magnet_sees_no_field_along_it() -> None:
    # the field there points down, across the reed: why the reed sits off centre
    assert field_along_x(BR, A, H, (0, 0, 0), (0, 0, -5e-3)) == 0.0
    assert abs(field_along_x(BR, A, H, (0, 0, 0), (3.5e-3, 0, -5e-3))) > 5e-3


def test_the_reference_reed_closes_at_its_own_hole_and_never_for_the_neighbour() -> None:
    m = margins(REFERENCE)
    # 20-25 AT over the 12.7 mm coil: mu0 * AT / L
    assert m.pull_in_low_mt == pytest.approx(MU0 * 20 / 12.7e-3 * 1e3)
    assert m.pull_in_high_mt == pytest.approx(1.979 * 25 / 20, rel=1e-3)
    assert m.own_mt >= 2 * m.pull_in_high_mt * 4.5  # closes with a margin above 4.5
    assert m.neighbour_mt <= m.pull_in_low_mt / 2 / 1.9  # neighbour margin above 1.9
    assert m.ok and m.own_margin > 4.5 and m.neighbour_margin > 1.9
    # every pawn position up to 2 mm off centre, checked directly
    for k in range(36):
        t = 2 * math.pi * k / 36
        for off in (0.0, 1.0, 2.0):
            pawn = (off * math.cos(t), off * math.sin(t))
            assert REFERENCE.field_mt(pawn, 1.28) >= m.own_needed_mt
            for n in range(36):
                u = 2 * math.pi * n / 36
                neighbour = (25 * math.cos(u) + pawn[0], 25 * math.sin(u) + pawn[1])
                assert REFERENCE.field_mt(neighbour, 1.32) <= m.neighbour_allowed_mt


def test_a_reed_glued_a_millimetre_off_still_has_its_margins() -> None:
    own, neighbour = placement_margins(REFERENCE, 1.0)
    assert own > 1.7 and neighbour > 1.6
    # across the track the own-hole field drops: 1 mm to the side is worse than none
    side = margins(dataclasses.replace(REFERENCE, reed_side=1.0))
    assert side.own_mt < margins(REFERENCE).own_mt
    # 3 mm off is too far: the check says so
    assert min(placement_margins(REFERENCE, 3.0)) < 1


def test_a_centred_reed_or_a_bigger_magnet_fails_the_check() -> None:
    centred = dataclasses.replace(REFERENCE, contact_offset=0.0)
    assert not margins(centred).ok and margins(centred).own_margin < 0.2
    big = dataclasses.replace(
        REFERENCE, magnet=dataclasses.replace(REFERENCE.magnet, diameter=10.0, height=3.0)
    )
    assert margins(big).neighbour_margin < 1 and not margins(big).ok
    assert pull_in_mt(10, 10) == pytest.approx(1.2566, rel=1e-4)


def test_the_section_is_drawn_from_the_same_numbers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "section.svg"
    assert main(["board", "section", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "margin 4.9" in printed and "margin 2.00" in printed and ": yes" in printed
    assert "1 mm off its place (along or across the track): margins at least 1.8" in printed
    root = ET.parse(out).getroot()
    assert root.get("width", "").endswith("mm") and root.get("height", "").endswith("mm")
    ns = {"s": "http://www.w3.org/2000/svg"}
    titles = {r.findtext("s:title", namespaces=ns): r for r in root.iterfind("s:rect", ns)}
    magnet = titles["magnet 6 x 2 mm N42"]
    assert float(magnet.get("width", "0")) == pytest.approx(6.0)
    assert float(magnet.get("y", "0")) == pytest.approx(6.0 - 0.5 - 2.0)
    reed = titles["reed Littelfuse MDSR-7-20-25"]
    assert float(reed.get("x", "0")) == pytest.approx(3.5 - 12.7 / 2)
    assert float(reed.get("y", "0")) == pytest.approx(6.0 + 2.0)
    assert float(titles["diffuser 2 mm opal PMMA"].get("height", "0")) == pytest.approx(2.0)
    text = out.read_text()
    assert "24.3 mT" in text and "\u00d814 mm through holes" in text
    # a moved reed moves in the drawing too
    moved = section_svg(
        dataclasses.replace(REFERENCE, contact_offset=5.0),
        margins(dataclasses.replace(REFERENCE, contact_offset=5.0)),
    )
    assert f'x="{5.0 - 12.7 / 2:.2f}"' in moved


def test_section_refuses_a_file_that_is_not_svg(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["board", "section", "--out", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "SVG" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_docs_image_is_the_generated_section() -> None:
    root = Path(__file__).resolve().parents[2]
    img = root / "docs" / "img" / "stackup-section.svg"
    assert img.read_text() == section_svg(REFERENCE, margins(REFERENCE))
