"""Text of a piece's ``.kicad_sch`` (KiCad 9): one sheet, every part's symbol embedded,
each pin joined to its net by a short wire and a label (or marked not connected).

The symbols are the parts' own (pcb_parts.py), drawn as boxes with their pins left and
right; the sheet is for KiCad's checks and for reading the nets, not a drawing to admire.
"""

from __future__ import annotations

from keezbord.hardware.pcb_board import n, q, uid
from keezbord.hardware.pcb_design import UNCONNECTED, Comp, Design
from keezbord.hardware.pcb_parts import Kind

U = 2.54
FONT = "(effects (font (size 1.27 1.27)))"
HIDDEN = "(effects (font (size 1.27 1.27)) (hide yes))"
COLUMN_MM = 60 * U / 2.54 * 1.0
PAGE_HEIGHT = 390.0


def _rows(k: Kind) -> tuple[list[int], list[int]]:
    left = [i for i, p in enumerate(k.pins) if not p.right]
    right = [i for i, p in enumerate(k.pins) if p.right]
    return left, right


def pin_offsets(k: Kind) -> dict[str, tuple[float, float, bool]]:
    """Pin number -> (x, y) of its end in the symbol (y up) and whether it is on the right."""
    left, right = _rows(k)
    out = {}
    for side, idx in ((False, left), (True, right)):
        for r, i in enumerate(idx):
            p = k.pins[i]
            out[p.number] = ((7.62 if side else -7.62) if not k.power else 0.0, -r * U, side)
    return out


def lib_symbol(k: Kind) -> str:
    name = q(k.name)
    if k.power:
        return (
            f"\t\t(symbol {name} (power) (pin_numbers (hide yes)) (pin_names (offset 0) (hide yes))"
            " (exclude_from_sim no) (in_bom yes) (on_board yes)\n"
            f'\t\t\t(property "Reference" "#FLG" (at 0 1.905 0) {HIDDEN})\n'
            f'\t\t\t(property "Value" "PWR_FLAG" (at 0 3.81 0) {FONT})\n'
            f'\t\t\t(property "Footprint" "" (at 0 0 0) {HIDDEN})\n'
            f'\t\t\t(property "Datasheet" "" (at 0 0 0) {HIDDEN})\n'
            f'\t\t\t(property "Description" "power flag" (at 0 0 0) {HIDDEN})\n'
            f'\t\t\t(symbol "PWR_FLAG_0_0" (pin power_out line (at 0 0 90) (length 0)'
            f' (name "~" {FONT}) (number "1" {FONT})))\n'
            '\t\t\t(symbol "PWR_FLAG_0_1" (polyline (pts (xy 0 0) (xy 0 1.27) (xy -1.016 1.905)'
            " (xy 0 2.54) (xy 1.016 1.905) (xy 0 1.27)) (stroke (width 0) (type default))"
            " (fill (type none))))\n"
            "\t\t\t(embedded_fonts no))\n"
        )
    left, right = _rows(k)
    rows = max(len(left), len(right), 1)
    pins = []
    for num, (x, y, on_right) in pin_offsets(k).items():
        p = next(p for p in k.pins if p.number == num)
        angle = 180 if on_right else 0
        pins.append(
            f"\t\t\t\t(pin {p.etype} line (at {n(x)} {n(y)} {angle}) (length 2.54)"
            f" (name {q(p.name)} {FONT}) (number {q(p.number)} {FONT}))\n"
        )
    return (
        f"\t\t(symbol {name} (exclude_from_sim no) (in_bom yes) (on_board yes)\n"
        f'\t\t\t(property "Reference" {q(k.prefix)} (at 0 {n(2 * U)} 0) {FONT})\n'
        f'\t\t\t(property "Value" {name} (at 0 {n(-rows * U - U)} 0) {FONT})\n'
        f'\t\t\t(property "Footprint" {name} (at 0 0 0) {HIDDEN})\n'
        f'\t\t\t(property "Datasheet" "" (at 0 0 0) {HIDDEN})\n'
        f'\t\t\t(property "Description" {q(k.description)} (at 0 0 0) {HIDDEN})\n'
        f"\t\t\t(symbol {q(k.name + '_0_1')} (rectangle (start -5.08 {n(U)})"
        f" (end 5.08 {n(-rows * U)})"
        " (stroke (width 0.254) (type default)) (fill (type background))))\n"
        f"\t\t\t(symbol {q(k.name + '_1_1')}\n{''.join(pins)}\t\t\t)\n"
        "\t\t\t(embedded_fonts no))\n"
    )


