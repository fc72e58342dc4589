"""A PN532 on the Pi's UART runs from 3.3 V wherever the build guide names it: the
common module's UART follows its supply, and GPIO15 is not 5 V tolerant."""

from __future__ import annotations

import re
from pathlib import Path

from keezbord.engine.topology import Topology
from keezbord.hardware.bom import bill_of_materials
from keezbord.hardware.geometry import geometry_for
from keezbord.hardware.wiring import default_wiring

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_boms_reader_line_says_3v3() -> None:
    t = Topology(4, 16)
    bom = bill_of_materials(geometry_for(t), default_wiring(t))
    [line] = [ln for ln in bom.lines if "PN532" in ln.part]
    assert "3.3 V" in line.note and "5 V tolerant" in line.note


def test_no_page_powers_a_pn532_from_5v() -> None:
    power_5v = re.compile(r"(VCC|[Pp]ower\w*)\s+(it\s+)?(to|from|at)\s+(3\.3 V\s+\(?)?(or\s+)?5 V")
    for page in ("drivers.md", "install-pi.md", "hardware.md"):
        for para in (DOCS / page).read_text(encoding="utf-8").split("\n#"):  # sections
            about_pn532 = "PN532" in para.split("\n")[0]  # the section's heading
            for sentence in re.split(r"(?<=[.;])\s", " ".join(para.split())):
                if (about_pn532 or "PN532" in sentence) and power_5v.search(sentence):
                    assert re.search(r"[Nn]ever", sentence), (page, sentence)
    drivers = (DOCS / "drivers.md").read_text(encoding="utf-8")
    assert "**Power it from 3.3 V**" in drivers and "or 5 V if the board" not in drivers
    assert "never from 5 V" in (DOCS / "install-pi.md").read_text(encoding="utf-8")
