"""Bill of materials and the LED power budget for a board."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from keezbord.hardware.bom_lines import BomLine, bom_lines
from keezbord.hardware.geometry import Geometry
from keezbord.hardware.parts import PRICES_CHECKED, UNVERIFIED
from keezbord.hardware.runs import JointCount, solder_joints
from keezbord.hardware.wiring import BUS_SERIES_OHMS, REFERENCE_SIGNATURE, Wiring, wire_length

__all__ = ["Bom", "BomError", "BomLine", "PowerBudget", "bill_of_materials", "power_budget"]

WS2812_FULL_WHITE_MA = 60.0  # all three colours at 255 (drivers/leds.py: 20 mA a channel)
WS2812_IDLE_MA = 1.0  # each LED's own draw when dark
PICO_MA = 50.0
# The PN532 (150 mA with its RF field on) runs from the Pi's 3.3 V: the Pi's own supply
# carries it, never the board's 5 V (docs/drivers.md), so it is not in this budget.
HC165_MA = 0.1
SUPPLY_HEADROOM = 1.25
SUPPLY_SIZES_A = (1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.5, 15.0, 20.0, 25.0, 30.0)
# Slow-blow fuse ratings (the common 5x20 mm / blade series).
FUSE_SIZES_A = (1.0, 1.6, 2.0, 2.5, 3.15, 4.0, 5.0, 6.3, 8.0, 10.0, 12.5, 16.0, 20.0, 25.0)
# Stranded PVC hook-up wire: (mm², AWG, amperes), conservative continuous ratings for short
# runs bundled under a board (well below the chassis-wiring figures).
WIRE_GAUGES = (
    (0.35, 22, 3.0),
    (0.5, 20, 5.0),
    (0.75, 18, 7.5),
    (1.0, 17, 10.0),
    (1.5, 16, 13.0),
    (2.5, 14, 20.0),
    (4.0, 12, 25.0),
)
JST_XH_PIN_A = 3.0  # why the signal connector between pieces carries no LED current
SUPPLY_LEAD_M = 1.0  # supply to the distribution block under the board's centre
FEED_SLACK_M = 0.3
ADAPTER_LIMIT = 1.5  # an adapter's overload limit, at most this times its rating (unverified)


class BomError(ValueError):
    """A brightness or LED count that makes no sense."""


@dataclass(frozen=True)
class PowerBudget:
    """Worst-case 5 V current: ``lit`` LEDs at full white scaled by ``brightness``, the
    rest dark, capped (as the LED renderer caps every frame) at ``budget_ma``; plus the
    logic (Pico, shift registers; the card reader runs from the Pi's 3.3 V, not from
    here). The fuse sits at the supply and must blow before the thinnest 5 V/GND
    conductor after it overheats: every such conductor is
    ``wire_mm2`` (rated ``wire_a``) or thicker, and the fuse is below that rating."""

    leds: int
    lit: int
    brightness: float
    budget_ma: float | None
    led_ma: float  # the lit LEDs before the budget
    idle_ma: float
    strip_ma: float  # the whole strip after the budget
    logic_ma: float
    total_ma: float
    supply_a: float  # smallest common 5 V supply rating with SUPPLY_HEADROOM
    fuse_a: float
    wire_mm2: float
    wire_awg: int
    wire_a: float

    def text(self) -> str:
        cap = (
            f", capped at the {self.budget_ma:.0f} mA budget: {self.strip_ma:.0f} mA"
            if self.budget_ma is not None and self.strip_ma < self.led_ma + self.idle_ma
            else ""
        )
        return (
            f"{self.lit} of {self.leds} LEDs lit at {self.brightness:.0%} of full white: "
            f"{self.led_ma:.0f} mA + {self.idle_ma:.0f} mA idle LEDs{cap} + "
            f"{self.logic_ma:.0f} mA logic = {self.total_ma:.0f} mA; use a 5 V supply of at "
            f"least {self.supply_a:g} A (an external certified adapter), a T{self.fuse_a:g}A "
            f"time-lag fuse and a TVS at its panel socket's +, and {self.wire_mm2:g} mm² "
            f"({self.wire_awg} AWG, {self.wire_a:g} A) or thicker for every 5 V/GND wire "
            "after the fuse"
        )


def _smallest(sizes: tuple[float, ...], need: float) -> float:
    return next((s for s in sizes if s >= need), float(math.ceil(need)))


def power_budget(
    leds: int,
    chips: int,
    *,
    brightness: float,
    lit: int | None = None,
    budget_ma: float | None = None,
) -> PowerBudget:
    if not 0 < brightness <= 1:
        raise BomError(f"brightness must be a fraction above 0 and at most 1, not {brightness:g}")
    lit = leds if lit is None else lit
    if not 0 <= lit <= leds:
        raise BomError(f"LEDs lit at once must be 0 to {leds}, not {lit}")
    if budget_ma is not None and not 0 < budget_ma < math.inf:  # nan fails both sides
        raise BomError(f"the LED current budget must be above 0 mA and finite, not {budget_ma:g}")
    led_ma = lit * WS2812_FULL_WHITE_MA * brightness
    idle_ma = (leds - lit) * WS2812_IDLE_MA
    strip_ma = led_ma + idle_ma
    if budget_ma is not None:
        # drivers/leds.py scales a frame down to the budget, but never below the idle draw
        strip_ma = min(strip_ma, max(budget_ma, leds * WS2812_IDLE_MA))
    logic_ma = PICO_MA + chips * HC165_MA
    total = strip_ma + logic_ma
    need = total * SUPPLY_HEADROOM / 1000
    supply = _smallest(SUPPLY_SIZES_A, need)
    fuse = _smallest(FUSE_SIZES_A, need)
    # the wire must carry what the adapter delivers into a short (its limit) for good,
    # and more than the fuse's rating
    need_wire = max(fuse, supply * ADAPTER_LIMIT)
    mm2, awg, amps = next((g for g in WIRE_GAUGES if g[2] > need_wire), WIRE_GAUGES[-1])
    if amps <= need_wire:
        raise BomError(
            f"{total:.0f} mA is more than one 5 V supply and fuse should feed: "
            "lower the brightness or the budget"
        )
    return PowerBudget(
        leds,
        lit,
        brightness,
        budget_ma,
        led_ma,
        idle_ma,
        strip_ma,
        logic_ma,
        total,
        supply,
        fuse,
        mm2,
        awg,
        amps,
    )


@dataclass(frozen=True)
class Bom:
    lines: tuple[BomLine, ...]
    power: PowerBudget
    board_mm: tuple[float, float]
    chain_m: float
    notes: tuple[str, ...] = ()
    joints: JointCount | None = None

    @property
    def cost_range(self) -> tuple[float, float]:
        """The whole list's cost, low and high (euro; lines without a cost count 0)."""
        return (
            sum(x.cost_range[0] for x in self.lines),
            sum(x.cost_range[1] for x in self.lines),
        )

    def to_json(self) -> dict[str, Any]:
        lo, hi = self.cost_range
        return {
            "parts": [
                {**asdict(x), "cost_total": [round(v, 2) for v in x.cost_range]} for x in self.lines
            ],
            "power": asdict(self.power),
            "board_mm": [round(v, 1) for v in self.board_mm],
            "chain_m": round(self.chain_m, 2),
            "notes": list(self.notes),
            "cost_eur": [round(lo, 2), round(hi, 2)],
            "prices_checked": PRICES_CHECKED,
            "solder_joints": None
            if self.joints is None
            else {**asdict(self.joints), "total": self.joints.total},
        }

    def text(self) -> str:
        width = max(len(x.part) for x in self.lines)
        out = [f"{'part':<{width}}  {'count':>8}  unit  {'EUR':>15}  note"]
        for x in self.lines:
            count = f"{x.count:g}" if isinstance(x.count, int) else f"{x.count:.2f}"
            lo, hi = x.cost_range
            cost = f"{lo:.2f}-{hi:.2f}" if x.cost is not None else "-"
            out.append(f"{x.part:<{width}}  {count:>8}  {x.unit:<4}  {cost:>15}  {x.note}")
            if x.part_number:
                out.append(f"{'':<{width}}  {'':>8}        {'':>15}  part: {x.part_number}")
            if x.alternate:
                out.append(f"{'':<{width}}  {'':>8}        {'':>15}  or: {x.alternate}")
            if x.source and x.source != UNVERIFIED:
                out.append(f"{'':<{width}}  {'':>8}        {'':>15}  price: {x.source}")
        lo, hi = self.cost_range
        out.append("")
        out.append(
            f"Total: {lo:.0f} to {hi:.0f} EUR ({len(self.lines)} lines; prices unverified "
            f"unless a line names its source, looked for {PRICES_CHECKED})"
        )
        if self.joints is not None:
            j = self.joints
            out.append(
                f"Solder joints by hand: {j.total} (holes {j.per_hole}, chips {j.chips}, "
                f"pieces {j.per_piece}, reader and power entry {j.controller}, wire ends "
                f"on perfboard {j.wire_ends})"
            )
        out.append("")
        out.append("Power: " + self.power.text())
        out += ["", "Wiring the power:"] + [f"- {n}" for n in self.notes]
        return "\n".join(out)


