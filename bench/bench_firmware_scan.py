# mypy: disable-error-code="import-not-found"
"""The firmware's CPU cost per scan and per LED frame, measured under the MicroPython
unix port and scaled to the Pico (RP2040 at 125 MHz).

    .venv/bin/python bench/bench_firmware_scan.py [--seconds S]

What is timed is the firmware's own code (app.py, scan.py, debounce.py, link.py,
protocol.py, leds.py with its viper loops): the fakes behind it copy prepared bytes and
allocate nothing. Not included: the SPI transfer itself (hardware on the Pico: 25 bytes
at 1 MHz, about 0.2 ms of bus time that machine.SPI.readinto waits for), the USB CDC
driver, and the PIO/DMA shifting out (hardware).

Scaling to the Pico: a calibration loop (an integer-addition loop, `C = p[1] + p[2]`
a million times over small ints, with p a list, as in the published MicroPython
benchmark table of github.com/shaoziyang/micropython_benchmarks, where an RP2040 at
125 MHz with MicroPython v1.23 takes 7984 ms) runs on this machine's unix port; the
ratio of the two is applied to every bytecode figure. Viper (native) code is scaled by
the same ratio, which overstates it if anything (x86-64 native code gains more over
bytecode than Thumb does). tests/emulator (rp2040js) gives real RP2040 cycle counts.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
sys.path.insert(0, str(FIRMWARE.parent / "tests" / "firmware"))

from unix_pico import AS_PYTHON  # noqa: E402 -- the viper loops as bytecode

PICO_ADD_1M_MS = 7984  # RP2040 @ 125 MHz, MicroPython v1.23 (see the docstring)

SCRIPT = r"""
import gc
import time

import board_config
import patterns
import protocol as P
from app import App
from fakes import FakeClock, PreloadedStream
from leds import render_into, scale
LO = as_python("leds_viper")  # the same loop as bytecode
from scan import ChainScanner

CHIPS = 24
SECONDS = %(seconds)f


def bench(f, min_n=20):
    # runs f() for about SECONDS; microseconds per call
    n = min_n
    while True:
        t0 = time.ticks_us()
        for _ in range(n):
            f()
        dt = time.ticks_diff(time.ticks_us(), t0)
        if dt > SECONDS * 1e6 or n > 10_000_000:
            return dt / n
        n *= 2


def calibrate():
    def add_test(p):
        for i in range(p[0]):
            C = p[1] + p[2]  # noqa
    t0 = time.ticks_ms()
    add_test([1000000, 12345678, 56781234])
    return time.ticks_diff(time.ticks_ms(), t0)


class Pin:
    value = staticmethod(abs)  # a C function, as machine.Pin.value is on the Pico


class Spi:
    def __init__(self):
        self.data = bytearray(b"\xff" * (CHIPS + 1))

    def readinto(self, buf):
        buf[:] = self.data  # a C copy: on the Pico the SPI peripheral fills the buffer


class Strip:
    def __init__(self):
        self.writes = 0
        import array
        from leds_viper import pack_words
        self.words = array.array("I", [0] * 192)
        self.pack = pack_words

    def ready(self):
        return True

    def write(self, grb):
        self.pack(grb, self.words, 192)  # what PioStrip does before starting the DMA
        self.writes += 1
        return True



cfg = dict(board_config.DEFAULTS)
clock = FakeClock(0)
stream = PreloadedStream(4000)
strip = Strip()
spi = Spi()
app = App(cfg, ChainScanner(spi, Pin(), CHIPS), stream, strip, clock)
for _ in range(50):
    app.step()
    clock.advance(4)
stream.load(P.encode_frame(P.CMD_PING, 0, b"hi"))  # a host is there
app.step()

def scan_step():
    # one loop step that is due to scan (4 ms apart at 250 Hz), host quiet, LEDs steady
    clock.advance(4)
    app.step()

def scan_only():
    app.scanner.scan()
    app.debouncer.step(app.scanner.sample)

def idle_step():
    # a loop step with nothing due (the loop also wakes for input)
    app.step()

ms_add = calibrate()
print("calibration_add_1M_ms", ms_add)
print("scan_step_us", bench(scan_step))
print("scan_debounce_only_us", bench(scan_only))
print("idle_step_us", bench(idle_step))

