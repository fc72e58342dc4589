"""The LED patterns are defined once (firmware/patterns.py, plain MicroPython) and
twinned on the host (keezbord/host/drivers/leds.py): the Pico animates them from a
pattern id per LED, the Pi-direct path (PolledBoard/GpioBoard) renders them on the host.
Both must show the same bytes for the same frame at the same time."""

# mypy: disable-error-code="import-not-found"
from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from test_link_session import Pico

from keezbord.engine.topology import Topology
from keezbord.hardware.wiring import default_wiring
from keezbord.host.drivers.leds import (
    PATTERN_IDS,
    PATTERNS,
    ROLES,
    LedRenderer,
    LedSettings,
    pattern_level_u8,
)
from keezbord.host.drivers.link_serial import SerialLink
from keezbord.host.drivers.polled import SerialBoard

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "firmware"))

import leds as FW_LEDS
import patterns as FW

WIRING = default_wiring(Topology(4, 16))
HOLES = [h for h in WIRING.led_order if h is not None]


def test_pattern_ids_and_names_are_the_same() -> None:
    assert tuple(FW.NAMES) == PATTERNS
    assert [PATTERN_IDS[p] for p in PATTERNS] == list(range(FW.N_PATTERNS))
    assert [bool(a) for a in FW.ANIMATED] == [p not in ("steady", "dim") for p in PATTERNS]


def test_levels_identical_at_every_millisecond() -> None:
    for p in PATTERNS:
        for t in [*range(0, 6001), 2**30 - 7, 10**9 + 123]:
            assert FW.level(PATTERN_IDS[p], t) == pattern_level_u8(p, t), (p, t)


def fw_render(frame: dict[str, str], t: int, s: LedSettings) -> list[tuple[int, int, int]]:
    """What the firmware shows: the host's base colours and ids through its render."""
    colours, ids = LedRenderer(WIRING.led_order, s).base(frame)
    n = len(colours)
    rgb = bytes(v for c in colours for v in c)
    levels = bytearray(FW.level(i, t) for i in range(FW.N_PATTERNS))
    max_ma = 60000 if s.budget_ma is None else int(s.budget_ma)
    out = FW_LEDS.render_into(rgb, bytes(ids), levels, n, 255, max_ma, bytearray(3 * n))
    return [(out[3 * i + 1], out[3 * i], out[3 * i + 2]) for i in range(n)]


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(HOLES), st.sampled_from(ROLES), max_size=40),
    st.integers(0, 10**7),
    st.floats(0.0, 1.0),
    st.one_of(st.none(), st.integers(50, 3000)),
)
def test_render_identical_on_both_paths(
    frame: dict[str, str], t: int, brightness: float, budget: int | None
) -> None:
    s = LedSettings(brightness=brightness, budget_ma=budget)
    host = LedRenderer(WIRING.led_order, s).render(frame, t)
    assert host == fw_render(frame, t, s)


def test_the_pico_shows_what_the_pi_direct_path_renders() -> None:
    """End to end: SerialBoard sends base colours and pattern ids once; the firmware
    animates them on its own clock; each frame it writes equals the host's render of
    the same frame at the time the firmware evaluated the patterns."""
    n = len(WIRING.led_order)
    pico = Pico(chips=WIRING.chips, leds=n, max_ma=1500)
    s = LedSettings(brightness=0.6, budget_ma=1200)
    link = SerialLink("/dev/fake", clock=pico.clock.ms, open_port=pico.port, emit_initial=False)
    board = SerialBoard(link, WIRING, s, timeout_s=0)
    roles = dict(zip(HOLES[: len(ROLES)], ROLES, strict=True))
    for k in range(300):  # the fake port runs the Pico 5 ms per poll
        board.pump(k * 5)
        if k == 40:
            board.show_leds(roles, k * 5)
    assert link.session.led_updates == 2  # the dark frame at connect, then this one:
    # the animation is the Pico's own
    frames = [(t, f) for t, f in pico.strip.frames if t > pico.strip.frames[0][0] + 250]
    assert len(frames) > 10
    renderer = LedRenderer(WIRING.led_order, s)
    for t, grb in frames[-40:]:
        host = renderer.render(roles, t)
        assert bytes(v for r, g, b in host for v in (g, r, b)) == grb, t
