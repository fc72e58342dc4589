"""LED frames to RGB: palette, blink patterns (pure in time), brightness cap, budget."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from keezbord.host.drivers.fakes import FakePixels, lit
from keezbord.host.drivers.leds import (
    DEFAULT_STYLES,
    PATTERNS,
    ROLES,
    LedRenderer,
    LedSettings,
    estimate_ma,
    parse_colour,
    pattern_level,
    render,
)
from keezbord.host.drivers.strip_neopixel import NeoPixelStrip, StripLeds, open_neopixel

ORDER = ("T2", "T1", "T0", None, "N0.1")


def test_frame_lands_on_the_wiring_led_index() -> None:
    s = LedSettings(brightness=1.0)
    px = render({"T0": "target", "N0.1": "error"}, ORDER, 0, s)
    assert lit(px) == [2, 4]
    assert px[2] == DEFAULT_STYLES["target"].colour
    assert px[4] == DEFAULT_STYLES["error"].colour  # error blinks, on at t=0


def test_every_role_differs_in_time_pattern_not_only_colour() -> None:
    patterns = {DEFAULT_STYLES[r].pattern for r in ROLES}
    assert len(patterns) == len(ROLES)
    colours = {DEFAULT_STYLES[r].colour for r in ROLES}
    assert len(colours) == len(ROLES)


def test_error_blinks_fast_target_steady_restore_pulses() -> None:
    s = LedSettings(brightness=1.0)
    order = ("A", "B", "C")
    frames = [
        render({"A": "error", "B": "target", "C": "restore"}, order, t, s)
        for t in range(0, 1000, 25)
    ]
    err = [f[0] != (0, 0, 0) for f in frames]
    assert sum(1 for a, b in itertools.pairwise(err) if a != b) >= 6  # 4 Hz
    assert len({f[1] for f in frames}) == 1  # steady
    pulse = [sum(f[2]) for f in frames]
    assert min(pulse) > 0 and len(set(pulse)) > 10  # smooth, never dark


def test_pattern_level_is_pure_and_bounded() -> None:
    for p in PATTERNS:
        for t in range(0, 3000, 37):
            v = pattern_level(p, t)
            assert 0.0 <= v <= 1.0
            assert v == pattern_level(p, t)
        assert pattern_level(p, 123) == pattern_level(p, 123 + 6000)  # periodic


def test_brightness_caps_every_channel() -> None:
    px = render({"T0": "restore"}, ORDER, 750, LedSettings(brightness=0.25))
    assert max(px[2]) <= 255 * 0.25


def test_current_budget_scales_a_full_frame_down() -> None:
    order = tuple(f"T{i}" for i in range(100))
    frame = dict.fromkeys(order, "target")
    s = LedSettings(brightness=1.0, budget_ma=500.0)
    px = render(frame, order, 0, s)
    assert estimate_ma(px, s) <= 500.0
    unlimited = render(frame, order, 0, LedSettings(brightness=1.0))
    assert estimate_ma(unlimited, s) > 500.0
    # scaled as a whole: the colour's proportions stay
    r, g, b = px[0]
    assert g > b > r == 0


def test_small_frames_are_not_scaled() -> None:
    s = LedSettings(brightness=1.0, budget_ma=500.0)
    assert render({"T0": "target"}, ORDER, 0, s)[2] == DEFAULT_STYLES["target"].colour


def test_palette_overrides_and_their_errors() -> None:
    s = LedSettings().with_overrides({"target": "#00ff00"}, {"error": "steady"})
    assert s.styles["target"].colour == (0, 255, 0)
    assert s.styles["error"].pattern == "steady"
    assert parse_colour("0072B2") == (0x00, 0x72, 0xB2)
    with pytest.raises(ValueError, match="not a colour"):
        LedSettings().with_overrides({"target": "green"})
    with pytest.raises(ValueError, match="unknown LED role 'glow'"):
        LedSettings().with_overrides({"glow": "#000000"})
    with pytest.raises(ValueError, match="pattern"):
        LedSettings().with_overrides(patterns={"target": "disco"})


def test_unknown_role_or_hole_is_an_error() -> None:
    s = LedSettings()
    with pytest.raises(ValueError, match="role"):
        render({"T0": "sparkle"}, ORDER, 0, s)
    with pytest.raises(ValueError, match="T9"):
        render({"T9": "target"}, ORDER, 0, s)


def fake_strip(n: int) -> tuple[FakePixels, NeoPixelStrip]:
    clock = iter(range(10**6))
    px = FakePixels(n, clock=lambda: next(clock))
    return px, NeoPixelStrip(px)


def test_strip_writes_frames_and_skips_repeats() -> None:
    px, strip = fake_strip(5)
    leds = StripLeds(strip, LedRenderer(ORDER, LedSettings(brightness=1.0)))
    assert leds.show_frame({"T1": "target"}, 0)
    assert not leds.show_frame({"T1": "target"}, 100)  # unchanged: not resent
    assert leds.show_frame({"T1": "target", "T0": "error"}, 0)
    assert leds.show_frame({"T1": "target", "T0": "error"}, 130)  # error blinked off
    assert [lit(f.pixels) for f in px.frames] == [[1], [1, 2], [1]]
    assert [f.t for f in px.frames] == sorted(f.t for f in px.frames)
    strip.close()
    assert lit(px.frames[-1].pixels) == [] and px.deinited


def test_strip_refuses_a_frame_of_the_wrong_length() -> None:
    _, strip = fake_strip(5)
    with pytest.raises(ValueError, match="5"):
        strip.show([(0, 0, 0)] * 4)
    with pytest.raises(ValueError, match="wiring"):
        StripLeds(strip, LedRenderer(ORDER[:3], LedSettings()))


def test_open_neopixel_refuses_a_pin_without_a_driver() -> None:
    with pytest.raises(ValueError, match="GPIO4"):
        open_neopixel(10, pin=4)


@pytest.mark.pi
def test_real_strip_lights_and_clears(tmp_path: Any) -> None:
    strip = NeoPixelStrip(open_neopixel(8, 18))
    strip.show([(16, 0, 0)] * 8)
    strip.close()
