"""``keezbord board template|wiring|bom|geometry|section|pcb``: everything needed to build a
board."""

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
from keezbord.hardware.pinout import pinout_lines
from keezbord.hardware.wiring import (
    REFERENCE_SIGNATURE,
    Wiring,
    bus_connections,
    chain_connections,
    default_wiring,
    input_pin,
    level_shifter_connections,
    pin_letter,
)
from keezbord.host.config import BoardConfig
from keezbord.host.errors import UsageError

SHEET_CHOICES = ("a4", "a3", "letter", "legal", "none")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seats", type=int, default=None, help="2 to 8 (default 4)")
    p.add_argument("--segment", type=int, default=None, help="track holes a seat (default 16)")
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
    t.add_argument(
        "--underside",
        action="store_true",
        help="the board seen from below (mirrored): each hole's chip, input and LED, the "
        "chips' places, the chain's route",
    )
    t.add_argument("--out", required=True, help="FILE.svg, FILE.pdf or FILE.dxf (CNC, laser)")
    w = sub.add_parser("wiring", help="wiring sheet: chip by chip, LED by LED")
    _common(w)
    w.add_argument("--format", choices=("text", "csv", "json"), default="text")
    w.add_argument(
        "--config", metavar="FILE", help="board.toml: seats, segment and scanner.signature from it"
    )
    w.add_argument(
        "--signature",
        type=_signature,
        default=None,
        metavar="BYTE|none",
        help="the signature chip's byte (default: scanner.signature with "
        "--config, else 0xA5, the reference design); none: no signature chip",
    )
    w.add_argument("--out", help="write to this file instead of standard output")
    b = sub.add_parser("bom", help="bill of materials, power budget, fuse and wire gauge")
    _common(b)
    b.add_argument(
        "--config",
        metavar="FILE",
        help="board.toml: seats, segment, "
        "leds.brightness, leds.budget_ma and scanner.signature from it",
    )
    b.add_argument("--puzzle", action="store_true", help="one piece a seat (connectors, caps)")
    b.add_argument(
        "--brightness",
        type=float,
        default=None,
        help="LED brightness cap, fraction of full white (default: leds.brightness, 0.4)",
    )
    b.add_argument(
        "--budget-ma",
        type=float,
        default=None,
        help="LED current budget in mA (default: leds.budget_ma, 2000)",
    )
    b.add_argument(
        "--max-lit", type=int, default=None, help="LEDs lit at once (default: all of them)"
    )
    b.add_argument(
        "--signature",
        type=_signature,
        default=None,
        metavar="BYTE|none",
        help="the signature chip (default: scanner.signature with --config, "
        "else 0xA5, the reference design)",
    )
    b.add_argument("--format", choices=("text", "json"), default="text")
    s = sub.add_parser("schematic", help="schematic (SVG) of a piece, the controller, the plug")
    _common(s)
    which = s.add_mutually_exclusive_group(required=True)
    for name, what in (
        ("piece", "one piece of the board (every piece is the same)"),
        ("controller", "the controller end: Pico, LED level shifter, card reader"),
        ("terminator", "the terminator plug with the signature chip"),
    ):
        which.add_argument(f"--{name}", dest="part", action="store_const", const=name, help=what)
    s.add_argument("--config", metavar="FILE", help="board.toml: seats, segment, signature")
    s.add_argument(
        "--signature", type=_signature, default=None, metavar="BYTE", help="the plug's byte"
    )
    s.add_argument("--out", help="FILE.svg (default: standard output)")
    g = sub.add_parser("geometry", help="the board as JSON (what the web page draws)")
    _common(g)
    sec = sub.add_parser(
        "section", help="the stack-up under a hole: cross-section SVG and the reed's margins"
    )
    sec.add_argument("--out", help="FILE.svg: the cross-section in mm (else only the margins)")
    from keezbord.host.commands.board_pcb import add_pcb_arguments

    add_pcb_arguments(sub)


