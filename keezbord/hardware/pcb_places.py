"""Where each shape's parts go that do not sit under a hole, in the piece's frame (mm,
origin the start hole, y down): the chips, the connectors and their resistors, the
Schmitt-trigger stage, the power feed and the mounting holes. A place is (x, y, turn),
the turn in degrees counter-clockwise as KiCad turns."""

from __future__ import annotations

from dataclasses import dataclass

Place = tuple[float, float, int]


@dataclass(frozen=True)
class Places:
    chips: tuple[Place, ...] | None  # None: in from the track, near their holes
    j_in: Place
    j_out: Place
    buffer: Place
    buffer_cap: Place
    r_clk: Place
    r_pl: Place
    r_led: Place  # 330 Ohm into the first LED's DIN
    r_led_down: Place  # its 10 kOhm pull-down
    r_qh: Place  # 1 kOhm from OUT's QH into the last chip's DS
    r_qh_down: Place  # the 100 kOhm pull-down on OUT's QH
    feed: Place  # XT30
    tvs: Place
    bulk: Place
    mounts: tuple[tuple[float, float], ...]
    reed_turns: tuple[int, ...]  # tried in this order at every hole


PLACES: dict[str, Places] = {
    "piece": Places(
        chips=None,
        j_in=(150.0, -30.0, 0),
        j_out=(-165.0, -30.0, 0),
        buffer=(150.0, -45.24, 0),
        buffer_cap=(158.255, -51.59, 90),
        r_clk=(134.76, -47.78, 0),
        r_pl=(134.76, -42.7, 0),
        r_led=(155.08, -22.38, 0),
        r_led_down=(162.7, -22.38, 0),
        r_qh=(-159.92, -37.62, 0),
        r_qh_down=(-152.3, -37.62, 0),
        feed=(-60.0, -80.0, 0),
        tvs=(-60.0, -69.84, 0),
        bulk=(-44.76, -80.0, 0),
        mounts=((-125.0, -37.5), (125.0, -37.5), (-37.5, -95.0), (37.5, -95.0), (0.0, 50.0)),
        reed_turns=(0, 180, 90, 270),
    ),
    # The arm: three columns of holes 25 mm apart; chips and the feed below, beside the
    # nest; IN (the chain's first hole is the top right) and the Schmitt stage in the right
    # strip, OUT in the left strip.
    "arm": Places(
        chips=((33.0, 40.0, 0), (-33.0, 66.0, 0), (-33.0, 40.0, 0)),
        j_in=(40.0, -130.0, 90),
        j_out=(-40.0, -55.0, 90),
        buffer=(40.0, -95.0, 90),
        buffer_cap=(46.0, -103.0, 0),
        r_clk=(36.0, -115.0, 0),
        r_pl=(44.0, -115.0, 0),
        r_led=(36.0, -160.0, 0),
        r_led_down=(36.0, -164.0, 0),
        r_qh=(-36.0, -50.0, 0),
        r_qh_down=(-44.0, -50.0, 0),
        feed=(33.0, 66.0, 0),
        tvs=(24.0, 58.0, 90),
        bulk=(44.0, 60.0, 90),
        mounts=((12.5, -162.5), (-37.5, -100.0), (37.5, -12.5), (0.0, 50.0)),
        reed_turns=(90, 270, 0, 180),
    ),
}
