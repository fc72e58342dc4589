"""The one signal connector between the board's pieces, and between the controller and
the first piece: its type, its pin order and the rules that order keeps. Data the rest
reads (the schematics, the wiring sheet, docs/hardware.md "Signal connector"); the
tests check the rules against this table and against the drawn schematics.

Every piece has the same two connectors, IN (towards the controller) and OUT (towards
the next piece); the last piece's OUT takes the terminator plug with the signature chip,
so every piece is wired alike. The LEDs' 5 V and power GND never run through this
connector (each piece has its own power feed, docs/hardware.md "Power supply").
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final, Literal

Kind = Literal["ground", "rail", "fast"]

# JST XH, 2.5 mm pitch, keyed and polarised, 3 A a contact (AWG 22), 250 V (JST's XH
# data: docs/hardware.md cites it). Headers on the pieces, housings on the cables.
CONNECTOR: Final = "JST XH, 10 positions, 2.5 mm pitch (keyed, polarised)"
HEADER_PART: Final = "JST B10B-XH-A(LF)(SN) (top entry; side entry: S10B-XH-A)"
HOUSING_PART: Final = "JST XHP-10 housing + SXH-001T-P0.6 crimp contacts (AWG 28-22)"
QH_SERIES_OHMS: Final = 1000  # in QH at the reading end of every link (controller, OUT)
DS_PULL_DOWN_OHMS: Final = 100_000  # each piece's OUT QH: no terminator reads 0s (a fault)


@dataclass(frozen=True, slots=True)
class Pin:
    number: int
    signal: str  # GND, 3V3, LED, /PL, CLK, QH
    kind: Kind
    what: str  # which way it runs and at what level


PINOUT: Final[tuple[Pin, ...]] = (
    Pin(1, "GND", "ground", "logic GND"),
    Pin(2, "LED", "fast", "WS2812 data, 5 V logic, towards the far end (800 kHz)"),
    Pin(3, "GND", "ground", "logic GND"),
    Pin(4, "3V3", "rail", "3.3 V for the chips, from the controller"),
    Pin(5, "/PL", "fast", "74HC165 parallel load, 3.3 V, towards the far end"),
    Pin(6, "GND", "ground", "logic GND"),
    Pin(7, "CLK", "fast", "74HC165 shift clock, 3.3 V, towards the far end"),
    Pin(8, "GND", "ground", "logic GND"),
    Pin(9, "QH", "fast", "chain data, 3.3 V, towards the controller"),
    Pin(10, "GND", "ground", "logic GND"),
)
SIGNALS: Final = ("GND", "3V3", "LED", "/PL", "CLK", "QH")
MIN_LED_TO_QH: Final = 5  # pins between LED data and the chain's QH, at least


def pin_of(signal: str, pinout: tuple[Pin, ...] = PINOUT) -> int:
    """The (first) pin number carrying ``signal``."""
    for p in pinout:
        if p.signal == signal:
            return p.number
    raise KeyError(signal)


def mirrored(number: int, pinout: tuple[Pin, ...] = PINOUT) -> Pin:
    """The pin that ``number`` meets through a cable crimped mirror-wise (1 to N)."""
    return pinout[len(pinout) - number]


def pinout_problems(pinout: tuple[Pin, ...] = PINOUT) -> list[str]:
    """The rules the pin order keeps; one line a broken rule, none when all hold."""
    out: list[str] = []
    if [p.number for p in pinout] != list(range(1, len(pinout) + 1)):
        out.append("pins are not numbered 1..N in order")
    if sorted({p.signal for p in pinout}) != sorted(SIGNALS):
        out.append(f"the signals are not {', '.join(SIGNALS)}")
    for a, b in itertools.pairwise(pinout):
        if a.kind == "fast" and b.kind == "fast":
            out.append(f"fast lines side by side: {a.signal} (pin {a.number}), {b.signal}")
    fast = [p for p in pinout if p.kind == "fast"]
    for a, b in itertools.pairwise(fast):
        between = pinout[a.number : b.number - 1]
        if not any(p.kind == "ground" for p in between):
            out.append(f"no ground between {a.signal} (pin {a.number}) and {b.signal}")
    if abs(pin_of("LED", pinout) - pin_of("QH", pinout)) < MIN_LED_TO_QH:
        out.append(f"LED data within {MIN_LED_TO_QH - 1} pins of QH")
    for p in pinout:
        if p.signal == "3V3" and mirrored(p.number, pinout).signal == "GND":
            out.append(f"a mirrored cable shorts 3V3 (pin {p.number}) to GND")
    return out


def mirror_notes(pinout: tuple[Pin, ...] = PINOUT) -> list[str]:
    """What each signal meets through a cable crimped mirror-wise (docs, the sheet)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for p in pinout:
        q = mirrored(p.number, pinout)
        pair = tuple(sorted((p.signal, q.signal)))
        if p.signal == q.signal or (pair[0], pair[1]) in seen:
            continue
        seen.add((pair[0], pair[1]))
        out.append(f"pin {p.number} {p.signal} meets pin {q.number} {q.signal}")
    return out


def pinout_lines() -> list[str]:
    """The pinout as the wiring sheet prints it."""
    return [
        f"{CONNECTOR}: header {HEADER_PART}; cable {HOUSING_PART}.",
        *(f"pin {p.number:>2}  {p.signal:<4} {p.what}" for p in PINOUT),
        f"QH enters every reading end (the controller's data pin, each piece's OUT) through "
        f"{QH_SERIES_OHMS} Ω in series: a mirrored cable puts the LED data's 5 V on QH, and "
        "the resistor keeps the current into the 3.3 V pin's clamp under 2 mA.",
    ]


def link_parts(pieces: int) -> list[tuple[str, int, str]]:
    """The BOM's lines for the links: (part, count, note). IN and OUT on every piece and
    J0 at the controller; a cable a link, both ends; the terminator plug on the last OUT."""
    return [
        (
            f"{CONNECTOR}: header",
            2 * pieces + 1,
            f"{HEADER_PART}: IN and OUT on every piece + 1 at the controller (pinout: "
            "docs/hardware.md); no LED current through it",
        ),
        (
            "JST XH 10 cable housing",
            2 * pieces + 1,
            f"{HOUSING_PART}, 10 contacts each: both ends of the {pieces} cable(s) + the "
            "terminator plug",
        ),
        (
            f"{QH_SERIES_OHMS // 1000} kΩ resistor (QH series)",
            pieces + 1,
            "in QH at every reading end (the controller's data pin, each piece's OUT): a "
            "mirrored cable must not put 5 V on a 3.3 V pin",
        ),
        (
            f"{DS_PULL_DOWN_OHMS // 1000} kΩ resistor (pull-down)",
            pieces,
            "each piece's OUT QH to GND: a missing terminator plug reads as a chain fault",
        ),
    ]
