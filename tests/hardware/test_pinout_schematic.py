"""The one signal connector and the generated schematics: the pinout keeps its rules
(ground between fast lines, LED data away from QH, a mirrored cable never shorts 3V3),
and the SVG drawn by `keezbord board schematic`, read back, shows every net of the
pinout on every connector, QH's 1 kΩ at each reading end, the PN532 on 3.3 V and the
signature chip on the terminator plug."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

import pytest

from keezbord.hardware.pinout import (
    PINOUT,
    QH_SERIES_OHMS,
    Pin,
    mirror_notes,
    pin_of,
    pinout_problems,
)
from keezbord.host.cli import main

SVG = "{http://www.w3.org/2000/svg}"
KIND = {p.signal: p.kind for p in PINOUT}


def drawn(tmp_path: Path, which: str, *extra: str) -> dict[str, dict[str, tuple[str, str]]]:
    """ref -> {pin number: (pin name, net)}, read from the SVG the command wrote."""
    out = tmp_path / f"{which}.svg"
    assert main(["board", "schematic", f"--{which}", "--out", str(out), *extra]) == 0
    parts: dict[str, dict[str, tuple[str, str]]] = defaultdict(dict)
    values: dict[str, str] = {}
    for g in ET.parse(out).getroot().iter(f"{SVG}g"):
        if g.get("class") == "pin":
            parts[g.attrib["data-ref"]][g.attrib["data-pin"]] = (
                g.attrib["data-name"],
                g.attrib["data-net"],
            )
        elif g.get("class") == "part":
            values[g.attrib["data-ref"]] = g.attrib["data-value"]
    return {**parts, "_values": {r: (v, "") for r, v in values.items()}}


def connector_pinout(pins: dict[str, tuple[str, str]]) -> tuple[Pin, ...]:
    return tuple(
        Pin(int(n), name, KIND[name], "")
        for n, (name, _) in sorted(pins.items(), key=lambda kv: int(kv[0]))
    )


def nets_of(parts: dict[str, dict[str, tuple[str, str]]]) -> dict[str, list[tuple[str, str]]]:
    nets: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for ref, pins in parts.items():
        if ref != "_values":
            for n, (_, net) in pins.items():
                nets[net].append((ref, n))
    return nets


def resistors_between(parts: dict[str, dict[str, tuple[str, str]]], a: str, b: str) -> list[str]:
    values = parts["_values"]
    return [
        values[ref][0]
        for ref, pins in parts.items()
        if ref.startswith("R") and {net for _, net in pins.values()} == {a, b}
    ]


def test_the_pinout_keeps_its_rules() -> None:
    assert pinout_problems() == []
    assert [p.signal for p in PINOUT] == [
        "GND", "LED", "GND", "3V3", "/PL", "GND", "CLK", "GND", "QH", "GND"
    ]  # fmt: skip
    assert abs(pin_of("LED") - pin_of("QH")) >= 5
    # a mirrored cable puts LED data on QH: the 1 kΩ at the reading end is for that
    assert "pin 2 LED meets pin 9 QH" in mirror_notes()


def order(*signals: str) -> tuple[Pin, ...]:
    return tuple(Pin(n, sig, KIND[sig], "") for n, sig in enumerate(signals, 1))


def test_the_rules_catch_a_bad_order() -> None:
    # CLK next to /PL
    bad = order("GND", "LED", "GND", "3V3", "/PL", "CLK", "GND", "GND", "QH", "GND")
    assert any("side by side" in p for p in pinout_problems(bad))
    # LED data 4 pins from QH
    bad = order("GND", "/PL", "GND", "3V3", "LED", "GND", "CLK", "GND", "QH", "GND")
    assert [p for p in pinout_problems(bad) if "LED data within" in p]
    # 3V3 opposite a ground: a mirrored cable shorts the rail
    bad = order("GND", "LED", "3V3", "GND", "/PL", "GND", "CLK", "GND", "QH", "GND")
    assert any("shorts 3V3" in p for p in pinout_problems(bad))
    # a fast line with only the rail between it and the next: no ground between
    bad = order("GND", "LED", "GND", "GND", "/PL", "3V3", "CLK", "GND", "QH", "GND")
    assert any("no ground between /PL" in p for p in pinout_problems(bad))


def test_every_connector_drawn_carries_the_whole_pinout(tmp_path: Path) -> None:
    for which, refs in (("piece", ("J1", "J2")), ("controller", ("J0",)), ("terminator", ("P1",))):
        parts = drawn(tmp_path, which)
        for ref in refs:
            pins = parts[ref]
            assert connector_pinout(pins) == tuple(replace(p, what="") for p in PINOUT)
            assert pinout_problems(connector_pinout(pins)) == []
        nets = nets_of(parts)
        for net, where in nets.items():
            assert net == "NC" or len(where) >= 2, f"{which}: {net} goes nowhere: {where}"


def test_qh_has_its_series_resistor_at_every_reading_end(tmp_path: Path) -> None:
    kohm = f"{QH_SERIES_OHMS // 1000} kΩ"
    ctl = drawn(tmp_path, "controller")
    qh_in = ctl["J0"][str(pin_of("QH"))][1]
    miso = ctl["U1"]["6"][1]  # the Pico's GP4, SPI0 MISO
    assert ctl["U1"]["6"][0] == "GP4" and resistors_between(ctl, qh_in, miso) == [kohm]
    pc = drawn(tmp_path, "piece")
    qh_next = pc["J2"][str(pin_of("QH"))][1]
    last = max((r for r in pc if r.startswith("U") and pc["_values"][r][0] == "74HC165"),
               key=lambda r: int(r[1:]))  # fmt: skip
    ds_last = pc[last]["10"][1]
    assert resistors_between(pc, qh_next, ds_last) == [kohm]
    # the chain inside the piece: chip 0's QH leaves by J1, each chip feeds the one before
    chips = sorted((r for r in pc if pc["_values"].get(r, ("",))[0] == "74HC165"),
                   key=lambda r: int(r[1:]))  # fmt: skip
    assert pc[chips[0]]["9"][1] == pc["J1"][str(pin_of("QH"))][1]
    for a, b in itertools.pairwise(chips):
        assert pc[a]["10"][1] == pc[b]["9"][1]
    # CLK and /PL reach every chip through the piece's buffer
    for chip in chips:
        assert pc[chip]["2"][1] == pc["U1"]["6"][1] == pc["J2"][str(pin_of("CLK"))][1]
        assert pc[chip]["1"][1] == pc["U1"]["4"][1] == pc["J2"][str(pin_of("/PL"))][1]


def test_every_input_facing_the_in_connector_has_its_series_resistor(tmp_path: Path) -> None:
    # CLK and /PL reach the buffer, LED data the first DIN, only through a resistor; and
    # that DIN is pulled down, so an unplugged cable lights nothing
    pc = drawn(tmp_path, "piece")
    j1 = {name: net for name, net in pc["J1"].values()}
    u1 = {name: net for name, net in pc["U1"].values()}
    din = pc["D1"]["DIN"][1]
    assert resistors_between(pc, j1["CLK"], u1["1A"]) == ["100 Ω"]
    assert resistors_between(pc, j1["/PL"], u1["2A"]) == ["100 Ω"]
    assert resistors_between(pc, j1["LED"], din) == ["330 Ω"]
    assert resistors_between(pc, din, "GND") == ["10 kΩ"]
    assert j1["CLK"] != u1["1A"] and j1["LED"] != din


def test_the_card_reader_runs_from_the_pis_3v3(tmp_path: Path) -> None:
    ctl = drawn(tmp_path, "controller")
    vcc = ctl["U3"]["VCC"][1]
    assert ctl["H1"]["1"] == ("3V3", vcc)  # the Pi's header pin 1
    assert all(net != vcc for ref, pins in ctl.items() if ref != "_values"
               for name, net in pins.values() if name in ("5V", "VBUS"))  # fmt: skip


@pytest.mark.parametrize("sig", [0xA5, 0x5A])
def test_the_signature_chip_sits_on_the_terminator_plug(tmp_path: Path, sig: int) -> None:
    plug = drawn(tmp_path, "terminator", "--signature", hex(sig))
    u1 = plug["U1"]
    pins = {name: net for name, net in u1.values()}
    byte = sum(1 << (ord(letter) - ord("A")) for letter in "ABCDEFGH" if pins[letter] == "3V3")
    assert byte == sig and pins["DS"] == "3V3"  # the tail of 1s behind it
    p1 = {name: net for name, net in plug["P1"].values()}
    assert pins["QH"] == p1["QH"] and pins["CLK"] == p1["CLK"] and pins["/PL"] == p1["/PL"]
    # no piece carries it: every 74HC165 on a piece reads switches only
    piece = drawn(tmp_path, "piece")
    for ref, (value, _) in piece["_values"].items():
        if value == "74HC165":
            inputs = [net for name, net in piece[ref].values() if name in "ABCDEFGH"]
            assert all(net.startswith("SW") for net in inputs), (ref, inputs)


def test_a_plug_needs_a_signature(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["board", "schematic", "--terminator", "--signature", "none"])
    assert code != 0 and "signature" in capsys.readouterr().err


def test_the_docs_show_the_schematics_the_code_draws() -> None:
    from keezbord.hardware import schematic
    from keezbord.hardware.schematic_svg import schematic_svg

    img = Path(__file__).resolve().parents[2] / "docs" / "img"
    for name, drawing in (
        ("piece", schematic.piece(3, 24)),
        ("controller", schematic.controller()),
        ("terminator", schematic.terminator(0xA5)),
    ):
        assert (img / f"schematic-{name}.svg").read_text(encoding="utf-8") == schematic_svg(
            drawing
        ), f"docs/img/schematic-{name}.svg is stale: keezbord board schematic --{name}"
