"""A WS2812 strip on a Pi's SPI MOSI, at the level where it fails (for strip_spi.py's
tests): spidev's behaviour and the LEDs' timing, not our encoder's idea of them.

``FakeSpiBus`` is py-spidev as the Pi 4's auxiliary SPI (SPI1) drives it: the clock is
the core clock divided as spi-bcm2835aux does (``core / (2 * (ceil(core / 2f) - 1 + 1))``,
so 6.4 MHz asked is 6.25 MHz at 500 MHz), computed from the core clock at set-up; if the
core clock changes under the transfer (no ``core_freq_min=500``), the bytes run at the
new rate. ``writebytes2`` splits what exceeds ``bufsiz`` into separate transfers, as
py-spidev does, with an idle gap between them.

``decode`` reads a transfer as a WS2812B-V5 does (Worldsemi datasheet): a high of
220-380 ns is a 0, 580-1000 ns a 1, anything else is no bit at all; a low of at least
280 us latches the frame; a low inside the data must be 580 ns to 5 us (longer stalls
the chain's reshaping). Pixels come out in the strip's own order, GRB.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from keezbord.host.drivers.leds import RGB

T0H_NS = (220.0, 380.0)
T1H_NS = (580.0, 1000.0)
TLOW_NS = (580.0, 5000.0)
RESET_NS = 280_000.0
GAP_NS = 20_000.0  # between two transfers of one writebytes2 (an ioctl each)


class Ws2812Error(ValueError):
    """What the strip would do wrong with this stream (no bit, a latch mid-frame)."""


def aux_spi_hz(core_hz: float, asked_hz: int) -> float:
    """spi-bcm2835aux's clock for ``asked_hz`` on a core clock of ``core_hz``."""
    speed = max(0, min(4095, math.ceil(core_hz / (2 * asked_hz)) - 1))
    return core_hz / (2 * (speed + 1))


@dataclass
class Transfer:
    data: bytes
    hz: float  # the clock the bytes really ran at
    gap_before_ns: float


@dataclass
class FakeSpiBus:
    core_hz: float = 500e6  # the core clock when the transfer is set up
    core_hz_running: float | None = None  # ... and while it runs (None: the same)
    bufsiz: int = 4096
    max_speed_hz: int = 500_000
    mode: int = 0
    transfers: list[Transfer] = field(default_factory=list)
    closed: bool = False

    def writebytes2(self, data: bytes) -> None:
        hz = aux_spi_hz(self.core_hz, self.max_speed_hz)
        if self.core_hz_running is not None:
            hz *= self.core_hz_running / self.core_hz
        for k in range(0, len(data), self.bufsiz):
            gap = RESET_NS * 10 if k == 0 else GAP_NS
            self.transfers.append(Transfer(bytes(data[k : k + self.bufsiz]), hz, gap))

    def close(self) -> None:
        self.closed = True

    def frames(self) -> list[list[RGB]]:
        """What the strip latched, frame by frame, from every transfer so far."""
        return decode(self.transfers)


def _runs(transfers: list[Transfer]) -> list[tuple[int, float]]:
    """The line as (level, ns) runs: the bytes MSB first, the gaps low."""
    runs: list[tuple[int, float]] = []

    def add(level: int, ns: float) -> None:
        if runs and runs[-1][0] == level:
            runs[-1] = (level, runs[-1][1] + ns)
        else:
            runs.append((level, ns))

    for t in transfers:
        add(0, t.gap_before_ns)
        bit_ns = 1e9 / t.hz
        for byte in t.data:
            for k in range(7, -1, -1):
                add(byte >> k & 1, bit_ns)
    add(0, RESET_NS * 10)  # the idle line after the last transfer
    return runs


def decode(transfers: list[Transfer]) -> list[list[RGB]]:
    frames: list[list[RGB]] = []
    bits: list[int] = []
    runs = _runs(transfers)
    for i, (level, ns) in enumerate(runs):
        if level == 1:
            if T0H_NS[0] <= ns <= T0H_NS[1]:
                bits.append(0)
            elif T1H_NS[0] <= ns <= T1H_NS[1]:
                bits.append(1)
            else:
                raise Ws2812Error(f"a high of {ns:.0f} ns is neither a 0 nor a 1")
            continue
        if ns >= RESET_NS:
            if bits:
                if len(bits) % 24:
                    raise Ws2812Error(f"latched {len(bits)} bits: not whole pixels")
                frames.append(_pixels(bits))
            bits = []
        elif bits and not TLOW_NS[0] <= ns <= TLOW_NS[1] and i + 1 < len(runs):
            raise Ws2812Error(f"a low of {ns:.0f} ns inside the frame")
    return frames


def _pixels(bits: list[int]) -> list[RGB]:
    out = []
    for p in range(0, len(bits), 24):
        g, r, b = (int("".join(map(str, bits[p + 8 * c : p + 8 * c + 8])), 2) for c in range(3))
        out.append((r, g, b))
    return out
