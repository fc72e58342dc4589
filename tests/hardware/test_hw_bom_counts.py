"""The bill of materials' quantities against counts made here from the geometry and the
wiring (not with bom.py's or runs.py's helpers): wire runs, distribution positions, one
buffer per piece as the wiring sheet asks, the blank to buy, stickers, series resistors,
the totals and the solder joints."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from keezbord.engine.cards import deck
from keezbord.engine.topology import Topology
from keezbord.hardware.bom import Bom, bill_of_materials
from keezbord.hardware.geometry import Geometry, geometry_for
from keezbord.hardware.wiring import Wiring, bus_connections, default_wiring


def _board(seats: int, puzzle: bool) -> tuple[Geometry, Wiring, Bom]:
    g = geometry_for(Topology(seats))
    w = default_wiring(g.topology, g)
    return g, w, bill_of_materials(g, w, puzzle=puzzle, cards=len(deck(seats)))


def _count(bom: Bom, part: str) -> float:
    (line,) = [x for x in bom.lines if x.part == part]
    return line.count


def _hookup_by_hand(g: Geometry, w: Wiring) -> tuple[float, int]:
    """Straight metres and wire pieces: LED to LED, reed to reed (GND), each reed to the
    middle of its chip's eight holes, and five wires chip to chip."""
    straight = 0.0
    pieces = 0
    for order in (w.led_order, [h for h in w.switch_order if h]):
        for a, b in itertools.pairwise(order):
            straight += math.dist(g.position(a), g.position(b))
            pieces += 1
    middles: list[tuple[float, float]] = []
    for chip in range(len(w.switch_order) // 8):
        mine = [h for h in w.switch_order[chip * 8 : chip * 8 + 8] if h]
        xs = [g.position(h)[0] for h in mine]
        ys = [g.position(h)[1] for h in mine]
        middles.append((sum(xs) / len(xs), sum(ys) / len(ys)))
        for h in mine:
            straight += math.dist(g.position(h), middles[-1])
            pieces += 1
    for m0, m1 in itertools.pairwise(middles):
        straight += 5 * math.dist(m0, m1)
        pieces += 5
    return straight / 1000, pieces


def _link_parts_on_the_schematics(seats: int, connectors: int) -> dict[str, int]:
    from keezbord.hardware import schematic

    w = default_wiring(Topology(seats))
    piece = schematic.piece(w.chips // seats, len(w.led_order) // seats)
    controller = schematic.controller()
    plug = schematic.terminator(0xA5)

    def n(drawn: schematic.Schematic, value: str) -> int:
        return sum(1 for p in drawn.parts if p.value.startswith(value))

    def to_gnd(drawn: schematic.Schematic) -> int:
        return sum(
            1
            for p in drawn.parts
            if p.value == "10 kΩ" and len(p.pins) == 2 and p.pins[1].net == "GND"
        )

    ends = connectors * n(piece, "JST XH 10") + n(controller, "JST XH 10")
    return {
        "header": ends,
        # every header mates one housing: the cables' ends, and the plug's on the last OUT
        "housing": (ends - 1) + n(plug, "JST XH 10"),
        "1 kΩ": connectors * n(piece, "1 kΩ") + n(controller, "1 kΩ"),
        "100 kΩ": connectors * n(piece, "100 kΩ"),
        "10 kΩ to GND": connectors * to_gnd(piece) + to_gnd(controller),
        "100 Ω": connectors * n(piece, "100 Ω"),
        "330 Ω": connectors * n(piece, "330 Ω") + n(controller, "330 Ω"),
    }


@pytest.mark.parametrize("seats", [2, 4, 8])
@pytest.mark.parametrize("puzzle", [False, True])
def test_the_quantities_match_a_count_from_the_geometry_and_the_wiring(
    seats: int, puzzle: bool
) -> None:
    g, w, bom = _board(seats, puzzle)
    holes = seats * 24
    straight, pieces = _hookup_by_hand(g, w)
    assert _count(bom, "hook-up wire") == pytest.approx(straight * 1.2 + pieces * 0.03, abs=0.06)
    # the distribution block: 5 V takes the supply and a feed a piece, GND those and the
    # logic GND; k five-way connectors joined by jumpers hold 5k - 2(k - 1)
    ways = 0
    for positions in (1 + seats, 2 + seats):
        k = 1
        while 5 * k - 2 * (k - 1) < positions:
            k += 1
        ways += k
    assert _count(bom, "lever connector (5 ways)") == ways
    # one 74LVC2G17 per piece, as many as the wiring sheet asks for
    sheet = " ".join(bus_connections(g.seats))
    asked = re.search(r"Every piece \((\d+)\): one 74LVC2G17", sheet)
    assert asked is not None
    assert _count(bom, "74LVC2G17 dual Schmitt-trigger buffer (SOT-23-6)") == int(asked.group(1))
    assert _count(bom, "74LVC2G17 dual Schmitt-trigger buffer (SOT-23-6)") == seats
    # the blank to buy: the outline's box + 20 mm a side, up to whole centimetres
    xs = [p[0] for p in g.outline]
    ys = [p[1] for p in g.outline]
    bw = math.ceil((max(xs) - min(xs) + 40) / 10) * 10
    bh = math.ceil((max(ys) - min(ys) + 40) / 10) * 10
    assert _count(bom, "birch plywood 6 mm blank") == pytest.approx(bw * bh / 1e6, abs=5e-4)
    assert f"buy {bw} x {bh} mm" in next(x.note for x in bom.lines if "plywood" in x.part)
    # one sticker a card (13 a seat) + 10 %, one reed a hole + 10 % (at least 5)
    assert _count(bom, "NTAG213 stickers") == 13 * seats + math.ceil(1.3 * seats)
    assert _count(bom, "reed switch") == holes + max(5, math.ceil(holes / 10))
    # where a signal connector enters a piece: DIN pull-down, CLK and /PL series; the
    # reader's data line and the 74AHCT125 input keep their pull-downs
    connectors = seats if puzzle else 1
    assert _count(bom, "10 kΩ resistor (pull-down)") == 2 + connectors
    assert _count(bom, "100 Ω resistor (input series)") == 2 * connectors
    # the links, counted on the drawn schematics: each signal-connected piece's parts,
    # the controller's, and the terminator plug's housing; a cable between each two ends
    links = _link_parts_on_the_schematics(seats, connectors)
    assert _count(bom, "JST XH 10-pin header") == links["header"] == 2 * connectors + 1
    assert _count(bom, "JST XH 10-pin housing") == links["housing"] == 2 * connectors + 1
    assert _count(bom, "JST XH crimp contact") >= 10 * links["housing"]
    # the cables: 1 m from the controller, 0.3 m across each joint between pieces
    assert _count(bom, "10-core signal cable") == pytest.approx(1.0 + 0.3 * (connectors - 1))
    assert _count(bom, "1 kΩ resistor (QH series)") == links["1 kΩ"] == connectors + 1
    assert _count(bom, "100 kΩ resistor (pull-down)") == links["100 kΩ"] == connectors
    # the DIN pull-down is drawn once a piece and counted once: the 10 kΩ pull-downs are
    # the reader's data line, the 74AHCT125's input and each signal-connected piece's DIN
    assert _count(bom, "10 kΩ resistor (pull-down)") == links["10 kΩ to GND"]
    assert _count(bom, "100 Ω resistor (input series)") == links["100 Ω"]
    assert _count(bom, "330 Ω resistor") == links["330 Ω"]
    assert _count(bom, "terminator plug") == 1
    assert any(x.part.startswith("2-pin power connector pair (XT30)") for x in bom.lines) is puzzle
    assert not any("screw" in (x.part + x.part_number + x.alternate).lower() for x in bom.lines)


def test_the_issue_figures_hold_for_4_and_8_seats() -> None:
    # the runs alone: about 18 / 40 m (the old list said 3.2 / 6.8 m of hook-up wire)
    for seats, low in ((4, 14.0), (8, 33.0)):
        g, w, bom = _board(seats, True)
        straight, _ = _hookup_by_hand(g, w)
        assert straight > low and _count(bom, "hook-up wire") > 1.5 * straight
    # GND for 8 seats: 10 positions, two five-way connectors are not enough
    g, w, bom = _board(8, True)
    assert "GND 10 (supply + 8 feeds + logic GND)" in next(
        x.note for x in bom.lines if x.part.startswith("lever")
    )
    assert _count(bom, "NTAG213 stickers") >= 104
    g, w, bom = _board(4, False)
    assert _count(bom, "NTAG213 stickers") >= 52
    for part in ("Raspberry Pi", "Pi power supply", "microSD card", "USB cable for the Pico"):
        assert _count(bom, part) == 1


def test_every_line_has_a_part_number_an_alternate_and_a_cost_range() -> None:
    for seats in (4, 8):
        _, _, bom = _board(seats, True)
        for x in bom.lines:
            assert x.part_number and x.alternate and x.cost is not None, x.part
            assert 0 < x.cost[0] <= x.cost[1], x.part
        lo, hi = bom.cost_range
        assert lo == pytest.approx(sum(x.cost[0] * x.count for x in bom.lines if x.cost))
        assert hi == pytest.approx(sum(x.cost[1] * x.count for x in bom.lines if x.cost))
        assert f"Total: {lo:.0f} to {hi:.0f} EUR" in bom.text()
        assert bom.to_json()["cost_eur"] == [round(lo, 2), round(hi, 2)]


def _joints_by_hand(w: Wiring, seats: int, puzzle: bool) -> int:
    """Every lead, pin or pad soldered, and every hook-up wire end that lands in a
    perfboard hole of its own, counted component by component."""
    holes = len(w.led_order)
    chips = len(w.switch_order) // 8 + 1  # and the signature chip
    connectors = seats if puzzle else 1
    n = 0
    n += holes * 2  # reed leads
    n += holes * 6 - 3  # LED module pads; the last one's outputs stay empty
    n += holes * 2 + holes * 2  # its 100 nF, the input's pull-up
    n += chips * 16 + chips * 2  # DIP-16 sockets, their 100 nF
    n += seats * (6 + 6)  # 74LVC2G17 onto its adapter, the adapter onto the board
    n += seats * 2 + seats * 2 + seats * 4  # its 100 nF, the 1000 uF, XT30 cups
    n += (2 * connectors + 1) * 10  # JST XH 10-pin headers: IN, OUT a piece, J0
    n += connectors * 2 + connectors * 3 * 2  # DIN pull-down, CLK, /PL, DIN series
    n += connectors * (2 + 2)  # at each OUT: QH's 1 k and the 100 k pull-down
    n += 14 + 2 + 2 + 2 + 2 * 2 + 2  # 74AHCT125 socket, 100 nF, 10 k, 330, 2 x 33, QH pull-down
    n += 2  # the controller's QH 1 k
    n += 2 + 2 + 2  # panel socket, fuse holder, TVS
    reeds = holes
    ends = 2 * ((reeds - 1) + reeds + 5 * (chips - 2))  # reed GND, reed signals, chip bus
    ends += 2 * (sum(1 for h in w.switch_order if h is None) + 8)  # ties to 3V3 / GND
    ends += 9  # the terminator plug: its housing's leads but LED data, on its perfboard
    return n + ends


@pytest.mark.parametrize("seats", [4, 8])
def test_the_solder_joints_by_hand_for_4_and_8_seats(
    seats: int, capsys: pytest.CaptureFixture[str]
) -> None:
    from keezbord.host.cli import main

    for puzzle in (False, True):
        _g, w, bom = _board(seats, puzzle)
        assert bom.joints is not None
        assert bom.joints.total == _joints_by_hand(w, seats, puzzle)
    assert main(["board", "bom", "--seats", str(seats), "--puzzle"]) == 0
    out = capsys.readouterr().out
    expected = _joints_by_hand(default_wiring(Topology(seats)), seats, True)
    assert f"Solder joints by hand: {expected} " in out


def test_the_build_guide_quotes_the_totals_and_joints_the_command_prints() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "hardware.md").read_text()
    for seats in (4, 8):
        for puzzle, name in ((False, "one piece"), (True, "puzzle (`--puzzle`)")):
            _, _, bom = _board(seats, puzzle)
            lo, hi = bom.cost_range
            assert f"| {seats} | {name} | {len(bom.lines)} | {lo:.0f} to {hi:.0f} |" in doc
            assert bom.joints is not None
            assert f"| {seats} | {name} | {bom.joints.total} | {bom.joints.wire_ends} |" in doc
