"""The lines of the bill of materials, counted from the geometry and the wiring.

Every count here comes from the board: holes, chips, pieces, the hook-up runs and the
distribution block's positions (runs.py), the blank around the outline. Each line takes
its part number, alternate and cost range from parts.CATALOGUE. To add a line, append a
`line(...)` to the list in `bom_lines` (or to `Bom.lines` after the fact): the totals
and the text pick it up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from keezbord.engine.topology import PAWNS_PER_SEAT
from keezbord.hardware.geometry import Geometry
from keezbord.hardware.parts import CATALOGUE
from keezbord.hardware.pinout import DS_PULL_DOWN_OHMS, PINOUT, QH_SERIES_OHMS, LinkCounts
from keezbord.hardware.runs import (
    distribution_positions,
    hookup_runs,
    lever_connectors,
)
from keezbord.hardware.stackup import REFERENCE
from keezbord.hardware.wiring import BUS_SERIES_OHMS, Wiring

BLANK_MARGIN_MM = 20.0  # around the outline on every side: clamping and a clean edge
SPARE_REEDS = 0.10  # glass breaks: at least MIN_SPARE_REEDS
MIN_SPARE_REEDS = 5
SPARE_LEDS = 0.05
MIN_SPARE_LEDS = 3
SPARE_STICKERS = 0.10
SPARE_MAGNETS = 4
CONTROLLER_CABLE_M = 1.0  # J0 to the first piece's IN: the controller near the board's edge
LINK_CABLE_M = 0.3  # OUT to the next piece's IN, across the joint
SPARE_CRIMPS = 0.10
MIN_SPARE_CRIMPS = 10
PATCH_MM = (20.0, 25.0)  # a hole's carrier: the reed's 3 mm bends and the LED module
PATCHES_PER_BOARD = 24  # from 100 x 160 mm: 5 x 6 = 30 patches, 24 after the cuts' losses


@dataclass(frozen=True)
class BomLine:
    part: str
    count: float
    unit: str
    note: str
    part_number: str = ""  # or the exact specification
    alternate: str = ""
    cost: tuple[float, float] | None = None  # euro per unit, low and high
    source: str = ""

    @property
    def cost_range(self) -> tuple[float, float]:
        lo, hi = self.cost if self.cost is not None else (0.0, 0.0)
        return lo * self.count, hi * self.count


def line(key: str, part: str, count: float, unit: str, note: str) -> BomLine:
    p = CATALOGUE[key]
    return BomLine(part, count, unit, note, p.part_number, p.alternate, p.cost, p.source)


def with_spares(n: int, share: float, least: int) -> int:
    return n + max(least, math.ceil(n * share))


def blank_mm(g: Geometry) -> tuple[float, float]:
    """The plywood (and diffuser) blank to buy: the outline's box plus a margin, in whole
    centimetres."""
    w = math.ceil((g.width + 2 * BLANK_MARGIN_MM) / 10) * 10
    h = math.ceil((g.height + 2 * BLANK_MARGIN_MM) / 10) * 10
    return float(w), float(h)


def bom_lines(
    g: Geometry,
    wiring: Wiring,
    *,
    puzzle: bool,
    signature: int | None,
    pi_direct: bool,
    supply_a: float,
    fuse_a: float,
    wire: str,
    wire_a: float,
    power_m: float,
    feeds: list[float],
    cards: int | None,
) -> list[BomLine]:
    holes = len(g.holes)
    chips = wiring.chips
    sig = 1 if signature is not None else 0
    pieces = g.seats  # the wiring sheet wires every seat's section as a piece
    connectors = g.seats if puzzle else 1  # signal connectors into the board's pieces
    spare_inputs = sum(1 for h in wiring.switch_order if h is None)
    runs = hookup_runs(g, wiring)
    v5, gnd = distribution_positions(g.seats)
    bw, bh = blank_mm(g)
    s = REFERENCE
    links = LinkCounts(connectors)
    sig_note = (
        f" + 1 signature chip, on the terminator plug (inputs tied to 0x{signature:02X})"
        if signature is not None
        else ""
    )
    lines = [
        line(
            "reed",
            "reed switch",
            with_spares(holes, SPARE_REEDS, MIN_SPARE_REEDS),
            "pcs",
            f"{holes} (one under every hole, as `keezbord board section`) + spares: the glass "
            "breaks; bend the leads 3 mm or more from the glass, holding the lead, not the "
            "glass; solder at most 260 \u00b0C for 3 s (reed makers' handling notes)",
        ),
        line(
            "magnet",
            "magnet for pawns",
            g.seats * PAWNS_PER_SEAT + SPARE_MAGNETS,
            "pcs",
            f"one in each pawn's base, {s.magnet_cover:g} mm above its underside "
            f"(+{SPARE_MAGNETS} spare)",
        ),
        line(
            "hc165",
            "74HC165 shift register",
            chips + sig,
            "pcs",
            f"{chips} for the switches, 8 inputs each, {spare_inputs} spare{sig_note}",
        ),
        line("socket16", "DIP-16 socket", chips + sig, "pcs", "one per 74HC165"),
        line("perfboard", "perfboard for the chips", chips + sig, "pcs", "one per 74HC165"),
        line(
            "carrier",
            "perfboard for the holes",
            math.ceil(holes / PATCHES_PER_BOARD),
            "pcs",
            f"cut into {PATCH_MM[0]:g} x {PATCH_MM[1]:g} mm patches, one per hole: its reed "
            f"and its LED module ({PATCHES_PER_BOARD} a board)",
        ),
        line("r10k", "10 kΩ resistor (pull-up)", holes, "pcs", "one per switch input"),
        line(
            "r10k",
            "10 kΩ resistor (pull-down)",
            2 + links.din_pull_downs,
            "pcs",
            "data line (chip 0's QH) to GND at the reader; the 74AHCT125's 1A (pin 2) to GND; "
            f"and each piece's first LED DIN to GND where its signal connector enters "
            f"({connectors}): an unplugged cable never lights a piece at random",
        ),
        line(
            "r33",
            f"{BUS_SERIES_OHMS} Ω resistor",
            2,
            "pcs",
            "in series with CLK and with /PL at the reader's pins (the long bus)",
        ),
        line(
            "r100",
            "100 Ω resistor (input series)",
            links.in_series,
            "pcs",
            "in series with CLK and /PL where each signal connector enters (the 74LVC2G17 "
            "inputs): a miswired or hot-plugged cable cannot force current into a pin",
        ),
        line(
            "r330",
            "330 Ω resistor",
            1 + links.din_series,
            "pcs",
            "LED data: one at the 74AHCT125's output, one at each piece's first LED DIN where "
            "its connector enters",
        ),
        line(
            "lvc2g17",
            "74LVC2G17 dual Schmitt-trigger buffer (SOT-23-6)",
            pieces,
            "pcs",
            "one per piece as the wiring sheet asks, where the signal enters: re-drives CLK "
            "and /PL for its chips and the next piece",
        ),
        line("sot23", "SOT-23-6 adapter", pieces, "pcs", "one per 74LVC2G17"),
        line(
            "led",
            "WS2812B LED module",
            with_spares(holes, SPARE_LEDS, MIN_SPARE_LEDS),
            "pcs",
            f"{holes}: one under every hole, individual modules (the {g.pitch:g} mm pitch "
            "matches no strip), chained in LED order; + spares",
        ),
        line(
            "c100n",
            "100 nF ceramic capacitor",
            holes + chips + sig + 1 + pieces,
            "pcs",
            "one per WS2812, per 74HC165, per 74LVC2G17 and the 74AHCT125",
        ),
        line(
            "c1000u",
            "1000 µF 10 V electrolytic capacitor",
            pieces,
            "pcs",
            "across 5 V/GND where each feed enters its piece",
        ),
        line(
            "ahct125",
            "74AHCT125 level shifter",
            1,
            "pcs",
            "3.3 V LED data up to 5 V: VCC pin 14 to 5 V, GND pin 7, /1OE pin 1 to GND",
        ),
        line("socket14", "DIP-14 socket", 1, "pcs", "for the 74AHCT125"),
        *(
            []
            if pi_direct
            else [
                line(
                    "pico",
                    "Raspberry Pi Pico",
                    1,
                    "pcs",
                    "scans the switches, drives the LEDs; powered by its USB only",
                ),
                line("usb", "USB cable for the Pico", 1, "pcs", "Pi to Pico: data and its power"),
            ]
        ),
        line("pi", "Raspberry Pi", 1, "pcs", "runs keezbord (docs/install-pi.md)"),
        line("pi_supply", "Pi power supply", 1, "pcs", "the Pi's own supply, never the board's"),
        line("sd", "microSD card", 1, "pcs", "Raspberry Pi OS (docs/install-pi.md)"),
        line(
            "pn532",
            "PN532 NFC module (HSU mode)",
            1,
            "pcs",
            "the card reader; VCC from the Pi's 3.3 V (its UART follows its supply, GPIO15 is "
            "not 5 V tolerant), so the Pi's supply carries it, not the board's",
        ),
        *(
            []
            if cards is None
            else [
                line(
                    "ntag",
                    "NTAG213 stickers",
                    with_spares(cards, SPARE_STICKERS, 2),
                    "pcs",
                    f"one per card: {cards} cards + spares",
                )
            ]
        ),
        line(
            "xh_header",
            "JST XH 10-pin header",
            links.headers,
            "pcs",
            f"signal: IN and OUT on each of the {connectors} piece(s) + J0 at the controller "
            "(pinout: keezbord board wiring, docs/hardware.md); no LED current through it",
        ),
        line(
            "xh_housing",
            "JST XH 10-pin housing",
            links.housings,
            "pcs",
            f"both ends of the {links.cables} signal cable(s) + the terminator plug",
        ),
        line(
            "link_cable",
            "10-core signal cable",
            round(CONTROLLER_CABLE_M + LINK_CABLE_M * (links.cables - 1), 1),
            "m",
            f"the {links.cables} signal cable(s), crimped both ends: {CONTROLLER_CABLE_M:g} m "
            f"from the controller (measure yours), {LINK_CABLE_M:g} m each between pieces",
        ),
        line(
            "xh_crimp",
            "JST XH crimp contact",
            with_spares(links.crimps, SPARE_CRIMPS, MIN_SPARE_CRIMPS),
            "pcs",
            f"{len(PINOUT)} a housing ({links.crimps}) + spares: a bad crimp is cut off",
        ),
        line(
            "r1k",
            f"{QH_SERIES_OHMS // 1000} kΩ resistor (QH series)",
            links.qh_series,
            "pcs",
            "in QH at every reading end (the controller's data pin, each piece's OUT where the "
            "next piece's QH comes in): a mirrored cable must not put 5 V on a 3.3 V pin",
        ),
        line(
            "r100k",
            f"{DS_PULL_DOWN_OHMS // 1000} kΩ resistor (pull-down)",
            links.pull_downs,
            "pcs",
            "each piece's OUT QH (its last DS) to GND: a missing terminator plug reads as a "
            "chain fault",
        ),
        *(
            [
                line(
                    "terminator",
                    "terminator plug",
                    1,
                    "pcs",
                    f"the signature chip (0x{signature:02X}) on its perfboard, wired to an XH "
                    "housing, into the last piece's OUT (chip, socket, perfboard and housing "
                    "counted above); this line is its cover",
                )
            ]
            if signature is not None
            else []
        ),
        *(
            [
                line(
                    "xt30",
                    "2-pin power connector pair (XT30)",
                    g.seats,
                    "pcs",
                    f"each piece's 5 V/GND feed, {wire}: keyed and polarised, one type for "
                    "every piece (no screw terminals)",
                )
            ]
            if puzzle
            else []
        ),
        line(
            "adapter",
            "5 V power adapter",
            1,
            "pcs",
            f"external, certified, at least {supply_a:g} A; it current-limits a short first. "
            "Never an open-frame supply inside the board",
        ),
        line("jack", "DC panel socket", 1, "pcs", "in the board's edge: the adapter plugs in here"),
        line(
            "fuse",
            f"fuse T{fuse_a:g}A slow-blow",
            2,
            "pcs",
            f"at the panel socket's + (one spare); below the {wire_a:g} A of the wire after it",
        ),
        line("fuse_holder", "fuse holder", 1, "pcs", "right after the panel socket"),
        line(
            "tvs",
            "TVS diode",
            1,
            "pcs",
            "across 5 V/GND right after the fuse (cathode to 5 V): clamps a spike before it "
            "reaches the LEDs",
        ),
        line(
            "lever",
            "lever connector (5 ways)",
            lever_connectors(v5) + lever_connectors(gnd),
            "pcs",
            f"distribution block under the centre: 5 V {v5} positions (supply + {g.seats} "
            f"feeds), GND {gnd} (supply + {g.seats} feeds + logic GND); two joined by a "
            "short jumper hold 8",
        ),
        line(
            "power_wire",
            f"power wire {wire}, red",
            power_m,
            "m",
            f"5 V: supply lead, {g.seats} feeds {min(feeds):.1f} to {max(feeds):.1f} m, bus "
            "along the LEDs; +20%",
        ),
        line("power_wire", f"power wire {wire}, black", power_m, "m", "GND: the same runs"),
        line(
            "hookup",
            "hook-up wire",
            round(runs.to_buy_m, 1),
            "m",
            f"{runs.runs} runs, {runs.straight_m:.1f} m straight: LED data "
            f"{runs.led_data_m:.1f}, reed GND {runs.reed_ground_m:.1f}, reed to chip "
            f"{runs.reed_signal_m:.1f}, chip to chip 5 wires {runs.chain_bus_m:.1f}; +20% "
            "and the stripped ends",
        ),
        line(
            "plywood",
            f"birch plywood {s.top_plate:g} mm blank",
            round(bw * bh / 1e6, 3),
            "m²",
            f"top plate: buy {bw:.0f} x {bh:.0f} mm (the board {g.width:.0f} x "
            f"{g.height:.0f} mm + {BLANK_MARGIN_MM:g} mm each side)",
        ),
        line(
            "diffuser",
            f"opal PMMA {s.diffuser:g} mm sheet",
            round(bw * bh / 1e6, 3),
            "m²",
            f"diffuser under the whole top plate: {bw:.0f} x {bh:.0f} mm",
        ),
    ]
    return lines
