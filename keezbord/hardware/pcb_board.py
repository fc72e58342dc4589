"""Text of a piece's ``.kicad_pcb`` (KiCad 9) and its ``.kicad_pro``: footprints with
their own pads, the routed tracks and vias, the outline and a ground zone on the bottom.

Every UUID is derived from the project's name and the item's own name (`uid`), so the
same design always gives the same bytes. The footprints carry each symbol's path, so
KiCad's DRC checks them against the schematic (``--schematic-parity``).
"""

from __future__ import annotations

import json
import uuid

from keezbord.hardware.pcb_design import OFFSET, UNCONNECTED, Comp, Design
from keezbord.hardware.pcb_route import CLEARANCE, EDGE_CLEARANCE, SIGNAL_WIDTH, VIA, Routed

NAMESPACE = uuid.UUID("6f1c3a52-6a0e-4c1e-9a57-6b65657a626f")
ZONE_CLEARANCE = 0.3
# The design rules, within a common low-cost fab's two-layer capabilities (docs/hardware.md)
RULES = {
    "min_clearance": CLEARANCE,
    "min_track_width": SIGNAL_WIDTH,
    "min_via_diameter": VIA[0],
    "min_via_annular_width": 0.15,
    "min_through_hole_diameter": VIA[1],
    "min_hole_clearance": 0.25,
    "min_hole_to_hole": 0.5,
    "min_copper_edge_clearance": EDGE_CLEARANCE,
    "min_silk_clearance": 0.0,
    "min_microvia_diameter": 0.2,
    "min_microvia_drill": 0.1,
    "solder_mask_to_copper_clearance": 0.0,
}


def uid(*parts: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(parts)))


def q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def n(v: float) -> str:
    """A number as KiCad writes it: no trailing zeros."""
    s = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _prop(name: str, value: str, key: str, hide: bool = False) -> str:
    h = " (hide yes)" if hide else ""
    return (
        f'\t\t(property {q(name)} {q(value)} (at 0 0 0) (layer "F.Fab"){h}'
        f" (uuid {q(uid(key, name))})\n"
        "\t\t\t(effects (font (size 1 1) (thickness 0.15))))\n"
    )


def board_net(name: str) -> str:
    """The board's name of a net: the schematic's local labels sit on the root sheet."""
    return name if name.startswith(UNCONNECTED) else "/" + name


def footprint(d: Design, c: Comp, nets: dict[str, int]) -> str:
    k = c.kind
    key = f"{d.name}/fp/{c.ref}"
    tht = any(p.kind == "thru_hole" for p in k.pads)
    attr = (
        "board_only exclude_from_pos_files exclude_from_bom"
        if k.board_only
        else ("through_hole" if tht else "smd")
    )
    out = [
        f'\t(footprint {q(k.name)} (layer "F.Cu") (uuid {q(uid(key))})'
        f" (at {n(c.at[0])} {n(c.at[1])} {c.rot})\n",
        _prop("Reference", c.ref, key),
        _prop("Value", c.value, key),
        _prop("Footprint", k.name, key, hide=True),
        _prop("Datasheet", "", key, hide=True),
        _prop("Description", k.description, key, hide=True),
    ]
    if c.mpn:
        out.append(_prop("MPN", c.mpn, key, hide=True))
    if c.hole:
        out.append(_prop("Hole", c.hole, key, hide=True))
    if not k.board_only:
        out.append(
            f'\t\t(path {q("/" + uid(d.name, "sym", c.ref))}) (sheetname "/")'
            f" (sheetfile {q(d.name + '.kicad_sch')})\n"
        )
    out.append(f"\t\t(attr {attr})\n")
    for p in k.pads:
        at = f"(at {n(p.x)} {n(p.y)} {c.rot})" if c.rot else f"(at {n(p.x)} {n(p.y)})"
        if p.kind == "smd":
            layers = '"F.Cu" "F.Mask" "F.Paste"'
        elif p.kind == "np_thru_hole":
            layers = '"*.Cu" "*.Mask"'
        else:
            layers = '"*.Cu" "*.Mask"'
        drill = f" (drill {n(p.drill)})" if p.drill else ""
        rr = " (roundrect_rratio 0.25)" if p.shape == "roundrect" else ""
        net = c.nets.get(p.number)
        netx = f" (net {nets[net]} {q(board_net(net))})" if net else ""
        out.append(
            f"\t\t(pad {q(p.number)} {p.kind} {p.shape} {at} (size {n(p.w)} {n(p.h)}){drill} "
            f"(layers {layers}){rr}{netx} (uuid {q(uid(key, 'pad', p.number))}))\n"
        )
    out.append("\t)\n")
    return "".join(out)


