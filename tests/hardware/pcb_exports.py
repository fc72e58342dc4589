"""Reading a generated PCB back from what KiCad exports: the schematic's netlist (XML), the
position file and the Edge.Cuts Gerber; and KiCad's own checks, run on a project folder."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

from keezbord.hardware.pcb_design import OFFSET
from keezbord.hardware.pcb_make import kicad_cli, kicad_env
from keezbord.hardware.pinout import pin_of
from keezbord.hardware.plane import Point
from keezbord.hardware.wiring import HC165_PINS

ROOT = Path(__file__).resolve().parents[2]
# Tests marked ``kicad`` run KiCad 9's kicad-cli (and pcbnew in Debian's python3), which
# ./dev.sh test installs; they skip only on a machine where kicad-cli is truly absent.
KICAD = [
    pytest.mark.kicad,
    pytest.mark.skipif(
        shutil.which("kicad-cli") is None,
        reason="kicad-cli (KiCad 9) is not installed; ./dev.sh test installs it",
    ),
]


def cli(args: list[str], cfg: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [kicad_cli(), *args], env=kicad_env(cfg), capture_output=True, text=True, check=False
    )


@dataclass
class Check:
    returncode: int
    report: dict[str, object]
    stdout: str

    @property
    def clean(self) -> bool:
        """Exit 0, nothing reported, and (DRC) the schematic really was read: without it
        the parity check prints a warning and still exits 0."""
        keys = ("violations", "unconnected_items", "schematic_parity")
        return (
            self.returncode == 0
            and not any(self.items(k) for k in keys)
            and "Failed to fetch schematic" not in self.stdout
        )

    def items(self, key: str) -> list[object]:
        found = self.report.get(key, [])
        assert isinstance(found, list)
        if key == "violations":  # the sheets' lists (ERC)
            for sheet in self.report.get("sheets", []):  # type: ignore[attr-defined]
                found = found + list(sheet.get("violations", []))
        return found


def erc(project: Path, name: str, cfg: Path) -> Check:
    cfg.mkdir(parents=True, exist_ok=True)
    out = cfg / "erc.json"
    r = cli(
        [
            "sch",
            "erc",
            "--exit-code-violations",
            "--format",
            "json",
            "-o",
            str(out),
            str(project / f"{name}.kicad_sch"),
        ],
        cfg,
    )
    return Check(r.returncode, json.loads(out.read_text()), r.stdout + r.stderr)


def drc(project: Path, name: str, cfg: Path) -> Check:
    cfg.mkdir(parents=True, exist_ok=True)
    out = cfg / "drc.json"
    r = cli(
        [
            "pcb",
            "drc",
            "--exit-code-violations",
            "--schematic-parity",
            "--format",
            "json",
            "-o",
            str(out),
            str(project / f"{name}.kicad_pcb"),
        ],
        cfg,
    )
    return Check(r.returncode, json.loads(out.read_text()), r.stdout + r.stderr)


@dataclass
class Netlist:
    fields: dict[str, dict[str, str]]  # ref -> field name -> value
    nets: dict[str, set[tuple[str, str]]]  # net name -> {(ref, pin)}

    def net_of(self, ref: str, pin: str) -> str:
        return next(n for n, nodes in self.nets.items() if (ref, pin) in nodes)

    def on(self, net: str) -> set[tuple[str, str]]:
        return self.nets[net]


def netlist(project: Path, name: str, cfg: Path) -> Netlist:
    cfg.mkdir(parents=True, exist_ok=True)
    out = cfg / "net.xml"
    r = cli(
        [
            "sch",
            "export",
            "netlist",
            "--format",
            "kicadxml",
            "-o",
            str(out),
            str(project / f"{name}.kicad_sch"),
        ],
        cfg,
    )
    assert r.returncode == 0, r.stderr
    root = ET.parse(out).getroot()
    fields: dict[str, dict[str, str]] = {}
    for comp in root.iter("comp"):
        f = {"value": comp.findtext("value") or "", "footprint": comp.findtext("footprint") or ""}
        for field in comp.iter("field"):
            f[field.get("name", "")] = field.text or ""
        fields[comp.get("ref", "")] = f
    nets = {
        net.get("name", ""): {(n.get("ref", ""), n.get("pin", "")) for n in net.iter("node")}
        for net in root.iter("net")
    }
    return Netlist(fields, nets)


def positions(pos_csv: Path) -> dict[str, Point]:
    """Footprint centres from the position file, in the piece's frame (origin the start
    hole, y down: the file's y is up)."""
    with pos_csv.open() as f:
        return {r["Ref"]: (float(r["PosX"]), -float(r["PosY"])) for r in csv.DictReader(f)}


def drill_holes(drl: Path) -> list[tuple[float, Point]]:
    """(diameter, centre in the frame) of every hole of an Excellon drill file (metric,
    decimal, y up as KiCad writes it)."""
    sizes: dict[str, float] = {}
    tool = ""
    out: list[tuple[float, Point]] = []
    for line in drl.read_text().splitlines():
        if m := re.fullmatch(r"(T\d+)C([\d.]+)", line):
            sizes[m.group(1)] = float(m.group(2))
        elif re.fullmatch(r"T\d+", line):
            tool = line
        elif m := re.fullmatch(r"X(-?[\d.]+)Y(-?[\d.]+)", line):
            at = (float(m.group(1)) - OFFSET[0], -float(m.group(2)) - OFFSET[1])
            out.append((sizes[tool], at))
    return out


def edge_cuts(gerber: Path) -> list[Point]:
    """The outline's corners from the Edge.Cuts Gerber (format 4.6, mm), in the frame."""
    pts: list[Point] = []
    for m in re.finditer(r"X(-?\d+)Y(-?\d+)D0[12]\*", gerber.read_text()):
        p = (int(m.group(1)) / 1e6 - OFFSET[0], -int(m.group(2)) / 1e6 - OFFSET[1])
        if not pts or pts[-1] != p:
            pts.append(p)
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    return pts


LETTER = {str(pin): name for name, pin in HC165_PINS.items()}


def connector(n: Netlist, value: str) -> str:
    return next(r for r, f in n.fields.items() if f["value"] == value and r.startswith("J"))


def chain(n: Netlist) -> list[str]:
    """The shift registers in chain order, walked on the nets: chip 0's QH leaves by the IN
    connector's QH pin, chip k+1's QH feeds chip k's DS."""
    qh = str(HC165_PINS["QH"])
    ds = str(HC165_PINS["DS"])
    chips = [r for r, f in n.fields.items() if f["value"] == "74HC165"]
    line = n.net_of(connector(n, "IN"), str(pin_of("QH")))
    order: list[str] = []
    while True:
        nxt = [c for c in chips if (c, qh) in n.on(line)]
        if not nxt:
            return order
        order.append(nxt[0])
        line = n.net_of(nxt[0], ds)


def reed_bits(n: Netlist) -> dict[str, int]:
    """Each reed's hole (piece-local) and the chain bit its input is read on, from the
    nets: the chip's place in the chain and the input's letter (H first)."""
    chips = chain(n)
    out = {}
    for ref, f in n.fields.items():
        if f["value"] != "MDSR-7":
            continue
        ((chip, pin),) = [(r, p) for r, p in n.on(n.net_of(ref, "1")) if r in chips]
        out[f["Hole"]] = 8 * chips.index(chip) + 7 - "ABCDEFGH".index(LETTER[pin])
    return out
