# WS2812 output through a PIO state machine (Pico only). 800 kHz, GRB, one 24-bit word
# per LED shifted out MSB first; the PIO program is the one from the RP2040 datasheet.

import array

import rp2
from machine import Pin


@rp2.asm_pio(sideset_init=rp2.PIO.OUT_LOW, out_shiftdir=rp2.PIO.SHIFT_LEFT, autopull=True,
             pull_thresh=24)
def _ws2812():
    # 10 PIO cycles a bit at 8 MHz: high 2, then data 5, then low 3.
    wrap_target()  # type: ignore[name-defined]  # noqa: F821 -- PIO assembler names
    label("bitloop")  # type: ignore[name-defined]  # noqa: F821
    out(x, 1).side(0)[2]  # type: ignore[name-defined]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[1]  # type: ignore[name-defined]  # noqa: F821
    jmp("bitloop").side(1)[4]  # type: ignore[name-defined]  # noqa: F821
    label("do_zero")  # type: ignore[name-defined]  # noqa: F821
    nop().side(0)[4]  # type: ignore[name-defined]  # noqa: F821
    wrap()  # type: ignore[name-defined]  # noqa: F821


class PioStrip:
    def __init__(self, pin, n_leds, sm_id=0):
        self.sm = rp2.StateMachine(sm_id, _ws2812, freq=8000000, sideset_base=Pin(pin))
        self.sm.active(1)
        self.words = array.array("I", [0] * n_leds)

    def write(self, grb):
        w = self.words
        for i in range(len(w)):
            j = 3 * i
            w[i] = (grb[j] << 16) | (grb[j + 1] << 8) | grb[j + 2]
        self.sm.put(w, 8)  # left-align the 24 bits in the 32-bit FIFO word
