"""The wiring map: a bijection, short chains, the bit convention, JSON and CSV round trips."""

from __future__ import annotations

import json
import math

import pytest

from keezbord.engine.topology import Topology
from keezbord.hardware.bom import BomError, bill_of_materials, power_budget
from keezbord.hardware.geometry import geometry_for
from keezbord.hardware.wiring import (
    Wiring,
    WiringError,
    chip_pin,
    default_wiring,
    naive_order,
    pin_letter,
    wire_length,
)


@pytest.mark.parametrize("seats", range(2, 9))
@pytest.mark.parametrize("segment", [7, 16, 19])
def test_default_wiring_is_a_bijection(seats: int, segment: int) -> None:
    topo = Topology(seats, segment)
    w = default_wiring(topo)
    holes = set(topo.hole_names)
    used = [h for h in w.switch_order if h is not None]
    assert len(used) == len(set(used)) == len(holes) and set(used) == holes
    assert sorted(w.led_order) == sorted(holes)
    assert len(w.switch_order) == 8 * w.chips
    for h in holes:
        assert w.hole_at_switch(w.switch_index(h)) == h
        assert w.hole_at_led(w.led_index(h)) == h
    # Every piece starts on a fresh chip: seat p's holes never share a chip with another's.
    g = geometry_for(topo)
    for chip in range(w.chips):
        on = {g.piece_of(h) for h in w.switch_order[chip * 8 : chip * 8 + 8] if h}
        assert len(on) <= 1
    assert w.chips == seats * -(-(segment + 8) // 8)


@pytest.mark.parametrize("seats", range(2, 9))
def test_chain_order_is_short(seats: int) -> None:
    topo = Topology(seats)
    g = geometry_for(topo)
    w = default_wiring(topo, g)
    tour = wire_length(w.led_order, g)
    # Never worse than name order, and close to one pitch a hole (a jump or two a piece).
    assert tour < wire_length(naive_order(topo), g)
    assert tour < 1.25 * g.pitch * len(g.holes)
    # Chain order seat by seat: each piece's holes form one run along the LED chain.
    pieces = [g.piece_of(h) for h in w.led_order]
    assert pieces == sorted(pieces)
    # The switch chain follows the same tour.
    assert [h for h in w.switch_order if h] == list(w.led_order)


def test_bit_convention() -> None:
    assert chip_pin(0) == (0, "D7") and pin_letter(0) == "H"
    assert chip_pin(7) == (0, "D0") and pin_letter(7) == "A"
    assert chip_pin(9) == (1, "D6") and pin_letter(9) == "G"


def test_json_and_csv_round_trip() -> None:
    topo = Topology(3, 12)
    w = default_wiring(topo)
    back = Wiring.from_json(json.loads(json.dumps(w.to_json())))
    assert back == w and back.chips == w.chips
    csv_text = w.to_csv()
    assert csv_text.splitlines()[0] == "bit,chip,input,letter,hole,led"
    first = csv_text.splitlines()[1].split(",")
    assert first[:4] == ["0", "0", "D7", "H"] and first[4] == w.switch_order[0]
    assert Wiring.from_csv(csv_text, topo) == w
    assert any(line.split(",")[4] == "" for line in csv_text.splitlines()[1:])  # spare inputs


def _valid() -> dict[str, object]:
    return default_wiring(Topology(2, 8)).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(switches=d["switches"][:-8]), "no switch for hole"),
        (lambda d: d.update(switches=d["switches"][:-1]), "whole number"),
        (lambda d: d["switches"].__setitem__(1, d["switches"][0]), "switch 0 and switch 1"),
        (lambda d: d["leds"].__setitem__(3, "T99"), "not a hole of this board"),
        (lambda d: d["leds"].__setitem__(3, None), "every LED"),
        (lambda d: d.update(seats=9), "seats must be 2 to 8"),
        (lambda d: d.pop("leds"), "lacks 'leds'"),
        (lambda d: d.update(chips=1), "says 1 chips"),
        (lambda d: d.update(format="other/2"), "unknown wiring format"),
    ],
)
def test_invalid_json_is_refused_clearly(change: object, message: str) -> None:
    d = _valid()
    change(d)  # type: ignore[operator]
    with pytest.raises(WiringError, match=message):
        Wiring.from_json(d)


def test_lookups_refuse_unknown_holes_and_indices() -> None:
    w = default_wiring(Topology(2, 8))
    with pytest.raises(WiringError, match="no hole"):
        w.switch_index("T99")
    with pytest.raises(WiringError, match="off the chain"):
        w.hole_at_switch(w.chips * 8)
    with pytest.raises(WiringError, match="off the strip"):
        w.hole_at_led(-1)
    with pytest.raises(WiringError, match="geometry is for"):
        default_wiring(Topology(2, 8), geometry_for(Topology(3, 8)))


def test_power_budget_scales_with_brightness_and_lit_leds() -> None:
    full = power_budget(96, 12, brightness=1.0)
    quarter = power_budget(96, 12, brightness=0.25)
    assert full.led_ma == pytest.approx(96 * 60)
    assert quarter.led_ma == pytest.approx(96 * 15)
    few = power_budget(96, 12, brightness=1.0, lit=10)
    assert few.led_ma == pytest.approx(600) and few.idle_ma == pytest.approx(86)
    assert full.supply_a * 1000 >= full.total_ma * 1.25 > (full.supply_a - 2.5) * 1000
    assert quarter.supply_a < full.supply_a
    with pytest.raises(BomError, match="brightness"):
        power_budget(96, 12, brightness=0)
    with pytest.raises(BomError, match="lit at once"):
        power_budget(96, 12, brightness=0.5, lit=97)


def test_bill_of_materials_counts() -> None:
    topo = Topology(6)
    g = geometry_for(topo)
    w = default_wiring(topo, g)
    bom = bill_of_materials(g, w, puzzle=True, brightness=0.5)
    count = {line.part.split(" (")[0]: line.count for line in bom.lines}
    assert count["reed switch"] == 144 + 15  # and 10 % spares
    assert count["WS2812B LED module"] == 144 + 8  # and 5 % spares
    assert count["74HC165 shift register"] == 18 + 1  # and the signature chip
    assert count["magnet for pawns"] == 24 + 4
    # the signal connector: IN and OUT on each of the 6 pieces and J0 at the controller;
    # 6 cables of two ends and the terminator plug; QH's 1 kΩ at the controller and at
    # each piece's OUT, the 100 kΩ pull-down at each OUT
    assert count["JST XH 10-pin header"] == 6 * 2 + 1
    assert count["JST XH 10-pin housing"] == 6 * 2 + 1
    assert count["JST XH crimp contact"] == 10 * 13 + 13
    assert count["1 kΩ resistor"] == 1 + 6 and count["100 kΩ resistor"] == 6
    assert count["terminator plug"] == 1
    w_mm, h_mm = math.ceil((g.width + 40) / 10) * 10, math.ceil((g.height + 40) / 10) * 10
    assert count["birch plywood 6 mm blank"] == pytest.approx(w_mm * h_mm / 1e6, abs=1e-3)
    assert "5 V supply of at least" in bom.text()
    assert json.loads(json.dumps(bom.to_json()))["power"]["lit"] == 144
