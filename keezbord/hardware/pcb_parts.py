"""The parts of a piece's PCB: each one symbol (its pins) and one footprint (its pads),
embedded in the generated files, so neither KiCad's symbol nor its footprint library is
needed (they are separate large packages).

Footprint pads follow the common land patterns (IPC-7351 nominal, as KiCad's own
libraries draw them: SOIC-16/14 at 1.27 mm, 0805, WS2812B PLCC4 5.0 x 5.0 mm at 3.2 mm,
SMB); the THT parts' hole sizes are stated per part and marked unverified where no
datasheet was found (docs/hardware.md, "A PCB per piece").
"""

from __future__ import annotations

from dataclasses import dataclass

SOIC_PITCH = 1.27


@dataclass(frozen=True)
class Pin:
    number: str
    name: str
    etype: str  # KiCad's electrical type: input, output, passive, power_in, power_out
    right: bool  # on the symbol's right side


@dataclass(frozen=True)
class Pad:
    number: str
    x: float  # mm from the footprint's origin, unrotated
    y: float
    w: float
    h: float
    kind: str = "smd"  # smd, thru_hole, np_thru_hole
    drill: float = 0.0
    shape: str = "roundrect"  # roundrect, rect, circle


@dataclass(frozen=True)
class Kind:
    name: str  # the symbol's and the footprint's (bare) name
    prefix: str  # reference designator
    description: str
    pins: tuple[Pin, ...]
    pads: tuple[Pad, ...]
    power: bool = False  # a power flag: schematic only
    board_only: bool = False  # a footprint with no symbol (a mounting hole)


def _soic(n: int, names: list[tuple[str, str]]) -> tuple[tuple[Pin, ...], tuple[Pad, ...]]:
    """SOIC-n (3.9 mm body): pin 1 top left, counting down, then up the right side."""
    half = n // 2
    pins, pads = [], []
    for i, (name, etype) in enumerate(names, start=1):
        left = i <= half
        row = (i - 1) if left else (n - i)
        y = (row - (half - 1) / 2) * SOIC_PITCH
        pads.append(Pad(str(i), -2.475 if left else 2.475, y, 1.95, 0.6))
        pins.append(Pin(str(i), name, etype, not left))
    return tuple(pins), tuple(pads)


_HC165_NAMES = [
    ("~{PL}", "input"),
    ("CLK", "input"),
    ("E", "input"),
    ("F", "input"),
    ("G", "input"),
    ("H", "input"),
    ("~{QH}", "output"),
    ("GND", "power_in"),
    ("QH", "output"),
    ("DS", "input"),
    ("A", "input"),
    ("B", "input"),
    ("C", "input"),
    ("D", "input"),
    ("CLK_INH", "input"),
    ("VCC", "power_in"),
]
_LVC14_NAMES = [
    ("1A", "input"),
    ("1Y", "output"),
    ("2A", "input"),
    ("2Y", "output"),
    ("3A", "input"),
    ("3Y", "output"),
    ("GND", "power_in"),
    ("4Y", "output"),
    ("4A", "input"),
    ("5Y", "output"),
    ("5A", "input"),
    ("6Y", "output"),
    ("6A", "input"),
    ("VCC", "power_in"),
]


def _two(a: str, b: str, etype: str = "passive") -> tuple[Pin, ...]:
    return (Pin("1", a, etype, False), Pin("2", b, etype, True))


def _chip(w: float) -> tuple[Pad, ...]:
    return (Pad("1", -w, 0, 1.0, 1.3), Pad("2", w, 0, 1.0, 1.3))


