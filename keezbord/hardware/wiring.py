"""The wiring map: every hole to a 74HC165 input (chain bit) and to a WS2812 LED index.

Bit convention (the same in the firmware, firmware/scan.py, and the Pi-direct scanner):
bit ``i`` is the i-th bit clocked out of the chain after the parallel load. It is chip
``i // 8`` (chip 0's QH, pin 9, goes to the reader: the Pico's MISO or the Pi's; chip k's
DS, pin 10, is fed by chip k+1's QH, pin 9; after the switch chips an optional signature
chip with hard-wired inputs; the far end's DS is tied to 3V3, the tail level 1, and the
data line is pulled down at the reader) and input ``D(7 - i % 8)``: a 74HC165 shifts out H
(D7) first, then G, F, ... A (D0). Every used input has a 10 kΩ pull-up and its reed switch
pulls it to GND (closed = pawn = 0); unused inputs are tied to VCC (read as open).

LED index ``j`` is the j-th WS2812 along the data line from the 74AHCT125.

The default order walks the board seat by seat (one puzzle piece after the other, seat 0
first, next to the reader), each piece in a short tour over its holes, and starts each
piece on a fresh chip: every piece then carries whole chips and one connector to the next
piece, and all pieces are wired alike (the same tour, turned). LEDs follow the same tour.

Over 400 lines: the map, its validation as a bijection and the wiring sheet's text read
the same chip and pin conventions; the sheet is tested against the map it prints.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from keezbord.engine.topology import Topology, TopologyError
from keezbord.hardware.geometry import Geometry, geometry_for
from keezbord.hardware.pinout import DIN_PULL_DOWN_OHMS, DIN_SERIES_OHMS, IN_SERIES_OHMS
from keezbord.hardware.plane import Point

BITS_PER_CHIP = 8
WIRING_FORMAT = "keezbord-wiring/1"

# 74HC165 (DIP-16/SO-16) pin numbers, from the datasheets (NXP, TI).
HC165_PINS: dict[str, int] = {
    "/PL": 1,
    "CLK": 2,
    "E": 3,
    "F": 4,
    "G": 5,
    "H": 6,
    "/QH": 7,
    "GND": 8,
    "QH": 9,
    "DS": 10,
    "A": 11,
    "B": 12,
    "C": 13,
    "D": 14,
    "CLK INH": 15,
    "VCC": 16,
}
# 74AHCT125 (DIP-14/SO-14): four buffers, /OE active low.
AHCT125_PINS: dict[str, int] = {
    "/1OE": 1,
    "1A": 2,
    "1Y": 3,
    "/2OE": 4,
    "2A": 5,
    "2Y": 6,
    "GND": 7,
    "3Y": 8,
    "3A": 9,
    "/3OE": 10,
    "4Y": 11,
    "4A": 12,
    "/4OE": 13,
    "VCC": 14,
}
# 74LVC2G17 (SOT-23-6, DBV): two Schmitt-trigger buffers, 5 V tolerant inputs (TI).
LVC2G17_PINS: dict[str, int] = {"1A": 1, "GND": 2, "2A": 3, "2Y": 4, "VCC": 5, "1Y": 6}
BUS_SERIES_OHMS = 33  # at the reader, in CLK and in /PL: damps the long bus's ringing
TAIL_LEVEL = 1  # the far end's DS to 3V3; the reader's data line pulled down
REFERENCE_SIGNATURE = 0xA5  # the reference design's signature chip
# Header pin numbers of the readers' default pins: the Pico's 40 pins (pin 1 = GP0) and
# the Pi's 40-pin header (the same on a Pi 4 and a Pi 5; pin 1 = 3V3).
PICO_HEADER: dict[str, int] = {
    "GP2": 4,
    "GP4": 6,
    "GP5": 7,
    "GP6": 9,
    "3V3(OUT)": 36,
    "GND": 38,
    "VBUS": 40,
}
PI_HEADER: dict[str, int] = {
    "3V3": 1,
    "GND": 6,
    "GPIO9": 21,
    "GPIO11": 23,
    "GPIO17": 11,
    "GPIO18": 12,
    "GPIO20": 38,
    "GPIO22": 15,
    "GPIO27": 13,
}
# What the reader side of the chain uses (firmware defaults; Pi-direct config defaults).
READER_PINS = {
    "/PL": f"Pico GP5 (Pico pin {PICO_HEADER['GP5']}) | Pi GPIO17 (header pin "
    f"{PI_HEADER['GPIO17']}; scanner.load_pin)",
    "CLK": f"Pico GP2 (Pico pin {PICO_HEADER['GP2']}, SPI0 SCK) | Pi GPIO11 (header pin "
    f"{PI_HEADER['GPIO11']}, SPI0 SCLK; bitbang: scanner.clock_pin, GPIO27 = header "
    f"pin {PI_HEADER['GPIO27']})",
    "QH": f"Pico GP4 (Pico pin {PICO_HEADER['GP4']}, SPI0 MISO) | Pi GPIO9 (header pin "
    f"{PI_HEADER['GPIO9']}, SPI0 MISO; bitbang: scanner.data_pin, GPIO22 = header pin "
    f"{PI_HEADER['GPIO22']})",
    "power": f"Pico 3V3(OUT) (Pico pin {PICO_HEADER['3V3(OUT)']}) and GND (Pico pin "
    f"{PICO_HEADER['GND']}) | Pi 3V3 (header pin {PI_HEADER['3V3']} or 17) and GND "
    f"(header pin {PI_HEADER['GND']}, 9, 14, 20 or 25)",
    "LED": f"Pico GP6 (Pico pin {PICO_HEADER['GP6']}) | Pi 4 GPIO20 (header pin "
    f"{PI_HEADER['GPIO20']}, SPI1 MOSI) | Pi 5 GPIO18 (header pin {PI_HEADER['GPIO18']}); "
    "leds.pin",
}


class WiringError(ValueError):
    """A wiring map that is not a bijection between the holes and the chains."""


def chip_pin(index: int) -> tuple[int, str]:
    """(chip, input name) of a chain bit, e.g. 0 -> (0, "D7"), 9 -> (1, "D6")."""
    chip, bit = divmod(index, BITS_PER_CHIP)
    return chip, f"D{7 - bit}"


def pin_letter(index: int) -> str:
    """The 74HC165 datasheet's letter of a chain bit's input: D7 is H, D0 is A."""
    return "ABCDEFGH"[7 - index % BITS_PER_CHIP]


def input_pin(index: int) -> int:
    """The 74HC165 pin number of a chain bit's input (bit 0: H, pin 6)."""
    return HC165_PINS[pin_letter(index)]


