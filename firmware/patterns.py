# LED blink patterns, animated by the firmware itself (CMD_PATTERNS gives each LED a
# pattern id; CMD_LEDS its colour). Plain integer code: the host keeps a typed twin in
# keezbord/host/drivers/leds.py (the Pi-direct path renders with it) and
# tests/host/drivers/test_led_patterns_twin.py pins both to the same output.
#
# level(pid, t_ms) is a brightness 0..255 (255 = the colour as sent). Unknown ids are
# steady. Every pattern but "steady" and "dim" changes with time.

STEADY = 0
DIM = 1
BLINK_SLOW = 2  # 1 Hz, mostly on so the hole stays findable
BLINK_FAST = 3  # 4 Hz, half on
DOUBLE_FLASH = 4  # two short flashes every 1.2 s
PULSE = 5  # triangle wave, 1.5 s period, never fully dark
RAMP = 6  # rises slowly over 2 s, then drops at once (the suggested move: role "hint")
HALO = 7  # 1.7 Hz, half on: the holes around a lit hole hidden under a pawn ("around")
NAMES = ("steady", "dim", "blink_slow", "blink_fast", "double_flash", "pulse", "ramp", "halo")
N_PATTERNS = 8
ANIMATED = (0, 0, 1, 1, 1, 1, 1, 1)


def level(pid, t):
    if pid == DIM:
        return 89
    if pid == BLINK_SLOW:
        return 255 if t % 1000 < 700 else 38
    if pid == BLINK_FAST:
        return 255 if t % 250 < 125 else 0
    if pid == DOUBLE_FLASH:
        p = t % 1200
        return 255 if p < 120 or 240 <= p < 360 else 0
    if pid == PULSE:
        p = t % 1500
        if p >= 750:
            p = 1500 - p
        return 51 + 204 * p // 750
    if pid == RAMP:
        return 38 + 217 * (t % 2000) // 2000
    if pid == HALO:
        return 255 if t % 600 < 300 else 0
    return 255