def board_text(d: Design, routed: dict[str, Routed]) -> str:
    names = d.nets()
    nets = {name: i for i, name in enumerate(names, start=1)}
    out = [
        '(kicad_pcb (version 20241229) (generator "keezbord") (generator_version "9.0")\n',
        "\t(general (thickness 1.6) (legacy_teardrops no))\n",
        '\t(paper "A2")\n',
        '\t(layers (0 "F.Cu" signal) (2 "B.Cu" signal) (9 "F.Adhes" user "F.Adhesive")'
        ' (11 "B.Adhes" user "B.Adhesive") (13 "F.Paste" user) (15 "B.Paste" user)'
        ' (5 "F.SilkS" user "F.Silkscreen") (7 "B.SilkS" user "B.Silkscreen")'
        ' (1 "F.Mask" user) (3 "B.Mask" user) (17 "Dwgs.User" user "User.Drawings")'
        ' (19 "Cmts.User" user "User.Comments") (25 "Edge.Cuts" user) (27 "Margin" user)'
        ' (31 "F.CrtYd" user "F.Courtyard") (29 "B.CrtYd" user "B.Courtyard")'
        ' (35 "F.Fab" user) (33 "B.Fab" user))\n',
        f"\t(setup (pad_to_mask_clearance 0) (allow_soldermask_bridges_in_footprints no)"
        f" (tenting front back) (aux_axis_origin {n(OFFSET[0])} {n(OFFSET[1])})"
        f" (grid_origin {n(OFFSET[0])} {n(OFFSET[1])}))\n",
        '\t(net 0 "")\n',
    ]
    out += [f"\t(net {i} {q(board_net(name))})\n" for name, i in nets.items()]
    for c in d.comps:
        if not c.kind.power:
            out.append(footprint(d, c, nets))
    pts = " ".join(f"(xy {n(x)} {n(y)})" for x, y in d.outline)
    out.append(
        f'\t(gr_poly (pts {pts}) (stroke (width 0.1) (type default)) (fill no) (layer "Edge.Cuts")'
        f" (uuid {q(uid(d.name, 'outline'))}))\n"
    )
    for name in sorted(routed):
        r = routed[name]
        for k, (layer, a, b, w, net) in enumerate(r.tracks):
            out.append(
                f"\t(segment (start {n(a[0])} {n(a[1])}) (end {n(b[0])} {n(b[1])}) (width {n(w)})"
                f" (layer {q(layer)}) (net {nets[net]})"
                f" (uuid {q(uid(d.name, 'track', net, str(k)))}))\n"
            )
        for k, (at, net) in enumerate(r.vias):
            out.append(
                f"\t(via (at {n(at[0])} {n(at[1])}) (size {n(VIA[0])}) (drill {n(VIA[1])})"
                f' (layers "F.Cu" "B.Cu") (net {nets[net]})'
                f" (uuid {q(uid(d.name, 'via', net, str(k)))}))\n"
            )
    out.append(
        f'\t(zone (net {nets["GND"]}) (net_name "{board_net("GND")}") (layer "B.Cu")'
        f" (uuid {q(uid(d.name, 'zone'))})"
        f" (hatch edge 0.5) (connect_pads yes (clearance {n(ZONE_CLEARANCE)})) (min_thickness 0.25)"
        " (filled_areas_thickness no) (fill (thermal_gap 0.5) (thermal_bridge_width 0.5))"
        f" (polygon (pts {pts})))\n"
    )
    out.append("\t(embedded_fonts no)\n)\n")
    return "".join(out)


def project_text(d: Design) -> str:
    """The ``.kicad_pro``: the design rules and the net class; library link checks off
    (the files carry their own symbols and footprints, no library is installed)."""
    pro = {
        "board": {
            "design_settings": {
                "rules": RULES,
                "rule_severities": {
                    "lib_footprint_issues": "ignore",
                    "lib_footprint_mismatch": "ignore",
                },
            }
        },
        "erc": {
            "rule_severities": {
                "lib_symbol_issues": "ignore",
                "lib_symbol_mismatch": "ignore",
                "footprint_link_issues": "ignore",
            }
        },
        "meta": {"filename": f"{d.name}.kicad_pro", "version": 3},
        "net_settings": {
            "classes": [
                {
                    "name": "Default",
                    "clearance": CLEARANCE,
                    "track_width": SIGNAL_WIDTH,
                    "via_diameter": VIA[0],
                    "via_drill": VIA[1],
                    "wire_width": 6,
                    "bus_width": 12,
                    "line_style": 0,
                    "pcb_color": "rgba(0, 0, 0, 0.000)",
                    "schematic_color": "rgba(0, 0, 0, 0.000)",
                    "priority": 2147483647,
                    "microvia_diameter": 0.3,
                    "microvia_drill": 0.1,
                    "diff_pair_gap": 0.25,
                    "diff_pair_via_gap": 0.25,
                    "diff_pair_width": 0.2,
                }
            ],
            "meta": {"version": 4},
        },
        "pcbnew": {"last_paths": {}},
        "schematic": {"legacy_lib_dir": "", "legacy_lib_list": []},
        "sheets": [[uid(d.name, "root"), "Root"]],
    }
    return json.dumps(pro, indent=2, sort_keys=True) + "\n"