def signature_ties(signature: int) -> tuple[list[str], list[str]]:
    """The signature chip's inputs to tie high and low, as ``"H (pin 6)"``, H first."""
    if not 0 <= signature <= 255:
        raise WiringError(f"the signature is one byte (0 to 255), not {signature}")
    high: list[str] = []
    low: list[str] = []
    for k, letter in enumerate("HGFEDCBA"):
        (high if signature >> (7 - k) & 1 else low).append(f"{letter} (pin {HC165_PINS[letter]})")
    return high, low


def level_shifter_connections() -> list[str]:
    """The 74AHCT125 between the reader's LED pin (3.3 V) and LED 0 (5 V logic)."""
    p = AHCT125_PINS
    return [
        f"74AHCT125: VCC (pin {p['VCC']}) to the LED 5 V with 100 nF to GND at the pin; "
        f"GND (pin {p['GND']}) to GND.",
        f"LED data: {READER_PINS['LED']} to 1A (pin {p['1A']}); 1Y "
        f"(pin {p['1Y']}) through 330 Ω to LED 0's DIN; /1OE (pin {p['/1OE']}) to GND "
        "(active low: tied low, the buffer is always on).",
        f"1A (pin {p['1A']}): 10 kΩ to GND at the 74AHCT125. With the Pico or the Pi off or "
        "unplugged while the board's 5 V is on, the input would float (the reader's pad "
        "pull-downs exist only while it is powered) and random data could light LED 0 "
        "onward at full current, past any software budget; pulled down it reads 0: dark.",
        f"Unused buffers: /2OE, /3OE, /4OE (pins {p['/2OE']}, {p['/3OE']}, {p['/4OE']}) "
        f"to VCC; 2A, 3A, 4A (pins {p['2A']}, {p['3A']}, {p['4A']}) to GND; 2Y, 3Y, 4Y open.",
    ]


