"""The terminator plug's PCB: the signature chip at the chain's far end, on a small board
that plugs into the last piece's OUT connector, so every piece is the same board.

Its 74HC165's inputs are tied to the signature byte (H first, `signature_ties`), its DS
to 3V3 (the tail, read as 1 after the signature), CLK and /PL in through 100 Ohm (inputs
that face a connector), QH out to the connector's QH (the piece's 1 kOhm is at its OUT,
the reading end). The LED data that reaches the plug ends there.
"""

from __future__ import annotations

from keezbord.hardware.pcb_design import (
    UNCONNECTED,
    Comp,
    Design,
    Refs,
    board_xy,
    ohms_value,
    snap,
)
from keezbord.hardware.pcb_parts import CAP, HC165, PWR_FLAG, RES, xh_kind
from keezbord.hardware.pinout import PINOUT
from keezbord.hardware.plane import Point
from keezbord.hardware.wiring import HC165_PINS, REFERENCE_SIGNATURE, WiringError

PLUG_OUTLINE: tuple[Point, ...] = ((-5.0, -14.0), (30.0, -14.0), (30.0, 9.0), (-5.0, 9.0))
SERIES_OHMS = 100


def plug_design(signature: int = REFERENCE_SIGNATURE) -> Design:
    if not 0 <= signature <= 255:
        raise WiringError(f"the signature is one byte (0 to 255), not {signature}")
    ref = Refs()
    nets = {"3V3": "+3V3", "GND": "GND", "CLK": "CLK_IN", "/PL": "PL_IN", "QH": "QH_OUT"}
    j = Comp(
        ref("J"),
        xh_kind(len(PINOUT)),
        "IN",
        snap(board_xy((0.0, 5.0))),
        0,
        {str(p.number): nets[p.signal] for p in PINOUT if p.signal in nets},
    )
    chip = {
        str(HC165_PINS["/PL"]): "PL",
        str(HC165_PINS["CLK"]): "CLK",
        str(HC165_PINS["GND"]): "GND",
        str(HC165_PINS["QH"]): "QH_OUT",
        str(HC165_PINS["DS"]): "+3V3",
        str(HC165_PINS["CLK INH"]): "GND",
        str(HC165_PINS["VCC"]): "+3V3",
    }
    for k, letter in enumerate("HGFEDCBA"):
        chip[str(HC165_PINS[letter])] = "+3V3" if signature >> (7 - k) & 1 else "GND"
    at = snap(board_xy((12.0, -6.0)))
    comps = [
        j,
        Comp(ref("U"), HC165, "74HC165", at, 90, chip),
        Comp(
            ref("C"), CAP, "100n", snap((at[0] + 8.0, at[1] - 4.0)), 90, {"1": "+3V3", "2": "GND"}
        ),
        Comp(
            ref("R"),
            RES,
            ohms_value(SERIES_OHMS),
            snap(board_xy((2.0, -10.0))),
            0,
            {"1": "CLK_IN", "2": "CLK"},
        ),
        Comp(
            ref("R"),
            RES,
            ohms_value(SERIES_OHMS),
            snap(board_xy((2.0, -4.0))),
            0,
            {"1": "PL_IN", "2": "PL"},
        ),
    ]
    for net in ("GND", "+3V3"):
        comps.append(Comp(ref("#FLG"), PWR_FLAG, "PWR_FLAG", (0, 0), 0, {"1": net}))
    for c in comps:
        for p in c.kind.pins:
            c.nets.setdefault(p.number, f"{UNCONNECTED}({c.ref}-{p.name}-Pad{p.number})")
    outline = tuple(board_xy(p) for p in PLUG_OUTLINE)
    return Design("keezbord-terminator", "terminator", outline, comps, {}, ())
