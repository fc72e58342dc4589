"""docs/hardware.md's PCB figures are the generated board's (no KiCad needed)."""

from __future__ import annotations

import re

from pcb_exports import ROOT

from keezbord.hardware.pcb_design import design, joints
from keezbord.hardware.pcb_frame import frame, pcb_outline


def test_the_docs_quote_the_boards_joints_and_size() -> None:
    text = (ROOT / "docs" / "hardware.md").read_text()
    d = design("piece")
    smd, tht = joints(d)
    # counted independently from the board file's pads
    pcb = (ROOT / "hardware" / "piece" / "keezbord-piece.kicad_pcb").read_text()
    assert smd == len(re.findall(r'\(pad "[^"]*" smd ', pcb))
    assert tht == len(re.findall(r'\(pad "[^"]*" thru_hole ', pcb))
    assert f"A piece has {smd} machine joints and {tht} through-hole joints" in text
    xs = [p[0] for p in pcb_outline(frame("piece"))]
    ys = [p[1] for p in pcb_outline(frame("piece"))]
    assert f"{max(xs) - min(xs):.2f} x {max(ys) - min(ys):.1f} mm" in text
