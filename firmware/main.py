# Pico entry point. The order of this file is part of the design (tests/firmware/
# test_fw_boot_order.py pins it):
#  1. Ctrl-C off at once: MicroPython enables it just before main.py and USB is already up,
#     so a host sending frames (their COBS bytes include 0x03) could otherwise interrupt
#     the boot and leave the Pico at the REPL with no watchdog.
#  2. Safe-mode pin and maintenance flag checked before the heavy imports (boot.py has
#     checked them too: in a normal boot it started the firmware's own USB serial port,
#     usb_cdc.py, and the built-in CDC with its REPL never came up).
#  3. The app built from a validated board.json (bad values: defaults, reported to the
#     host in LOG frames after its HELLO), then the watchdog, last: a bad configuration
#     can never boot-loop the board.
#
# Back to the REPL (the firmware disables Ctrl-C so the link is binary-safe):
#  - hold the safe-mode pin (GP22 by default) to GND while powering up, or
#  - send the MAINTENANCE command (what `keezbord firmware install` does first): the
#    firmware writes the file "maintenance" and resets; the next boot deletes the file
#    and stops at the REPL, without the watchdog (which cannot be stopped once started).

import micropython

micropython.kbd_intr(-1)

import time  # noqa: E402

import board_config  # noqa: E402
import machine  # noqa: E402
from boot_mode import MAINTENANCE_FLAG, stop_reason  # noqa: E402


class PicoClock:
    """The firmware's milliseconds: the builtins themselves, called without a Python
    frame in between (the loop asks for the time several times a step)."""

    def __init__(self):
        self.ms = time.ticks_ms
        self.diff = time.ticks_diff
        self.add = time.ticks_add


def build(cfg):
    """The app and its strip on the real hardware (no watchdog yet)."""
    from app import App
    from chain_dma import make_scanner
    from scan import SPI_PHASE, SPI_POLARITY
    from ws2812 import PioStrip

    # MISO pulled down explicitly, before the SPI takes the pin (its function changes,
    # the pad's pull stays): an open or unpowered chain reads 0, never the tail's 1.
    machine.Pin(cfg["miso_pin"], machine.Pin.IN, machine.Pin.PULL_DOWN)
    spi = machine.SPI(
        cfg["spi_id"],
        baudrate=cfg["spi_baud"],
        polarity=SPI_POLARITY,
        phase=SPI_PHASE,
        bits=8,
        firstbit=machine.SPI.MSB,
        sck=machine.Pin(cfg["sck_pin"]),
        mosi=machine.Pin(cfg["mosi_pin"]),
        miso=machine.Pin(cfg["miso_pin"]),
    )
    latch = machine.Pin(cfg["latch_pin"], machine.Pin.OUT, value=1)
    scanner = make_scanner(cfg, spi, latch)  # DMA reads (chain_dma.py), else blocking
    strip = PioStrip(cfg["led_pin"], cfg["leds"])
    stream = usb_stream()
    return App(cfg, scanner, stream, strip, PicoClock()), stream, strip


def usb_stream():
    """The USB serial port boot.py started (bulk reads, writes that never wait), or, if it
    could not, MicroPython's built-in CDC through stdin/stdout."""
    import usb_cdc

    cdc = usb_cdc.running()
    if cdc is not None:
        return cdc
    import sys

    from stream import PollStream

    # POLLOUT on the built-in CDC means one byte free: write a byte at a time, never more
    # than is known to fit (a longer write waits up to 500 ms for a host that stopped).
    return PollStream(sys.stdin, sys.stdin.buffer, sys.stdout.buffer, sys.stdout, chunk=1)


def main():
    cfg, problems = board_config.load_checked()
    why = stop_reason(cfg)
    if why is not None:
        micropython.kbd_intr(3)
        print("keezbord firmware not started: %s; REPL ready" % why)
        return
    try:
        app, stream, strip = build(cfg)
    except Exception as e:  # e.g. a pin the hardware refuses: start on the defaults
        problems.append("board.json refused (%r): defaults used" % (e,))
        cfg = dict(board_config.DEFAULTS)
        app, stream, strip = build(cfg)
    app.config_problems = problems
    app.start_watchdog(machine.WDT(timeout=cfg["watchdog_ms"]))
    from app import run

    run(app, stream)
    # The host asked for maintenance: LEDs off, flag for the next boot, restart.
    strip.off()
    with open(MAINTENANCE_FLAG, "w") as f:
        f.write("1")
    time.sleep_ms(100)  # let the LOG frame leave
    machine.reset()


main()
