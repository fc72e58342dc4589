"""What the hand wiring of a board takes, counted from the geometry and the wiring map:
the hook-up wire runs, the power distribution's lever-connector positions, and the
solder joints made by hand.

The model (docs/hardware.md, "Wiring by hand"): under every hole a reed on the carrier
and an LED module; each 74HC165 on a small perfboard at the middle of its eight holes
(the signature chip beside the last one); thin hook-up wire for

- the LED data line, LED to LED in LED order (5 V and GND run beside it in power wire,
  counted in the power budget's wire);
- the logic GND along the reeds, reed to reed in chain order;
- each reed's signal wire from the reed to its chip's perfboard;
- the chain between consecutive chips: 3V3, logic GND, CLK, /PL and QH-to-DS (5 wires).

Every run gets `BEND_ALLOWANCE` for bends and `END_ALLOWANCE_M` for each of its two
stripped ends.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

from keezbord.hardware.geometry import Geometry
from keezbord.hardware.pinout import PINOUT, LinkCounts
from keezbord.hardware.plane import Point
from keezbord.hardware.wiring import BITS_PER_CHIP, Wiring

BEND_ALLOWANCE = 1.2
END_ALLOWANCE_M = 0.015
CHAIN_BUS_WIRES = 5  # 3V3, logic GND, CLK, /PL, QH -> DS
LEVER_WAYS = 5  # WAGO 221-415
LED_PADS = 6  # a WS2812B module: 5 V, GND, DIN in; 5 V, GND, DOUT out
HC165_PINS_SOLDERED = 16  # its DIP-16 socket
AHCT125_PINS_SOLDERED = 14  # its DIP-14 socket
SOT23_ADAPTER_JOINTS = 12  # the 74LVC2G17's 6 pins on the adapter, its 6 pins on the board
POWER_CONNECTOR_CUPS = 4  # XT30 pair: 2 solder cups a side


def chip_places(g: Geometry, w: Wiring) -> list[Point]:
    """Where each switch chip's perfboard sits: the middle of its holes."""
    out = []
    for chip in range(w.chips):
        holes = [h for h in w.switch_order[chip * BITS_PER_CHIP : (chip + 1) * BITS_PER_CHIP] if h]
        pts = [g.position(h) for h in holes]
        out.append((sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)))
    return out


@dataclass(frozen=True)
class HookupRuns:
    led_data_m: float
    reed_ground_m: float
    reed_signal_m: float
    chain_bus_m: float
    runs: int  # wire pieces cut

    @property
    def straight_m(self) -> float:
        return self.led_data_m + self.reed_ground_m + self.reed_signal_m + self.chain_bus_m

    @property
    def to_buy_m(self) -> float:
        return self.straight_m * BEND_ALLOWANCE + self.runs * 2 * END_ALLOWANCE_M


def _path(points: list[Point]) -> float:
    return sum(math.dist(a, b) for a, b in pairwise(points))


def hookup_runs(g: Geometry, w: Wiring) -> HookupRuns:
    leds = [g.position(h) for h in w.led_order]
    reeds = [g.position(h) for h in w.switch_order if h is not None]
    places = chip_places(g, w)
    signal = sum(
        math.dist(g.position(h), places[bit // BITS_PER_CHIP])
        for bit, h in enumerate(w.switch_order)
        if h is not None
    )
    chips = len(places)
    return HookupRuns(
        led_data_m=_path(leds) / 1000,
        reed_ground_m=_path(reeds) / 1000,
        reed_signal_m=signal / 1000,
        chain_bus_m=CHAIN_BUS_WIRES * _path(places) / 1000,
        runs=(len(leds) - 1) + (len(reeds) - 1) + len(reeds) + CHAIN_BUS_WIRES * (chips - 1),
    )


def lever_connectors(positions: int) -> int:
    """5-way lever connectors for one node of ``positions`` wires: two joined by a short
    jumper lose a way each, so k of them hold 3k + 2."""
    return 1 if positions <= LEVER_WAYS else math.ceil((positions - 2) / 3)


def distribution_positions(seats: int) -> tuple[int, int]:
    """(5 V, GND) positions at the distribution block: the supply lead and one feed a
    seat's piece; GND also takes the logic GND's single join."""
    return 1 + seats, 1 + seats + 1


@dataclass(frozen=True)
class JointCount:
    per_hole: int
    chips: int
    per_piece: int
    controller: int
    wire_ends: int

    @property
    def total(self) -> int:
        return self.per_hole + self.chips + self.per_piece + self.controller + self.wire_ends


def solder_joints(
    g: Geometry, w: Wiring, *, signature: bool, connector_pieces: int, pieces: int
) -> JointCount:
    """Joints soldered by hand: one per component lead, pin or pad, plus one per hook-up
    wire end that lands in a perfboard hole of its own (the wires along the LEDs end on
    the modules' pads, already counted)."""
    holes = len(w.led_order)
    # reed 2 leads, LED module 6 pads (the last module's 3 out pads stay empty), its
    # 100 nF 2, the input's 10 k pull-up 2
    per_hole = holes * (2 + LED_PADS + 2 + 2) - 3
    spare = sum(1 for h in w.switch_order if h is None)
    sig = 1 if signature else 0
    # each chip's socket and 100 nF; the spare inputs' and the signature's ties to 3V3/GND
    chips = (w.chips + sig) * (HC165_PINS_SOLDERED + 2)
    # a piece: 74LVC2G17 on its adapter, its 100 nF, the 1000 uF, the power connector
    per_piece = pieces * (SOT23_ADAPTER_JOINTS + 2 + 2 + POWER_CONNECTOR_CUPS)
    # the links (pinout.py): IN and OUT on every signal-connected piece and J0, each
    # header soldered by its pins; at each IN the DIN pull-down and the series resistors
    # in CLK, /PL and DIN; at each OUT QH's 1 kOhm and the 100 kOhm pull-down; QH's 1 kOhm
    # at the controller (below). Housings and crimps are crimped, not soldered.
    links = LinkCounts(connector_pieces)
    per_piece += (links.headers - 1) * len(PINOUT)
    per_piece += 2 * (links.din_pull_downs + links.in_series + links.din_series)
    per_piece += 2 * ((links.qh_series - 1) + links.pull_downs)
    # the reader's end: J0, QH's 1 kOhm, 74AHCT125 socket, its 100 nF, 10 k, 330, two
    # 33, data pull-down; the power entry: panel socket, fuse holder, TVS
    controller = len(PINOUT) + 2 + AHCT125_PINS_SOLDERED + 2 * 6 + 2 + 2 + 2
    runs = hookup_runs(g, w)
    led_runs = holes - 1  # data wires on the modules' pads
    wire_ends = 2 * (runs.runs - led_runs) + 2 * (spare + 8 * sig)
    # the terminator plug: a crimped lead from each used contact of its housing (all but
    # LED data) soldered on the signature chip's perfboard
    wire_ends += sig * sum(1 for p in PINOUT if p.signal != "LED")
    return JointCount(per_hole, chips, per_piece, controller, wire_ends)
