"""Fakes for the hardware that must be faked: a 74HC165 chain simulated bit by bit behind
the mock pin factory or a fake spidev, a NeoPixel strip that records frames. (The RFID
fakes live beside their parsers in rfid_fakes.py: they answer over a pseudo-terminal.)

Each fake records what was asked of it, with a timestamp, so tests assert on history.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from keezbord.host.drivers.pins import MockPinFactory
from keezbord.host.drivers.scanner_gpio import DEFAULT_PINS, TAIL_LEVEL, ChainPins

RGB = tuple[int, int, int]


Level = int | None  # None: nothing drives the line (it floats)


class Hc165Chain:
    """A chain of 74HC165s simulated bit by bit from the /PL and CLK edges, as the real
    parts behave: /PL low loads every chip asynchronously (QH then shows input H of chip
    0 and the clock is ignored); each rising CLK edge with /PL high shifts every chip at
    once, chip k taking chip k+1's QH into its first stage (chip k's DS, pin 10, is fed
    by chip k+1's QH, pin 9); the last chip's DS is tied to ``tail_level``.

    ``chips`` switch chips, then (if ``signature`` is set) one chip with its inputs
    hard-wired to that byte. ``inputs[i]`` is the level on the input that leaves the
    chain as bit ``i`` (chip i // 8, input H first): 1 open (the pull-up), 0 a magnet.

    Faults, each as the real board would show it, never as a kind 0xFF:
    ``data_connected`` False: the cable to the reader is open (QH undriven, the reader's
    pad reads its pull); ``powered`` False: no chip drives anything; ``missing`` chips:
    an empty socket (its QH undriven, the DS it fed floats); ``cut_after`` k: chip k's DS
    is not connected (a broken link between pieces); a None input or DS floats and reads
    what ``float_level`` says (a seeded coin by default: a CMOS input left open reads
    anything). ``broken_from`` n: the data line to the reader opens after n shifts.

    With ``factory`` the chain listens to the bit-banged pins (``pins``); for SPI, wire
    /PL with ``attach_latch`` and clock it with ``FakeSpiDev``.
    """

    def __init__(
        self,
        factory: MockPinFactory | None,
        chips: int,
        pins: ChainPins = DEFAULT_PINS,
        *,
        signature: int | None = None,
        tail_level: Level = TAIL_LEVEL,
        float_level: Callable[[], int] | None = None,
        spi: bool = False,
    ) -> None:
        self.chips = chips
        self.bits = chips * 8
        self.inputs: list[Level] = [1] * self.bits
        self.signature = signature
        self.tail_level = tail_level
        # A CMOS input left open reads anything: a seeded coin by default.
        self.float_level = float_level or partial(random.Random(165).getrandbits, 1)
        self.data_connected = True
        self.powered = True
        self.missing: set[int] = set()
        self.cut_after: int | None = None
        self.broken_from: int | None = None
        # Every chip's eight stages in one integer, chip 0 in the top byte; within a chip's
        # byte bit 0 is stage A and bit 7 stage H (its QH). One left shift is one clock
        # edge for the whole chain: chip k's stage A takes chip k+1's QH by itself; the
        # far end, and any DS that floats, are set after the shift.
        self._n = chips + (1 if signature is not None else 0)
        self._mask = (1 << 8 * self._n) - 1
        self._reg = self._mask
        self._pl = 1
        self._cp = 0
        self._shifts = 0
        self.loads = 0
        self.edges = 0
        if factory is not None:
            self.attach_latch(factory, pins.load)
            if not spi:
                factory.on_write(pins.clock, self.clock)
                factory.source(pins.data, self.qh)

    def attach_latch(self, factory: MockPinFactory, pin: int) -> None:
        factory.on_write(pin, self.latch)

    def close_switch(self, i: int, closed: bool = True) -> None:
        self.inputs[i] = 0 if closed else 1

    # the chips
    def _parallel(self, k: int) -> list[Level]:
        """Chip k's inputs A..H."""
        if self.signature is not None and k == self.chips:
            return [self.signature >> j & 1 for j in range(8)]
        bits = self.inputs[k * 8 : k * 8 + 8]  # H first
        return list(reversed(bits))

    def _resolve(self, level: Level) -> int:
        return self.float_level() if level is None else level

    def _drives(self, k: int) -> bool:
        return self.powered and k not in self.missing

    def _load(self) -> None:
        reg = 0
        for k in range(self._n):
            for j, v in enumerate(self._parallel(k)):
                reg |= self._resolve(v) << (8 * (self._n - 1 - k) + j)
        self._reg = reg
        self._shifts = 0
        self.loads += 1

    def _floating_ds(self) -> list[int]:
        """The chips whose DS nothing drives: a loose link, or a missing next chip."""
        return [k for k in range(self._n - 1) if self.cut_after == k or (k + 1) in self.missing]

    def latch(self, level: int) -> None:
        if level == 0:
            self._load()
        self._pl = level

    def clock(self, level: int) -> None:
        rising = level == 1 and self._cp == 0
        self._cp = level
        if not rising:
            return
        self.edges += 1
        if self._pl == 0 or not self.powered:
            return  # /PL low overrides the clock
        far = self.tail_level if self.cut_after != self._n - 1 else None
        reg = (self._reg << 1 & self._mask) | self._resolve(far)
        if self.cut_after is not None or self.missing:
            for k in self._floating_ds():
                a = 1 << 8 * (self._n - 1 - k)  # chip k's stage A
                reg = (reg & ~a) | (a if self.float_level() else 0)
        self._reg = reg
        self._shifts += 1

    def qh(self) -> Level:
        """The level chip 0 puts on the data line, or None if nothing drives it."""
        if not self.data_connected or not self._drives(0):
            return None
        if self.broken_from is not None and self._shifts >= self.broken_from:
            return None
        if self._pl == 0:
            self._load()  # asynchronous: the inputs show through while /PL is low
        return self._reg >> (8 * self._n - 1)


FakeShiftChain = Hc165Chain  # the name the older tests use


@dataclass(frozen=True, slots=True)
class SpiTransfer:
    t: int
    n: int
    mode: int
    hz: int


class FakeSpiDev:
    """Stands in for ``spidev.SpiDev`` wired to a 74HC165 chain (SCLK to every CLK, MISO
    to chip 0's QH), at the level where the real part fails:

    - the mode: each bit's clock edges are applied to the chain in the order the mode
      puts them (CPOL: idle level; CPHA 0 samples on the leading edge, 1 on the
      trailing), and MISO is sampled just before an edge that also shifts the chips,
      as their propagation delay allows; mode 1 therefore loses input H of chip 0;
    - MSB first only (the Pi's SPI controller refuses ``lsbfirst``, like the kernel);
    - open first: ``readbytes`` and setting ``mode`` or ``max_speed_hz`` on a closed
      device fail (EBADF), as py-spidev's ioctl on fd -1 does; at most 4096 bytes
      a read (spidev's bufsiz);
    - a clock above ``chain_max_hz`` (the chips over a board's wiring) reads garbage;
    - an undriven MISO reads ``miso_pull`` (the pad's pull: down on the reference board).
    """

    BUFSIZ = 4096

    def __init__(
        self,
        chain: Hc165Chain,
        miso_pull: int = 0,
        clock: Callable[[], int] = time.monotonic_ns,
        chain_max_hz: int = 10_000_000,
    ) -> None:
        self.chain = chain
        self.miso_pull = miso_pull
        self.chain_max_hz = chain_max_hz
        self._clock = clock
        self._mode = 0
        self._hz = 125_000_000  # the driver's default: far too fast for the chain
        self.bits_per_word = 8
        self.opened: tuple[int, int] | None = None
        self.transfers: list[SpiTransfer] = []
        self._noise = random.Random(1)

    def open(self, bus: int, device: int) -> None:
        self.opened = (bus, device)

    def close(self) -> None:
        self.opened = None

    def _ioctl(self) -> None:
        # py-spidev sets mode and speed by an ioctl on its file: before open() that is
        # fd -1, and the ioctl fails (EBADF) rather than remembering the value.
        if self.opened is None:
            raise OSError(9, "Bad file descriptor")

    @property
    def mode(self) -> int:
        return self._mode

    @mode.setter
    def mode(self, mode: int) -> None:
        if mode not in (0, 1, 2, 3):
            raise OSError(22, "Invalid argument")
        self._ioctl()
        self._mode = mode
        self.chain.clock(mode >> 1)  # SCLK moves to its new idle level (an edge!)

    @property
    def max_speed_hz(self) -> int:
        return self._hz

    @max_speed_hz.setter
    def max_speed_hz(self, hz: int) -> None:
        if hz != self._hz:
            self._ioctl()
        self._hz = hz

    @property
    def lsbfirst(self) -> bool:
        return False

    @lsbfirst.setter
    def lsbfirst(self, value: bool) -> None:
        if value:
            raise OSError(22, "Invalid argument")  # spi-bcm2835 has no LSB-first mode

    def _miso(self) -> int:
        v = self.chain.qh()
        return self.miso_pull if v is None else v

    def readbytes(self, n: int) -> list[int]:
        if self.opened is None:
            raise OSError(9, "Bad file descriptor")
        if not 0 < n <= self.BUFSIZ:
            raise OSError(90, "Message too long")
        self.transfers.append(SpiTransfer(self._clock(), n, self._mode, self.max_speed_hz))
        if self.max_speed_hz > self.chain_max_hz:
            return [self._noise.getrandbits(8) for _ in range(n)]
        cpol, cpha = self._mode >> 1, self._mode & 1
        idle, active = cpol, 1 - cpol
        c = self.chain
        out = []
        for _ in range(n):
            byte = 0
            for _ in range(8):
                if cpha == 0:  # sample on the leading edge, the data moves on the trailing
                    bit = self._miso()
                    c.clock(active)
                    c.clock(idle)
                else:  # the leading edge moves the data, the trailing samples it
                    c.clock(active)
                    bit = self._miso()
                    c.clock(idle)
                byte = byte << 1 | bit
            out.append(byte)
        return out

    def xfer2(self, data: Sequence[int]) -> list[int]:
        return self.readbytes(len(data))


@dataclass(frozen=True, slots=True)
class StripFrame:
    t: int
    pixels: tuple[RGB, ...]


class Segfault(BaseException):
    """What rpi_ws281x does on a write through a half-built strip: the process dies.
    A BaseException, so no ``except Exception`` in the code under test can hide it."""


class FakeWs281x:
    """Blinka's PWM NeoPixel backend on a Pi 4 (adafruit_blinka/microcontroller/bcm283x/
    neopixel.py) as it fails: one module-global strip. A write from a new strip buffer
    makes that global and initialises it; an init that fails (``init_errors`` more to
    come; -5 without root) raises and leaves the global half-built, so the next write
    from the same buffer goes through a NULL buffer: ``Segfault``. ``forget()`` is
    strip_neopixel.forget_failed_init (the global cleared)."""

    def __init__(self, init_errors: int = 0) -> None:
        self.init_errors = init_errors
        self.state: str | None = None  # None | "half" | "ready"
        self._buf: int | None = None
        self.inits = 0
        self.writes = 0

    def write(self, buf: int) -> None:
        if self.state is None or buf != self._buf:
            self.state, self._buf = "half", buf
            self.inits += 1
            if self.init_errors:
                self.init_errors -= 1
                raise RuntimeError("NeoPixel support requires running with sudo, please try again!")
            self.state = "ready"
        if self.state != "ready":
            raise Segfault("ws2811_render through a half-built strip (NULL buffer)")
        self.writes += 1

    def forget(self) -> None:
        self.state, self._buf = None, None


class FakePixels:
    """Stands in for ``neopixel.NeoPixel`` (auto_write off): item assignment and show();
    with a ``backend`` every show() goes through it as through Blinka's."""

    def __init__(
        self,
        n: int,
        clock: Callable[[], int] = time.monotonic_ns,
        backend: FakeWs281x | None = None,
    ) -> None:
        self.n = n
        self._buf: list[RGB] = [(0, 0, 0)] * n
        self._clock = clock
        self.backend = backend
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
        self._buf[:] = [rgb] * self.n  # in place: the strip keeps its one buffer

    def show(self) -> None:
        if self.backend is not None:
            self.backend.write(id(self._buf))
        self.frames.append(StripFrame(self._clock(), tuple(self._buf)))

    def deinit(self) -> None:
        if self.backend is not None:  # Blinka's deinit blanks the strip: a write
            self.backend.write(id(self._buf))
        self.deinited = True


def lit(frame: Sequence[RGB]) -> list[int]:
    """Indices of the pixels that are not dark (a test helper)."""
    return [i for i, p in enumerate(frame) if any(p)]