def bus_connections(pieces: int) -> list[str]:
    """CLK and /PL: one bus to every 74HC165 of the board, through up to eight pieces
    (3 to 6 m, 13 to 25 inputs without Schmitt triggers, VIH about 2.3 V at 3.3 V), from
    a 4 mA pad. A series resistor at the driver and a Schmitt buffer per piece keep its
    edges clean: a ringing or slow edge is clocked twice by some chip, which shifts every
    bit behind it (read as a signature or tail fault, never as switches)."""
    p = LVC2G17_PINS
    return [
        f"CLK and /PL leave the reader each through a {BUS_SERIES_OHMS} Ω resistor at its "
        "pin (series termination of the long bus).",
        f"Every piece ({pieces}): one 74LVC2G17 where the signal connector enters it, VCC "
        f"(pin {p['VCC']}) to 3V3 with 100 nF at the pin, GND (pin {p['GND']}) to logic "
        f"GND; CLK in to 1A (pin {p['1A']}), 1Y (pin {p['1Y']}) to this piece's chips' CLK "
        f"and on to the next piece; /PL in to 2A (pin {p['2A']}), 2Y (pin {p['2Y']}) to "
        "this piece's chips' /PL and on. Each piece re-drives the bus for the next; the "
        "farther chips clock a few ns later, the safe way (data flows towards the reader).",
        f"Where a signal connector enters a piece (its IN): CLK and /PL each through "
        f"{IN_SERIES_OHMS} Ω before the 74LVC2G17, the LED data through {DIN_SERIES_OHMS} Ω "
        f"to the piece's first DIN with {DIN_PULL_DOWN_OHMS // 1000} kΩ from that DIN to GND: "
        "a miswired or hot-plugged cable cannot drive a pin through its clamp diodes, and "
        "an unplugged one lights nothing.",
        "The chain's fault counters name the bus: a signature read one to seven bits off "
        "is a double clock or a missed load (keezbord reports a bus fault), eight bits off "
        "a chip too many or too few, all 0s an open or unpowered line.",
    ]


def chain_connections(chips: int, signature: int | None) -> list[str]:
    """The chain's wiring, connection by connection, with 74HC165 pin numbers: data flows
    from the far end towards chip 0, whose QH feeds the reader."""
    p = HC165_PINS
    sig_chip = chips if signature is not None else None
    last = chips if sig_chip is not None else chips - 1
    lines = [
        "74HC165 pins: 1 /PL (SH/LD), 2 CLK, 3 E, 4 F, 5 G, 6 H, 7 /QH, 8 GND, 9 QH, "
        "10 DS (SER), 11 A, 12 B, 13 C, 14 D, 15 CLK INH, 16 VCC.",
        f"Every chip: VCC (pin {p['VCC']}) to 3V3 with 100 nF to GND at the pin; GND "
        f"(pin {p['GND']}) to logic GND; CLK INH (pin {p['CLK INH']}) to GND; /PL "
        f"(pin {p['/PL']}) to the /PL line; CLK (pin {p['CLK']}) to the CLK line; /QH "
        f"(pin {p['/QH']}) not connected.",
        f"3V3 and logic GND for the chain: {READER_PINS['power']}.",
        f"/PL line: {READER_PINS['/PL']}.",
        f"CLK line: {READER_PINS['CLK']}.",
        f"Data line: chip 0 QH (pin {p['QH']}) through 1 kΩ at the reader to "
        f"{READER_PINS['QH']}; 10 kΩ from the data line to GND at the reader (pulled DOWN: "
        "an open line reads 0, never the tail). Between two pieces, QH likewise enters "
        "each piece's OUT through 1 kΩ (100 kΩ to GND after it).",
    ]
    for k in range(last):
        feeder = "signature chip" if k + 1 == sig_chip else "chip"
        lines.append(f"chip {k} DS (pin {p['DS']}) <- {feeder} {k + 1} QH (pin {p['QH']})")
    if signature is not None:
        high, low = signature_ties(signature)
        lines.append(
            f"signature chip {chips}, on the terminator plug in the last piece's OUT: inputs "
            f"hard-wired to 0x{signature:02X}: "
            f"{', '.join(high)} to 3V3; {', '.join(low)} to GND"
        )
    end = "signature chip" if signature is not None else "chip"
    lines.append(
        f"{end} {last} DS (pin {p['DS']}) to 3V3: the tail, read as 1 after "
        f"the {'signature' if signature is not None else 'switches'}"
    )
    return lines


