# LED frames: brightness, a current budget, the "link lost" pattern, GRB output order.
#
# A WS2812 draws about 20 mA per colour channel at full scale plus about 1 mA idle. The
# estimate sum(channel) * MA_PER_CHANNEL / 255 + n * MA_IDLE must stay within max_ma:
# if it would not, every channel is scaled down by the same factor (colours keep their
# hue; the frame just gets dimmer).

MA_PER_CHANNEL = 20
MA_IDLE = 1


def estimate_ma(grb, n_leds):
    return sum(grb) * MA_PER_CHANNEL // 255 + n_leds * MA_IDLE


def render(rgb, n_leds, brightness, max_ma, out=None):
    """RGB bytes (3 per LED, short frames padded dark) -> GRB bytes for the strip.

    Returns the output bytearray; brightness 0..255 scales first, then the current cap.
    """
    n3 = n_leds * 3
    if out is None:
        out = bytearray(n3)
    m = len(rgb)
    if m > n3:
        m = n3
    b = brightness
    total = 0
    for i in range(0, m - 2, 3):
        r = rgb[i] * b // 255
        g = rgb[i + 1] * b // 255
        bl = rgb[i + 2] * b // 255
        out[i] = g
        out[i + 1] = r
        out[i + 2] = bl
        total += r + g + bl
    for i in range(m - m % 3, n3):
        out[i] = 0
    budget = max_ma - n_leds * MA_IDLE
    draw = total * MA_PER_CHANNEL // 255
    if draw > budget:
        # Fixed point scale, 16 fractional bits; floor keeps us under the budget.
        f = (budget << 16) // draw if budget > 0 else 0
        for i in range(n3):
            out[i] = (out[i] * f) >> 16
    return out


LINK_LOST_RGB = (48, 16, 0)  # amber
LINK_LOST_STEP_MS = 150
LINK_LOST_SPACING = 8


def link_lost_frame(n_leds, t_ms):
    """RGB frame of the "host gone" pattern: every 8th LED amber, marching slowly."""
    rgb = bytearray(n_leds * 3)
    phase = (t_ms // LINK_LOST_STEP_MS) % LINK_LOST_SPACING
    r, g, b = LINK_LOST_RGB
    for i in range(phase, n_leds, LINK_LOST_SPACING):
        rgb[3 * i] = r
        rgb[3 * i + 1] = g
        rgb[3 * i + 2] = b
    return rgb
