"""The schematics as netlists: a piece of the board, the controller end (the Pico, the
LED level shifter, the card reader on the Pi) and the terminator plug with the signature
chip. Each part lists its pins and the net on each pin; two pins on the same net are
connected. schematic_svg.py draws them (``keezbord board schematic``); the tests read
the drawing back and check it against pinout.py.

Net names: GND is the logic ground, PGND the LEDs' power ground (joined to GND at the
distribution block only), NC a pin left open.
"""

from __future__ import annotations

from dataclasses import dataclass

from keezbord.hardware.pinout import (
    DIN_PULL_DOWN_OHMS,
    DIN_SERIES_OHMS,
    DS_PULL_DOWN_OHMS,
    IN_SERIES_OHMS,
    PINOUT,
    QH_SERIES_OHMS,
)
from keezbord.hardware.wiring import (
    AHCT125_PINS,
    BUS_SERIES_OHMS,
    HC165_PINS,
    LVC2G17_PINS,
    PI_HEADER,
    PICO_HEADER,
    signature_ties,
)

NC = "NC"


@dataclass(frozen=True, slots=True)
class SPin:
    number: str
    name: str
    net: str


@dataclass(frozen=True, slots=True)
class Part:
    ref: str
    value: str  # the part: "74HC165", "1 kΩ", "JST XH 10 (IN)"
    pins: tuple[SPin, ...]
    note: str = ""
    one_column: bool = False  # a connector: its pins in order, one column

    def net(self, name: str) -> str:
        """The net on the pin called ``name``."""
        for p in self.pins:
            if p.name == name:
                return p.net
        raise KeyError(f"{self.ref} has no pin {name}")


@dataclass(frozen=True, slots=True)
class Schematic:
    title: str
    parts: tuple[Part, ...]
    notes: tuple[str, ...] = ()

    def part(self, ref: str) -> Part:
        return next(p for p in self.parts if p.ref == ref)


def _ohms(ohms: int) -> str:
    return f"{ohms // 1000} kΩ" if ohms >= 1000 and ohms % 1000 == 0 else f"{ohms} Ω"


def _two(ref: str, value: str, a: str, b: str, note: str = "") -> Part:
    return Part(ref, value, (SPin("1", "1", a), SPin("2", "2", b)), note)


def connector(ref: str, title: str, nets: dict[str, str]) -> Part:
    """A signal connector in the one pinout: ``nets`` maps a signal to its net here."""
    pins = tuple(SPin(str(p.number), p.signal, nets.get(p.signal, p.signal)) for p in PINOUT)
    return Part(ref, f"JST XH 10 ({title})", pins, one_column=True)


def hc165(ref: str, nets: dict[str, str]) -> Part:
    """A 74HC165; ``nets`` by pin name, the rest: power, CLK INH to GND, /QH open."""
    fixed = {"VCC": "3V3", "GND": "GND", "CLK INH": "GND", "/QH": NC}
    by_number = sorted(HC165_PINS.items(), key=lambda kv: kv[1])
    return Part(
        ref, "74HC165", tuple(SPin(str(n), k, nets.get(k, fixed.get(k, NC))) for k, n in by_number)
    )