@dataclass(frozen=True)
class Wiring:
    """Which hole sits on each switch-chain bit and on each LED of the strip."""

    topology: Topology
    switch_order: tuple[str | None, ...]  # hole at each chain bit (None: unused input)
    led_order: tuple[str, ...]  # hole at each LED index
    _switch: dict[str, int] = field(repr=False, compare=False, default_factory=dict)
    _led: dict[str, int] = field(repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        names = set(self.topology.hole_names)
        # Lists are accepted but stored as tuples: a Wiring is an immutable value.
        object.__setattr__(self, "switch_order", tuple(self.switch_order))
        object.__setattr__(self, "led_order", tuple(self.led_order))
        order = self.switch_order
        if len(order) % BITS_PER_CHIP:
            raise WiringError(
                f"switch order has {len(order)} bits, not a whole number of "
                f"{BITS_PER_CHIP}-bit chips"
            )
        for what, seq, table in (
            ("switch", order, self._switch),
            ("LED", self.led_order, self._led),
        ):
            for i, hole in enumerate(seq):
                if hole is None:
                    if what == "LED":
                        raise WiringError(f"LED {i} has no hole: every LED sits under a hole")
                    continue
                if not isinstance(hole, str) or hole not in names:
                    raise WiringError(f"{what} {i}: {hole!r} is not a hole of this board")
                if hole in table:
                    raise WiringError(f"hole {hole} is on {what} {table[hole]} and {what} {i}")
                table[hole] = i
            missing = [h for h in self.topology.hole_names if h not in table]
            if missing:
                more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
                raise WiringError(f"no {what} for hole {', '.join(missing[:3])}{more}")

    @property
    def chips(self) -> int:
        return len(self.switch_order) // BITS_PER_CHIP

    def switch_index(self, hole: str) -> int:
        try:
            return self._switch[hole]
        except KeyError:
            raise WiringError(f"no hole {hole!r} on this board") from None

    def hole_at_switch(self, index: int) -> str | None:
        if not 0 <= index < len(self.switch_order):
            raise WiringError(
                f"switch bit {index} is off the chain (0..{len(self.switch_order) - 1})"
            )
        return self.switch_order[index]

    def led_index(self, hole: str) -> int:
        try:
            return self._led[hole]
        except KeyError:
            raise WiringError(f"no hole {hole!r} on this board") from None

    def hole_at_led(self, index: int) -> str:
        if not 0 <= index < len(self.led_order):
            raise WiringError(f"LED {index} is off the strip (0..{len(self.led_order) - 1})")
        return self.led_order[index]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": WIRING_FORMAT,
            "seats": self.topology.seats,
            "segment": self.topology.segment,
            "chips": self.chips,
            "bit_order": "bit i = i-th bit shifted out; chip i//8 (chip 0 at the reader), "
            "input D(7 - i%8)",
            "switches": list(self.switch_order),
            "leds": list(self.led_order),
        }

    @classmethod
    def from_json(cls, d: Any) -> Wiring:
        """Read a wiring map back, refusing anything that is not a bijection."""
        if not isinstance(d, dict):
            raise WiringError("wiring JSON must be an object")
        fmt = d.get("format", WIRING_FORMAT)
        if fmt != WIRING_FORMAT:
            raise WiringError(f"unknown wiring format {fmt!r} (expected {WIRING_FORMAT})")
        for key in ("seats", "switches", "leds"):
            if key not in d:
                raise WiringError(f"wiring JSON lacks {key!r}")
        try:
            topo = Topology(d["seats"], d.get("segment", 16))
        except TopologyError as e:
            raise WiringError(f"wiring JSON: {e}") from None
        switches, leds = d["switches"], d["leds"]
        if not isinstance(switches, list) or not isinstance(leds, list):
            raise WiringError("wiring JSON: 'switches' and 'leds' must be lists")
        w = cls(topo, tuple(switches), tuple(leds))
        if "chips" in d and d["chips"] != w.chips:
            raise WiringError(f"wiring JSON says {d['chips']} chips but lists {w.chips}")
        return w

    def rows(self) -> list[dict[str, Any]]:
        """One row per hole: hole, chip, input, bit, LED (in LED order)."""
        out = []
        for led, hole in enumerate(self.led_order):
            bit = self._switch[hole]
            chip, pin = chip_pin(bit)
            out.append(
                {
                    "hole": hole,
                    "bit": bit,
                    "chip": chip,
                    "input": pin,
                    "pin_letter": pin_letter(bit),
                    "led": led,
                }
            )
        return out

    def to_csv(self) -> str:
        """One line per chain bit (unused inputs too): bit, chip, input, hole, led."""
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(["bit", "chip", "input", "letter", "hole", "led"])
        for bit, hole in enumerate(self.switch_order):
            chip, pin = chip_pin(bit)
            w.writerow(
                [
                    bit,
                    chip,
                    pin,
                    pin_letter(bit),
                    hole or "",
                    "" if hole is None else self._led[hole],
                ]
            )
        return buf.getvalue()

    @classmethod
    def from_csv(cls, text: str, topology: Topology) -> Wiring:
        rows = list(csv.DictReader(io.StringIO(text)))
        if not rows or not {"bit", "hole", "led"} <= set(rows[0]):
            raise WiringError("wiring CSV needs the columns bit, hole and led")
        switches: list[str | None] = [None] * len(rows)
        leds: dict[int, str] = {}
        for line, row in enumerate(rows, start=2):
            try:
                bit = int(row["bit"])
                led = int(row["led"]) if row["led"] else None
            except ValueError:
                raise WiringError(f"wiring CSV line {line}: bit and led must be numbers") from None
            if not 0 <= bit < len(rows):
                raise WiringError(f"wiring CSV line {line}: bit {bit} out of range")
            hole = row["hole"] or None
            switches[bit] = hole
            if hole is not None:
                if led is None:
                    raise WiringError(f"wiring CSV line {line}: hole {hole} has no LED")
                if led in leds:
                    raise WiringError(f"wiring CSV line {line}: LED {led} used twice")
                leds[led] = hole
        if sorted(leds) != list(range(len(leds))):
            raise WiringError("wiring CSV: LED indices must run 0..n-1 without gaps")
        return cls(topology, tuple(switches), tuple(leds[i] for i in range(len(leds))))


