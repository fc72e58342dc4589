"""Cost of one scan-and-debounce pass for a 192-hole board (24 chips) under the
MicroPython unix port, as an indicator for the Pico (which is roughly 30-100x slower
than a PC core running the same bytecode).

    .venv/bin/python bench/bench_firmware_scan.py [--passes N]

The SPI transfer itself is hardware on the Pico (25 bytes at 1 MHz: about 0.2 ms of
bus time, not CPU); here a fake SPI copies prepared bytes so only the firmware's own
Python work is measured.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"

SCRIPT = r"""
import time
from scan import ChainScanner
from debounce import Debouncer

CHIPS = 24
class Pin:
    def value(self, v=None):
        return 0
class Spi:
    def __init__(self):
        self.data = bytearray(b"\xff" * CHIPS + b"\x00")
    def readinto(self, buf):
        buf[:] = self.data

spi = Spi()
sc = ChainScanner(spi, Pin(), CHIPS)
db = Debouncer(CHIPS, 4)
N = %(passes)d

def run(label, mutate):
    t0 = time.ticks_us()
    events = 0
    for k in range(N):
        mutate(k)
        sc.scan()
        events += len(db.update(sc.sample))
    dt = time.ticks_diff(time.ticks_us(), t0)
    print("%%-34s %%8.1f us/pass  (%%d events)" %% (label, dt / N, events))

def quiet(k):
    pass
def one_pawn(k):
    # a pawn placed and lifted every 8 passes (each change debounced over 4 samples)
    spi.data[5] = 0xff if (k // 8) %% 2 else 0xfe
def all_toggle(k):
    v = 0x00 if (k // 8) %% 2 else 0xff
    for j in range(CHIPS):
        spi.data[j] = v

run("quiet board (nothing moves)", quiet)
run("one switch toggling", one_pawn)
run("all 192 switches toggling", all_toggle)
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--passes", type=int, default=20000)
    args = ap.parse_args()
    exe = Path(sys.executable).with_name("micropython")
    p = subprocess.run([str(exe), "-c", SCRIPT % {"passes": args.passes}], cwd=FIRMWARE,
                       capture_output=True, text=True, check=False)
    if p.returncode:
        print(p.stdout + p.stderr)
        return 1
    print(f"MicroPython unix port, scan + debounce, 24 chips (192 holes), {args.passes} passes")
    print(p.stdout.rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