def piece(chips: int, leds: int) -> Schematic:
    """One piece: IN and OUT connectors, the CLK and /PL buffer, ``chips`` switch chips,
    ``leds`` LEDs; every piece is the same."""
    parts = [
        connector(
            "J1",
            "IN, from the controller side",
            {"LED": "LED_J1", "/PL": "PL_J1", "CLK": "CLK_J1", "QH": "QH_OUT"},
        ),
        connector(
            "J2",
            "OUT, to the next piece or the terminator plug",
            {"LED": "LED_OUT", "/PL": "PL_BUF", "CLK": "CLK_BUF", "QH": "QH_NEXT"},
        ),
        Part(
            "J3",
            "power feed (docs/hardware.md, Power supply)",
            (SPin("1", "5V", "5V"), SPin("2", "GND", "PGND")),
        ),
    ]
    lvc = {"1A": "CLK_IN", "1Y": "CLK_BUF", "2A": "PL_IN", "2Y": "PL_BUF"}
    lvc |= {"VCC": "3V3", "GND": "GND"}
    by_number = sorted(LVC2G17_PINS.items(), key=lambda kv: kv[1])
    parts.append(
        Part(
            "U1",
            "74LVC2G17",
            tuple(SPin(str(n), k, lvc[k]) for k, n in by_number),
            "Schmitt-trigger buffer: re-drives CLK and /PL for this piece and the next",
        )
    )
    parts.append(_two("C1", "100 nF", "3V3", "GND", "at U1's VCC"))
    for k in range(chips):
        nets = {"/PL": "PL_BUF", "CLK": "CLK_BUF"}
        nets["QH"] = "QH_OUT" if k == 0 else f"Q{k}"
        nets["DS"] = "DS_LAST" if k == chips - 1 else f"Q{k + 1}"
        for letter in "ABCDEFGH":
            nets[letter] = f"SW{k}{letter}"
        parts.append(hc165(f"U{k + 2}", nets))
        switches = tuple(
            SPin(str(i + 1), letter, f"SW{k}{letter}") for i, letter in enumerate("ABCDEFGH")
        )
        parts.append(
            Part(
                f"S{k + 1}",
                "8 reed switches + 8 x 10 kΩ",
                (*switches, SPin("9", "pull-ups", "3V3"), SPin("10", "reeds", "GND")),
                "each input: 10 kΩ to 3V3, its reed switch to GND (closed = pawn = 0)",
            )
        )
    parts.append(_two(f"C{chips + 1}", f"{chips} x 100 nF", "3V3", "GND", "one at each VCC"))
    parts.append(
        _two(
            "R1",
            f"{QH_SERIES_OHMS // 1000} kΩ",
            "QH_NEXT",
            "DS_LAST",
            "QH's series resistor at the reading end",
        )
    )
    parts.append(
        _two(
            "R2",
            f"{DS_PULL_DOWN_OHMS // 1000} kΩ",
            "DS_LAST",
            "GND",
            "no terminator plugged: the tail reads 0s, a chain fault",
        )
    )
    parts.append(
        _two(
            "R3",
            _ohms(DIN_PULL_DOWN_OHMS),
            "LED_IN",
            "GND",
            "an unplugged LED data cable lights nothing",
        )
    )
    parts.append(_two("R4", _ohms(IN_SERIES_OHMS), "CLK_J1", "CLK_IN", "input series, at IN"))
    parts.append(_two("R5", _ohms(IN_SERIES_OHMS), "PL_J1", "PL_IN", "input series, at IN"))
    parts.append(_two("R6", _ohms(DIN_SERIES_OHMS), "LED_J1", "LED_IN", "DIN series, at IN"))
    parts.append(
        Part(
            "D1",
            f"{leds} x WS2812B",
            (
                SPin("DIN", "DIN", "LED_IN"),
                SPin("DOUT", "DOUT", "LED_OUT"),
                SPin("VDD", "VDD", "5V"),
                SPin("VSS", "GND", "PGND"),
            ),
            "each LED's DOUT to the next one's DIN, 100 nF at each",
        )
    )
    parts.append(_two(f"C{chips + 2}", "1000 µF", "5V", "PGND", "where the feed enters"))
    return Schematic(
        f"keezbord: one piece ({chips} x 74HC165, {leds} LEDs)",
        tuple(parts),
        ("Chip k's QH feeds chip k-1's DS: data flows towards J1 and the controller.",),
    )


def terminator(signature: int) -> Schematic:
    """The plug on the last piece's OUT: the signature chip and the tail (DS to 3V3)."""
    high, low = signature_ties(signature)
    nets = {"/PL": "/PL", "CLK": "CLK", "QH": "QH", "DS": "3V3"}
    for tie in high:
        nets[tie.split()[0]] = "3V3"
    for tie in low:
        nets[tie.split()[0]] = "GND"
    return Schematic(
        f"keezbord: terminator plug, signature 0x{signature:02X}",
        (
            connector("P1", "plug into the last piece's OUT", {"LED": NC}),
            hc165("U1", nets),
            _two("C1", "100 nF", "3V3", "GND", "at U1's VCC"),
        ),
        (f"Inputs hard-wired to 0x{signature:02X}, H first; DS to 3V3: the tail of 1s.",),
    )


