"""The Pi-direct scanner's scans a second on this machine, and what to expect on a Pi.

    .venv/bin/python bench/bench_scanner_gpio.py [--chips 24] [--seconds 1.0] [--spi-hz N]

Four figures, each a full scan (latch, read, signature and tail check, debounce over every
bit) of ``--chips`` switch chips plus the signature chip and one tail byte:

1. bit-banged through the mock pin factory and the bit-level 74HC165 model;
2. SPI through the fake spidev and the same model;
3. and 4. the driver's own CPU per scan, with pins and an SPI bus that cost nothing
   (a replayed buffer), so the model's simulation is left out.

The mock figures measure the Python around the hardware, not the hardware: the model
simulates every clock edge in Python. The Pi estimate adds what the real parts cost (the
wire time at the SPI clock, the spidev ioctl, each GPIO call through rpi-lgpio) to the
driver's CPU scaled to a Pi's CPU; the assumptions are printed with it.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from keezbord.host.drivers.fakes import FakeSpiDev, Hc165Chain
from keezbord.host.drivers.pins import InputPin, MockPinFactory, OutputPin
from keezbord.host.drivers.scanner_gpio import (
    REFERENCE_SIGNATURE,
    ChainPins,
    ChainReader,
    GpioScanner,
    SpiChainReader,
    signature_bits,
)

PINS = ChainPins(17, 27, 22)
SIG = REFERENCE_SIGNATURE

# Assumptions for the Pi estimate (see the report in docs/drivers.md).
# rpi-lgpio is pure Python over lgpio: an output/input/output sequence measured 120-250 us
# on a Pi Zero 2W (rpi-lgpio issue #2), 40-80 us a call; a Pi 4 runs Python about 2-3x
# faster than a Zero 2W, a Pi 5 about 2x faster again.
GPIO_CALL_US = {"Pi 4": (15.0, 30.0), "Pi 5": (8.0, 15.0)}
SPI_IOCTL_US = {"Pi 4": (25.0, 60.0), "Pi 5": (15.0, 40.0)}  # spidev SPI_IOC_MESSAGE, short
# CPython on the Pi against this machine's core (x86 server core): slower by this factor.
CPU_FACTOR = {"Pi 4": (4.0, 7.0), "Pi 5": (2.0, 3.5)}


def rate(fn: Callable[[], object], seconds: float) -> float:
    """Calls a second of ``fn`` over ``seconds`` (after a short warm-up)."""
    for _ in range(10):
        fn()
    n, t0 = 0, time.perf_counter()
    end = t0 + seconds
    while True:
        for _ in range(20):
            fn()
        n += 20
        now = time.perf_counter()
        if now >= end:
            return n / (now - t0)


def scanner_step(
    scanner: GpioScanner, before: Callable[[], None] | None = None
) -> Callable[[], object]:
    t = itertools.count()

    def step() -> object:
        if before is not None:
            before()
        return scanner.scan(next(t))

    return step


class _Pin:
    """A pin that costs nothing: writes dropped, reads replayed from a list."""

    def __init__(self, levels: list[int] | None = None) -> None:
        self._levels = levels or [0]
        self._i = 0

    def write(self, level: int) -> None:
        pass

    def read(self) -> int:
        v = self._levels[self._i]
        self._i = (self._i + 1) % len(self._levels)
        return v


class _NullFactory:
    def __init__(self, levels: list[int]) -> None:
        self._levels = levels

    def output(self, pin: int, initial: int = 0) -> OutputPin:
        return _Pin()

    def input(self, pin: int, pull_up: bool = True) -> InputPin:
        return _Pin(self._levels)

    def close(self) -> None:
        pass


class _ReplayBus:
    mode = 0
    max_speed_hz = 1_000_000

    def __init__(self, data: list[int]) -> None:
        self._data = data

    def readbytes(self, n: int) -> list[int]:
        return self._data[:n]

    def close(self) -> None:
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chips", type=int, default=24)
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--spi-hz", type=int, default=1_000_000)
    args = ap.parse_args()
    chips, bits = args.chips, args.chips * 8
    total_bits = bits + 8 + 8

    # 1. bit-banged through the mock pins and the chain model
    f = MockPinFactory(clock=lambda: 0)
    Hc165Chain(f, chips, PINS, signature=SIG)
    bb = GpioScanner(ChainReader(f, bits, PINS, signature=SIG), samples=3)
    bb_rate = rate(scanner_step(bb, f.history.clear), args.seconds)

    # 2. SPI through the fake spidev and the chain model
    f2 = MockPinFactory(clock=lambda: 0)
    chain = Hc165Chain(f2, chips, PINS, signature=SIG, spi=True)
    spi = FakeSpiDev(chain, clock=lambda: 0)
    spi.open(0, 0)
    sp = GpioScanner(
        SpiChainReader(spi, f2.output(PINS.load), bits, signature=SIG, hz=args.spi_hz), samples=3
    )

    def clear() -> None:
        f2.history.clear()
        spi.transfers.clear()

    spi_rate = rate(scanner_step(sp, clear), args.seconds)

    # 3. and 4. the drivers alone: every switch open, then the signature, then the tail
    levels = [1] * bits + list(signature_bits(SIG)) + [1] * 8
    bb_cpu = rate(
        scanner_step(GpioScanner(ChainReader(_NullFactory(levels), bits, PINS, signature=SIG))),
        args.seconds,
    )
    data = [0xFF] * chips + [SIG, 0xFF]
    spi_cpu = rate(
        scanner_step(GpioScanner(SpiChainReader(_ReplayBus(data), _Pin(), bits, signature=SIG))),
        args.seconds,
    )

    print(
        f"{chips} switch chips + signature + tail byte = {total_bits} bits a scan, "
        f"debounce over {bits} bits"
    )
    print("through the mock (model included):")
    print(f"  bit-banged (mock pins + 74HC165 model): {bb_rate:8.0f} scans/s")
    print(f"  SPI (fake spidev + 74HC165 model):      {spi_rate:8.0f} scans/s")
    print("the drivers alone (hardware that costs nothing):")
    print(f"  bit-banged: {bb_cpu:8.0f} scans/s = {1e6 / bb_cpu:6.1f} us of CPU a scan")
    print(f"  SPI:        {spi_cpu:8.0f} scans/s = {1e6 / spi_cpu:6.1f} us of CPU a scan")
    wire_us = total_bits / args.spi_hz * 1e6
    print(
        f"expected on a Pi (SPI clock {args.spi_hz / 1e6:g} MHz: {wire_us:.0f} us on the "
        "wire a scan):"
    )
    for pi in ("Pi 4", "Pi 5"):
        lo_f, hi_f = CPU_FACTOR[pi]
        lo_g, hi_g = GPIO_CALL_US[pi]
        lo_i, hi_i = SPI_IOCTL_US[pi]
        spi_best = wire_us + lo_i + 2 * lo_g + 1e6 / spi_cpu * lo_f
        spi_worst = wire_us + hi_i + 2 * hi_g + 1e6 / spi_cpu * hi_f
        calls = 2 + 3 * total_bits
        bb_best = calls * lo_g + 1e6 / bb_cpu * lo_f
        bb_worst = calls * hi_g + 1e6 / bb_cpu * hi_f
        print(
            f"  {pi}: SPI {1e6 / spi_worst:5.0f} to {1e6 / spi_best:5.0f} scans/s "
            f"({spi_best:.0f} to {spi_worst:.0f} us); bit-banged {1e6 / bb_worst:4.0f} to "
            f"{1e6 / bb_best:4.0f} scans/s ({calls} GPIO calls at {lo_g:g} to {hi_g:g} us)"
        )
    print(
        "  assumptions: GPIO call through rpi-lgpio "
        + ", ".join(f"{k} {a:g}-{b:g} us" for k, (a, b) in GPIO_CALL_US.items())
        + "; spidev ioctl "
        + ", ".join(f"{k} {a:g}-{b:g} us" for k, (a, b) in SPI_IOCTL_US.items())
        + "; CPython slower than this machine by "
        + ", ".join(f"{k} {a:g}-{b:g}x" for k, (a, b) in CPU_FACTOR.items())
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