def feed_lengths_m(g: Geometry) -> list[float]:
    """Per seat's piece: the 5 V/GND feed from the distribution block under the board's
    centre to the middle of the piece's holes, plus slack."""
    out = []
    for p in range(g.seats):
        pts = [(h.x, h.y) for h in g.holes if g.piece_of(h.name) == p]
        mid = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
        out.append(math.dist(mid, g.centre) / 1000 + FEED_SLACK_M)
    return out


def bill_of_materials(
    g: Geometry,
    wiring: Wiring,
    *,
    puzzle: bool = False,
    brightness: float = 0.4,
    lit: int | None = None,
    budget_ma: float | None = 2000.0,
    signature: int | None = REFERENCE_SIGNATURE,
    pi_direct: bool = False,
    cards: int | None = None,
) -> Bom:
    """The parts, the power budget from the configured brightness and budget, and how to
    wire the power (fuse, gauge, feeds per piece, grounds). ``pi_direct``: the Pi reads
    the chain and drives the LEDs itself (scanner.kind = "gpio"): no Pico. ``cards``: the
    deck's size (engine.cards.deck), one NTAG sticker each (none given: no sticker line)."""
    holes = len(g.holes)
    chips = wiring.chips
    sig_chips = 1 if signature is not None else 0
    chain_m = wire_length(wiring.led_order, g) / 1000
    power = power_budget(
        holes, chips + sig_chips, brightness=brightness, lit=lit, budget_ma=budget_ma
    )
    feeds = feed_lengths_m(g)
    power_m = round((SUPPLY_LEAD_M + sum(feeds) + chain_m) * 1.2, 1)
    wire = f"{power.wire_mm2:g} mm² ({power.wire_awg} AWG)"
    lines = bom_lines(
        g,
        wiring,
        puzzle=puzzle,
        signature=signature,
        pi_direct=pi_direct,
        supply_a=power.supply_a,
        fuse_a=power.fuse_a,
        wire=wire,
        wire_a=power.wire_a,
        power_m=power_m,
        feeds=feeds,
        cards=cards,
    )
    joints = solder_joints(
        g,
        wiring,
        signature=signature is not None,
        connector_pieces=g.seats if puzzle else 1,
        pieces=g.seats,
    )
    # One piece's feed at worst: all its LEDs lit (the budget caps the whole board, so a
    # piece may draw far more than the average share), never more than the whole strip.
    piece_leds = math.ceil(holes / g.seats)
    piece_ma = min(piece_leds * WS2812_FULL_WHITE_MA * power.brightness, power.strip_ma)
    notes = (
        f"Power entry: an external certified 5 V adapter (at least {power.supply_a:g} A) "
        "plugs into a panel socket in the board's edge; from its + a T"
        f"{power.fuse_a:g}A time-lag fuse, then a TVS diode across 5 V/GND (cathode to "
        "5 V), then the distribution block. Never an open-frame supply inside the board.",
        f"What stops a short: the adapter. A time-lag fuse carries well over its rating for "
        f"a long time and needs about twice it ({2 * power.fuse_a:g} A) for minutes to blow "
        f"(IEC 60127-2 time-lag; the chosen fuse's curve unverified), and a "
        f"{power.supply_a:g} A adapter current-limits before that. So every 5 V/GND "
        f"conductor after the fuse (supply lead, feeds, buses) is {wire} or thicker, rated "
        f"{power.wire_a:g} A: above the adapter's limit (taken as {ADAPTER_LIMIT:g} x its "
        "rating, unverified: check the adapter's datasheet), so a short cannot overheat a "
        "wire; the fuse is for an adapter that fails to limit, or a bigger one plugged in.",
        "Joining pieces: power off (unplug the adapter) before joining or parting pieces, "
        "and before plugging the signal cable; the pieces' connectors are keyed, one type "
        "each: XT30 for power, JST XH 10-pin for signals.",
        f"5 V/GND into every piece: from the distribution block, one red/black feed of "
        f"{wire} to each of the {g.seats} seat pieces (about {max(feeds):.1f} m at most), "
        f"with 1000 µF across it where it enters; a bus of the same wire along that piece's "
        f"LEDs. Each feed carries up to {piece_ma:.0f} mA (all {piece_leds} LEDs of its piece "
        f"lit at brightness {power.brightness:g}; {power.strip_ma / g.seats:.0f} mA is the "
        f"average share); LED current never runs through the signal connector "
        f"({JST_XH_PIN_A:g} A a pin) or from one piece into the next.",
        "Logic ground: the reader's GND (Pico or Pi), every 74HC165 and the 74AHCT125 share "
        "a separate logic GND wire in the signal connector, joined to the LED power GND at "
        "one point only (the distribution block). LED current must not flow in it.",
        "74AHCT125: VCC (pin 14) to 5 V with 100 nF at the pin, GND (pin 7); /1OE (pin 1) to "
        "GND, 1A (pin 2) from the reader's LED pin with 10 kΩ to GND (it must not float "
        "while the reader is off and the board's 5 V on), 1Y (pin 3) through 330 Ω to LED "
        "0; unused /2OE, /3OE, /4OE (pins 4, 10, 13) to VCC and 2A, 3A, 4A (pins 5, 9, 12) "
        "to GND.",
        f"CLK and /PL: {BUS_SERIES_OHMS} Ω in series at the reader, a 74LVC2G17 Schmitt "
        "buffer in every piece re-driving both for its chips and the next piece.",
        (
            "Never tie the board's 5 V to the Pi's 5 V pins (header pins 2 and 4): the LED "
            "supply and the Pi's own supply would feed each other. The Pi runs from its own "
            "supply; only GND is shared (logic GND, header pin 6)."
            if pi_direct
            else "Never tie the board's 5 V to the Pico's VBUS (pin 40): it would feed the Pi's "
            "USB "
            "port (and the Pi) from the LED supply, or the LEDs from the Pi. The Pico runs from "
            "its USB cable; only GND is shared."
        ),
        f"Budget: at brightness {power.brightness:g} and budget_ma "
        f"{'none' if power.budget_ma is None else f'{power.budget_ma:g}'}: keep the "
        "firmware's max_ma and leds.budget_ma at or below what the supply gives.",
    )
    return Bom(tuple(lines), power, (g.width, g.height), chain_m, notes, joints)
