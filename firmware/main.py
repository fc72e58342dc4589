# Pico entry point: wire the real machine/rp2 objects into the app logic and run.
#
# Back to the REPL (the firmware disables Ctrl-C so the link is binary-safe):
#  - hold the safe-mode pin (GP22 by default) to GND while powering up, or
#  - send the MAINTENANCE command (what `keezbord firmware install` does first): the
#    firmware writes the file "maintenance" and resets; the next boot deletes the file
#    and stops at the REPL, without the watchdog (which cannot be stopped once started).

import os
import sys
import time

import board_config
import machine
import micropython
from app import App, run
from scan import ChainScanner
from stream import PollStream

MAINTENANCE_FLAG = "maintenance"


class PicoClock:
    def ms(self):
        return time.ticks_ms()

    def diff(self, a, b):
        return time.ticks_diff(a, b)

    def add(self, a, b):
        return time.ticks_add(a, b)


def safe_mode(cfg):
    pin = machine.Pin(cfg["safe_pin"], machine.Pin.IN, machine.Pin.PULL_UP)
    time.sleep_ms(5)
    if pin.value() == 0:
        return "safe-mode pin held low"
    try:
        os.remove(MAINTENANCE_FLAG)
    except OSError:
        return None
    return "maintenance requested by the host"


def main():
    cfg = board_config.load()
    why = safe_mode(cfg)
    if why is not None:
        print("keezbord firmware not started: %s; REPL ready" % why)
        return
    spi = machine.SPI(cfg["spi_id"], baudrate=cfg["spi_baud"], polarity=0, phase=0,
                      sck=machine.Pin(cfg["sck_pin"]), mosi=machine.Pin(cfg["mosi_pin"]),
                      miso=machine.Pin(cfg["miso_pin"]))
    latch = machine.Pin(cfg["latch_pin"], machine.Pin.OUT, value=1)
    scanner = ChainScanner(spi, latch, cfg["chips"], cfg["tail_bytes"], cfg["tail_level"],
                           cfg["active_low"])
    from ws2812 import PioStrip
    strip = PioStrip(cfg["led_pin"], cfg["leds"])
    stream = PollStream(sys.stdin, sys.stdin.buffer, sys.stdout.buffer)
    micropython.kbd_intr(-1)  # 0x03 is data now, not Ctrl-C
    wdt = machine.WDT(timeout=cfg["watchdog_ms"])
    app = App(cfg, scanner, stream, strip, PicoClock(), wdt)
    run(app, stream)
    # The host asked for maintenance: LEDs off, flag for the next boot, restart.
    strip.write(bytearray(cfg["leds"] * 3))
    with open(MAINTENANCE_FLAG, "w") as f:
        f.write("1")
    time.sleep_ms(100)  # let the LOG frame leave
    machine.reset()


main()
