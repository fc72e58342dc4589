"""What goes on a piece's PCB and where: parts, their nets and their places, from the
piece's frame (pcb_frame.py), the default wiring's tour and the one connector pinout.

The chain inside a piece follows `default_wiring`: the piece's k-th hole of the tour is on
chain bit k (chip k // 8, input D(7 - k % 8)) and is LED k. Chip 0's QH leaves through the
IN connector (towards the reader); the last chip's DS is fed, through 1 kOhm, by the OUT
connector's QH (the next piece, or the terminator plug's signature chip); a 100 kOhm
pull-down there reads 0s (a chain fault) when nothing is plugged in. CLK and /PL enter
through 100 Ohm and a Schmitt-trigger stage (two inverters of an SN74LVC14A each), which
also drives them on to the OUT connector. LED data enters through 330 Ohm with a 10 kOhm
pull-down. The connectors' pin order is `keezbord.hardware.pinout.PINOUT`, read here and
nowhere else.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from keezbord.engine.topology import DEFAULT_SEGMENT
from keezbord.hardware.geometry import board_geometry
from keezbord.hardware.pcb_frame import Frame, frame, inside, local_name, pcb_outline
from keezbord.hardware.pcb_parts import (
    BULK,
    CAP,
    HC165,
    LED,
    LVC14,
    MOUNT,
    PWR_FLAG,
    RES,
    TVS,
    XT30,
    Kind,
    reed_kind,
    xh_kind,
)
from keezbord.hardware.pcb_places import PLACES, Place, Places
from keezbord.hardware.pinout import DS_PULL_DOWN_OHMS, PINOUT, QH_SERIES_OHMS
from keezbord.hardware.plane import Point, seg_distance
from keezbord.hardware.stackup import REFERENCE
from keezbord.hardware.wiring import BITS_PER_CHIP, HC165_PINS, default_wiring, pin_letter

GRID = 0.635  # the router's grid; chips sit on it so their 1.27 mm pins do too
OFFSET: Point = (200.0, 200.0)  # the frame's origin (the start hole) on the KiCad sheet
CHIP_Y = -45.0  # chips sit this far in from the track (frame y)
UNCONNECTED = "unconnected-"  # KiCad's name for the net of a pin marked not connected
MOUNT_CLEAR_MM = 11.6  # a screw's centre from a hole centre: 7 mm hole, 1.6 mm screw, 3 mm web

MPN = {
    "SN74HC165D": "Texas Instruments SN74HC165DR",
    "SN74LVC14AD": "Texas Instruments SN74LVC14ADR",
    "WS2812B": "Worldsemi WS2812B",
    "REED_MDSR7": "Littelfuse MDSR-7-20-25",
    "SMBJ5.0A": "Littelfuse SMBJ5.0A",
    "CP_Radial_D10_P5": "Panasonic EEU-FR1A102 (1000 uF 10 V)",
    "XT30PW-M": "Amass XT30PW-M",
    "JST_XH_B10B-XH-A": "JST B10B-XH-A(LF)(SN)",
    "10k": "Yageo RC0805FR-0710KL",
    "100k": "Yageo RC0805FR-07100KL",
    "1k": "Yageo RC0805FR-071KL",
    "330": "Yageo RC0805FR-07330RL",
    "100": "Yageo RC0805FR-07100RL",
    "100n": "Samsung CL21B104KBCNNNC",
}


@dataclass
class Comp:
    ref: str
    kind: Kind
    value: str
    at: Point  # board position (mm)
    rot: int = 0  # degrees, counter-clockwise as KiCad turns
    nets: dict[str, str] = field(default_factory=dict)  # pin number -> net
    hole: str = ""  # the piece-local hole it serves (reeds and LEDs)

    @property
    def mpn(self) -> str:
        return MPN.get(self.kind.name, MPN.get(self.value, ""))


@dataclass
class Design:
    name: str  # the KiCad project's name
    shape: str
    outline: tuple[Point, ...]  # board coordinates
    comps: list[Comp]
    holes: dict[str, Point]  # local name -> board position
    tour: tuple[str, ...]  # local names in chain-bit (and LED) order

    def nets(self) -> list[str]:
        return sorted({n for c in self.comps for n in c.nets.values()})


def joints(d: Design) -> tuple[int, int]:
    """(machine-placed, through-hole) solder joints of one board: its pads."""
    pads = [p for c in d.comps for p in c.kind.pads]
    return (
        sum(1 for p in pads if p.kind == "smd"),
        sum(1 for p in pads if p.kind == "thru_hole"),
    )


def board_xy(p: Point) -> Point:
    return (round(p[0] + OFFSET[0], 4), round(p[1] + OFFSET[1], 4))


def snap(p: Point) -> Point:
    return (round(round(p[0] / GRID) * GRID, 4), round(round(p[1] / GRID) * GRID, 4))


def pad_world(c: Comp, x: float, y: float) -> Point:
    """A pad's board position from its footprint offset (KiCad turns counter-clockwise
    as seen, with y down)."""
    a = math.radians(c.rot)
    return (
        c.at[0] + x * math.cos(a) + y * math.sin(a),
        c.at[1] - x * math.sin(a) + y * math.cos(a),
    )


def tour(f: Frame) -> tuple[str, ...]:
    g = board_geometry(f.seats[0], DEFAULT_SEGMENT)
    w = default_wiring(g.topology, g)
    n = len(f.holes)
    order = [local_name(g, h) for h in w.switch_order[:n] if h is not None]
    assert order == [local_name(g, h) for h in w.led_order[:n]]
    return tuple(order)


class Refs:
    def __init__(self) -> None:
        self.count: dict[str, int] = {}

    def __call__(self, prefix: str) -> str:
        self.count[prefix] = self.count.get(prefix, 0) + 1
        return f"{prefix}{self.count[prefix]}"


def _edge_distance(p: Point, poly: tuple[Point, ...]) -> float:
    n = len(poly)
    d = min(seg_distance(p, poly[i], poly[(i + 1) % n]) for i in range(n))
    return d if inside(p, poly) else -d


def design(shape: str) -> Design:
    f = frame(shape)
    outline = tuple(board_xy(p) for p in pcb_outline(f))
    holes = {k: board_xy(v) for k, v in f.holes.items()}
    order = tour(f)
    ref = Refs()
    comps: list[Comp] = []
    # LEDs, their capacitors and the reeds, hole by hole in the tour's order.
    din = "LED_DIN0"
    reed_pads: list[Point] = []
    for k, hole in enumerate(order):
        hx, hy = holes[hole]
        dout = f"LED_DIN{k + 1}" if k + 1 < len(order) else "LED_OUT"
        comps.append(
            Comp(
                ref("D"),
                LED,
                "WS2812B",
                (hx, hy),
                0,
                {"1": "+5V", "2": dout, "3": "GND", "4": din},
                hole,
            )
        )
        comps.append(Comp(ref("C"), CAP, "100n", (hx + 4.5, hy - 4.5), 0, {"1": "+5V", "2": "GND"}))
        din = dout
    reed = reed_kind(REFERENCE.contact_offset)
    for hole in order:
        hx, hy = holes[hole]
        rot = _reed_rotation(reed, (hx, hy), comps, reed_pads, outline, PLACES[shape])
        c = Comp(ref("SW"), reed, "MDSR-7", (hx, hy), rot, {"1": f"SW_{hole}", "2": "GND"}, hole)
        reed_pads += [pad_world(c, p.x, p.y) for p in reed.pads]
        comps.append(c)
    # The chips: chip j serves tour holes 8j..8j+7, placed in from the track near them.
    chips = len(order) // BITS_PER_CHIP
    chip_refs = [ref("U") for _ in range(chips)]
    pl = PLACES[shape]
    placed_x: list[float] = []
    for j in range(chips):
        if pl.chips is not None:
            at = snap(board_xy(pl.chips[j][:2]))
        else:
            xs = [holes[h][0] - OFFSET[0] for h in order[j * 8 : j * 8 + 8]]
            cx = sum(xs) / len(xs)
            if abs(cx) < 30:
                cx = 30.0 if cx >= 0 else -30.0
            for px in placed_x:
                if abs(cx - px) < 30:
                    cx = px + 30 * (1 if cx >= px else -1)
            placed_x.append(cx)
            at = snap(board_xy((cx, CHIP_Y)))
        data_in = "TAIL_DS" if j == chips - 1 else f"QH{j + 1}"
        data_out = "QH_OUT" if j == 0 else f"QH{j}"
        nets = {
            str(HC165_PINS["/PL"]): "PL",
            str(HC165_PINS["CLK"]): "CLK",
            str(HC165_PINS["GND"]): "GND",
            str(HC165_PINS["QH"]): data_out,
            str(HC165_PINS["DS"]): data_in,
            str(HC165_PINS["CLK INH"]): "GND",
            str(HC165_PINS["VCC"]): "+3V3",
        }
        for b in range(BITS_PER_CHIP):
            hole = order[j * 8 + b]
            nets[str(HC165_PINS[pin_letter(b)])] = f"SW_{hole}"
            # the pull-ups in a row above the chip
            comps.append(
                Comp(
                    ref("R"),
                    RES,
                    "10k",
                    snap((at[0] - 8.89 + b * 2.54, at[1] - 12.7)),
                    90,
                    {"1": f"SW_{hole}", "2": "+3V3"},
                )
            )
        comps.append(Comp(chip_refs[j], HC165, "74HC165", at, 0, nets))
        comps.append(
            Comp(
                ref("C"),
                CAP,
                "100n",
                snap((at[0] + 8.255, at[1] - 6.35)),
                90,
                {"1": "+3V3", "2": "GND"},
            )
        )
    comps += _entry(f, ref, shape)
    comps += _power(ref, shape)
    comps += _mounts(f, ref, holes, outline, shape)
    for c in comps:
        for p in c.kind.pins:
            c.nets.setdefault(p.number, f"{UNCONNECTED}({c.ref}-{p.name}-Pad{p.number})")
    return Design(f"keezbord-{shape}", shape, outline, comps, holes, order)


def _reed_rotation(
    reed: Kind,
    at: Point,
    comps: list[Comp],
    others: list[Point],
    outline: tuple[Point, ...],
    pl: Places,
) -> int:
    for rot in pl.reed_turns:
        c = Comp("", reed, "", at, rot)
        pads = [pad_world(c, p.x, p.y) for p in reed.pads]
        if any(_edge_distance(p, outline) < 2.5 for p in pads):
            continue
        if any(math.dist(p, q) < 4.0 for p in pads for q in others):
            continue
        near = [
            pad_world(o, p.x, p.y) for o in comps for p in o.kind.pads if math.dist(o.at, at) < 40
        ]
        if any(math.dist(p, q) < 3.0 for p in pads for q in near):
            continue
        return rot
    raise ValueError(f"no place for the reed at {at}")


def _at(p: Place) -> tuple[Point, int]:
    return snap(board_xy((p[0], p[1]))), p[2]


def _entry(f: Frame, ref: Refs, shape: str) -> list[Comp]:
    """IN connector (from the reader's side), OUT connector (to the next piece), the
    Schmitt-trigger stage and the connector-facing resistors."""
    pl = PLACES[shape]
    in_nets = {"3V3": "+3V3", "GND": "GND", "CLK": "CLK_IN", "/PL": "PL_IN", "QH": "QH_OUT"}
    out_nets = {"3V3": "+3V3", "GND": "GND", "CLK": "CLK", "/PL": "PL", "QH": "QH_NEXT"}
    in_nets["LED"], out_nets["LED"] = "LED_IN", "LED_OUT"
    xh = xh_kind(len(PINOUT))
    buf = {"1": "CLK_R", "2": "CLK_N", "3": "CLK_N", "4": "CLK", "5": "PL_R", "6": "PL_N"}
    buf.update({"7": "GND", "8": "PL", "9": "PL_N", "11": "GND", "13": "GND", "14": "+3V3"})
    parts: list[tuple[str, Kind, str, Place, dict[str, str]]] = [
        ("J", xh, "IN", pl.j_in, {str(p.number): in_nets[p.signal] for p in PINOUT}),
        ("J", xh, "OUT", pl.j_out, {str(p.number): out_nets[p.signal] for p in PINOUT}),
        ("U", LVC14, "74LVC14A", pl.buffer, buf),
        ("C", CAP, "100n", pl.buffer_cap, {"1": "+3V3", "2": "GND"}),
        ("R", RES, "100", pl.r_clk, {"1": "CLK_IN", "2": "CLK_R"}),
        ("R", RES, "100", pl.r_pl, {"1": "PL_IN", "2": "PL_R"}),
        ("R", RES, "330", pl.r_led, {"1": "LED_IN", "2": "LED_DIN0"}),
        ("R", RES, "10k", pl.r_led_down, {"1": "LED_DIN0", "2": "GND"}),
        ("R", RES, ohms_value(QH_SERIES_OHMS), pl.r_qh, {"1": "QH_NEXT", "2": "TAIL_DS"}),
        ("R", RES, ohms_value(DS_PULL_DOWN_OHMS), pl.r_qh_down, {"1": "QH_NEXT", "2": "GND"}),
    ]
    out = []
    for prefix, kind, value, place, nets in parts:
        at, rot = _at(place)
        out.append(Comp(ref(prefix), kind, value, at, rot, nets))
    return out


def ohms_value(ohms: int) -> str:
    return f"{ohms // 1000}k" if ohms >= 1000 and ohms % 1000 == 0 else str(ohms)


def _power(ref: Refs, shape: str) -> list[Comp]:
    """The feed's keyed connector, its TVS and the LED bulk capacitor; the power flags."""
    pl = PLACES[shape]
    power = {"1": "+5V", "2": "GND"}
    out = []
    for prefix, kind, value, place in (
        ("J", XT30, "5V IN", pl.feed),
        ("D", TVS, "SMBJ5.0A", pl.tvs),
        ("C", BULK, "1000u", pl.bulk),
    ):
        at, rot = _at(place)
        out.append(Comp(ref(prefix), kind, value, at, rot, dict(power)))
    for net in ("+5V", "GND", "+3V3"):
        out.append(Comp(ref("#FLG"), PWR_FLAG, "PWR_FLAG", (0, 0), 0, {"1": net}))
    return out


def _mounts(
    f: Frame, ref: Refs, holes: dict[str, Point], outline: tuple[Point, ...], shape: str
) -> list[Comp]:
    out = []
    for s in PLACES[shape].mounts:
        at = board_xy(s)
        assert min(math.dist(at, h) for h in holes.values()) >= MOUNT_CLEAR_MM, s
        assert _edge_distance(at, outline) > 4, s
        out.append(Comp(ref("H"), MOUNT, "M3", at))
    return out
