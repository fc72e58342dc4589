# WS2812 bit timing and frame pacing, plain code (tests run it under CPython; ws2812.py
# uses it on the Pico).
#
# The PIO program in ws2812.py spends T1 cycles high, then T2 cycles at the data bit's
# level, then T3 cycles low: a 0 is high for T1, a 1 for T1 + T2. The state machine runs
# at the system clock divided by an INTEGER (a fractional divider makes the cycles
# jitter by one system clock, which at 8 MHz from 125 MHz pushed T0H below the
# datasheet's minimum). At 125, 133 and 200 MHz this gives (WS2812B datasheet windows in
# brackets): T0H 375-384 ns [250, 550], T1H 750-768 ns [650, 950], T0L 875-896 ns
# [700, 1000], T1L 500-512 ns [300, 600], bit 1250-1280 ns [650, 1850].
#
# Between frames the line must stay low for the reset time: at least 280 us for the
# WS2812B-V5 (50 us for older parts); RESET_US = 300.

T1 = 3
T2 = 3
T3 = 4
CYCLES_PER_BIT = T1 + T2 + T3
BIT_HZ = 800000
RESET_US = 300
FIFO_WORDS = 8  # the TX FIFO joined (4 + 4 words): what is still queued when DMA is done


def divider(sys_hz):
    """The integer divider that brings CYCLES_PER_BIT cycles closest to 800 kHz."""
    target = BIT_HZ * CYCLES_PER_BIT
    return max(1, (sys_hz + target // 2) // target)


def sm_freq(sys_hz):
    return sys_hz // divider(sys_hz)


def frame_us(n_leds, sys_hz):
    """How long the bits of an n-LED frame take on the wire, rounded up."""
    cycles = n_leds * 24 * CYCLES_PER_BIT * divider(sys_hz)
    return (cycles * 1000000 + sys_hz - 1) // sys_hz


class Pacer:
    """When the next frame may start: not before the previous one has left the wire and
    the line has been low for RESET_US. `clock` has us(), diff(a, b) and add(a, b)
    (ticks_us style)."""

    def __init__(self, clock, n_leds, sys_hz):
        self.clock = clock
        self.hold_us = frame_us(n_leds, sys_hz) + RESET_US + 20  # margin for the last word
        self.free_at = None

    def ready(self):
        return self.free_at is None or self.clock.diff(self.clock.us(), self.free_at) >= 0

    def started(self):
        self.free_at = self.clock.add(self.clock.us(), self.hold_us)
        return self.free_at