def _instance(d: Design, c: Comp, at: tuple[float, float], root: str) -> list[str]:
    k = c.kind
    x0, y0 = at
    sid = uid(d.name, "sym", c.ref)
    fields = [("Reference", c.ref, False), ("Value", c.value, False)]
    fields.append(("Footprint", "" if k.power else k.name, True))
    fields += [("Datasheet", "", True), ("Description", k.description, True)]
    if c.mpn:
        fields.append(("MPN", c.mpn, True))
    if c.hole:
        fields.append(("Hole", c.hole, True))
    out = [
        f"\t(symbol (lib_id {q(k.name)}) (at {n(x0)} {n(y0)} 0) (unit 1) (exclude_from_sim no)"
        f" (in_bom {'no' if k.power else 'yes'}) (on_board {'no' if k.power else 'yes'}) (dnp no)"
        f" (uuid {q(sid)})\n"
    ]
    for i, (name, value, hide) in enumerate(fields):
        fy = y0 - 2 * U - i * 1.27 if name == "Reference" else y0 + 6 * U + i * 1.27
        out.append(
            f"\t\t(property {q(name)} {q(value)} (at {n(x0)} {n(fy)} 0)"
            f" {HIDDEN if hide else FONT})\n"
        )
    for p in k.pins:
        out.append(f"\t\t(pin {q(p.number)} (uuid {q(uid(sid, 'pin', p.number))}))\n")
    out.append(
        f"\t\t(instances (project {q(d.name)} (path {q('/' + root)}"
        f" (reference {q(c.ref)}) (unit 1)))))\n"
    )
    for num, (px, py, on_right) in pin_offsets(k).items():
        ex, ey = x0 + px, y0 - py
        net = c.nets.get(num)
        key = f"{c.ref}/{num}"
        if net is None or net.startswith(UNCONNECTED):
            out.append(f"\t(no_connect (at {n(ex)} {n(ey)}) (uuid {q(uid(d.name, 'nc', key))}))\n")
            continue
        if k.power:
            lx, ly, angle = ex, ey + U, 270
        else:
            lx, ly, angle = (ex + U, ey, 0) if on_right else (ex - U, ey, 180)
        out.append(
            f"\t(wire (pts (xy {n(ex)} {n(ey)}) (xy {n(lx)} {n(ly)}))"
            " (stroke (width 0) (type default))"
            f" (uuid {q(uid(d.name, 'wire', key))}))\n"
        )
        just = "right bottom" if angle == 180 else "left bottom"
        out.append(
            f"\t(label {q(net)} (at {n(lx)} {n(ly)} {angle}) (effects (font (size 1.27 1.27))"
            f" (justify {just})) (uuid {q(uid(d.name, 'label', key))}))\n"
        )
    return out


def schematic_text(d: Design) -> str:
    root = uid(d.name, "root")
    kinds: dict[str, Kind] = {}
    for c in d.comps:
        kinds.setdefault(c.kind.name, c.kind)
    out = [
        '(kicad_sch (version 20250114) (generator "keezbord") (generator_version "9.0")\n',
        f"\t(uuid {q(root)})\n",
        '\t(paper "A1")\n',
        "\t(lib_symbols\n",
        *(lib_symbol(kinds[k]) for k in sorted(kinds) if not kinds[k].board_only),
        "\t)\n",
    ]
    x, y = 25.4, 25.4
    for c in d.comps:
        k = c.kind
        if k.board_only:
            continue
        rows = max(1, len([p for p in k.pins if not p.right]), len([p for p in k.pins if p.right]))
        height = (rows + 9) * U
        if y + height > PAGE_HEIGHT:
            x, y = x + 60.96, 25.4
        out += _instance(d, c, (x, y + 3 * U), root)
        y += height
    out.append('\t(sheet_instances (path "/" (page "1")))\n\t(embedded_fonts no)\n)\n')
    return "".join(out)