# An LED frame from the host: CMD_LEDS with 192 colours (about 600 bytes on the wire),
# received byte by byte, then rendered (levels, brightness, cap) and packed for the DMA.
rgb = bytes((i * 7) & 0xFF for i in range(3 * 192))
frame = P.encode_frame(P.CMD_LEDS, 1, P.u16(0) + rgb)
print("led_frame_wire_bytes", len(frame))

def led_frame():
    stream.load(frame)
    app.link.rx_seq = 0
    app.step()  # receives up to 256 bytes per poll call, loops until the frame is in

def led_receive_only():
    stream.load(frame)
    while app.link.poll(0):
        app._handle(0)

def led_render_only():
    render_into(app.rgb, app.pats, app.levels, 192, 96, 1500, app.out)
    strip.write(app.out)

def led_render_python():
    LO.scale(app.rgb, app.pats, app.levels, app.out, 192, 96)

def pattern_tick():
    # an animated pattern changed level: re-render and write
    app.dirty = True
    app._leds(clock.ms())

small = P.encode_frame(P.CMD_LEDS, 1, P.u16(40) + rgb[:12])  # a 4-LED span, as in play

def led_span():
    stream.load(small)
    app.link.rx_seq = 0
    app.step()

print("led_frame_us", bench(led_frame))
print("led_span_us", bench(led_span))
print("led_span_wire_bytes", len(small))
print("led_receive_us", bench(led_receive_only))
print("led_render_viper_us", bench(led_render_only))
print("led_render_python_us", bench(led_render_python))
print("viper", scale is not LO.scale)
print("strip_writes", strip.writes)
"""


def run_probe(seconds: float) -> dict[str, str]:
    exe = Path(sys.executable).with_name("micropython")
    p = subprocess.run(
        [str(exe), "-c", AS_PYTHON + SCRIPT % {"seconds": seconds}],
        cwd=FIRMWARE,
        capture_output=True,
        text=True,
        check=False,
    )
    if p.returncode:
        raise SystemExit(p.stdout + p.stderr)
    return dict(line.split(None, 1) for line in p.stdout.splitlines())


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    args = ap.parse_args()
    r = run_probe(args.seconds)
    ratio = PICO_ADD_1M_MS / float(r["calibration_add_1M_ms"])
    print("MicroPython unix port, 24 chips (192 switches), 192 LEDs")
    print(
        f"calibration: 1M integer additions {float(r['calibration_add_1M_ms']):.0f} ms here, "
        f"{PICO_ADD_1M_MS} ms on an RP2040 @ 125 MHz: Pico = {ratio:.1f} x unix port"
    )
    rows = [
        ("scan step (scan, debounce, link poll, LEDs, watchdog)", "scan_step_us"),
        ("  of which scan + debounce", "scan_debounce_only_us"),
        ("idle step (nothing due)", "idle_step_us"),
        (
            f"LED frame, 192 LEDs ({r['led_frame_wire_bytes']} bytes): receive + render + pack",
            "led_frame_us",
        ),
        ("  of which receive (bytes into frames, colours stored)", "led_receive_us"),
        ("  of which render + pack (viper)", "led_render_viper_us"),
        ("render in plain Python (for comparison)", "led_render_python_us"),
        (
            f"LED span of 4 LEDs ({r['led_span_wire_bytes']} bytes): receive + render + pack",
            "led_span_us",
        ),
    ]
    print(f"{'':58} {'unix us':>9} {'Pico ms (est.)':>15}")
    for label, key in rows:
        us = float(r[key])
        print(f"{label:58} {us:9.1f} {us * ratio / 1000:15.2f}")
    scan_ms = float(r["scan_step_us"]) * ratio / 1000
    led_ms = float(r["led_frame_us"]) * ratio / 1000
    busy = 250 * scan_ms + 20 * led_ms
    print(
        f"at 250 scans/s and 20 LED frames/s: about {busy / 10:.0f}% of the Pico's CPU "
        f"(+ 250 x 0.2 ms SPI bus time = 5%)"
    )
    print(f"viper loaded: {r['viper'].strip()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
