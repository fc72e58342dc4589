"""The PCB agrees with the software, read back from KiCad's exports: every hole's reed on
the chip input `keezbord board wiring` gives it, every LED at its wiring index, every
reed and LED centred within 0.1 mm of the drilling template's hole, and the outline inside
every piece's cut with the stated margin, for each board size the shape serves."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from pcb_exports import (
    KICAD,
    ROOT,
    Netlist,
    chain,
    connector,
    drill_holes,
    edge_cuts,
    netlist,
    positions,
    reed_bits,
)

from keezbord.engine.topology import DEFAULT_SEGMENT
from keezbord.hardware.geometry import board_geometry
from keezbord.hardware.pcb_frame import (
    EDGE_MARGIN_MM,
    MAX_SIZE_MM,
    SHAPES,
    board_hole,
    clearance,
    frame,
    to_frame,
)
from keezbord.hardware.pinout import pin_of
from keezbord.hardware.wiring import HC165_PINS, REFERENCE_SIGNATURE, TAIL_LEVEL, default_wiring

pytestmark = KICAD


CASES = [(shape, seats) for shape, sizes in SHAPES.items() for seats in sizes]


@pytest.fixture(scope="module")
def nets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Netlist]:
    cfg = tmp_path_factory.mktemp("cfg")
    return {s: netlist(ROOT / "hardware" / s, f"keezbord-{s}", cfg) for s in SHAPES}


def _led_chain(n: Netlist) -> list[str]:
    """LEDs in data order: from the IN connector's LED pin, through the series resistor,
    DIN (pin 4) to DOUT (pin 2)."""
    line = n.net_of(connector(n, "IN"), str(pin_of("LED")))
    order: list[str] = []
    seen: set[str] = set()
    while True:
        din = [r for r, p in n.on(line) if p == "4" and r.startswith("D") and r not in seen]
        if din:
            order.append(din[0])
            seen.add(din[0])
            line = n.net_of(din[0], "2")
            continue
        through = [(r, p) for r, p in n.on(line) if r.startswith("R") and r not in seen]
        if not through:
            return order
        r, p = through[0]
        seen.add(r)
        line = n.net_of(r, "2" if p == "1" else "1")


@pytest.mark.parametrize(("shape", "seats"), CASES)
def test_each_reed_is_on_its_wiring_input_and_each_led_at_its_index(
    nets: dict[str, Netlist], shape: str, seats: int
) -> None:
    net = nets[shape]
    g = board_geometry(seats, DEFAULT_SEGMENT)
    w = default_wiring(g.topology, g)
    leds = _led_chain(net)
    bits = reed_bits(net)
    assert len(chain(net)) == 3 and len(leds) == 24 and len(bits) == 24
    reeds = [r for r, f in net.fields.items() if f["value"] == "MDSR-7"]
    assert all(net.net_of(ref, "2") == "/GND" for ref in reeds)
    for piece in range(seats):
        for hole, bit in bits.items():
            assert w.switch_index(board_hole(g, hole, piece)) == 24 * piece + bit, hole
        for k, ref in enumerate(leds):
            hole = net.fields[ref]["Hole"]
            assert w.led_index(board_hole(g, hole, piece)) == 24 * piece + k, (ref, hole)


@pytest.mark.parametrize(("shape", "seats"), CASES)
def test_reeds_and_leds_sit_on_the_templates_holes(
    nets: dict[str, Netlist], shape: str, seats: int
) -> None:
    net = nets[shape]
    g = board_geometry(seats, DEFAULT_SEGMENT)
    at = positions(ROOT / "hardware" / shape / "fab" / f"keezbord-{shape}-pos.csv")
    placed = [r for r, f in net.fields.items() if f.get("Hole")]
    assert len(placed) == 48
    for ref in placed:
        hole = g.hole(board_hole(g, net.fields[ref]["Hole"], 0))
        assert math.dist(at[ref], to_frame(g, (hole.x, hole.y))) <= 0.1, ref


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_outline_keeps_inside_every_pieces_cut(shape: str) -> None:
    outline = edge_cuts(ROOT / "hardware" / shape / "fab" / f"keezbord-{shape}-Edge_Cuts.gm1")
    f = frame(shape)
    assert len(outline) > 4
    for seats, piece in zip(f.seats, f.pieces, strict=True):
        assert clearance(outline, piece) >= EDGE_MARGIN_MM - 1e-3, seats
    xs, ys = [p[0] for p in outline], [p[1] for p in outline]
    assert max(xs) - min(xs) <= MAX_SIZE_MM and max(ys) - min(ys) <= MAX_SIZE_MM
    # the check itself fails for an outline that crosses a cut
    assert clearance([(x * 1.2, y) for x, y in outline], f.pieces[0]) < 0


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_committed_project_is_named_for_its_folder(shape: str) -> None:
    assert (ROOT / "hardware" / shape / f"keezbord-{shape}.kicad_pro").is_file()
    assert Path(ROOT / "hardware" / shape / "fab" / f"keezbord-{shape}-bom.csv").is_file()


@pytest.mark.parametrize(("shape", "seats"), [("piece", 5), ("arm", 4)])
def test_the_pi_direct_scanner_reads_a_pawn_on_every_hole_of_the_pcbs(
    nets: dict[str, Netlist], shape: str, seats: int
) -> None:
    """A whole board of these PCBs behind the Pi-direct reader: the chain's inputs wired as
    the netlist says, piece after piece; a pawn on each hole in turn comes out as that hole."""
    import itertools

    from keezbord.host.drivers.fakes import FakeShiftChain
    from keezbord.host.drivers.pins import MockPinFactory
    from keezbord.host.drivers.scanner_gpio import ChainPins, ChainReader, GpioScanner
    from keezbord.host.events import HoleEvent

    g = board_geometry(seats, DEFAULT_SEGMENT)
    w = default_wiring(g.topology, g)
    bits = reed_bits(nets[shape])
    pins = ChainPins(load=17, clock=27, data=22)
    clock = itertools.count()
    factory = MockPinFactory(clock=lambda: next(clock))
    chain = FakeShiftChain(factory, w.chips, pins)
    scanner = GpioScanner(ChainReader(factory, w.chips * 8, pins, tail_bits=8), w, samples=1)
    t = 0
    assert scanner.hole_events(t) == []
    for piece in range(seats):
        for local, bit in bits.items():
            chain.close_switch(24 * piece + bit)
            t += 1
            assert scanner.hole_events(t) == [HoleEvent(t, "place", board_hole(g, local, piece))]
            chain.close_switch(24 * piece + bit, False)
            t += 1
            assert scanner.hole_events(t) == [HoleEvent(t, "lift", board_hole(g, local, piece))]


@pytest.mark.parametrize(("shape", "seats"), CASES)
def test_mounting_holes_keep_to_the_wood_between_the_holes(shape: str, seats: int) -> None:
    """Every mounting hole (the NPTH drill file) keeps 7 mm (half the 14 mm hole), 1.6 mm
    (the M3 screw) and 3 mm of wood from every hole of the wooden piece."""
    g = board_geometry(seats, DEFAULT_SEGMENT)
    mounts = drill_holes(ROOT / "hardware" / shape / "fab" / f"keezbord-{shape}-NPTH.drl")
    assert len(mounts) >= 4 and all(d == 3.2 for d, _ in mounts)
    wood = [to_frame(g, (h.x, h.y)) for h in g.holes]
    for _, at in mounts:
        assert min(math.dist(at, h) for h in wood) >= g.hole_diameter / 2 + 1.6 + 3.0, at


def test_the_terminator_plug_reads_the_signature_then_the_tail(tmp_path: Path) -> None:
    """The plug's chip, read from its netlist as the chain shifts it out (H first): the
    reference signature, then its DS tied high (the tail); its QH on the connector's QH."""
    n = netlist(ROOT / "hardware" / "terminator", "keezbord-terminator", tmp_path / "cfg")
    (chip,) = [r for r, f in n.fields.items() if f["value"] == "74HC165"]
    level = {"/+3V3": 1, "/GND": 0}
    byte = 0
    for letter in "HGFEDCBA":
        byte = byte << 1 | level[n.net_of(chip, str(HC165_PINS[letter]))]
    assert byte == REFERENCE_SIGNATURE
    assert level[n.net_of(chip, str(HC165_PINS["DS"]))] == TAIL_LEVEL
    plug = connector(n, "IN")
    assert n.net_of(chip, str(HC165_PINS["QH"])) == n.net_of(plug, str(pin_of("QH")))