HC165 = Kind(
    "SN74HC165D", "U", "8-bit parallel-in shift register, SOIC-16", *_soic(16, _HC165_NAMES)
)
LVC14 = Kind(
    "SN74LVC14AD",
    "U",
    "hex Schmitt-trigger inverter, 5 V tolerant inputs, SOIC-14",
    *_soic(14, _LVC14_NAMES),
)
RES = Kind("R_0805", "R", "resistor 0805", _two("~", "~"), _chip(0.95))
CAP = Kind("C_0805", "C", "ceramic capacitor 0805, X7R", _two("~", "~"), _chip(0.95))
LED = Kind(
    "WS2812B",
    "D",
    "WS2812B RGB LED with controller, PLCC4 5.0 x 5.0 mm",
    (
        Pin("1", "VDD", "power_in", False),
        Pin("2", "DOUT", "output", True),
        Pin("3", "VSS", "power_in", False),
        Pin("4", "DIN", "input", False),
    ),
    (
        # as KiCad's LED_WS2812B_PLCC4_5.0x5.0mm_P3.2mm (the WS2812B datasheet's pin order)
        Pad("1", -2.45, -1.6, 1.5, 1.0, shape="rect"),
        Pad("2", -2.45, 1.6, 1.5, 1.0, shape="rect"),
        Pad("3", 2.45, 1.6, 1.5, 1.0, shape="rect"),
        Pad("4", 2.45, -1.6, 1.5, 1.0, shape="rect"),
    ),
)
REED_PAD_SPAN = 20.0  # mm between the reed's lead holes: 12.7 mm glass + 3.65 mm a side
REED_HOLE = 0.8  # MDSR-7 lead 0.5 mm (unverified)


def reed_kind(contact_offset: float) -> Kind:
    """The reed lying along x, its glass centred ``contact_offset`` mm from the origin (the
    hole's axis), its leads bent down into two holes."""
    half = REED_PAD_SPAN / 2
    return Kind(
        "REED_MDSR7",
        "SW",
        "reed switch Littelfuse MDSR-7, leads bent down 3.65 mm from the glass",
        _two("~", "~"),
        (
            Pad("1", contact_offset - half, 0, 1.6, 1.6, "thru_hole", REED_HOLE, "circle"),
            Pad("2", contact_offset + half, 0, 1.6, 1.6, "thru_hole", REED_HOLE, "circle"),
        ),
    )


TVS = Kind(
    "SMBJ5.0A",
    "D",
    "TVS diode 5.0 V stand-off, unidirectional, SMB",
    (Pin("1", "K", "passive", False), Pin("2", "A", "passive", True)),
    (Pad("1", -2.2, 0, 2.0, 2.3, shape="rect"), Pad("2", 2.2, 0, 2.0, 2.3)),
)
BULK = Kind(
    "CP_Radial_D10_P5",
    "C",
    "electrolytic capacitor, radial, 10 mm, 5 mm lead pitch",
    (Pin("1", "+", "passive", False), Pin("2", "-", "passive", True)),
    (
        Pad("1", -2.5, 0, 2.0, 2.0, "thru_hole", 1.0, "rect"),
        Pad("2", 2.5, 0, 2.0, 2.0, "thru_hole", 1.0, "circle"),
    ),
)
XT30 = Kind(
    "XT30PW-M",
    "J",
    "Amass XT30PW-M, keyed polarised power plug, PCB right angle (hole size unverified)",
    (Pin("1", "+", "passive", False), Pin("2", "-", "passive", False)),
    (
        Pad("1", -2.5, 0, 3.0, 3.0, "thru_hole", 1.5, "rect"),
        Pad("2", 2.5, 0, 3.0, 3.0, "thru_hole", 1.5, "circle"),
    ),
)


def xh_kind(pins: int) -> Kind:
    """JST XH header, ``pins`` positions at 2.5 mm, top entry, keyed."""
    return Kind(
        f"JST_XH_B{pins}B-XH-A",
        "J",
        f"JST XH {pins}-pin header, 2.5 mm, top entry, keyed",
        tuple(Pin(str(n), f"P{n}", "passive", False) for n in range(1, pins + 1)),
        tuple(
            Pad(
                str(n), (n - 1) * 2.5, 0, 1.7, 1.7, "thru_hole", 1.0, "rect" if n == 1 else "circle"
            )
            for n in range(1, pins + 1)
        ),
    )


MOUNT = Kind(
    "MountingHole_3.2mm_M3",
    "H",
    "M3 mounting hole into the top plate's underside",
    (),
    (Pad("", 0, 0, 3.2, 3.2, "np_thru_hole", 3.2, "circle"),),
    board_only=True,
)
PWR_FLAG = Kind(
    "PWR_FLAG", "#FLG", "power flag", (Pin("1", "pwr", "power_out", False),), (), power=True
)
