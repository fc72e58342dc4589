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


VIPER_PROBE = r"""
import leds, leds_viper, ws2812_timing
import random
LO = as_python("leds_viper")  # the oracle: the same loops as bytecode
random.seed(7)
bad = 0
for trial in range(200):
    n = random.randint(1, 60)
    rgb = bytearray(random.getrandbits(8) for _ in range(3 * n))
    pats = bytearray(random.randint(0, 5) for _ in range(n))
    levels = bytearray(random.getrandbits(8) for _ in range(6))
    b = random.getrandbits(8)
    a1 = bytearray(3 * n); a2 = bytearray(3 * n)
    t1 = LO.scale(rgb, pats, levels, a1, n, b)
    t2 = leds_viper.scale(rgb, pats, levels, a2, n, b)
    f = random.randint(0, 65536)
    LO.dim(a1, 3 * n, f); leds_viper.dim(a2, 3 * n, f)
    w1 = [0] * n
    import array
    w2 = array.array("I", [0] * n)
    for i in range(n):
        j = 3 * i
        w1[i] = (a1[j] << 24) | (a1[j + 1] << 16) | (a1[j + 2] << 8)
    leds_viper.pack_words(a2, w2, n)
    if t1 != t2 or a1 != a2 or list(w2) != w1:
        bad += 1
    # CMD_PATTERNS' ids (8 known here; 9 and up shown steady), counted per id
    p1 = bytearray(random.randint(0, 7) for _ in range(n)); p2 = bytearray(p1)
    c1 = array.array("H", [sum(1 for v in p1 if v == k) for k in range(8)])
    c2 = array.array("H", c1)
    src = bytearray(random.randint(0, 12) for _ in range(random.randint(0, n + 8)))
    first = random.randint(0, n)
    want = bytearray(p1)
    LO.set_ids(p1, c1, src, 2, len(src), first, n, 8)
    leds_viper.set_ids(p2, c2, src, 2, len(src), first, n, 8)
    for i in range(2, len(src)):
        if first + i - 2 < n:
            want[first + i - 2] = src[i] if src[i] < 8 else 0
    counted = [sum(1 for v in p2 if v == k) for k in range(8)]
    if p1 != p2 or c1 != c2 or list(c2) != counted or p2 != want:
        bad += 1
print("viper", leds.scale is leds_viper.scale and LO.scale is not leds.scale, "bad", bad)
"""


def test_viper_versions_match_the_python_ones_under_micropython() -> None:
    from unix_pico import run_viper_probe

    out = run_viper_probe(VIPER_PROBE)
    assert out == "viper True bad 0", out


def test_patterns_and_brightness_in_one_pass() -> None:
    from leds import render_into

    rgb = bytes([200, 100, 0, 200, 100, 0])
    out = bytearray(6)
    render_into(rgb, bytes([0, 1]), bytearray([255, 89]), 2, 255, 10_000, out)
    assert bytes(out) == bytes([100, 200, 0, (100 * 90) >> 8, (200 * 90) >> 8, 0])
    render_into(rgb, bytes([0, 1]), bytearray([255, 89]), 2, 127, 10_000, out)
    assert bytes(out[:3]) == bytes([50, 100, 0])
