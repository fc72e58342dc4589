"""Fakes for the hardware that must be faked: a 74HC165 chain behind the mock pin factory,
a NeoPixel strip that records frames. (The RFID fakes live beside their parsers in
rfid_fakes.py: they answer over a pseudo-terminal.)

Each fake records what was asked of it, with a timestamp, so tests assert on history.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import DEFAULT_PINS, ChainPins

RGB = tuple[int, int, int]


class FakeShiftChain:
    """A chain of ``chips`` 74HC165s, simulated bit by bit from the PL and CP edges.

    ``inputs[i]`` is the level on the parallel input that leaves the chain as bit ``i``
    (pull-up: 1 when open, 0 when a magnet closes the reed switch). ``serial_in`` is the
    level DS of the far chip is tied to. ``broken_from`` simulates a cut data line: from
    that many shifts on, Q7 floats to the Pi's pull-up (1).
    """

    def __init__(
        self,
        factory: MockPinFactory,
        chips: int,
        pins: ChainPins = DEFAULT_PINS,
        serial_in: int = 0,
    ) -> None:
        self.bits = chips * 8
        self.inputs = [1] * self.bits
        self.serial_in = serial_in
        self.broken_from: int | None = None
        self._reg = [1] * self.bits
        self._pl = 1
        self._cp = 0
        self._shifts = 0
        self.loads = 0
        factory.on_write(pins.load, self._on_load)
        factory.on_write(pins.clock, self._on_clock)
        factory.source(pins.data, self._q7)

    def close_switch(self, i: int, closed: bool = True) -> None:
        self.inputs[i] = 0 if closed else 1

    def _on_load(self, level: int) -> None:
        if level == 0:  # asynchronous parallel load while PL is low
            self._reg = list(self.inputs)
            self._shifts = 0
            self.loads += 1
        self._pl = level

    def _on_clock(self, level: int) -> None:
        rising = level == 1 and self._cp == 0
        self._cp = level
        if rising and self._pl == 1:
            self._reg = [*self._reg[1:], self.serial_in]
            self._shifts += 1

    def _q7(self) -> int:
        if self._pl == 0:
            self._reg = list(self.inputs)
        if self.broken_from is not None and self._shifts >= self.broken_from:
            return 1
        return self._reg[0]


@dataclass(frozen=True, slots=True)
class StripFrame:
    t: int
    pixels: tuple[RGB, ...]


class FakePixels:
    """Stands in for ``neopixel.NeoPixel`` (auto_write off): item assignment and show()."""

    def __init__(self, n: int, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.n = n
        self._buf: list[RGB] = [(0, 0, 0)] * n
        self._clock = clock
        self.frames: list[StripFrame] = []
        self.deinited = False

    def __len__(self) -> int:
        return self.n

    def __setitem__(self, i: int, rgb: RGB) -> None:
        if not 0 <= i < self.n:
            raise IndexError(i)
        self._buf[i] = rgb

    def __getitem__(self, i: int) -> RGB:
        return self._buf[i]

    def fill(self, rgb: RGB) -> None:
        self._buf = [rgb] * self.n

    def show(self) -> None:
        self.frames.append(StripFrame(self._clock(), tuple(self._buf)))

    def deinit(self) -> None:
        self.deinited = True


def lit(frame: Sequence[RGB]) -> list[int]:
    """Indices of the pixels that are not dark (a test helper)."""
    return [i for i, p in enumerate(frame) if any(p)]