def _signature(text: str) -> int | str:
    if text.lower() == "none":
        return "none"
    try:
        v = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a byte: {text!r} (e.g. 0xA5, or none)") from None
    if not 0 <= v <= 255:
        raise argparse.ArgumentTypeError(f"a byte is 0 to 255, not {v}")
    return v


def _chosen_signature(args: argparse.Namespace, cfg: BoardConfig | None) -> int | None:
    """--signature, else the configuration's, else the reference design's."""
    if args.signature == "none":
        return None
    if args.signature is not None:
        return int(args.signature)
    return cfg.scanner.signature if cfg is not None else REFERENCE_SIGNATURE


def _geometry(args: argparse.Namespace) -> Geometry:
    seats = 4 if args.seats is None else args.seats
    segment = DEFAULT_SEGMENT if args.segment is None else args.segment
    return geometry_for(Topology(seats, segment), args.pitch, args.hole_diameter)


def run_board(args: argparse.Namespace) -> int:
    if args.what == "section":
        return _section(args)
    if args.what == "pcb":
        from keezbord.host.commands.board_pcb import run_pcb

        return run_pcb(args)
    cfg: BoardConfig | None = None
    if getattr(args, "config", None):
        from keezbord.host.config import load_config

        cfg = load_config(args.config)
        args.seats = args.seats if args.seats is not None else cfg.seats
        args.segment = args.segment if args.segment is not None else cfg.segment
    g = _geometry(args)
    if args.what == "template":
        return _template(args, g)
    if args.what == "geometry":
        json.dump(g.to_json(), sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    wiring = default_wiring(g.topology, g)
    if args.what == "schematic":
        return _schematic(args, g, wiring, _chosen_signature(args, cfg))
    if args.what == "wiring":
        text = _wiring_text(args.format, g, wiring, _chosen_signature(args, cfg))
        if args.out:
            Path(args.out).write_text(text, encoding="utf-8")
            print(f"wrote {args.out}: {wiring.chips} chips, {len(wiring.led_order)} LEDs")
        else:
            sys.stdout.write(text)
        return 0
    from keezbord.engine.cards import deck
    from keezbord.hardware.bom import BomError, bill_of_materials
    from keezbord.host.config import LedConfig

    leds = cfg.leds if cfg is not None else LedConfig()
    signature = _chosen_signature(args, cfg)
    try:
        bom = bill_of_materials(
            g,
            wiring,
            puzzle=args.puzzle,
            brightness=args.brightness if args.brightness is not None else leds.brightness,
            budget_ma=args.budget_ma if args.budget_ma is not None else leds.budget_ma,
            lit=args.max_lit,
            signature=signature,
            pi_direct=cfg is not None and cfg.scanner.kind == "gpio",
            cards=len(deck(g.seats)),
        )
    except BomError as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        print(json.dumps(bom.to_json(), ensure_ascii=False, indent=1))
    else:
        print(bom.text())
    return 0


def _section(args: argparse.Namespace) -> int:
    from keezbord.hardware.section import section_svg
    from keezbord.hardware.stackup import PLACEMENT_SLACK, REFERENCE, margins, placement_margins

    m = margins(REFERENCE)
    own, neighbour = placement_margins(REFERENCE)
    if args.out:
        if Path(args.out).suffix.lower() != ".svg":
            raise UsageError(f"the cross-section is an SVG: {args.out} does not end in .svg")
        try:
            Path(args.out).write_text(section_svg(REFERENCE, m), encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.out}: {e.strerror}") from None
        print(f"wrote {args.out}")
    print(m.text(REFERENCE))
    print(
        f"a reed glued up to {PLACEMENT_SLACK:g} mm off its place (along or across the "
        f"track): margins at least {own:.2f} and {neighbour:.2f}"
    )
    return 0 if m.ok and min(own, neighbour) >= 1 else 1


def _schematic(args: argparse.Namespace, g: Geometry, w: Wiring, signature: int | None) -> int:
    from keezbord.hardware import schematic
    from keezbord.hardware.schematic_svg import schematic_svg

    if args.part == "piece":
        drawn = schematic.piece(w.chips // g.seats, len(w.led_order) // g.seats)
    elif args.part == "controller":
        drawn = schematic.controller()
    elif signature is None:
        raise UsageError("a terminator plug without a signature chip: give --signature 0xA5")
    else:
        drawn = schematic.terminator(signature)
    svg = schematic_svg(drawn)
    if args.out:
        try:
            Path(args.out).write_text(svg, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.out}: {e.strerror}") from None
        print(f"wrote {args.out}: {drawn.title}")
    else:
        sys.stdout.write(svg)
    return 0


def _template(args: argparse.Namespace, g: Geometry) -> int:
    from keezbord.hardware.template import write_template

    suffix = Path(args.out).suffix.lower()
    if suffix == ".pdf":
        from keezbord.host.extras import require

        require("board", "a PDF template")
    sheet = None if args.sheet == "none" else args.sheet
    if suffix == ".dxf":
        from keezbord.hardware.dxf import write_dxf

        if sheet is not None:
            raise UsageError("a DXF is one drawing at 1:1: leave out --sheet")
        files = [write_dxf(g, Path(args.out), puzzle=args.puzzle, underside=args.underside)]
    else:
        under = default_wiring(g.topology, g) if args.underside else None
        files = write_template(g, Path(args.out), sheet=sheet, puzzle=args.puzzle, underside=under)
    print(
        f"{g.seats} seats, {len(g.holes)} holes, board {g.width:.0f} x {g.height:.0f} mm, "
        f"drill \u00d8{g.hole_diameter:g} mm at pitch {g.pitch:g} mm"
    )
    for f in files:
        print(f"wrote {f}")
    return 0


def _wiring_text(fmt: str, g: Geometry, w: Wiring, signature: int | None) -> str:
    if fmt == "csv":
        return w.to_csv()
    if fmt == "json":
        return json.dumps(w.to_json(), indent=1) + "\n"
    sig = " + 1 signature chip" if signature is not None else ""
    lines = [
        f"keezbord wiring sheet: {g.seats} seats, {len(g.holes)} holes, {w.chips} x 74HC165"
        f"{sig}, {len(w.led_order)} x WS2812",
        "",
        "Switch chain (data flows towards chip 0; chip k's DS is fed by chip k+1's QH):",
        *(f"  {line}" for line in chain_connections(w.chips, signature)),
        "CLK and /PL bus:",
        *(f"  {line}" for line in bus_connections(g.seats)),
        "Signal connector, IN and OUT on every piece (keezbord board schematic):",
        *(f"  {line}" for line in pinout_lines()),
        "Bit i = the i-th bit read after /PL (SPI mode 0, MSB first): chip i//8, "
        "input H first; bit 0 = chip 0's H (pin 6).",
        "",
        "Inputs, chip by chip: letter(pin)=hole; every used input has a 10 kΩ pull-up to "
        "3V3 and its reed switch to GND.",
    ]
    for chip in range(w.chips):
        cells = []
        for bit in range(chip * 8, chip * 8 + 8):
            hole = w.hole_at_switch(bit)
            cells.append(f"{pin_letter(bit)}({input_pin(bit)})={hole or '(to 3V3)'}")
        lines.append(f"chip {chip:>2}: " + "  ".join(cells))
    lines += [
        "",
        "LED data (3.3 V to 5 V):",
        *(f"  {line}" for line in level_shifter_connections()),
        "Power: 5 V and GND into every board piece (keezbord board bom gives the fuse "
        "and the wire gauge); never tie the board's 5 V to the Pico's VBUS.",
        "",
        "LED chain: data from the 74AHCT125 into LED 0, then in this order:",
        "",
    ]
    for start in range(0, len(w.led_order), 8):
        cells = [
            f"{i:>3}={w.hole_at_led(i)}" for i in range(start, min(start + 8, len(w.led_order)))
        ]
        lines.append("  ".join(cells))
    return "\n".join(lines) + "\n"
