"""docs/hardware.md's PCB figures are the generated board's (no KiCad needed)."""

from __future__ import annotations

import re

import pytest
from pcb_exports import ROOT

from keezbord.hardware.pcb_design import design, joints
from keezbord.hardware.pcb_frame import frame, pcb_outline


@pytest.mark.parametrize("shape", ["piece", "arm"])
def test_the_docs_quote_the_boards_joints_and_size(shape: str) -> None:
    text = (ROOT / "docs" / "hardware.md").read_text()
    d = design(shape)
    smd, tht = joints(d)
    # counted independently from the board file's pads
    pcb = (ROOT / "hardware" / shape / f"keezbord-{shape}.kicad_pcb").read_text()
    assert smd == len(re.findall(r'\(pad "[^"]*" smd ', pcb))
    assert tht == len(re.findall(r'\(pad "[^"]*" thru_hole ', pcb))
    assert f"A piece has {smd} machine joints and {tht} through-hole joints" in text
    xs = [p[0] for p in pcb_outline(frame(shape))]
    ys = [p[1] for p in pcb_outline(frame(shape))]
    assert f"{max(xs) - min(xs):g} x {max(ys) - min(ys):g} mm" in text
