"""``keezbord board template|wiring|bom``: everything needed to build a board."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from keezbord.engine.topology import DEFAULT_SEGMENT, Topology
from keezbord.hardware.geometry import (
    DEFAULT_HOLE_DIAMETER_MM,
    DEFAULT_PITCH_MM,
    Geometry,
    geometry_for,
)
from keezbord.hardware.wiring import Wiring, chip_pin, default_wiring, pin_letter

SHEET_CHOICES = ("a4", "a3", "letter", "legal", "none")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seats", type=int, default=4, help="2 to 8 (default 4)")
    p.add_argument(
        "--segment", type=int, default=DEFAULT_SEGMENT, help="track holes a seat (default 16)"
    )
    p.add_argument(
        "--pitch", type=float, default=DEFAULT_PITCH_MM, help="hole centre spacing, mm (25)"
    )
    p.add_argument(
        "--hole-diameter",
        type=float,
        default=DEFAULT_HOLE_DIAMETER_MM,
        help="drill size, mm (14)",
    )


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="what", required=True)
    t = sub.add_parser("template", help="1:1 drilling template, SVG or PDF")
    _common(t)
    t.add_argument("--puzzle", action="store_true", help="draw the cuts into one piece a seat")
    t.add_argument(
        "--sheet",
        choices=SHEET_CHOICES,
        default="none",
        help="split onto paper sheets (default: one large sheet)",
    )
    t.add_argument("--out", required=True, help="FILE.svg or FILE.pdf")
    w = sub.add_parser("wiring", help="wiring sheet: chip by chip, LED by LED")
    _common(w)
    w.add_argument("--format", choices=("text", "csv", "json"), default="text")
    w.add_argument("--out", help="write to this file instead of standard output")
    b = sub.add_parser("bom", help="bill of materials and power budget")
    _common(b)
    b.add_argument("--puzzle", action="store_true", help="one piece a seat (connectors, caps)")
    b.add_argument(
        "--brightness",
        type=float,
        default=0.25,
        help="LED brightness cap, fraction of full white (default 0.25)",
    )
    b.add_argument(
        "--max-lit", type=int, default=None, help="LEDs lit at once (default: all of them)"
    )
    b.add_argument("--format", choices=("text", "json"), default="text")
    g = sub.add_parser("geometry", help="the board as JSON (what the web page draws)")
    _common(g)


def _geometry(args: argparse.Namespace) -> Geometry:
    return geometry_for(Topology(args.seats, args.segment), args.pitch, args.hole_diameter)


def run_board(args: argparse.Namespace) -> int:
    g = _geometry(args)
    if args.what == "template":
        return _template(args, g)
    if args.what == "geometry":
        json.dump(g.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    wiring = default_wiring(g.topology, g)
    if args.what == "wiring":
        text = _wiring_text(args.format, g, wiring)
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"wrote {args.out}: {wiring.chips} chips, {len(wiring.led_order)} LEDs")
        else:
            sys.stdout.write(text)
        return 0
    from keezbord.hardware.bom import bill_of_materials

    bom = bill_of_materials(
        g, wiring, puzzle=args.puzzle, brightness=args.brightness, lit=args.max_lit
    )
    if args.format == "json":
        print(json.dumps(bom.to_json(), ensure_ascii=False, indent=1))
    else:
        print(bom.text())
    return 0


def _template(args: argparse.Namespace, g: Geometry) -> int:
    from keezbord.hardware.template import write_template

    sheet = None if args.sheet == "none" else args.sheet
    files = write_template(g, Path(args.out), sheet=sheet, puzzle=args.puzzle)
    print(
        f"{g.seats} seats, {len(g.holes)} holes, board {g.width:.0f} x {g.height:.0f} mm, "
        f"drill \u00d8{g.hole_diameter:g} mm at pitch {g.pitch:g} mm"
    )
    for f in files:
        print(f"wrote {f}")
    return 0


def _wiring_text(fmt: str, g: Geometry, w: Wiring) -> str:
    if fmt == "csv":
        return w.to_csv()
    if fmt == "json":
        return json.dumps(w.to_json(), indent=1) + "\n"
    lines = [
        f"keezbord wiring sheet: {g.seats} seats, {len(g.holes)} holes, {w.chips} x 74HC165, "
        f"{len(w.led_order)} x WS2812",
        "",
        "Switch chain: chip 0's QH (pin 9) to the reader; each chip's QH to the next chip's "
        "DS (pin 10);",
        "the last chip's DS to GND. Bit i = i-th bit shifted out = chip i//8, input D(7 - i%8).",
        "",
    ]
    for chip in range(w.chips):
        cells = []
        for bit in range(chip * 8, chip * 8 + 8):
            _, pin = chip_pin(bit)
            hole = w.hole_at_switch(bit)
            cells.append(f"{pin}/{pin_letter(bit)}={hole or '(to VCC)'}")
        lines.append(f"chip {chip:>2}: " + "  ".join(cells))
    lines += ["", "LED chain: data from the 74AHCT125 into LED 0, then in this order:", ""]
    for start in range(0, len(w.led_order), 8):
        cells = [
            f"{i:>3}={w.hole_at_led(i)}" for i in range(start, min(start + 8, len(w.led_order)))
        ]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"
