"""Bill of materials and the LED power budget for a board."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any

from keezbord.engine.topology import PAWNS_PER_SEAT
from keezbord.hardware.geometry import Geometry
from keezbord.hardware.wiring import Wiring, wire_length

WS2812_FULL_WHITE_MA = 60.0  # all three colours at 255
WS2812_IDLE_MA = 1.0  # each LED's own draw when dark
PICO_MA = 50.0
PN532_MA = 150.0  # reader with the RF field on
HC165_MA = 0.1
SUPPLY_HEADROOM = 1.25
SUPPLY_SIZES_A = (1.0, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.5, 15.0, 20.0, 25.0, 30.0)
PLYWOOD_WASTE = 1.15  # kerf, offcuts and a spare strip


class BomError(ValueError):
    """A brightness or LED count that makes no sense."""


@dataclass(frozen=True)
class BomLine:
    part: str
    count: float
    unit: str
    note: str


@dataclass(frozen=True)
class PowerBudget:
    """Worst-case 5 V current: ``lit`` LEDs at full white scaled by ``brightness``, the
    rest dark, plus the logic (Pico, shift registers, card reader)."""

    leds: int
    lit: int
    brightness: float
    led_ma: float
    idle_ma: float
    logic_ma: float
    total_ma: float
    supply_a: float  # smallest common 5 V supply rating with SUPPLY_HEADROOM

    def text(self) -> str:
        return (
            f"{self.lit} of {self.leds} LEDs lit at {self.brightness:.0%} of full white: "
            f"{self.led_ma:.0f} mA + {self.idle_ma:.0f} mA idle LEDs + {self.logic_ma:.0f} mA "
            f"logic = {self.total_ma:.0f} mA; use a 5 V supply of at least {self.supply_a:g} A"
        )


def power_budget(
    leds: int, chips: int, *, brightness: float, lit: int | None = None
) -> PowerBudget:
    if not 0 < brightness <= 1:
        raise BomError(f"brightness must be a fraction above 0 and at most 1, not {brightness:g}")
    lit = leds if lit is None else lit
    if not 0 <= lit <= leds:
        raise BomError(f"LEDs lit at once must be 0 to {leds}, not {lit}")
    led_ma = lit * WS2812_FULL_WHITE_MA * brightness
    idle_ma = (leds - lit) * WS2812_IDLE_MA
    logic_ma = PICO_MA + PN532_MA + chips * HC165_MA
    total = led_ma + idle_ma + logic_ma
    need = total * SUPPLY_HEADROOM / 1000
    supply = next((s for s in SUPPLY_SIZES_A if s >= need), math.ceil(need))
    return PowerBudget(leds, lit, brightness, led_ma, idle_ma, logic_ma, total, supply)


@dataclass(frozen=True)
class Bom:
    lines: tuple[BomLine, ...]
    power: PowerBudget
    board_mm: tuple[float, float]
    chain_m: float

    def to_json(self) -> dict[str, Any]:
        return {
            "parts": [asdict(x) for x in self.lines],
            "power": asdict(self.power),
            "board_mm": [round(v, 1) for v in self.board_mm],
            "chain_m": round(self.chain_m, 2),
        }

    def text(self) -> str:
        width = max(len(x.part) for x in self.lines)
        out = [f"{'part':<{width}}  {'count':>8}  unit  note"]
        for x in self.lines:
            count = f"{x.count:g}" if isinstance(x.count, int) else f"{x.count:.2f}"
            out.append(f"{x.part:<{width}}  {count:>8}  {x.unit:<4}  {x.note}")
        out.append("")
        out.append("Power: " + self.power.text())
        return "\n".join(out)


def bill_of_materials(
    g: Geometry,
    wiring: Wiring,
    *,
    puzzle: bool = False,
    brightness: float = 0.25,
    lit: int | None = None,
) -> Bom:
    holes = len(g.holes)
    chips = wiring.chips
    pieces = g.seats if puzzle else 1
    area_m2 = g.outline_area() / 1e6
    chain_m = wire_length(wiring.led_order, g) / 1000
    power = power_budget(holes, chips, brightness=brightness, lit=lit)
    spare_inputs = sum(1 for h in wiring.switch_order if h is None)
    lines = [
        BomLine("reed switch (normally open)", holes, "pcs", "one under every hole"),
        BomLine("magnet for pawns", g.seats * PAWNS_PER_SEAT, "pcs", "one in each pawn's base"),
        BomLine("74HC165 shift register", chips, "pcs", f"8 inputs each; {spare_inputs} spare"),
        BomLine("10 kΩ resistor (pull-up)", holes, "pcs", "one per switch input"),
        BomLine("WS2812B LED", holes, "pcs", "one under every hole, chained in LED order"),
        BomLine(
            "100 nF ceramic capacitor",
            holes + chips + 1,
            "pcs",
            "one per WS2812, per 74HC165 and the 74AHCT125",
        ),
        BomLine(
            "1000 µF 10 V electrolytic capacitor",
            pieces,
            "pcs",
            "across 5 V/GND where power enters " + ("each piece" if puzzle else "the board"),
        ),
        BomLine("74AHCT125 level shifter", 1, "pcs", "3.3 V LED data up to 5 V"),
        BomLine("330 Ω resistor", 1, "pcs", "in series with the LED data line"),
        BomLine("Raspberry Pi Pico", 1, "pcs", "scans the switches, drives the LEDs"),
        BomLine("PN532 NFC module (HSU mode)", 1, "pcs", "card reader; NTAG stickers per card"),
        BomLine(
            "8-pin connector pair (JST-XH)",
            pieces,
            "pcs",
            "5V, GND, 3V3, CLK, SH/LD, QH, LED data, spare: "
            + (f"{pieces - 1} between pieces + 1 to the Pico" if puzzle else "board to Pico"),
        ),
        BomLine(
            "5 V DC supply",
            1,
            "pcs",
            f"at least {power.supply_a:g} A (see power budget); barrel jack or screw terminal",
        ),
        BomLine(
            "birch plywood",
            round(area_m2 * PLYWOOD_WASTE, 3),
            "m²",
            f"board {g.width:.0f} x {g.height:.0f} mm, outline {area_m2:.3f} m² + "
            f"{PLYWOOD_WASTE - 1:.0%} waste",
        ),
        BomLine(
            "hookup wire along the chains",
            round(chain_m * 1.2, 1),
            "m",
            f"each chain run {chain_m:.1f} m in hole order, +20% for bends",
        ),
    ]
    return Bom(tuple(lines), power, (g.width, g.height), chain_m)
