# LED frames: pattern levels, brightness, a current budget, the "link lost" pattern, GRB
# output order. Integer arithmetic only, division-free per LED (the loops are viper, in
# leds_viper.py, and the host's twin can match it bit for bit):
#
#   s = level(pattern) * (brightness + 1) >> 8          0..255, per LED
#   v = colour * (s + 1) >> 8                           per channel (s = 255: unchanged)
#
# A WS2812 draws about 20 mA per colour channel at full scale plus about 1 mA idle. The
# estimate sum(channel) * MA_PER_CHANNEL // 255 + n * MA_IDLE must stay within max_ma:
# if it would not, every channel is scaled by one factor f = (budget << 16) // draw,
# v = v * f >> 16 (colours keep their hue; the frame just gets dimmer).

# the per-LED loops: native on MicroPython, the same source as Python elsewhere
from leds_viper import dim, fill, scale

MA_PER_CHANNEL = 20
MA_IDLE = 1

LINK_LOST_RGB = (48, 16, 0)  # amber
LINK_LOST_STEP_MS = 150
LINK_LOST_SPACING = 8


def estimate_ma(grb, n_leds):
    return sum(grb) * MA_PER_CHANNEL // 255 + n_leds * MA_IDLE


def cap_factor(total, n_leds, max_ma):
    """The 16.16 factor that brings a frame whose channels sum to `total` within max_ma,
    or -1 if it is within already."""
    budget = max_ma - n_leds * MA_IDLE
    draw = total * MA_PER_CHANNEL // 255
    if draw <= budget:
        return -1
    return (budget << 16) // draw if budget > 0 else 0


def render_into(rgb, pats, levels, n_leds, brightness, max_ma, out):
    """rgb (3 bytes per LED), pattern ids per LED, the current level of each pattern id
    -> GRB bytes in `out` for the strip, capped. Allocation-free."""
    total = scale(rgb, pats, levels, out, n_leds, brightness)
    f = cap_factor(total, n_leds, max_ma)
    if f >= 0:
        dim(out, n_leds * 3, f)
    return out


def render(rgb, n_leds, brightness, max_ma, out=None, pats=None, levels=None):
    """RGB bytes (3 per LED, short frames padded dark) -> GRB bytes (a new bytearray unless
    `out` is given); steady patterns unless `pats`/`levels` say otherwise."""
    n3 = n_leds * 3
    if out is None:
        out = bytearray(n3)
    if len(rgb) < n3:
        rgb = bytes(rgb) + bytes(n3 - len(rgb))
    if pats is None:
        pats = bytearray(n_leds)
    if levels is None:
        levels = bytearray([255])
    return render_into(rgb, pats, levels, n_leds, brightness, max_ma, out)


def link_lost_phase(t_ms):
    return (t_ms // LINK_LOST_STEP_MS) % LINK_LOST_SPACING


def link_lost_into(out, n_leds, phase):
    """GRB of the "host gone" pattern: every 8th LED amber, marching slowly."""
    fill(out, n_leds * 3, 0)
    r, g, b = LINK_LOST_RGB
    i = phase
    while i < n_leds:  # (a range() with a variable step would allocate)
        out[3 * i] = g
        out[3 * i + 1] = r
        out[3 * i + 2] = b
        i += LINK_LOST_SPACING
    return out


def link_lost_frame(n_leds, t_ms):
    """RGB frame of the "host gone" pattern (tests, the host's docs)."""
    rgb = bytearray(n_leds * 3)
    phase = link_lost_phase(t_ms)
    r, g, b = LINK_LOST_RGB
    for i in range(phase, n_leds, LINK_LOST_SPACING):
        rgb[3 * i] = r
        rgb[3 * i + 1] = g
        rgb[3 * i + 2] = b
    return rgb