def controller() -> Schematic:
    """The controller end: the Pico reads the chain and drives the LEDs; the Pi (its USB
    host) reads the cards with a PN532 on its UART."""
    pico = {"GP2": "CLK_PICO", "GP4": "MISO", "GP5": "PL_PICO", "GP6": "LED_3V3"}
    pico |= {"3V3(OUT)": "3V3", "GND": "GND", "VBUS": NC}
    ahct = {"/1OE": "GND", "1A": "LED_3V3", "1Y": "LED_5V", "VCC": "5V", "GND": "GND"}
    for unused in "234":
        ahct |= {f"/{unused}OE": "5V", f"{unused}A": "GND", f"{unused}Y": NC}
    ahct_pins = [SPin(str(AHCT125_PINS[k]), k, v) for k, v in ahct.items()]
    pi = {"3V3": "3V3_PI", "GND": "GND", "GPIO14": "PI_TXD", "GPIO15": "PI_RXD"}
    pi_pins = {**PI_HEADER, "GPIO14": 8, "GPIO15": 10}
    ohms = f"{BUS_SERIES_OHMS} Ω"
    parts = (
        Part(
            "U1",
            "Raspberry Pi Pico",
            tuple(SPin(str(PICO_HEADER[k]), k, v) for k, v in pico.items()),
            "powered by its USB cable; VBUS never joins the board's 5 V",
        ),
        _two("R1", ohms, "CLK_PICO", "CLK_OUT", "series termination at the pin"),
        _two("R2", ohms, "PL_PICO", "PL_OUT", "series termination at the pin"),
        _two("R3", f"{QH_SERIES_OHMS // 1000} kΩ", "QH_IN", "MISO", "QH at the reading end"),
        _two("R4", "10 kΩ", "MISO", "GND", "an open line reads 0s"),
        Part(
            "U2",
            "74AHCT125",
            tuple(sorted(ahct_pins, key=lambda p: int(p.number))),
            "LED data 3.3 V to 5 V; 100 nF at VCC",
        ),
        _two("R5", "10 kΩ", "LED_3V3", "GND", "LED data never floats while the Pico is off"),
        _two("R6", "330 Ω", "LED_5V", "LED_OUT", "into the first piece's LED 0"),
        _two("C1", "100 nF", "5V", "GND", "at U2's VCC"),
        connector(
            "J0",
            "OUT, to the first piece's IN",
            {"LED": "LED_OUT", "/PL": "PL_OUT", "CLK": "CLK_OUT", "QH": "QH_IN"},
        ),
        Part(
            "J9",
            "5 V from the distribution block",
            (SPin("1", "5V", "5V"), SPin("2", "GND", "GND")),
            "the 74AHCT125's supply",
        ),
        Part(
            "H1",
            "Raspberry Pi 40-pin header",
            tuple(SPin(str(pi_pins[k]), k, v) for k, v in pi.items()),
            "the Pico's USB cable joins its GND",
        ),
        Part(
            "U3",
            "PN532 module (HSU)",
            (
                SPin("VCC", "VCC", "3V3_PI"),
                SPin("GND", "GND", "GND"),
                SPin("TXD", "TXD", "PI_RXD"),
                SPin("RXD", "RXD", "PI_TXD"),
            ),
            "VCC from 3.3 V: its UART follows its supply, GPIO15 is not 5 V tolerant",
        ),
    )
    return Schematic(
        "keezbord: the controller end (Pico, LED level shifter, card reader)",
        parts,
        ("Pi-direct (no Pico): the same parts on the Pi's pins, docs/drivers.md.",),
    )
