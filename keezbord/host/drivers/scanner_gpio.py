"""Pi-direct scanning of the 74HC165 chain: through the SPI peripheral (spidev, the
default: one ``readbytes`` a scan) or bit-banged through three GPIOs (the fallback).

Wiring (see docs/drivers.md and ``keezbord board wiring``): /PL (SH/LD, pin 1 of every
chip) on a GPIO (``scanner.load_pin``, GPIO17); CLK (pin 2) on SPI0 SCLK (GPIO11) or, bit
banged, on ``scanner.clock_pin``; chip 0's QH (pin 9) on SPI0 MISO (GPIO9) or
``scanner.data_pin``; CLK INH (pin 15) to GND. Chip k's DS (pin 10) is fed by chip k+1's
QH (pin 9). The chain's far end is tied to 3V3 (tail level 1) and the data line is pulled
DOWN at the Pi, so an open, unplugged or unpowered line reads 0 and can never pass for a
good tail. An optional signature chip (inputs hard-wired to e.g. 0xA5) after the switch
chips also catches a floating link and a wrong chip count.

Bit order (SPI mode 0, MSB first): bit ``i`` is the i-th bit read after the load, chip
``i // 8``, input H first. Reed switches pull their input low (pull-up resistors on the
board), so a 0 reads as ``closed`` unless ``active_low`` is False.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain as _concat
from typing import TYPE_CHECKING, Final, Protocol

from keezbord.hardware.wiring import REFERENCE_SIGNATURE as REFERENCE_SIGNATURE
from keezbord.hardware.wiring import TAIL_LEVEL as TAIL_LEVEL
from keezbord.host.drivers.chain_check import FAULT_TEXT as FAULT_TEXT
from keezbord.host.drivers.chain_check import BrokenChainError as BrokenChainError
from keezbord.host.drivers.chain_check import check_chain as check_chain
from keezbord.host.drivers.chain_check import fault_kind as fault_kind
from keezbord.host.drivers.chain_check import signature_bits as signature_bits
from keezbord.host.drivers.parts import DEFAULT_SPI_HZ, SPI0_PINS, SPI_MAX_HZ, ReadMethod
from keezbord.host.drivers.pins import OutputPin, PinFactory
from keezbord.host.drivers.switches import SwitchChange, WiringLike, hole_events
from keezbord.host.events import HoleEvent

if TYPE_CHECKING:
    from keezbord.host.config import ScannerConfig

SPI_MODE: Final = 0  # CPOL 0, CPHA 0: sample on the rising edge, before the chips shift


@dataclass(frozen=True, slots=True)
class ChainPins:
    load: int = 17
    clock: int = 27
    data: int = 22


DEFAULT_PINS = ChainPins()


class ChainSource(Protocol):
    """What the scanner needs of a chain reader."""

    @property
    def bits(self) -> int: ...

    def read(self) -> tuple[int, ...]: ...


class ChainReader:
    """Bit-banged: reads ``bits`` raw levels, the signature (if any) and ``tail_bits``
    check bits through three GPIOs. The fallback when SPI is not available."""

    def __init__(
        self,
        factory: PinFactory,
        bits: int,
        pins: ChainPins = DEFAULT_PINS,
        tail_bits: int = 8,
        tail_level: int = TAIL_LEVEL,
        signature: int | None = None,
    ) -> None:
        if bits <= 0:
            raise ValueError("the chain needs at least one bit")
        if signature is not None:
            signature_bits(signature)
        self.bits, self.tail_bits, self.tail_level = bits, tail_bits, tail_level
        self.signature = signature
        self._total = bits + (8 if signature is not None else 0) + tail_bits
        self._pl = factory.output(pins.load, initial=1)
        self._cp = factory.output(pins.clock, initial=0)
        # The pull is the opposite of the tail level: an open line must fail the check.
        self._q7 = factory.input(pins.data, pull_up=not tail_level)

    def read(self) -> tuple[int, ...]:
        """One load and shift-out; raises BrokenChainError if the check bits are wrong."""
        pl, cp, q7 = self._pl, self._cp, self._q7
        # /PL low copies the parallel inputs into the registers; QH then shows H of chip 0.
        pl.write(0)
        pl.write(1)
        levels = []
        for _ in range(self._total):
            levels.append(q7.read())
            cp.write(1)  # shifts on the rising edge
            cp.write(0)
        return check_chain(levels, self.bits, self.signature, self.tail_level)


class SpiBus(Protocol):
    """The part of ``spidev.SpiDev`` the reader uses (a fake stands in for tests)."""

    mode: int
    max_speed_hz: int

    def readbytes(self, n: int) -> list[int]: ...

    def close(self) -> None: ...


# One byte to its eight levels, MSB (the first bit on the wire) first.
_BYTE_BITS: Final = tuple(tuple(b >> (7 - k) & 1 for k in range(8)) for b in range(256))


class SpiChainReader:
    """Reads the chain with the SPI peripheral: /PL pulsed on a GPIO, then one
    ``readbytes`` of every chip, the signature byte and the tail bytes (mode 0, MSB
    first: the first bit is H of chip 0, sampled before the first rising edge shifts)."""

    def __init__(
        self,
        spi: SpiBus,
        latch: OutputPin,
        bits: int,
        tail_bytes: int = 1,
        tail_level: int = TAIL_LEVEL,
        signature: int | None = None,
        hz: int = DEFAULT_SPI_HZ,
    ) -> None:
        if bits <= 0 or bits % 8:
            raise ValueError(f"SPI reads whole chips: {bits} bits is not a multiple of 8")
        if tail_bytes < 1:
            raise ValueError("the chain needs at least one tail byte")
        if not 10_000 <= hz <= SPI_MAX_HZ:
            raise ValueError(
                f"SPI clock must be 10 kHz to {SPI_MAX_HZ // 1_000_000} MHz, not {hz} Hz"
            )
        if signature is not None:
            signature_bits(signature)
        self.bits, self.tail_level, self.signature = bits, tail_level, signature
        self.spi, self._latch = spi, latch
        self._n = bits // 8 + (1 if signature is not None else 0) + tail_bytes
        spi.mode = SPI_MODE
        spi.max_speed_hz = hz
        latch.write(1)

    def read(self) -> tuple[int, ...]:
        latch = self._latch
        latch.write(0)  # asynchronous parallel load
        latch.write(1)  # shift mode before the first clock edge
        data = self.spi.readbytes(self._n)
        levels = tuple(_concat.from_iterable(_BYTE_BITS[b] for b in data))
        return check_chain(levels, self.bits, self.signature, self.tail_level)

    def close(self) -> None:
        self.spi.close()


def open_spidev(bus: int = 0, device: int = 0) -> SpiBus:
    """``/dev/spidev<bus>.<device>`` through the spidev package (the pi4/pi5 extras).
    CE0 (GPIO8) is driven by the kernel during a transfer; leave it unconnected.
    Raises RuntimeError with what to do when SPI is not set up."""
    path = f"/dev/spidev{bus}.{device}"
    try:
        import spidev
    except ImportError:
        from keezbord.host.extras import pi_install

        raise RuntimeError(
            f"the spidev package is missing: {pi_install('pi4')} (or [pi5] on a Pi 5)"
        ) from None
    spi = spidev.SpiDev()
    try:
        spi.open(bus, device)
    except FileNotFoundError:
        raise RuntimeError(
            f"{path} does not exist: add dtparam=spi=on to "
            "/boot/firmware/config.txt and reboot, or set scanner.method = "
            '"bitbang"'
        ) from None
    except PermissionError:
        raise RuntimeError(
            f"{path}: permission denied: add the user to the spi group "
            "(sudo usermod -aG spi,gpio $USER) and log in again"
        ) from None
    except OSError as e:  # e.g. EBUSY: another driver holds SPI0
        raise RuntimeError(f"{path}: cannot open: {e.strerror or e}") from None
    bus_: SpiBus = spi
    return bus_


def open_chain(
    factory: PinFactory,
    bits: int,
    *,
    method: ReadMethod = "spi",
    pins: ChainPins = DEFAULT_PINS,
    signature: int | None = None,
    spi_hz: int = DEFAULT_SPI_HZ,
    spi: Callable[[], SpiBus] = open_spidev,
) -> ChainReader | SpiChainReader:
    """The configured reader: ``spi`` (SCLK GPIO11, MISO GPIO9, /PL on ``pins.load``) or
    ``bitbang`` (all three on ``pins``)."""
    if method == "bitbang":
        return ChainReader(factory, bits, pins, signature=signature)
    if method != "spi":
        raise ValueError(f"unknown chain read method {method!r} (spi or bitbang)")
    if pins.load in SPI0_PINS.values():
        raise ValueError(f"GPIO{pins.load} belongs to SPI0; put /PL on another GPIO")
    bus = spi()
    try:
        latch = factory.output(pins.load, initial=1)
    except BaseException:
        bus.close()
        raise
    try:
        return SpiChainReader(bus, latch, bits, signature=signature, hz=spi_hz)
    except OSError as e:
        # The kernel refused the mode or the clock: say so in one line (the commands
        # turn RuntimeError into a usage error), not as a traceback.
        bus.close()
        raise RuntimeError(
            f"SPI0 refused mode {SPI_MODE} at {spi_hz} Hz: {e.strerror or e}"
        ) from None
    except BaseException:
        bus.close()
        raise


class Debouncer:
    """A bit changes only after ``samples`` consecutive reads agree on its new level.

    The first read sets the baseline and reports nothing.
    """

    def __init__(self, bits: int, samples: int = 3) -> None:
        if samples < 1:
            raise ValueError("debounce needs at least one sample")
        self.samples = samples
        self._stable: list[int] | None = None
        self._stable_t: tuple[int, ...] = ()
        self._count = [0] * bits
        self._counting = 0  # bits with a count above zero

    @property
    def stable(self) -> tuple[int, ...] | None:
        return None if self._stable is None else self._stable_t

    def feed(self, levels: Sequence[int]) -> list[tuple[int, int]]:
        """(index, new level) for every bit whose level just became stable."""
        if self._stable is None:
            self._stable = list(levels)
            self._stable_t = tuple(levels)
            return []
        if not self._counting and tuple(levels) == self._stable_t:
            return []  # the usual case: nothing moved (a scan at 500 Hz must be cheap)
        changed: list[tuple[int, int]] = []
        stable, count = self._stable, self._count
        counting = 0
        for i, level in enumerate(levels):
            if level == stable[i]:
                count[i] = 0
                continue
            count[i] += 1
            if count[i] >= self.samples:
                stable[i] = level
                count[i] = 0
                changed.append((i, level))
            else:
                counting += 1
        self._counting = counting
        if changed:
            self._stable_t = tuple(stable)
        return changed


class GpioScanner:
    """Scans the chain, debounces it and reports switch changes (and hole events)."""

    def __init__(
        self,
        reader: ChainSource,
        wiring: WiringLike | None = None,
        samples: int = 3,
        active_low: bool = True,
    ) -> None:
        self.reader, self.wiring = reader, wiring
        self.active_low = active_low
        self._debounce = Debouncer(reader.bits, samples)
        self.broken_reads = 0
        self.faults: dict[str, int] = {}  # broken reads by kind (FAULT_TEXT)

    def _closed(self, level: int) -> bool:
        return level == 0 if self.active_low else level == 1

    def scan(self, now: int) -> list[SwitchChange]:
        """One scan at ``now`` ms. A broken read raises and leaves the state untouched."""
        try:
            levels = self.reader.read()
        except BrokenChainError as e:
            self.broken_reads += 1
            self.faults[e.kind] = self.faults.get(e.kind, 0) + 1
            raise
        return [SwitchChange(now, i, self._closed(lv)) for i, lv in self._debounce.feed(levels)]

    def closed_switches(self) -> frozenset[int]:
        """Switches closed in the debounced state (empty before the first scan)."""
        stable = self._debounce.stable or ()
        return frozenset(i for i, lv in enumerate(stable) if self._closed(lv))

    def closed_holes(self) -> frozenset[str]:
        if self.wiring is None:
            raise ValueError("closed_holes needs a wiring")
        w = self.wiring
        return frozenset(h for i in self.closed_switches() if (h := w.hole_at_switch(i)))

    def hole_events(self, now: int) -> list[HoleEvent]:
        if self.wiring is None:
            raise ValueError("hole_events needs a wiring")
        return hole_events(self.scan(now), self.wiring)


def scanner_from_config(
    scanner: ScannerConfig,
    wiring: WiringLike,
    factory: PinFactory,
    spi: Callable[[], SpiBus] = open_spidev,
) -> GpioScanner:
    """A GpioScanner for the board's ``[scanner]`` settings (one place for the run mode
    and the selftest)."""
    reader = open_chain(
        factory,
        len(wiring.switch_order),
        method=scanner.method,
        pins=ChainPins(scanner.load_pin, scanner.clock_pin, scanner.data_pin),
        signature=scanner.signature,
        spi_hz=scanner.spi_hz,
        spi=spi,
    )
    return GpioScanner(reader, wiring, scanner.debounce)
