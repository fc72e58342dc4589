"""Board figures for every seat count: size, holes, chips, LEDs, and the wire length of the
default chain order against the naive name order.

    .venv/bin/python bench/hardware_figures.py [--segment 16] [--pitch 25]
"""

from __future__ import annotations

import argparse
import time

from keezbord.engine.topology import Topology
from keezbord.hardware.bom import power_budget
from keezbord.hardware.geometry import geometry_for
from keezbord.hardware.wiring import default_wiring, naive_order, wire_length
from keezbord.host.config import LedConfig


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--segment", type=int, default=16)
    ap.add_argument("--pitch", type=float, default=25.0)
    ap.add_argument("--hole-diameter", type=float, default=14.0)
    # the configuration's defaults (leds.brightness, leds.budget_ma), as `board bom` uses
    ap.add_argument("--brightness", type=float, default=LedConfig().brightness)
    ap.add_argument("--budget-ma", type=float, default=LedConfig().budget_ma)
    args = ap.parse_args()
    print(
        f"segment {args.segment}, pitch {args.pitch:g} mm, drill {args.hole_diameter:g} mm, "
        f"LED cap {args.brightness:.0%} (all lit), budget {args.budget_ma:g} mA, "
        "switch chips + the signature chip"
    )
    print(
        "| seats | shape | board (mm) | plywood (m²) | holes | 74HC165 | WS2812 "
        "| chain (m) | name order (m) | saved | 5 V supply | fuse | power wire | build (ms) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for seats in range(2, 9):
        topo = Topology(seats, args.segment)
        t0 = time.perf_counter()
        g = geometry_for(topo, args.pitch, args.hole_diameter)
        w = default_wiring(topo, g)
        ms = (time.perf_counter() - t0) * 1000
        tour = wire_length(w.led_order, g) / 1000
        naive = wire_length(naive_order(topo), g) / 1000
        power = power_budget(
            len(g.holes), w.chips + 1, brightness=args.brightness, budget_ma=args.budget_ma
        )
        print(
            f"| {seats} | {g.shape} | {g.width:.0f} x {g.height:.0f} "
            f"| {g.outline_area() / 1e6:.3f} | {len(g.holes)} | {w.chips} + 1 "
            f"| {len(w.led_order)} | {tour:.2f} | {naive:.2f} | {1 - tour / naive:.0%} "
            f"| {power.supply_a:g} A | {power.fuse_a:g} A | {power.wire_mm2:g} mm² "
            f"| {ms:.0f} |"
        )


if __name__ == "__main__":
    main()
