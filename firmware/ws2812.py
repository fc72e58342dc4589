# WS2812 output through a PIO state machine fed by DMA (Pico only). 800 kHz (with an
# integer clock divider), GRB, one 24-bit word per LED shifted out MSB first. Timing and
# frame pacing are in ws2812_timing.py; tests/firmware/test_fw_ws2812.py simulates this
# program cycle by cycle at 125, 133 and 200 MHz against the WS2812B datasheet.
#
# write() never blocks: DMA moves the words into the PIO FIFO while the firmware goes on
# scanning. A frame asked for before the previous one and its reset gap are over is
# refused (ready() is False); the app keeps it and writes it a few steps later.

import array
import time

import machine
import rp2
from leds_viper import pack_words
from ws2812_timing import FIFO_WORDS, Pacer, sm_freq


@rp2.asm_pio(
    sideset_init=rp2.PIO.OUT_LOW,
    out_shiftdir=rp2.PIO.SHIFT_LEFT,
    autopull=True,
    pull_thresh=24,
    fifo_join=rp2.PIO.JOIN_TX,
)
def _ws2812():
    # 10 cycles a bit: T3 = 4 low (out), T1 = 3 high (jmp), T2 = 3 at the bit's level.
    # The [delays] are literals: asm_pio runs this body with its own globals only.
    wrap_target()  # type: ignore[name-defined]  # noqa: F821 -- PIO assembler names
    label("bitloop")  # type: ignore[name-defined]  # noqa: F821
    out(x, 1).side(0)[3]  # type: ignore[name-defined]  # noqa: F821
    jmp(not_x, "do_zero").side(1)[2]  # type: ignore[name-defined]  # noqa: F821
    jmp("bitloop").side(1)[2]  # type: ignore[name-defined]  # noqa: F821
    label("do_zero")  # type: ignore[name-defined]  # noqa: F821
    nop().side(0)[2]  # type: ignore[name-defined]  # noqa: F821
    wrap()  # type: ignore[name-defined]  # noqa: F821


class UsClock:
    def us(self):
        return time.ticks_us()

    def diff(self, a, b):
        return time.ticks_diff(a, b)

    def add(self, a, b):
        return time.ticks_add(a, b)


class PioStrip:
    def __init__(self, pin, n_leds, sm_id=0):
        sys_hz = machine.freq()
        self.sm = rp2.StateMachine(
            sm_id, _ws2812, freq=sm_freq(sys_hz), sideset_base=machine.Pin(pin)
        )
        self.sm.active(1)
        self.n = n_leds
        self.words = array.array("I", [0] * max(1, n_leds))
        self.pacer = Pacer(UsClock(), n_leds + FIFO_WORDS, sys_hz)
        self.dma = None
        try:
            self.dma = rp2.DMA()
            # DREQ 0..3: PIO0's TX FIFOs; 32-bit words into the FIFO, which stays put.
            self.ctrl = self.dma.pack_ctrl(size=2, inc_write=False, treq_sel=sm_id)
        except Exception:  # no DMA channel free: sm.put (blocks while the FIFO drains)
            self.dma = None

    def ready(self):
        if self.dma is not None and self.dma.active():
            return False
        return self.pacer.ready()

    def write(self, grb):
        if not self.ready():
            return False
        w = self.words
        n = self.n
        pack_words(grb, w, n)
        self.pacer.started()
        if self.dma is not None:
            self.dma.config(read=w, write=self.sm, count=n, ctrl=self.ctrl, trigger=True)
        else:
            self.sm.put(w)
        return True

    def off(self):
        while not self.ready():
            time.sleep_us(100)
        self.write(bytearray(self.n * 3))
        while not self.ready():
            time.sleep_us(100)
