# mypy: disable-error-code="import-not-found"
"""LED rendering: colour order, brightness, the current cap, the link-lost pattern."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from leds import estimate_ma, link_lost_frame, render


def test_grb_order_and_brightness() -> None:
    out = render(bytes([255, 128, 0, 0, 0, 255]), 3, 255, 10_000)
    assert bytes(out) == bytes([128, 255, 0, 0, 0, 255, 0, 0, 0])  # short frame: dark tail
    half = render(bytes([255, 128, 0]), 1, 128, 10_000)
    assert bytes(half) == bytes([64, 128, 0])


def test_cap_scales_all_channels_and_keeps_hue() -> None:
    n = 192
    white = bytes([255]) * (3 * n)  # ~11.5 A uncapped
    out = render(white, n, 255, 1500)
    assert estimate_ma(out, n) <= 1500
    assert len(set(out)) == 1 and estimate_ma(out, n) > 1400  # dimmed, not blacked out
    mixed = render(bytes([200, 100, 50]) * n, n, 255, 1000)
    g, r, b = mixed[0], mixed[1], mixed[2]
    assert r > g > b and abs(r - 2 * g) <= 2 and abs(g - 2 * b) <= 2


@given(st.binary(max_size=300), st.integers(0, 255), st.integers(0, 3000))
def test_cap_always_holds(rgb: bytes, brightness: int, max_ma: int) -> None:
    n = 100
    out = render(rgb, n, brightness, max_ma)
    assert len(out) == 3 * n
    assert estimate_ma(out, n) <= max(max_ma, n)  # idle draw alone may exceed a tiny cap


def test_under_budget_frame_is_untouched() -> None:
    rgb = bytes([10, 20, 30]) * 4
    assert bytes(render(rgb, 4, 255, 1500)) == bytes([20, 10, 30]) * 4


def test_link_lost_pattern_marches() -> None:
    a = link_lost_frame(16, 0)
    b = link_lost_frame(16, 150)
    lit_a = [i for i in range(16) if a[3 * i]]
    lit_b = [i for i in range(16) if b[3 * i]]
    assert lit_a == [0, 8] and lit_b == [1, 9]