def wire_length(order: Sequence[str | None], geometry: Geometry) -> float:
    """Total straight-line length (mm) of a chain visiting the holes in this order."""
    pts = [geometry.position(h) for h in order if h is not None]
    return sum(math.dist(a, b) for a, b in pairwise(pts))


def naive_order(topology: Topology) -> tuple[str, ...]:
    """The holes in name order (track, then nests and homes seat by seat): the baseline."""
    return topology.hole_names


def default_wiring(
    topology: Topology, geometry: Geometry | None = None, *, pad_pieces: bool = True
) -> Wiring:
    """A short chain order: piece by piece from seat 0, each piece in a tour that enters
    next to the previous piece and leaves next to the following one. With ``pad_pieces``
    every piece starts on a fresh chip (spare inputs at the end of a piece)."""
    g = geometry if geometry is not None else geometry_for(topology)
    if g.topology != topology:
        raise WiringError(
            f"geometry is for {g.seats} seats of {g.topology.segment}, "
            f"not {topology.seats} of {topology.segment}"
        )
    seats, seg = topology.seats, topology.segment
    piece0 = [h.name for h in g.holes if g.piece_of(h.name) == 0]
    tour0 = _piece_tour(g, piece0)
    switches: list[str | None] = []
    leds: list[str] = []
    for p in range(seats):
        names = [_turn(name, p, seats, seg) for name in tour0]
        leds.extend(names)
        switches.extend(names)
        if pad_pieces:
            switches.extend([None] * (-len(names) % BITS_PER_CHIP))
    switches.extend([None] * (-len(switches) % BITS_PER_CHIP))
    return Wiring(topology, tuple(switches), tuple(leds))


def _turn(name: str, p: int, seats: int, seg: int) -> str:
    """The hole that ``name`` (on piece 0) becomes on piece p."""
    if name.startswith("T"):
        return f"T{(int(name[1:]) + p * seg) % (seats * seg)}"
    kind, rest = name[0], name[1:]
    seat, slot = rest.split(".")
    return f"{kind}{(int(seat) + p) % seats}.{slot}"


def _piece_tour(g: Geometry, names: list[str]) -> list[str]:
    """An open tour over one piece's holes from the track hole next to the previous piece
    to the one next to the following piece: nearest neighbour, then 2-opt."""
    seats, seg = g.seats, g.topology.segment
    first = f"T{(g.cut_after + 1 - seg) % (seats * seg)}"
    last = f"T{g.cut_after}"
    pos: dict[str, Point] = {n: g.position(n) for n in names}
    rest = [n for n in names if n not in (first, last)]
    tour = [first]
    while rest:
        here = pos[tour[-1]]
        nxt = min(rest, key=lambda n: (math.dist(here, pos[n]), n))
        tour.append(nxt)
        rest.remove(nxt)
    tour.append(last)
    pts = [pos[n] for n in tour]
    improved = True
    while improved:  # 2-opt on the inner part; the ends stay fixed
        improved = False
        for i in range(1, len(tour) - 2):
            for k in range(i + 1, len(tour) - 1):
                a, b, c, d = pts[i - 1], pts[i], pts[k], pts[k + 1]
                if math.dist(a, c) + math.dist(b, d) < math.dist(a, b) + math.dist(c, d) - 1e-9:
                    tour[i : k + 1] = tour[i : k + 1][::-1]
                    pts[i : k + 1] = pts[i : k + 1][::-1]
                    improved = True
    return tour
