"""The firmware reads the PCB's chain as it reads the hand-wired one: the emulated Pico's
74HC165 chain is wired as the piece's PCB netlist says (KiCad's export, walked from the
IN connector), a pawn is put on every hole in turn, and the host sees it on the hole the
wiring sheet names, for a 5-seat board's first piece (one PCB: three chips)."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from conftest import BOARD, Host, chain_for, needs_node
from emu import EmulatedPico

from keezbord.engine.topology import DEFAULT_SEGMENT
from keezbord.hardware.geometry import board_geometry
from keezbord.hardware.pcb_frame import board_hole
from keezbord.hardware.wiring import default_wiring

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hardware"))
from pcb_exports import KICAD, ROOT, netlist, reed_bits

pytestmark = [pytest.mark.emulator, *KICAD, needs_node, pytest.mark.timeout(300)]


def test_a_pawn_on_every_hole_of_the_pcb_reaches_the_host_on_that_hole(tmp_path: Path) -> None:
    net = netlist(ROOT / "hardware" / "piece", "keezbord-piece", tmp_path / "cfg")
    bits = reed_bits(net)  # hole (piece-local) -> chain bit, from the PCB's nets
    assert len(bits) == 24 == BOARD["chips"] * 8
    g = board_geometry(5, DEFAULT_SEGMENT)
    w = default_wiring(g.topology, g)
    pico = EmulatedPico(tmp_path / "pico", BOARD, chain={**chain_for(BOARD), "closed": []})
    host = Host(pico)
    try:
        host.connect()
        host.synced()
        for local, bit in sorted(bits.items(), key=lambda kv: kv[1]):
            pico.set_closed([bit])

            def only(bit: int = bit) -> bool:
                return [i for i in range(24) if host.link.session.closed(i)] == [bit]

            host.poll_until(only, what=f"the pawn on {local} (bit {bit})")
            assert w.hole_at_switch(bit) == board_hole(g, local, 0)
    finally:
        host.close()
        pico.stop()
